"""Fixtures the report tests share: where the files go, and a morning at one table to report on."""

import pytest

from inspections.logbook import services
from inspections.logbook.models import Entry
from tests.support.logbook import a_day, event
from tests.support.people import sign


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.REPORT_CHUNK_ROWS = 3  # several pieces from a handful of entries: numbering across pieces
    return settings.MEDIA_ROOT


@pytest.fixture
def history(casino):
    """A morning at one table: unlock … open, then close and cover, an adjustment and an amendment."""
    a_day(casino)
    event(casino, "cover")
    inspection = Entry.objects.get(kind="inspection")
    services.amendment_record(
        entry_id=inspection.pk,
        reason="Notes were left out",
        correction={"notes": "Ball checked with a compass"},
        signature=sign(casino.floorperson),
        recorded_by=casino.floorperson,
    )
    return casino
