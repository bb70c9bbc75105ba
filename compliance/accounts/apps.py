from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "compliance.accounts"
    label = "accounts"
    verbose_name = "People: sign-in, roles and signatures"

    def ready(self):
        from django.db.models.signals import post_save

        from compliance.accounts import checks  # noqa: F401 (registered: the deploy check)
        from compliance.accounts.directory import directory_configured

        if directory_configured():
            # The directory's signals; django-auth-ldap is imported only where a directory is configured.
            from compliance.accounts import directory_backend  # noqa: F401
        from compliance.accounts.auth import api_tokens_revoke_on_password_change

        post_save.connect(api_tokens_revoke_on_password_change, sender=self.get_model("User"))

        # A sign-in's time is written by the people's service, not by Django's own receiver.
        from django.contrib.auth.models import update_last_login
        from django.contrib.auth.signals import user_logged_in

        from compliance.accounts.services import person_signed_in

        user_logged_in.disconnect(update_last_login, dispatch_uid="update_last_login")
        user_logged_in.connect(person_signed_in, dispatch_uid="update_last_login")
