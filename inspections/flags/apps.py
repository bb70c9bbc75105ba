from django.apps import AppConfig


class FlagsConfig(AppConfig):
    name = "inspections.flags"
    label = "flags"
    verbose_name = "Flags: what is overdue or wrong"

    def ready(self) -> None:
        # An entry that moves a missed deadline cures its flag in the entry's own transaction: the
        # logbook sends, the flags listen, and the logbook never imports the flags.
        from inspections.flags.overdue import entry_cures_flags
        from inspections.logbook.models import Entry
        from inspections.logbook.signals import entry_recorded

        entry_recorded.connect(entry_cures_flags, sender=Entry, dispatch_uid="flags_cure")
