"""The casino's directory is an optional install (requirements-directory.txt: python-ldap compiles
against libldap2-dev and libsasl2-dev). Without its libraries the product starts, a person signs in and
signs; with LDAP_SERVER_URI set and the libraries missing, the start names what to install."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.servers import ROOT

# Run first in the child: neither library can be imported, as on a machine that never installed them.
WITHOUT_LDAP = (
    "import sys\n"
    "for name in ('ldap', 'django_auth_ldap', 'django_auth_ldap.backend', 'django_auth_ldap.config'):\n"
    "    sys.modules[name] = None\n"
)

SIGN_IN_AND_SIGN = """
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import setup_test_environment

call_command("check")
setup_test_environment()
connection.creation.create_test_db(verbosity=0)
from compliance.accounts.signatures import SignatureInput, signer_authenticate
from tests.factories import PASSWORD, UserFactory

person = UserFactory(username="local-person")
client = Client()
answer = client.post("/login/", {"username": "local-person", "password": PASSWORD})
assert answer.status_code == 302 and client.session.get("_auth_user_id") == str(person.pk), answer
signature = SignatureInput(username="local-person", password=PASSWORD, request=RequestFactory().post("/"))
signed = signer_authenticate(signature=signature, field="signature", jurisdiction="PA", in_logbook=True)
assert signed == person, signed
assert not any(name.startswith(("ldap", "django_auth_ldap")) and sys.modules[name] for name in sys.modules if sys.modules.get(name))
print("signed in and signed without the directory")
"""


def run_without_ldap(script: str, **env: str) -> subprocess.CompletedProcess:
    # The child's own database, in memory: on PostgreSQL (CI) its test database would be the suite's own
    # test_<name>, which already exists while the suite runs.
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LDAP_", "DJANGO_SETTINGS", "DATABASE_URL"))
    }
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_LDAP + script],
        cwd=ROOT,
        env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": "sqlite:///:memory:", **env},
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def test_the_product_starts_and_a_person_signs_in_and_signs_without_the_directory_libraries():
    result = run_without_ldap(SIGN_IN_AND_SIGN)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "signed in and signed without the directory" in result.stdout


def test_a_directory_configured_without_its_libraries_stops_the_start_naming_what_to_install():
    result = run_without_ldap(
        "import django\ndjango.setup()\n",
        LDAP_SERVER_URI="ldaps://directory.casino.example",
        LDAP_USER_SEARCH_BASE="ou=people,dc=casino,dc=test",
        LDAP_GROUP_SEARCH_BASE="ou=groups,dc=casino,dc=test",
        LDAP_ROLE_GROUPS="security=cn=logbook-security,ou=groups,dc=casino,dc=test",
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "requirements-directory.txt" in result.stderr and "libldap2-dev libsasl2-dev" in result.stderr
