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


@register(Tags.security, deploy=True)
def trusted_proxies_are_addresses(app_configs, **kwargs) -> list[Warning]:
    """Warns of a network in TRUSTED_PROXIES: every entry must be a proxy's own address."""
    # X-Forwarded-For is believed on a connection from any address there (config.network.client_ip): a
    # network that also holds clients (the casino's LAN, a 10.0.0.0/8) lets each of them write the
    # address its failed passwords, lockout and throttles are counted against. A proxy pool whose
    # network holds nothing else may silence this warning by its id.
    wide = [network for network in settings.TRUSTED_PROXIES if network.num_addresses > 1]
    if not wide:
        return []
    return [
        Warning(
            f"TRUSTED_PROXIES holds the network(s) {', '.join(str(network) for network in wide)}: X-Forwarded-For "
            "is believed from every address in them, so a client among them chooses the address its failed "
            "passwords, lockout and throttles are counted against.",
            hint="List your proxies' own addresses (TRUSTED_PROXIES=10.0.0.5,10.0.0.6). If the network holds "
            "nothing but your proxies, add accounts.W002 to SILENCED_SYSTEM_CHECKS.",
            id="accounts.W002",
        )
    ]
