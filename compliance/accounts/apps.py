from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "compliance.accounts"
    label = "accounts"
    verbose_name = "People: sign-in, roles and signatures"

    def ready(self):
        from django.db.models.signals import post_save

        from compliance.accounts import checks, directory  # noqa: F401 (registered: the deploy check, the directory's signals)
        from compliance.accounts.auth import api_tokens_revoke_on_password_change

        post_save.connect(api_tokens_revoke_on_password_change, sender=self.get_model("User"))
