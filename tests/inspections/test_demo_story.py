"""The demo is what the README says it is (issue 30, item 6), at whatever hour `make run` seeds it.

The README's section "The demo" is a claim a first user checks on the floor: which tables are
flagged at start (after the first scan), what each tile says, and that the week of history is
signed as it happened. Each statement tested here is quoted from the README, so that changing the
README without the demo (or the demo without the README) fails.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from django.test import override_settings

from compliance.accounts.models import User
from compliance.casinos.models import GamingTable, Property, TableState
from inspections.flags.models import ComplianceException, FlagStatus
from inspections.logbook import chain, demo, services
from inspections.logbook.models import Entry, EntryKind, Signature
from tests.conftest import CLOCKS
from tests.servers import ROOT

NEW_YORK = ZoneInfo("America/New_York")
# Both sides of New York's midnight (UTC already tomorrow at 23:30), the small hours, the trial's
# start (07:47), noon, a summer night (EDT) and the weeks the clocks change: the demo's story holds at each.
HOURS = {
    **CLOCKS,  # the any_hour clocks (LOGBOOK_TEST_CLOCK's, when it is set)
    "00h10-after-midnight": datetime(2026, 11, 24, 0, 10, tzinfo=NEW_YORK),
    "03h15": datetime(2026, 11, 24, 3, 15, tzinfo=NEW_YORK),
    "07h47": datetime(2026, 11, 26, 7, 47, tzinfo=NEW_YORK),
    "summer-00h05-edt": datetime(2026, 7, 15, 0, 5, tzinfo=NEW_YORK),
    # A week of history across the night the clocks go back, and the night they go forward.
    "week-across-clocks-back": datetime(2026, 11, 3, 0, 30, tzinfo=NEW_YORK),
    "week-across-clocks-forward": datetime(2026, 3, 10, 4, 0, tzinfo=NEW_YORK),
}

README = (ROOT / "README.md").read_text(encoding="utf-8")
# What the README says of the demo's tables today, word for word (a line break is a space).
README_STORY = (
    "R-03 is inspected and ready, R-08 has an adjustment awaiting its inspection, R-04 and R-07 are covered and locked"
)
README_FLAGGED = "R-06 is closed with its wheel not yet covered, already past its cover deadline on purpose"
# What each tile says at start: the one next step, or what is overdue.
TILES = {
    "R-01": "Next: In play",
    "R-02": "Next: In play",
    "R-03": "Next: Open for play",
    "R-04": "Next: Unlock",
    "R-05": "Next: In play",
    "R-06": "Overdue: Cover and lock the wheel",
    "R-07": "Next: Unlock",
    "R-08": "Next: Inspect",
}


def readme_says(sentence: str) -> bool:
    return sentence in " ".join(README.split())


@pytest.fixture
def seeded_at(request, db):
    """The demo, seeded with the clock at the hour named by the test's parameter (ticking on)."""
    import time_machine

    with time_machine.travel(request.param.astimezone(UTC), tick=True):
        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            call_command("seed_demo", stdout=StringIO())
        # make run's beat scans within a minute of starting.
        call_command("scan_overdue", "--no-mail", stdout=StringIO())
        yield Property.objects.get(licence_number=demo.PROPERTY_LICENCE)


@pytest.mark.parametrize("seeded_at", list(HOURS.values()), ids=list(HOURS), indirect=True)
def test_at_start_only_r06_is_flagged_and_each_tile_says_one_next_step(seeded_at, client):
    assert readme_says(README_STORY) and readme_says(README_FLAGGED)
    tables = {t.number: t for t in GamingTable.objects.filter(property=seeded_at)}
    assert tables["R-03"].state == TableState.INSPECTED
    assert tables["R-08"].state == TableState.UNLOCKED
    assert tables["R-08"].status.last_adjustment_at > (
        tables["R-08"].status.last_inspection_at or tables["R-08"].status.last_adjustment_at
    )
    assert tables["R-04"].state == tables["R-07"].state == TableState.LOCKED
    assert tables["R-06"].state == TableState.CLOSED
    assert {number for number, t in tables.items() if t.state == TableState.OPEN} == {"R-01", "R-02", "R-05"}

    flagged = ComplianceException.objects.filter(property=seeded_at, status=FlagStatus.OPEN)
    assert sorted(flagged.values_list("table__number", "kind")) == [("R-06", "not_covered")]
    # R-03's and R-08's grace period to cover the wheel runs for minutes after the first scan.
    for number in ("R-03", "R-08"):
        assert (tables[number].status.cover_due_at - datetime.now(UTC)).total_seconds() > 8 * 60, number

    client.force_login(User.objects.get(username="security"))
    page = client.get("/floor/").content.decode()
    tiles = dict(re.findall(r'<span class="number">(R-0\d)</span>(.*?)</a>', page, flags=re.S))
    assert set(tiles) == set(TILES)
    for number, says in TILES.items():
        text = " ".join(re.sub(r"<[^>]+>", " ", tiles[number]).split())
        assert says in text, (number, text)
        # One next step: never "Next: …" beside "Overdue: …".
        assert not ("Next:" in text and "Overdue" in text), (number, text)
        # The table's own page says the same.
        table_page = client.get(f"/tables/{tables[number].pk}/").content.decode()
        next_line = re.search(r'<p class="next">(.*?)</p>', table_page, flags=re.S).group(1)
        next_text = " ".join(re.sub(r"<[^>]+>", " ", next_line).split())
        assert says in next_text and not ("Next:" in next_text and "Overdue" in next_text), (number, next_text)


@pytest.mark.parametrize("seeded_at", list(CLOCKS.values())[:1], ids=list(CLOCKS)[:1], indirect=True)
def test_the_week_is_signed_as_it_happened_and_the_chain_and_checkpoint_accept_it(seeded_at):
    """Each seeded entry is signed at its own time (not the seeding minute); the chain verifies, and
    a checkpoint signed over it verifies too."""
    history = Signature.objects.filter(entry__property=seeded_at).exclude(entry__kind=EntryKind.AMENDMENT)
    assert history.count() > 300
    assert all(signed == occurred for signed, occurred in history.values_list("signed_at", "entry__occurred_at"))
    assert len({signed.date() for signed in history.values_list("signed_at", flat=True)}) >= 7
    # Recorded when the seeder wrote it: the checkpoints cover the history as any entry.
    seeding = Entry.objects.filter(property=seeded_at).earliest("recorded_at").recorded_at
    assert datetime.now(UTC) - seeding < timedelta(minutes=10)
    checkpoint = services.checkpoint_sign(property_id=seeded_at.pk, reason="report")
    assert checkpoint is not None
    verified = chain.chain_verify(property_id=seeded_at.pk)
    assert verified.ok, verified.reason
    assert verified.last_checkpoint and verified.last_checkpoint[1] == checkpoint.entry_seq
    last = Entry.objects.filter(property=seeded_at).order_by("-seq").first()
    period = chain.chain_verify_period(property_id=seeded_at.pk, first_seq=1, last_seq=last.seq, end=checkpoint)
    assert period.ok, period.reason
    call_command("verify_logbook", stdout=StringIO())


def _form_of(page: str) -> tuple[dict[str, str], list[str], set[str], bool]:
    """The signed action's form on a page: its hidden and prefilled values, its password fields, its
    radio groups (each with a "pass" choice) and whether it has the "All items pass" button."""
    form = next(f for f in re.findall(r"<form method=\"post\".*?</form>", page, flags=re.S) if "password" in f)
    values = dict(re.findall(r'<input type="(?:hidden|text)" name="([^"]+)" value="([^"]*)"', form))
    passwords = re.findall(r'<input type="password" name="([^"]+)"', form)
    radios = set(re.findall(r'<input type="radio" name="([^"]+)" value="pass"', form))
    return values, passwords, radios, "data-all-pass" in form


@pytest.mark.parametrize("seeded_at", [HOURS["07h47"]], ids=["07h47"], indirect=True)
def test_opening_a_table_takes_the_taps_and_passwords_the_readme_says(seeded_at, client):
    """From R-04's page (covered and locked), as `security` on a phone: each step is a tap on its
    button, then a tap to sign with the password typed; the inspection's items are one tap ("All
    items pass"). The screenshots' caption (docs/screenshots.md) says the count."""
    gallery = " ".join((ROOT / "docs" / "screenshots.md").read_text(encoding="utf-8").split())
    assert "from the table page in seven taps and three passwords" in gallery
    assert "five taps" not in gallery
    client.force_login(User.objects.get(username="security"))
    table = GamingTable.objects.get(property=seeded_at, number="R-04")
    page = client.get(f"/tables/{table.pk}/").content.decode()
    taps = passwords = 0
    for action in ("Unlock", "Inspect", "Open"):
        nav = re.search(r'<nav class="actions">(.*?)</nav>', page, flags=re.S).group(1)
        href = re.search(rf'<a class="button" href="([^"]+)">{action}</a>', nav).group(1)
        taps += 1
        values, password_fields, radios, all_pass = _form_of(client.get(href).content.decode())
        if radios:
            assert all_pass, "the inspection's items take one tap"
            taps += 1
            values |= dict.fromkeys(radios, "pass")
        for field in password_fields:
            values[field] = demo.DEMO_PASSWORD
            passwords += 1
        taps += 1  # Sign and record
        answer = client.post(href, values, follow=True)
        assert answer.redirect_chain and answer.redirect_chain[-1][0] == f"/tables/{table.pk}/", action
        page = answer.content.decode()
    table.refresh_from_db()
    assert table.state == TableState.OPEN
    assert (taps, passwords) == (7, 3)
