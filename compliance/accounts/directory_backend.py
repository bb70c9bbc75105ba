"""The casino's directory (LDAP: OpenLDAP, Active Directory), when LDAP_SERVER_URI is set: people sign
in and sign with their directory name and password (django-auth-ldap), and their role, property and
credential number come from it at each sign-in and each signature (docs/configuration.md, "The casino's
directory").
Imported only when LDAP_SERVER_URI is set (compliance.accounts.directory): django-auth-ldap and
python-ldap come from requirements-directory.txt.

A local account is one with a password of the product's own (a break-glass administrator, the demo):
it signs in with that password (ModelBackend, asked first) and the directory never takes it over. A
directory account has no usable local password: only the directory can sign it in.

Product policy: a person the directory puts in no mapped role group, or whose property staff role has
no mapped property group, is refused (access is lost at the next sign-in or signature); their earlier
entries keep the name and credential number they were signed with (the entries store both).

A directory person's row is written by compliance.accounts.services.person_from_directory: it holds
the transaction and the person's lock while django-auth-ldap creates or updates the row, as the
directory's groups and attributes say (`person_from_directory_fields` below)."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django_auth_ldap.backend import LDAPBackend, _LDAPUser, ldap_error, populate_user

from compliance.accounts.directory import DirectoryUnavailable, directory_configured
from compliance.accounts.models import Role, User
from compliance.accounts.services import person_from_directory
from compliance.casinos.models import Property


class DirectoryBackend(LDAPBackend):
    """django-auth-ldap's backend, asked only when a directory is configured, never for a local account."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if not directory_configured() or username is None:
            return None
        # The person's row is written by django-auth-ldap inside the people's service, which locks it.
        return person_from_directory(
            username=self.ldap_to_django_username(username.strip()),
            sign_in=lambda: super(DirectoryBackend, self).authenticate(
                request, username=username, password=password, **kwargs
            ),
        )

    def get_or_build_user(self, username, ldap_user):
        user, built = super().get_or_build_user(username, ldap_user)
        if not built and user.has_usable_password():
            # A local account of the same name keeps its own password: the directory does not take it over.
            raise _LDAPUser.AuthenticationFailed("a local account of that name exists")
        return user, built

    def user_can_authenticate(self, user) -> bool:
        return user.is_active

    def get_user(self, user_id):
        # A session outlives nobody the product has since made inactive.
        user = super().get_user(user_id)
        return user if user is not None and user.is_active else None


def _mapping(name: str) -> dict[str, str]:
    """A LDAP_*_GROUPS setting: {key: group DN}, in the order given."""
    return dict(getattr(settings, name, {}) or {})


def _first_value(ldap_user, attribute: str) -> str:
    values = (ldap_user.attrs or {}).get(attribute) or []
    return str(values[0]).strip() if values else ""


def person_from_directory_fields(sender, user: User, ldap_user, **kwargs) -> None:
    """Before the person is saved at each directory sign-in or signature: role, property and credential
    number from the directory's groups and attributes; refused (nothing saved) when no mapped group
    gives them a role, or a property for property staff."""
    groups = {dn.lower() for dn in ldap_user.group_dns}
    roles = [role for role, dn in _mapping("LDAP_ROLE_GROUPS").items() if dn.lower() in groups]
    if not roles:
        raise _LDAPUser.AuthenticationFailed("in no mapped role group")
    if roles[0] not in Role.values:
        raise ImproperlyConfigured(
            f"LDAP_ROLE_GROUPS names {roles[0]!r}, which is not a role ({', '.join(Role.values)})"
        )
    user.role = roles[0]
    licences = [licence for licence, dn in _mapping("LDAP_PROPERTY_GROUPS").items() if dn.lower() in groups]
    if user.role in (Role.ADMIN, Role.REGULATOR):
        user.property = None
    else:
        found = Property.objects.filter(licence_number__in=licences).order_by("licence_number").first()
        if found is None:
            raise _LDAPUser.AuthenticationFailed("property staff in no mapped property group")
        user.property = found
    if user.role == Role.REGULATOR and not user.jurisdiction:
        user.jurisdiction = settings.LDAP_REGULATOR_JURISDICTION
    user.full_name = _first_value(ldap_user, getattr(settings, "LDAP_NAME_ATTRIBUTE", "cn")) or user.full_name
    attribute = getattr(settings, "LDAP_CREDENTIAL_ATTRIBUTE", "")
    credential = _first_value(ldap_user, attribute) if attribute else ""
    # Where the casino keeps no credential number in the directory, the product's (an administrator
    # enters the Board's in the admin); a new person has a placeholder until then.
    user.credential_number = credential or user.credential_number or f"DIR-{user.username}"


def directory_error(sender, context, user, request, exception, **kwargs) -> None:
    """django-auth-ldap logs a directory that cannot be asked and answers "wrong password"; here it
    is a refusal of its own, before anything is counted or written."""
    # (A person's own wrong password never comes here: django-auth-ldap answers it as a failure.)
    if context in ("authenticate", "search_for_user_dn"):
        raise DirectoryUnavailable(str(exception)) from exception


populate_user.connect(person_from_directory_fields, sender=DirectoryBackend, dispatch_uid="directory-person")
ldap_error.connect(directory_error, sender=DirectoryBackend, dispatch_uid="directory-error")
