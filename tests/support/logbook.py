"""The logbook's writes as a test makes them, through the services: a table's events, inspections
and adjustments by the casino's people (the `casino` fixture), and the check that a write is refused."""

import pytest

from compliance.rulebook import RuleViolation
from inspections.logbook import services
from inspections.logbook.models import Entry, Signature
from tests.support.people import sign

ALL_PASS = {
    "ball_non_magnetic": True,
    "no_magnet_or_contrivance": True,
    "wheel_level_and_rotating": True,
    "parts_secure": True,
}


def refused(call, code: str, citation: str | None):
    """Assert the call is refused with the code and citation, and that nothing was written."""
    before = (Entry.objects.count(), Signature.objects.count())
    with pytest.raises(RuleViolation) as caught:
        call()
    found = {(v.code, v.citation) for v in caught.value.violations}
    assert (code, citation) in found, found
    assert (Entry.objects.count(), Signature.objects.count()) == before
    return caught.value.violations


def event(casino, kind, who=None, at=None):
    who = who or casino.security
    return services.table_event_record(table_id=casino.table.pk, kind=kind, signature=sign(who), recorded_by=who, at=at)


def inspect(casino, items=None, who=None, at=None):
    who = who or casino.floorperson
    return services.inspection_record(
        table_id=casino.table.pk, items=items or ALL_PASS, signature=sign(who), recorded_by=who, performed_at=at
    )


def adjust(
    casino,
    kind="adjustment",
    performer=None,
    witness=None,
    at=None,
    *,
    part="ball track",
    description="Tightened the ball track",
    new_ball=None,
):
    performer = performer or casino.maintenance
    witness = witness or casino.security
    return services.adjustment_record(
        table_id=casino.table.pk,
        kind=kind,
        part=part,
        description=description,
        performer=sign(performer),
        witness=sign(witness),
        recorded_by=performer,
        performed_at=at,
        new_ball=new_ball,
    )


def a_day(casino) -> None:
    """A table's day in six entries: covered, unlocked, adjusted, inspected, opened, closed."""
    event(casino, "cover")
    event(casino, "unlock")
    adjust(casino)
    inspect(casino)
    event(casino, "open")
    event(casino, "close")


def state(casino) -> str:
    casino.table.refresh_from_db()
    return casino.table.state
