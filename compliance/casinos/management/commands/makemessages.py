"""Django's makemessages, with the rulebook's messages extracted too (compliance.casinos.i18n): the
rulebook calls no gettext, so xgettext is shown them in a module written for the run, then removed."""

from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

from compliance.casinos.i18n import gettext_noop_source


class Command(makemessages.Command):
    def handle(self, *args, **options):
        # Beside the rulebook, so that each message's reference in the catalogue says where it comes from.
        written = Path(settings.BASE_DIR) / "compliance" / "rulebook" / "messages_for_gettext.py"
        written.write_text(gettext_noop_source(), encoding="utf-8")
        try:
            return super().handle(*args, **options)
        finally:
            written.unlink()
