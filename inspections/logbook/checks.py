"""`manage.py check --deploy`: production signs its logbook and its reports."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def signing_configured(app_configs, **kwargs) -> list[Warning]:
    found = []
    if not settings.LOGBOOK_CHECKPOINT_KEYRING:
        found.append(
            Warning(
                "No checkpoint key ring: the logbook's chain is not signed, and a rewritten history can go unseen.",
                hint="Make one with `manage.py checkpoint_key_rotate --keyring PATH` and set LOGBOOK_CHECKPOINT_KEYRING.",
                id="logbook.W001",
            )
        )
    if not settings.LOGBOOK_REPORT_SIGNING_KEY:
        found.append(
            Warning(
                "No report signing key and certificate: PDF reports are not signed.",
                hint="Set LOGBOOK_REPORT_SIGNING_KEY and LOGBOOK_REPORT_SIGNING_CERT (README, Production).",
                id="logbook.W002",
            )
        )
    return found
