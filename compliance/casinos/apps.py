from django.apps import AppConfig


class CasinosConfig(AppConfig):
    name = "compliance.casinos"
    label = "casinos"
    verbose_name = "Casinos: properties, tables and equipment"

    def ready(self) -> None:
        # The lowest app above the rulebook installs its translator: every violation's message is then
        # said in the language in use where it is read (a page's, the API's, a mail's recipient's).
        from django.utils.formats import number_format
        from django.utils.translation import gettext

        from compliance.rulebook.violations import translate_with

        # Its numbers with decimals as the language writes them: "0,8125" in Spanish (issue 30).
        translate_with(gettext, numbers=lambda value: number_format(value, use_l10n=True))
