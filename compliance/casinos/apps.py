from django.apps import AppConfig


class CasinosConfig(AppConfig):
    name = "compliance.casinos"
    label = "casinos"
    verbose_name = "Casinos: properties, tables and equipment"
