"""`manage.py check --deploy`: a password never crosses the network in the clear to the directory."""

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def directory_encrypted(app_configs, **kwargs) -> list[Warning]:
    uri = settings.AUTH_LDAP_SERVER_URI
    if (
        uri
        and any(part.strip().lower().startswith("ldap://") for part in uri.split())
        and not settings.AUTH_LDAP_START_TLS
    ):
        return [
            Warning(
                "The directory is reached over plain ldap:// without StartTLS: every password typed to sign in "
                "or to sign crosses the network in the clear.",
                hint="Use an ldaps:// LDAP_SERVER_URI or set LDAP_START_TLS=true (with LDAP_CA_FILE for the "
                "directory's CA).",
                id="accounts.W001",
            )
        ]
    return []
