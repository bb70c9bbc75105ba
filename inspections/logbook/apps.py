from django.apps import AppConfig


class LogbookConfig(AppConfig):
    name = "inspections.logbook"
    label = "logbook"
    verbose_name = "Logbook (append-only)"

    def ready(self) -> None:
        # The logbook keeps each table's state and deadlines: the configuration's services tell it of
        # a change inside their own transaction, and never import it.
        from compliance.approvals.signals import approval_decided
        from compliance.casinos.signals import property_policy_changed, table_configuring
        from inspections.logbook import checks, deadlines  # noqa: F401 (checks: registers the deploy check)

        table_configuring.connect(deadlines.on_table_configuring, dispatch_uid="logbook_table_state")
        property_policy_changed.connect(deadlines.on_property_policy_changed, dispatch_uid="logbook_policy")
        approval_decided.connect(deadlines.on_approval_decided, dispatch_uid="logbook_approvals")
