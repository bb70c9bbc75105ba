"""The flags' mail through a real SMTP server (aiosmtpd on a free local port): each flag mailed on its
own and marked only once its mail went out; a mail refused or malformed for one property stops no
other property's, and is tried again at the next scan."""

import asyncio
import email
from datetime import datetime, timedelta
from email import policy
from zoneinfo import ZoneInfo

import pytest
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone

from compliance.casinos.models import Property
from inspections.flags import selectors as flag_selectors
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from tests.factories import GamingTableFactory, flag_raised
from tests.servers import free_port

REFUSED = "gone@keystone.example"


class Mailbox:
    """What the SMTP server received; it refuses the recipients in `refused` as a real one would
    a mailbox that does not exist (550)."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.refused: set[str] = set()
        self.slow: dict[str, float] = {}  # seconds the server takes to accept a mail to the address

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(max([self.slow.get(address, 0.0) for address in envelope.rcpt_tos], default=0.0))
        message = email.message_from_bytes(envelope.original_content, policy=policy.default)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[email.message.EmailMessage]:
        return [m for m in self.messages if address in m["X-Envelope-To"]]


@pytest.fixture
def smtp(settings):
    """A real SMTP server on 127.0.0.1, and the project's SMTP backend pointed at it."""
    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS, settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = False, "", ""
    yield mailbox
    controller.stop()


def flag_on(table, *, detected_at: datetime, kind: str = "not_covered") -> ComplianceException:
    """A flag as the scan raises it (the scan itself is tested in test_overdue.py)."""
    return flag_raised(table, kind=kind, due_at=detected_at)


def mailed_to(prop, *addresses: str) -> None:
    Property.objects.filter(pk=prop.pk).update(notify_emails=list(addresses))


def notified(flag: ComplianceException) -> bool:
    flag.refresh_from_db()
    return flag.notified_at is not None


T0 = datetime(2026, 11, 24, 4, 30, tzinfo=ZoneInfo("UTC"))  # 23:30 in New York: either side of midnight


@pytest.mark.parametrize("failing_first", [True, False], ids=["failing-flag-first", "failing-flag-last"])
def test_a_refused_mail_for_one_property_stops_no_other_propertys_flag(casino, other_casino, smtp, failing_first):
    mailed_to(casino.property, REFUSED)
    mailed_to(other_casino.property, "supervisor@other.example")
    smtp.refused.add(REFUSED)
    failing_at, passing_at = (T0 + timedelta(minutes=1), T0) if failing_first else (T0, T0 + timedelta(minutes=1))
    # Whichever order the notifier takes them in (newest or oldest first), the other one goes out.
    failing, passing = (
        flag_on(casino.table, detected_at=failing_at),
        flag_on(other_casino.table, detected_at=passing_at),
    )

    assert flag_services.notify_new_flags() == 1
    (message,) = smtp.to("supervisor@other.example")
    assert "Other Casino" in message["Subject"] and "R-01" in message["Subject"]
    assert "58 Pa. Code § 617a.2(f)" in message.get_content()
    assert notified(passing)
    assert not notified(failing)  # not marked: its mail did not go out
    assert smtp.to(REFUSED) == []

    # The mailbox exists again: once its minute of waiting is over, a scan mails the flag that
    # failed, and only it.
    smtp.refused.clear()
    later = timezone.now() + timedelta(minutes=2)
    assert flag_services.notify_new_flags(now=later) == 1
    assert len(smtp.to(REFUSED)) == 1 and len(smtp.messages) == 2
    assert notified(failing)
    assert flag_services.notify_new_flags(now=later) == 0 and len(smtp.messages) == 2


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("Keystone Casino", "R-09\nBcc: x@ev.il"),
        ("Keystone Casino", "R-09\r\nSubject: ok"),
        ("Keystone Casino", "R-09\x1b[2J\x07\x85"),
        ("Keystone\nBcc: x@ev.il", "R-09"),
    ],
)
def test_control_characters_in_a_table_number_or_property_name_cannot_break_the_mail(
    casino, other_casino, smtp, name, number
):
    """Such names and numbers are refused on input; one already stored is mailed on one line, and the
    other property's flag goes out beside it."""
    Property.objects.filter(pk=casino.property.pk).update(name=name)
    mailed_to(casino.property, "supervisor@keystone.example")
    mailed_to(other_casino.property, "supervisor@other.example")
    odd = flag_on(GamingTableFactory(property=casino.property, number=number), detected_at=T0 + timedelta(minutes=1))
    plain = flag_on(other_casino.table, detected_at=T0)

    assert flag_services.notify_new_flags() == 2
    assert notified(odd) and notified(plain)
    (message,) = smtp.to("supervisor@keystone.example")
    assert message["Subject"].startswith("[Keystone")
    assert "Table R-09" in message["Subject"]
    assert not any(char in message["Subject"] for char in "\r\n\x1b\x07\x85")
    assert message["Bcc"] is None and message.get_all("Subject") == [message["Subject"]]
    assert "x@ev.il" not in message["X-Envelope-To"]
    assert len(smtp.to("supervisor@other.example")) == 1


def test_with_the_mail_server_unreachable_no_flag_is_marked_and_the_next_scan_sends_them(
    casino, other_casino, settings
):
    mailed_to(casino.property, "supervisor@keystone.example")
    mailed_to(other_casino.property, "supervisor@other.example")
    flags = [flag_on(casino.table, detected_at=T0), flag_on(other_casino.table, detected_at=T0)]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 5  # nobody listens

    assert flag_services.notify_new_flags() == 0
    assert not any(notified(flag) for flag in flags)

    mailbox = Mailbox()
    controller = Controller(mailbox, hostname="127.0.0.1", port=settings.EMAIL_PORT)
    controller.start()
    try:
        # The flag the scan stopped on waits its minute, as a refused one does.
        assert flag_services.notify_new_flags(now=timezone.now() + timedelta(minutes=2)) == 2
    finally:
        controller.stop()
    assert all(notified(flag) for flag in flags) and len(mailbox.messages) == 2


def test_a_flag_without_supervisors_to_mail_is_marked_without_a_mail(casino, smtp):
    mailed_to(casino.property)
    flag = flag_on(casino.table, detected_at=T0)
    assert flag_services.notify_new_flags() == 1
    assert notified(flag) and smtp.messages == []


def test_a_refused_digest_stops_no_other_propertys_and_is_sent_at_the_next_check(casino, other_casino, smtp):
    mailed_to(casino.property, REFUSED)
    mailed_to(other_casino.property, "supervisor@other.example")
    smtp.refused.add(REFUSED)
    flag_on(casino.table, detected_at=T0)
    flag_on(other_casino.table, detected_at=T0)
    seven = datetime(2026, 11, 24, 7, 0, tzinfo=ZoneInfo("America/New_York"))

    assert flag_services.send_digests(now=seven) == 1
    assert len(smtp.to("supervisor@other.example")) == 1 and smtp.to(REFUSED) == []

    smtp.refused.clear()
    assert flag_services.send_digests(now=seven + timedelta(hours=1)) == 1
    (digest,) = smtp.to(REFUSED)
    assert "1 open flag(s) on 2026-11-24" in digest["Subject"]
    assert flag_services.send_digests(now=seven + timedelta(hours=2)) == 0


# ---- One property against the others (issue 32, item 3) ----------------------------------------


def test_one_propertys_flood_of_failing_mail_never_starves_anothers(casino, other_casino, smtp, monkeypatch):
    """The scan mailed the NOTIFY_BATCH oldest unmailed flags of all properties, and a flag whose mail
    failed stayed first in line: one property's refused address held back every other property's
    flag mail, scan after scan. Now the properties take turns, and a failed flag waits its retry."""
    monkeypatch.setattr(flag_selectors, "NOTIFY_BATCH", 3)
    mailed_to(casino.property, REFUSED)
    mailed_to(other_casino.property, "supervisor@other.example")
    smtp.refused.add(REFUSED)
    flood = [
        flag_on(GamingTableFactory(property=casino.property, number=f"F-{n}"), detected_at=T0 + timedelta(minutes=n))
        for n in range(4)
    ]
    late = flag_on(other_casino.table, detected_at=T0 + timedelta(hours=1))  # younger than the whole flood

    assert flag_services.notify_new_flags() == 1
    assert notified(late) and len(smtp.to("supervisor@other.example")) == 1
    assert not any(notified(flag) for flag in flood)


def test_the_flags_of_several_properties_are_mailed_in_turns(casino, other_casino, smtp, monkeypatch):
    monkeypatch.setattr(flag_selectors, "NOTIFY_PER_PROPERTY", 2)
    mailed_to(casino.property, "supervisor@keystone.example")
    mailed_to(other_casino.property, "supervisor@other.example")
    for n in range(4):
        flag_on(GamingTableFactory(property=casino.property, number=f"F-{n}"), detected_at=T0 + timedelta(minutes=n))
    flag_on(other_casino.table, detected_at=T0 + timedelta(hours=1))
    now = timezone.now()
    turns = [property_id for _flag, property_id in flag_selectors.flags_to_mail(now)]
    assert turns == [casino.property.pk, other_casino.property.pk, casino.property.pk]
    # The rest of the flood at the next scan.
    assert flag_services.notify_new_flags(now=now) == 3
    assert flag_services.notify_new_flags(now=now) == 2
    assert len(smtp.to("supervisor@keystone.example")) == 4


def test_a_failing_flag_is_tried_again_after_a_growing_delay(casino, smtp):
    mailed_to(casino.property, REFUSED)
    smtp.refused.add(REFUSED)
    flag = flag_on(casino.table, detected_at=T0)
    now = timezone.now()
    assert flag_services.notify_new_flags(now=now) == 0
    flag.refresh_from_db()
    assert (flag.mail_attempts, flag.mail_retry_at) == (1, now + timedelta(minutes=1))
    assert flag_selectors.flags_to_mail(now + timedelta(seconds=59)) == []  # waiting: not tried
    assert flag_services.notify_new_flags(now=now + timedelta(minutes=1)) == 0
    flag.refresh_from_db()
    assert (flag.mail_attempts, flag.mail_retry_at) == (2, now + timedelta(minutes=3))
    assert [flag_services.mail_retry_delay(n) for n in (1, 2, 3, 7, 8, 20)] == [
        timedelta(minutes=m) for m in (1, 2, 4, 60, 60, 60)
    ]


def test_a_property_whose_mail_is_slow_has_a_share_of_the_scan_not_all_of_it(casino, other_casino, smtp, monkeypatch):
    monkeypatch.setattr(flag_services, "NOTIFY_SECONDS_PER_PROPERTY", 0.3)
    mailed_to(casino.property, "slow@keystone.example")
    mailed_to(other_casino.property, "supervisor@other.example")
    smtp.slow["slow@keystone.example"] = 0.4
    slow = [
        flag_on(GamingTableFactory(property=casino.property, number=f"F-{n}"), detected_at=T0 + timedelta(minutes=n))
        for n in range(3)
    ]
    other = [
        flag_on(
            GamingTableFactory(property=other_casino.property, number=f"O-{n}"), detected_at=T0 + timedelta(hours=n)
        )
        for n in range(3)
    ]
    assert flag_services.notify_new_flags() == 4  # the slow property's first flag, then its share is used
    assert [notified(flag) for flag in slow] == [True, False, False]
    assert all(notified(flag) for flag in other)


@pytest.mark.parametrize("address", ["night@a\u0640b.example"])
def test_an_address_whose_domain_cannot_be_encoded_is_refused_as_it_is_saved(casino, address):
    """Django's email validator accepts it; the SMTP backend cannot encode it, so its mail failed at
    every scan. The API and the admin refuse it."""
    from compliance.accounts.models import User
    from tests.inspections.test_admin import property_form
    from tests.inspections.test_api import client_for

    administrator = User.objects.create_superuser("root", "root@example.com", "x-long-admin-passphrase")
    response = client_for(administrator).patch(
        f"/api/properties/{casino.property.pk}/", {"notify_emails": [address]}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "IDNA" in response.content.decode()
    web = Client()
    web.force_login(administrator)
    url = f"/admin/casinos/property/{casino.property.pk}/change/"
    refused = web.post(url, {**property_form(web.get(url)), "notify_emails": address})
    assert refused.status_code == 200 and "is not an email address" in refused.content.decode()
    assert Property.objects.get(pk=casino.property.pk).notify_emails != [address]
