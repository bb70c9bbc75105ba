from django.apps import AppConfig


class FlagsConfig(AppConfig):
    name = "inspections.flags"
    label = "flags"
    verbose_name = "Flags: what is overdue or wrong"

    def ready(self) -> None:
        # The flags sit above the logbook: the logbook sends and shows, the flags listen and add,
        # and the logbook never imports the flags.
        from inspections.flags.selectors import open_flag_count, open_flags_prefetch
        from inspections.flags.services import entry_cures_flags, flags_follow_deadlines
        from inspections.logbook.models import Entry
        from inspections.logbook.selectors import PROPERTY_COUNTS, TABLE_PREFETCHES
        from inspections.logbook.signals import deadlines_moved, entry_recorded

        # The entry that ends a flag's condition cures it in the entry's own transaction.
        entry_recorded.connect(entry_cures_flags, sender=Entry, dispatch_uid="flags_cure")
        # A policy, approval or configuration change moves an open flag's deadline, never closes it.
        deadlines_moved.connect(flags_follow_deadlines, dispatch_uid="flags_follow_deadlines")
        # The floor and a table's page show the table's open flags.
        if open_flags_prefetch not in TABLE_PREFETCHES:
            TABLE_PREFETCHES.append(open_flags_prefetch)
        # A regulator's floor summary counts each property's open flags.
        PROPERTY_COUNTS["open_flag_count"] = open_flag_count
