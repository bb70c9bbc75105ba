"""Every action on the floor answered at once and truthfully (issue 20, item 3): what the entry did and
what the table needs next, from the entry's own transaction; only the actions the person's role, the
table's wheel and its state allow are offered, and the rest say why before any password is typed."""

import html
import re

import pytest

from compliance.casinos.models import GamingTable, TableState
from inspections.flags.models import ComplianceException
from inspections.logbook.models import Entry, TableStatus
from tests.factories import PASSWORD, GamingTableFactory
from tests.support.logbook import ALL_PASS, event, inspect

ADJUSTMENT = "58 Pa. Code § 617a.2(c)"
REPLACEMENT = "58 Pa. Code § 617a.2(d)"


def signed(who, **extra) -> dict:
    return {"username": who.username, "password": PASSWORD, **extra}


def adjustment_form(casino, kind: str = "adjustment") -> dict:
    return signed(
        casino.maintenance,
        kind=kind,
        part="ball track",
        description="Re-seated the ball track",
        witness_username=casino.security.username,
        witness_password=PASSWORD,
    )


def messages_of(response) -> list[tuple[str, str]]:
    return [(message.tags, str(message)) for message in response.context["messages"]]


def test_a_failed_inspection_is_not_shown_as_a_green_recorded(client, casino):
    event(casino, "close") if casino.table.state == TableState.OPEN else None
    client.force_login(casino.security)
    form = {**{code: "pass" for code in ALL_PASS}, "parts_secure": "fail", **signed(casino.security)}
    response = client.post(f"/tables/{casino.table.pk}/inspect/", form, follow=True)
    ((tags, text),) = messages_of(response)
    assert tags == "error"
    assert "Inspection FAILED" in text and "may not open until an inspection passes" in text
    assert "(58 Pa. Code § 617a.2(a))" in text
    assert "Recorded: Inspection (" not in text


@pytest.mark.parametrize(
    ("kind", "citation", "flag"),
    [
        ("adjustment", ADJUSTMENT, "adjusted_after_inspection"),
        ("replacement", REPLACEMENT, "replaced_without_inspection"),
    ],
)
def test_an_adjustment_at_an_open_table_says_stop_play_and_shows_its_flag_at_once(client, casino, kind, citation, flag):
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    response = client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino, kind), follow=True)
    found = messages_of(response)
    assert found[0][0] == "error"
    assert "Inspection void: stop play at table R-01 and inspect it." in found[0][1] and f"({citation})" in found[0][1]
    # The flag is raised in the entry's transaction, before any scan, and the next page shows it.
    assert any(tags == "error" and "Flag raised by this entry" in text and citation in text for tags, text in found)
    assert ComplianceException.objects.filter(kind=flag, status="open").count() == 1
    page = response.content.decode()
    assert "Open flags" in page and citation in page


def test_an_open_table_whose_inspection_is_void_says_next_stop_play_not_in_play(client, casino):
    """The badge stays "Open for play" (the table's state), but what comes next is to stop play and
    inspect, on the table's page and on its floor tile, not "In play"."""
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    page = client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino), follow=True).content.decode()
    assert "Next: Stop play and inspect again (§ 617a.2(a))" in page
    assert "Next: In play" not in page
    floor = client.get("/floor/").content.decode()
    assert "Next: Stop play and inspect again (§ 617a.2(a))" in floor


@pytest.mark.parametrize(
    ("kind", "due"), [("adjustment", "Inspect after the adjustment"), ("replacement", "Inspect after the replacement")]
)
def test_an_open_table_whose_inspection_is_void_is_due_an_inspection_now_not_tomorrow(client, casino, kind, due):
    """The tile and the table's page say the inspection is overdue since the adjustment, not "Due:
    Inspect again, by tomorrow" (the interval of the inspection the adjustment made void)."""
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    page = client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino, kind), follow=True)
    for text in (page.content.decode(), client.get("/floor/").content.decode()):
        text = " ".join(re.sub(r"<[^>]+>", " ", text).split())
        assert re.search(rf"Overdue: {due}, by \d{{4}}-\d\d-\d\d \d\d:\d\d [A-Z]{{3,4}}", text), text[:800]
        assert "Inspect again" not in text


def test_the_tables_page_says_what_is_due_and_by_when(client, casino):
    """Not "Next: In play · due 2026-11-25 10:53 EST" (is play due?), but the deadline's own words,
    as the floor's tile says them."""
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.security)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert re.search(r"Next: In play · Due: Inspect again, by \d{4}-\d\d-\d\d \d\d:\d\d [A-Z]{3,4}", text), text[:600]


def test_the_flags_page_says_an_entry_raises_a_flag_too_not_only_the_scan(client, casino):
    """A flag raised by the entry just made is on the flags page at once; the page does not say that
    only the minute's scan raises them."""
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino), follow=True)
    client.force_login(casino.security)
    page = client.get("/flags/").content.decode()
    assert "Adjusted after the inspection, still open" in page
    assert "Raised by the entry that causes them, or by the overdue scan once a deadline passes" in page
    assert "Raised by the overdue scan every minute" not in page


def test_an_adjustment_after_the_inspection_says_the_inspection_no_longer_counts(client, casino):
    inspect(casino)
    client.force_login(casino.maintenance)
    response = client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino), follow=True)
    ((tags, text),) = messages_of(response)
    assert tags == "error" and "adjusted after its last inspection" in text and f"({ADJUSTMENT})" in text
    assert GamingTable.objects.get(pk=casino.table.pk).state == TableState.UNLOCKED


def test_the_inspection_that_cures_a_flag_says_so_and_the_flag_leaves_the_page(client, casino):
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    client.post(f"/tables/{casino.table.pk}/adjust/", adjustment_form(casino), follow=True)
    client.force_login(casino.security)
    form = {**{code: "pass" for code in ALL_PASS}, **signed(casino.security)}
    response = client.post(f"/tables/{casino.table.pk}/inspect/", form, follow=True)
    found = messages_of(response)
    assert found[0][0] == "success" and found[0][1].startswith("Recorded: Inspection")
    assert ("success", "Flag cured by this entry: Adjusted after the inspection, still open.") in found
    assert "Open flags" not in response.content.decode()
    assert not ComplianceException.objects.filter(status="open").exists()


def test_a_ball_replaced_without_a_ball_named_is_refused_on_the_form(client, casino):
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.floorperson)
    response = client.post(
        f"/tables/{casino.table.pk}/irregularity/",
        signed(casino.floorperson, kind="ball_left_wheel", ball_replaced="on"),
    )
    page = response.content.decode()
    assert "name the new ball" in page and "Product policy: a replaced ball is named" in page
    assert not Entry.objects.filter(kind="irregularity").exists()


# ---- What is offered, and why the rest is not ----


def words(page: str) -> str:
    """The page's text as read: its tags taken out (a table's number is kept whole by a <span>)."""
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def buttons(client, table) -> str:
    page = client.get(f"/tables/{table.pk}/").content.decode()
    return page.split('<nav class="actions">', 1)[1].split("</nav>", 1)[0] if '<nav class="actions">' in page else ""


def test_no_adjust_or_replace_for_a_wheel_without_external_movable_parts(client, casino):
    GamingTable.objects.filter(pk=casino.table.pk).update(has_external_movable_parts=False, electronic=True)
    event(casino, "close") if casino.table.state == TableState.OPEN else None
    client.force_login(casino.floorperson)
    assert "Adjust or replace" not in buttons(client, casino.table)
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "Adjust or replace: Table R-01's wheel has no external movable parts" in words(page)
    assert "58 Pa. Code § 617a.2(b)" in page
    # The form is not shown: the reason is, before any password is typed.
    response = client.get(f"/tables/{casino.table.pk}/adjust/")
    assert response.status_code == 200
    assert "no external movable parts" in response.content.decode()
    assert 'name="password"' not in response.content.decode()


def test_a_maintenance_member_is_offered_no_close_inspect_or_no_spin(client, casino):
    inspect(casino)
    event(casino, "open")
    client.force_login(casino.maintenance)
    offered = buttons(client, casino.table)
    for label in ("Close", "Inspect", "No spin"):
        assert label not in offered
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "Only a floorperson or security officer may inspect a Roulette table" in page
    assert "A floorperson or security officer records this" in page
    for path in ("close/", "inspect/", "irregularity/"):
        response = client.get(f"/tables/{casino.table.pk}/{path}")
        assert response.status_code == 200, path
        assert 'name="password"' not in response.content.decode()


def test_a_security_officer_is_offered_what_the_state_allows(client, casino):
    inspect(casino)
    client.force_login(casino.security)
    offered = buttons(client, casino.table)
    for label in ("Inspect", "Adjust or replace", "Open", "Cover and lock"):
        assert label in offered
    assert "Close" not in offered and "Unlock" not in offered
    page = client.get(f"/tables/{casino.table.pk}/").content.decode()
    assert "is not open, so it cannot be closed" in page


def test_opening_without_an_approved_configuration_is_explained_not_offered(client, casino):
    bare = GamingTableFactory(property=casino.property, number="R-09")
    TableStatus.objects.filter(table_id=bare.pk).update(state=TableState.INSPECTED)
    client.force_login(casino.security)
    assert ">Open<" not in buttons(client, bare)
    page = client.get(f"/tables/{bare.pk}/").content.decode()
    assert "Open: Table R-09 has no approved layout" in words(page)
