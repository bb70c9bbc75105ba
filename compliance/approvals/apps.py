from django.apps import AppConfig


class ApprovalsConfig(AppConfig):
    name = "compliance.approvals"
    label = "approvals"
    verbose_name = "Approvals: Rules Submissions and layouts"
