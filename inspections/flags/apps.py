from django.apps import AppConfig


class FlagsConfig(AppConfig):
    name = "inspections.flags"
    label = "flags"
    verbose_name = "Flags: what is overdue or wrong"
