from django.apps import AppConfig


class LogbookConfig(AppConfig):
    name = "inspections.logbook"
    label = "logbook"
    verbose_name = "Logbook (append-only)"

    def ready(self) -> None:
        # The logbook keeps each table's status: every table has one from its first save, and the
        # configuration's and approvals' services tell it of a change inside their own transaction,
        # never importing it (services/status.py).
        from django.db.models.signals import post_save

        from compliance.approvals.signals import approval_decided
        from compliance.casinos.models import GamingTable
        from compliance.casinos.signals import property_policy_changed, table_configured
        from inspections.logbook import checks  # noqa: F401 (registers the deploy check)
        from inspections.logbook.services import status

        post_save.connect(status.table_status_make, sender=GamingTable, dispatch_uid="logbook_table_status")
        table_configured.connect(status.table_configured, dispatch_uid="logbook_table_state")
        property_policy_changed.connect(status.property_policy_changed, dispatch_uid="logbook_policy")
        approval_decided.connect(status.approval_decided, dispatch_uid="logbook_approvals")
