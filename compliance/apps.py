from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    name = "compliance"
    verbose_name = "Compliance: properties, people, tables"

    def ready(self):
        from django.db.models.signals import post_save

        from compliance.auth import api_tokens_revoke_on_password_change

        post_save.connect(api_tokens_revoke_on_password_change, sender=self.get_model("User"))
