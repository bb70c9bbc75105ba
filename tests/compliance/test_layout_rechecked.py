"""Each jurisdiction's own layout rules on every path (issue 31, item 1): the areas and notices New
Jersey's and Section 4's texts ask of a layout — the seven numbers area (N.J.A.C. 19:47-5.1(f);
Section 4(a)(6)(ii)), the colour wager area (19:47-5.1(e)6.ii), the notice of the double-zero option
in effect (19:47-5.2(b); Section 4(b)(2)) — are asked when a layout is submitted, again before each
opening of a table whose wheel type or configuration changed since, and of an open table when what
takes effect offers more; each refusal and flag cites the jurisdiction's own paragraph."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from compliance.approvals import services as approvals
from compliance.approvals.models import RulesSubmission
from compliance.approvals.selectors import layout_violations
from compliance.casinos import services as casinos
from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable
from compliance.rulebook import LOGBOOK_PROCEDURE, WITHOUT_PROCEDURE, rulebook_for
from inspections.flags import services as flag_services
from inspections.flags.models import ComplianceException
from tests.factories import (
    ROULETTE_LAYOUT,
    GamingTableFactory,
    PropertyFactory,
    RegulatorFactory,
    artwork_upload,
    configure_for_opening,
)
from tests.support.logbook import event, inspect, refused
from tests.support.people import sign, staff_of

SECOND = timedelta(seconds=1)
WITHOUT_NOTICE = [f for f in ROULETTE_LAYOUT if f != "double_zero_option_notice"]
# A wager one text has, the layout area it asks for, and its paragraph.
WAGER_AREAS = [
    ("NJ", "seven_numbers", [4, 1], "seven_numbers_area", "N.J.A.C. 19:47-5.1(f)"),
    ("NJ", "six_numbers_color", [5, 1], "color_wager_area", "N.J.A.C. 19:47-5.1(e)6.ii"),
    ("S4", "seven_numbers", [4, 1], "seven_numbers_area", "Section 4(a)(6)(ii)"),
]
# What an open table flagged as not approved cites there: the borrowed approvals and its own areas.
NOT_APPROVED = {
    "NJ": (
        "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2 (applied by policy: N.J.A.C. 19:47-5 sets no layout "
        "minimum); N.J.A.C. 19:47-5.1(f), 19:47-5.1(e)6.ii, 19:47-5.1(e)7, 19:47-5.1(e)8"
    ),
    "S4": (
        "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2 (applied by policy: Section 4 sets no layout minimum); "
        "Section 4(a)(6)(ii)"
    ),
}


def house_with(code: str, *, wheel_type: str, layout_features: list[str]):
    """A property of `code`, its staff, and table R-01 ready to open with an approved layout of
    `layout_features` (version 1 of the Rules Submission: every wheel type, the straight only)."""
    staff = staff_of(PropertyFactory(name=f"House {code}", jurisdiction=code))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01", wheel_type=wheel_type),
        created_by=staff.compliance,
        layout_features=layout_features,
    )
    staff.code = code
    return staff


def layout_approved(staff, features: list[str]) -> None:
    """A new layout of R-01, submitted and approved through the services (so checked as submitted)."""
    layout = approvals.layout_submit(
        prop=staff.property,
        game="roulette",
        name="With its areas",
        features=features,
        tables=[staff.table],
        artwork=artwork_upload(),
        created_by=staff.compliance,
    )
    approvals.layout_decide(
        layout_id=layout.pk,
        decision="approved",
        reference="BOARD-1",
        signature=sign(RegulatorFactory(jurisdiction=staff.code)),
    )


def opening_refused(staff, citation: str, feature_words: str) -> None:
    (missing,) = [
        v
        for v in refused(lambda: event(staff, "open"), "layout_feature_missing", citation)
        if v.code == "layout_feature_missing"
    ]
    assert missing.field == "table"
    assert missing.message.startswith("Table R-01's approved layout:")
    assert feature_words in missing.message


# ---- At opening ----


@pytest.mark.parametrize(
    ("code", "citation"), [("PA", None), ("NJ", "N.J.A.C. 19:47-5.2(b)"), ("S4", "Section 4(b)(2)")]
)
def test_a_table_made_double_zero_after_its_layout_was_approved_opens_only_with_the_option_notice(db, code, citation):
    """A double-zero wheel used as single zero needs no notice of the double-zero option; made a
    double-zero table, it does where the text asks for one. Pennsylvania's text has no such option."""
    staff = house_with(code, wheel_type="double_zero_as_single_zero", layout_features=WITHOUT_NOTICE)
    # As it was approved, the layout had every area its table needed.
    assert layout_violations(prop=staff.property, game="roulette", features=WITHOUT_NOTICE, tables=[staff.table]) == []
    casinos.table_update(table_id=staff.table.pk, actor=staff.compliance, changes={"wheel_type": "double_zero"})
    inspect(staff)
    if citation is None:
        assert event(staff, "open").kind == "open"
        return
    opening_refused(staff, citation, "the notice of the double-zero option chosen")
    layout_approved(staff, ROULETTE_LAYOUT)
    assert event(staff, "open").kind == "open"


def approve_configuration(staff, key: str, payout_odds: dict) -> None:
    """Version 2, approved, in effect since version 1's date: version 1's standard configuration with
    `key` beside it on single-zero wheels. Made directly, as the factories do."""
    first = RulesSubmission.objects.get(property=staff.property, game="roulette", version=1)
    RulesSubmission.objects.create(
        property=staff.property,
        game="roulette",
        version=2,
        effective_from=first.effective_from,
        wheel_types=first.wheel_types,
        payout_odds=first.payout_odds,
        configurations=[{"key": key, "name": key.title(), "wheel_types": ["single_zero"], "payout_odds": payout_odds}],
        status="approved",
        created_by=staff.compliance,
    )


@pytest.mark.parametrize(("code", "wager", "odds", "feature", "citation"), WAGER_AREAS)
def test_a_table_moved_to_a_configuration_offering_more_opens_only_with_its_areas(
    db, code, wager, odds, feature, citation
):
    """The layout was approved for the table's standard configuration (the straight only); moved to
    one that offers the seven numbers or a colour wager, the table opens only once a layout with the
    area the text asks for is approved."""
    staff = house_with(code, wheel_type="single_zero", layout_features=ROULETTE_LAYOUT)
    approve_configuration(staff, "extra", {"straight": [35, 1], wager: odds})
    casinos.table_update(table_id=staff.table.pk, actor=staff.compliance, changes={"configuration": "extra"})
    inspect(staff)
    words = {"seven_numbers_area": "the seven numbers wager area", "color_wager_area": "the colour wager area"}[feature]
    opening_refused(staff, citation, words)
    layout_approved(staff, [*ROULETTE_LAYOUT, feature])
    assert event(staff, "open").kind == "open"


# ---- An open table: the scan ----


def flags_open():
    return list(ComplianceException.objects.filter(status="open"))


@pytest.mark.any_hour
@pytest.mark.parametrize(("code", "wager", "odds", "feature", "citation"), WAGER_AREAS)
def test_an_open_table_whose_next_version_offers_a_wager_without_its_area_is_flagged(
    db, code, wager, odds, feature, citation
):
    """A version approved today, taking effect tomorrow, offers the wager at the open table, whose
    layout has no area for it: from the local midnight it takes effect the table is flagged, citing
    the text's own paragraph among what it breaks."""
    staff = house_with(code, wheel_type="single_zero", layout_features=ROULETTE_LAYOUT)
    inspect(staff)
    event(staff, "open")
    tomorrow = property_today(staff.property) + timedelta(days=1)
    draft = approvals.rules_submission_draft(
        prop=staff.property,
        game="roulette",
        effective_from=tomorrow,
        wheel_types=["single_zero"],
        payout_odds={"straight": [35, 1], wager: odds},
        options={},
        created_by=staff.compliance,
    )
    approvals.rules_submission_file(submission_id=draft.pk, signature=sign(staff.compliance))
    approvals.rules_submission_decide(
        submission_id=draft.pk,
        decision="approved",
        reference="BOARD-2",
        signature=sign(RegulatorFactory(jurisdiction=code)),
    )
    table = GamingTable.objects.get(pk=staff.table.pk)
    midnight = datetime.combine(tomorrow, datetime.min.time(), tzinfo=staff.property.zone)
    assert table.status.approval_due_at == midnight
    flag_services.scan(now=midnight - SECOND)
    assert flags_open() == []
    flag_services.scan(now=midnight)
    (flag,) = flags_open()
    assert (flag.kind, flag.table_id, flag.due_at) == ("not_approved", table.pk, midnight)
    assert flag.citation == NOT_APPROVED[code]
    assert citation.removeprefix("N.J.A.C. ") in flag.citation


def test_every_flag_kinds_citation_fits_the_flags_column():
    """A flag stores its kind's citation (200 characters at most): a text's own paragraphs added to
    one must still fit, or PostgreSQL refuses the scan's insert."""
    width = ComplianceException._meta.get_field("citation").max_length
    for rules in [*LOGBOOK_PROCEDURE.values(), *WITHOUT_PROCEDURE.values()]:
        for kind in rules.FLAG_KINDS:
            assert len(kind.citation) <= width, (rules, kind.code)
    assert rulebook_for("PA").FLAG_KINDS_BY_CODE["not_approved"].citation == (
        "58 Pa. Code § 617a.1(f); 58 Pa. Code § 601a.2"
    )
