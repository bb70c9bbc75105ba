from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "inspections.reports"
    label = "reports"
    verbose_name = "Audit reports"
