"""Each game's layout is approved under its own paragraph (issue 31, item 3): "The layout for a Big Six
Wheel table shall be approved by the Bureau of Gaming Operations" (58 Pa. Code § 619a.1(g), proposed),
"The layout for a Casino War table shall be approved by the Bureau of Gaming Operations" (§ 651a.2(b),
proposed), a Roulette layout by § 617a.1(f). The not_approved flag of an open table and the approvals
report's row of a table cite its own game's, not the Roulette paragraph for every game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable, TableState
from compliance.rulebook import LOGBOOK_PROCEDURE, WITHOUT_PROCEDURE
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from inspections.logbook.models import TableStatus
from inspections.reports.kinds import KINDS_BY_CODE
from inspections.reports.models import Report
from tests.conftest import staff_of
from tests.factories import GamingTableFactory, PropertyFactory

PA_601A_2 = "58 Pa. Code § 601a.2"
APPROVED_UNDER = {
    ("PA", "roulette"): f"58 Pa. Code § 617a.1(f); {PA_601A_2}",
    ("PA", "big_six"): f"58 Pa. Code § 619a.1(g) (proposed, 41 Pa.B. 3000); {PA_601A_2}",
    ("PA", "casino_war"): f"58 Pa. Code § 651a.2(b) (proposed, 41 Pa.B. 3000); {PA_601A_2}",
    # Neither New Jersey's nor Section 4's text has a Big Six layout approval paragraph: Pennsylvania's
    # Big Six paragraph, applied by policy; their Roulette tables keep their own layout areas.
    ("NJ", "big_six"): (
        f"58 Pa. Code § 619a.1(g) (proposed, 41 Pa.B. 3000); {PA_601A_2} "
        "(applied by policy: N.J.A.C. 19:47-5 sets no such Big Six rule)"
    ),
    ("S4", "big_six"): (
        f"58 Pa. Code § 619a.1(g) (proposed, 41 Pa.B. 3000); {PA_601A_2} "
        "(applied by policy: Section 4 sets no such Big Six rule)"
    ),
    ("NJ", "roulette"): (
        f"58 Pa. Code § 617a.1(f); {PA_601A_2} (applied by policy: N.J.A.C. 19:47-5 sets no layout minimum); "
        "N.J.A.C. 19:47-5.1(f), 19:47-5.1(e)6.ii, 19:47-5.1(e)7, 19:47-5.1(e)8"
    ),
}
GAMES = {"roulette": "double_zero", "big_six": None, "casino_war": None}


def _open_tables(code: str) -> tuple[object, dict[str, GamingTable]]:
    """An open table of each game the text has, its approval lapsed a minute ago."""
    people = staff_of(PropertyFactory(name=f"House {code}", jurisdiction=code))
    lapsed = timezone.now() - timedelta(minutes=1)
    tables = {}
    for number, (game, wheel) in enumerate(GAMES.items(), start=1):
        if (code, game) not in APPROVED_UNDER:
            continue
        table = GamingTableFactory(property=people.property, number=f"T-0{number}", game=game, wheel_type=wheel)
        TableStatus.objects.filter(table_id=table.pk).update(state=TableState.OPEN, approval_due_at=lapsed)
        tables[game] = table
    return people, tables


@pytest.mark.parametrize("code", ["PA", "NJ", "S4"])
def test_each_games_not_approved_flag_cites_its_own_layout_paragraph(db, code):
    _, tables = _open_tables(code)
    flag_services.scan()
    flags = {flag.table_id: flag.citation for flag in ComplianceException.objects.filter(kind="not_approved")}
    assert flags == {table.pk: APPROVED_UNDER[code, game] for game, table in tables.items()}


def test_the_approvals_report_row_of_each_game_cites_its_own_layout_paragraph(db):
    people, tables = _open_tables("PA")
    today = property_today(people.property)
    report = Report.objects.create(
        property=people.property,
        kind="approvals_in_effect",
        period_from=today,
        period_to=today,
        requested_by=people.compliance,
    )
    kind = KINDS_BY_CODE["approvals_in_effect"]
    rows = {row["table_number"]: row for row in kind.rows(report, [t.pk for t in tables.values()])}
    assert {game: rows[table.number]["approval_citation"] for game, table in tables.items()} == {
        game: APPROVED_UNDER["PA", game] for game in tables
    }
    # The report's own citation names each game's paragraph once, the Rules Submission's once each.
    assert kind.citation(report) == "; ".join(APPROVED_UNDER["PA", game] for game in sorted(tables))
    # In the PDF the paragraph is printed under the table's layout.
    (layout,) = [cell for cell in kind.cells if cell.label == "Approved layout"]
    assert layout.lines == ("{layout}", "{approval_citation}")


def test_every_games_flag_citation_fits_the_flags_column():
    width = ComplianceException._meta.get_field("citation").max_length
    for rules in [*LOGBOOK_PROCEDURE.values(), *WITHOUT_PROCEDURE.values()]:
        for kind in rules.FLAG_KINDS:
            for game in GAMES:
                assert len(kind.citation_for(game)) <= width, (rules, kind.code, game)
