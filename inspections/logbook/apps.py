from django.apps import AppConfig


class LogbookConfig(AppConfig):
    name = "inspections.logbook"
    label = "logbook"
    verbose_name = "Logbook (append-only)"
