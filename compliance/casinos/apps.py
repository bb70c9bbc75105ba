from django.apps import AppConfig


class CasinosConfig(AppConfig):
    name = "compliance.casinos"
    label = "casinos"
    verbose_name = "Casinos: properties, tables and equipment"

    def ready(self) -> None:
        # The lowest app above the rulebook installs its translator: every violation's message is then
        # said in the language in use where it is read (a page's, the API's, a mail's recipient's).
        from django.utils.translation import gettext

        from compliance.rulebook.violations import translate_with

        translate_with(gettext)
