"""Signing in and signing with the casino's directory (compliance.accounts.directory), against a real
OpenLDAP server: Debian's `slapd`, started here on 127.0.0.1 on a free port, in its own temporary
directory with its own slapd.conf, its people and groups loaded with `ldapadd`."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.test import RequestFactory

from compliance.accounts.models import Role, SignatureFailures, User
from compliance.accounts.signatures import SignatureInput
from compliance.rulebook import RuleViolation
from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.factories import PASSWORD, GamingTableFactory, PropertyFactory, UserFactory, configure_for_opening
from tests.support.logbook import ALL_PASS

# The directory is an optional install (requirements-directory.txt): without it, these tests are skipped.
ldap = pytest.importorskip(
    "ldap",
    reason="python-ldap is not installed: apt-get install libldap2-dev libsasl2-dev, then "
    "pip install -r requirements-directory.txt",
)
django_auth_ldap_config = pytest.importorskip(
    "django_auth_ldap.config", reason="django-auth-ldap is not installed: pip install -r requirements-directory.txt"
)
GroupOfNamesType = django_auth_ldap_config.GroupOfNamesType
LDAPSearch = django_auth_ldap_config.LDAPSearch

SLAPD = shutil.which("slapd") or "/usr/sbin/slapd"
LDAPADD = shutil.which("ldapadd")
BASE = "dc=casino,dc=test"
ROOT_DN = f"cn=admin,{BASE}"
ROOT_PASSWORD = "directory root secret"
LICENCE = "PA-DIR-1"
ALICE_PASSWORD = "alice's directory password, long enough"
BOB_PASSWORD = "bob's directory password, long enough"
GROUPS = f"ou=groups,{BASE}"
SECURITY_GROUP = f"cn=logbook-security,{GROUPS}"
FLOOR_GROUP = f"cn=logbook-floor,{GROUPS}"
PROPERTY_GROUP = f"cn=keystone-staff,{GROUPS}"
DIRECTORY_BACKEND = "compliance.accounts.directory_backend.DirectoryBackend"

pytestmark = pytest.mark.skipif(
    not Path(SLAPD).exists() or LDAPADD is None,
    reason="OpenLDAP's slapd and ldap-utils are not installed (apt-get install slapd ldap-utils)",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


SLAPD_CONF = """\
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
pidfile {home}/slapd.pid
argsfile {home}/slapd.args
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
maxsize 10485760
suffix "{base}"
rootdn "{root}"
rootpw "{root_password}"
directory {home}/data
"""

PEOPLE = f"""\
dn: {BASE}
objectClass: dcObject
objectClass: organization
o: Keystone Casino
dc: casino

dn: ou=people,{BASE}
objectClass: organizationalUnit
ou: people

dn: ou=groups,{BASE}
objectClass: organizationalUnit
ou: groups

dn: uid=alice,ou=people,{BASE}
objectClass: inetOrgPerson
uid: alice
cn: Alice Directory
givenName: Alice
sn: Directory
mail: alice@casino.test
employeeNumber: PGCB-0077
userPassword: {ALICE_PASSWORD}

dn: uid=bob,ou=people,{BASE}
objectClass: inetOrgPerson
uid: bob
cn: Bob Floor
sn: Floor
userPassword: {BOB_PASSWORD}

dn: {SECURITY_GROUP}
objectClass: groupOfNames
cn: logbook-security
member: cn=nobody,{BASE}
member: uid=alice,ou=people,{BASE}

dn: {FLOOR_GROUP}
objectClass: groupOfNames
cn: logbook-floor
member: cn=nobody,{BASE}
member: uid=bob,ou=people,{BASE}

dn: {PROPERTY_GROUP}
objectClass: groupOfNames
cn: keystone-staff
member: cn=nobody,{BASE}
member: uid=alice,ou=people,{BASE}
member: uid=bob,ou=people,{BASE}
"""


class Directory:
    """A running slapd: its address, and changes made as its administrator."""

    def __init__(self, home: Path):
        self.home = home
        self.port = _free_port()
        self.uri = f"ldap://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [SLAPD, "-d", "0", "-f", str(self.home / "slapd.conf"), "-h", f"{self.uri}/"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(100):
            if self.process.poll() is not None:
                raise RuntimeError(f"slapd exited: {self.process.stderr.read().decode(errors='replace')}")
            try:
                self.connection().unbind_s()
                return
            except ldap.SERVER_DOWN:
                time.sleep(0.05)
        raise RuntimeError("slapd did not answer within 5 seconds")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def connection(self):
        connection = ldap.initialize(self.uri)
        connection.simple_bind_s(ROOT_DN, ROOT_PASSWORD)
        return connection

    def modify(self, dn: str, changes: list) -> None:
        connection = self.connection()
        try:
            connection.modify_s(dn, changes)
        finally:
            connection.unbind_s()


@pytest.fixture
def directory(tmp_path):
    home = tmp_path / "slapd"
    (home / "data").mkdir(parents=True)
    (home / "slapd.conf").write_text(SLAPD_CONF.format(home=home, base=BASE, root=ROOT_DN, root_password=ROOT_PASSWORD))
    found = Directory(home)
    found.start()
    try:
        subprocess.run(
            [LDAPADD, "-x", "-H", found.uri, "-D", ROOT_DN, "-w", ROOT_PASSWORD],
            input=PEOPLE.encode(),
            check=True,
            capture_output=True,
        )
        yield found
    finally:
        found.stop()


@pytest.fixture
def connected(directory, settings, db):
    """The product configured for the directory, as LDAP_* in the environment would (config/settings.py)."""
    settings.AUTH_LDAP_SERVER_URI = directory.uri
    settings.AUTH_LDAP_START_TLS = False
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, DIRECTORY_BACKEND]
    settings.AUTH_LDAP_BIND_DN = ROOT_DN
    settings.AUTH_LDAP_BIND_PASSWORD = ROOT_PASSWORD
    settings.AUTH_LDAP_USER_SEARCH = LDAPSearch(f"ou=people,{BASE}", ldap.SCOPE_SUBTREE, "(uid=%(user)s)")
    settings.AUTH_LDAP_GROUP_SEARCH = LDAPSearch(GROUPS, ldap.SCOPE_SUBTREE, "(objectClass=groupOfNames)")
    settings.AUTH_LDAP_GROUP_TYPE = GroupOfNamesType()
    settings.AUTH_LDAP_CONNECTION_OPTIONS = {ldap.OPT_NETWORK_TIMEOUT: 2, ldap.OPT_TIMEOUT: 2}
    settings.AUTH_LDAP_USER_ATTR_MAP = {"first_name": "givenName", "last_name": "sn", "email": "mail"}
    settings.LDAP_ROLE_GROUPS = {"security": SECURITY_GROUP, "floorperson": FLOOR_GROUP}
    settings.LDAP_PROPERTY_GROUPS = {LICENCE: PROPERTY_GROUP}
    settings.LDAP_CREDENTIAL_ATTRIBUTE = "employeeNumber"
    prop = PropertyFactory(name="Keystone Casino", licence_number=LICENCE)
    table = GamingTableFactory(property=prop, number="R-01")
    # Someone of the property configures the table; a local account.
    compliance = UserFactory(property=prop, role=Role.COMPLIANCE)
    configure_for_opening(table, created_by=compliance)
    directory.property = prop
    directory.table = table
    return directory


def sign_in(client, username: str, password: str):
    return client.post("/login/", {"username": username, "password": password})


def signed(username: str, password: str) -> SignatureInput:
    return SignatureInput(username=username, password=password, request=RequestFactory().post("/"))


def inspect(connected, username: str, password: str, recorded_by: User) -> Entry:
    return services.inspection_record(
        table_id=connected.table.pk, items=ALL_PASS, signature=signed(username, password), recorded_by=recorded_by
    )


def test_a_person_signs_in_with_their_directory_password_and_has_the_role_property_and_credential_it_gives(
    client, connected
):
    answer = sign_in(client, "alice", ALICE_PASSWORD)
    assert answer.status_code == 302, answer.content.decode()
    alice = User.objects.get(username="alice")
    assert (alice.role, alice.property, alice.credential_number) == (Role.SECURITY, connected.property, "PGCB-0077")
    assert alice.full_name == "Alice Directory"
    # No password of the product's own: only the directory signs this person in.
    assert not alice.has_usable_password()

    client.logout()
    assert sign_in(client, "alice", "not alice's password at all").status_code == 200
    assert AccessAttempt.objects.filter(username="alice").get().failures_since_start == 1


def test_a_signature_is_asked_of_the_directory_at_signing_and_refused_once_it_changed_the_password(client, connected):
    sign_in(client, "bob", BOB_PASSWORD)
    bob = User.objects.get(username="bob")
    assert bob.role == Role.FLOORPERSON
    entry = inspect(connected, "bob", BOB_PASSWORD, bob)
    # No credential number in the directory for bob: the product's own, kept for what he signs.
    assert entry.signatures.get().credential_number == bob.credential_number == "DIR-bob"

    connected.modify(f"uid=bob,ou=people,{BASE}", [(ldap.MOD_REPLACE, "userPassword", [b"a new directory password"])])
    entries = Entry.objects.count()
    with pytest.raises(RuleViolation) as refused:
        inspect(connected, "bob", BOB_PASSWORD, bob)
    assert refused.value.violations[0].code == "signature_invalid"
    assert Entry.objects.count() == entries
    # The new one signs.
    inspect(connected, "bob", "a new directory password", bob)
    assert Entry.objects.count() == entries + 1


def test_a_person_removed_from_every_mapped_group_loses_access_and_keeps_what_they_signed(client, connected):
    sign_in(client, "alice", ALICE_PASSWORD)
    alice = User.objects.get(username="alice")
    entry = inspect(connected, "alice", ALICE_PASSWORD, alice)
    client.logout()

    connected.modify(SECURITY_GROUP, [(ldap.MOD_DELETE, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    assert sign_in(client, "alice", ALICE_PASSWORD).status_code == 200
    with pytest.raises(RuleViolation):
        inspect(connected, "alice", ALICE_PASSWORD, alice)
    signature = entry.signatures.get()
    assert (signature.signer_name, signature.credential_number) == ("Alice Directory", "PGCB-0077")


def test_the_role_follows_the_directory_groups_at_each_sign_in(client, connected):
    sign_in(client, "alice", ALICE_PASSWORD)
    client.logout()
    connected.modify(FLOOR_GROUP, [(ldap.MOD_ADD, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    connected.modify(SECURITY_GROUP, [(ldap.MOD_DELETE, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    sign_in(client, "alice", ALICE_PASSWORD)
    assert User.objects.get(username="alice").role == Role.FLOORPERSON


def test_property_staff_in_no_mapped_property_group_are_refused(client, connected):
    connected.modify(PROPERTY_GROUP, [(ldap.MOD_DELETE, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    assert sign_in(client, "alice", ALICE_PASSWORD).status_code == 200
    assert not User.objects.filter(username="alice").exists()


def test_a_local_account_is_never_taken_over_by_the_directory(client, connected):
    local = UserFactory(username="alice", property=connected.property, credential_number="BC-LOCAL")
    assert sign_in(client, "alice", ALICE_PASSWORD).status_code == 200
    local.refresh_from_db()
    assert local.has_usable_password() and local.credential_number == "BC-LOCAL"
    assert sign_in(client, "alice", PASSWORD).status_code == 302


def test_a_directory_that_is_down_is_a_clear_refusal_nothing_is_written_and_break_glass_still_signs_in(
    client, connected
):
    sign_in(client, "bob", BOB_PASSWORD)
    bob = User.objects.get(username="bob")
    client.logout()
    break_glass = UserFactory(username="breakglass", role=Role.ADMIN, property=None)
    connected.stop()
    entries, people = Entry.objects.count(), User.objects.count()

    refused = sign_in(client, "bob", BOB_PASSWORD)
    assert refused.status_code == 200
    assert "directory cannot be reached" in refused.content.decode()
    assert "more wrong password" not in refused.content.decode()
    with pytest.raises(RuleViolation) as signature_refused:
        inspect(connected, "bob", BOB_PASSWORD, bob)
    assert signature_refused.value.violations[0].code == "signature_directory_unavailable"
    assert "58 Pa. Code § 617a.2(e)" in signature_refused.value.violations[0].citation
    assert (Entry.objects.count(), User.objects.count()) == (entries, people)
    assert not AccessAttempt.objects.exists() and not SignatureFailures.objects.exists()

    assert sign_in(client, break_glass.username, PASSWORD).status_code == 302


def test_a_locked_name_is_refused_without_asking_the_directory(client, connected):
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        sign_in(client, "bob", "a wrong password for bob, long")
    # Were the directory asked, its absence would be the answer; the lock answers first.
    connected.stop()
    answer = sign_in(client, "bob", BOB_PASSWORD)
    assert answer.status_code == 429
    assert "directory" not in answer.content.decode()


def test_check_deploy_warns_of_a_plain_ldap_uri_without_starttls(settings):
    settings.AUTH_LDAP_SERVER_URI = "ldap://directory.casino.example"
    settings.AUTH_LDAP_START_TLS = False
    from compliance.accounts.checks import directory_encrypted

    assert [warning.id for warning in directory_encrypted(None)] == ["accounts.W001"]
    settings.AUTH_LDAP_START_TLS = True
    assert directory_encrypted(None) == []
    settings.AUTH_LDAP_START_TLS = False
    settings.AUTH_LDAP_SERVER_URI = "ldaps://directory.casino.example"
    assert directory_encrypted(None) == []
    settings.AUTH_LDAP_SERVER_URI = ""
    assert directory_encrypted(None) == []


DIRECTORY_ENVIRONMENT = {
    "LDAP_BIND_DN": ROOT_DN,
    "LDAP_BIND_PASSWORD": ROOT_PASSWORD,
    "LDAP_USER_SEARCH_BASE": f"ou=people,{BASE}",
    "LDAP_GROUP_SEARCH_BASE": GROUPS,
    "LDAP_ROLE_GROUPS": f"security={SECURITY_GROUP};floorperson={FLOOR_GROUP}",
    "LDAP_PROPERTY_GROUPS": f"{LICENCE}={PROPERTY_GROUP}",
}


@pytest.mark.parametrize(
    ("uri", "start_tls", "warned"),
    [
        ("ldap://directory.casino.example", "false", True),
        ("ldap://directory.casino.example", "true", False),
        ("ldaps://directory.casino.example", "false", False),
    ],
)
def test_check_deploy_in_production_warns_of_a_directory_reached_in_the_clear(uri, start_tls, warned):
    from tests.test_production import PRODUCTION, manage

    environment = {**PRODUCTION, **DIRECTORY_ENVIRONMENT, "LDAP_SERVER_URI": uri, "LDAP_START_TLS": start_tls}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **environment)
    assert ("accounts.W001" in result.stdout + result.stderr) is warned
    assert (result.returncode != 0) is warned, result.stdout + result.stderr


def test_the_directory_is_configured_from_the_environment_and_a_group_setting_without_a_dn_stops_the_start():
    from tests.test_production import manage

    shown = manage(
        "shell",
        "-c",
        "from django.conf import settings as s; "
        "print(s.LDAP_ROLE_GROUPS['floorperson'], s.AUTH_LDAP_USER_SEARCH.base_dn, type(s.AUTH_LDAP_GROUP_TYPE).__name__)",
        LDAP_SERVER_URI="ldap://127.0.0.1:1",
        **DIRECTORY_ENVIRONMENT,
    )
    assert shown.stdout.strip().splitlines()[-1].split() == [FLOOR_GROUP, f"ou=people,{BASE}", "GroupOfNamesType"], (
        shown.stderr
    )
    broken = manage(
        "check", LDAP_SERVER_URI="ldap://127.0.0.1:1", **{**DIRECTORY_ENVIRONMENT, "LDAP_ROLE_GROUPS": "security"}
    )
    assert broken.returncode != 0 and "LDAP_ROLE_GROUPS must be key=DN pairs" in broken.stderr
    missing = manage("check", LDAP_SERVER_URI="ldap://127.0.0.1:1", LDAP_ROLE_GROUPS="")
    assert missing.returncode != 0 and "LDAP_SERVER_URI needs" in missing.stderr


def test_the_witness_too_is_asked_of_the_directory_at_signing(client, connected):
    sign_in(client, "alice", ALICE_PASSWORD)
    maintenance = UserFactory(property=connected.property, role=Role.MAINTENANCE)

    def adjust(witness_password: str):
        return services.adjustment_record(
            table_id=connected.table.pk,
            kind="adjustment",
            part="ball track",
            description="Tightened the ball track",
            performer=signed(maintenance.username, PASSWORD),
            witness=signed("alice", witness_password),
            recorded_by=maintenance,
        )

    adjust(ALICE_PASSWORD)
    connected.modify(f"uid=alice,ou=people,{BASE}", [(ldap.MOD_REPLACE, "userPassword", [b"alice's next password!"])])
    entries = Entry.objects.count()
    with pytest.raises(RuleViolation) as refused:
        adjust(ALICE_PASSWORD)
    assert [(v.code, v.field) for v in refused.value.violations] == [("signature_invalid", "witness")]
    assert Entry.objects.count() == entries


def test_a_person_the_directory_removed_can_no_longer_sign(client, connected):
    sign_in(client, "bob", BOB_PASSWORD)
    bob = User.objects.get(username="bob")
    connection = connected.connection()
    connection.delete_s(f"uid=bob,ou=people,{BASE}")
    connection.unbind_s()
    with pytest.raises(RuleViolation):
        inspect(connected, "bob", BOB_PASSWORD, bob)


def test_the_api_token_endpoint_signs_in_with_the_directory_and_refuses_clearly_when_it_is_down(connected):
    from rest_framework.test import APIClient

    api = APIClient()
    assert (
        api.post("/api/auth/token/", {"username": "alice", "password": ALICE_PASSWORD}, format="json").status_code
        == 200
    )
    connected.stop()
    refused = api.post("/api/auth/token/", {"username": "alice", "password": ALICE_PASSWORD}, format="json")
    assert refused.status_code == 400
    assert "directory cannot be reached" in refused.content.decode()
    assert "more wrong password" not in refused.content.decode()
    assert not AccessAttempt.objects.exists()


def _certificates(home: Path) -> tuple[Path, Path, Path]:
    """A CA of the test's own and a certificate it issued to 127.0.0.1: (CA, certificate, key) PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Casino test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = home / "ca.pem", home / "server.pem", home / "server.key"
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return paths


def test_starttls_checks_the_directory_certificate_against_the_configured_ca(tmp_path, settings, db):
    home = tmp_path / "slapd-tls"
    (home / "data").mkdir(parents=True)
    ca, certificate, key = _certificates(home)
    (home / "slapd.conf").write_text(
        SLAPD_CONF.format(home=home, base=BASE, root=ROOT_DN, root_password=ROOT_PASSWORD)
        + f"TLSCACertificateFile {ca}\nTLSCertificateFile {certificate}\nTLSCertificateKeyFile {key}\n"
        # Passwords only over TLS: a simple bind in the clear is refused by the directory itself.
        + "security simple_bind=128\n"
    )
    tls = Directory(home)
    tls.process = subprocess.Popen(
        [SLAPD, "-d", "0", "-f", str(home / "slapd.conf"), "-h", f"{tls.uri}/"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", tls.port)) == 0:
                    break
            time.sleep(0.05)
        subprocess.run(
            [LDAPADD, "-x", "-ZZ", "-H", tls.uri, "-D", ROOT_DN, "-w", ROOT_PASSWORD],
            input=PEOPLE.encode(),
            check=True,
            capture_output=True,
            env={"LDAPTLS_CACERT": str(ca), "PATH": "/usr/bin:/bin"},
        )
        settings.AUTH_LDAP_SERVER_URI = tls.uri
        settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, DIRECTORY_BACKEND]
        settings.AUTH_LDAP_START_TLS = True
        settings.AUTH_LDAP_BIND_DN = ROOT_DN
        settings.AUTH_LDAP_BIND_PASSWORD = ROOT_PASSWORD
        settings.AUTH_LDAP_USER_SEARCH = LDAPSearch(f"ou=people,{BASE}", ldap.SCOPE_SUBTREE, "(uid=%(user)s)")
        settings.AUTH_LDAP_GROUP_SEARCH = LDAPSearch(GROUPS, ldap.SCOPE_SUBTREE, "(objectClass=groupOfNames)")
        settings.AUTH_LDAP_GROUP_TYPE = GroupOfNamesType()
        settings.LDAP_ROLE_GROUPS = {"security": SECURITY_GROUP}
        settings.LDAP_PROPERTY_GROUPS = {LICENCE: PROPERTY_GROUP}
        PropertyFactory(licence_number=LICENCE)

        def options(ca_file: Path) -> dict:
            return {
                ldap.OPT_NETWORK_TIMEOUT: 2,
                ldap.OPT_X_TLS_REQUIRE_CERT: ldap.OPT_X_TLS_DEMAND,
                ldap.OPT_X_TLS_CACERTFILE: str(ca_file),
                ldap.OPT_X_TLS_NEWCTX: 0,
            }

        from compliance.accounts.directory import DirectoryUnavailable
        from compliance.accounts.directory_backend import DirectoryBackend

        # Another CA than the one that issued the directory's certificate: refused, as unreachable.
        other = tmp_path / "other"
        other.mkdir()
        settings.AUTH_LDAP_CONNECTION_OPTIONS = options(_certificates(other)[0])
        with pytest.raises(DirectoryUnavailable):
            DirectoryBackend().authenticate(RequestFactory().post("/"), username="alice", password=ALICE_PASSWORD)
        assert not User.objects.filter(username="alice").exists()

        settings.AUTH_LDAP_CONNECTION_OPTIONS = options(ca)
        alice = DirectoryBackend().authenticate(RequestFactory().post("/"), username="alice", password=ALICE_PASSWORD)
        assert (alice is not None and alice.credential_number == "DIR-alice") or alice.credential_number
    finally:
        tls.stop()


def test_a_person_first_seen_at_a_signature_is_taken_from_the_directory_with_the_role_of_that_moment(connected):
    compliance = User.objects.get(role=Role.COMPLIANCE)
    connected.modify(FLOOR_GROUP, [(ldap.MOD_ADD, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    connected.modify(SECURITY_GROUP, [(ldap.MOD_DELETE, "member", [f"uid=alice,ou=people,{BASE}".encode()])])
    entry = inspect(connected, "alice", ALICE_PASSWORD, compliance)
    alice = User.objects.get(username="alice")
    assert (alice.role, alice.credential_number) == (Role.FLOORPERSON, "PGCB-0077")
    assert entry.signatures.get().credential_number == "PGCB-0077"
