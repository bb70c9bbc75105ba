"""A property with something on every page, and the walk through a role's pages by their links, for
the tests that walk every page of every role (tests/browser/test_every_page.py on screens,
tests/test_dates.py for the times they print)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import timedelta
from types import SimpleNamespace
from urllib.parse import SplitResult

from compliance.accounts.models import Role
from compliance.approvals import services as approvals
from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable, TableState
from inspections.flags import services as flag_services
from inspections.logbook.models import TableStatus
from tests.factories import (
    GamingTableFactory,
    RegulatorFactory,
    UserFactory,
    configure_for_opening,
    layout_submitted,
)
from tests.support.logbook import adjust, event, inspect
from tests.support.people import bare_casino_staff, sign


def every_page_world() -> SimpleNamespace:
    """Keystone Casino's staff with a table closed and flagged (not covered in time), a second one
    locked (`locked`), a layout waiting for the regulator, a Rules Submission draft that breaks
    § 617a.4(a) and one filed; a regulator and an administrator beside the property's people."""
    staff = bare_casino_staff("Keystone Casino")
    configure_for_opening(staff.table, created_by=staff.compliance)
    event(staff, "cover")
    event(staff, "unlock")
    adjust(staff)
    inspect(staff)
    event(staff, "open")
    event(staff, "close")
    flag_services.scan(
        now=GamingTable.objects.get(pk=staff.table.pk).status.cover_due_at
    )  # not covered in time: a flag
    staff.locked = GamingTableFactory(property=staff.property, number="R-02")
    configure_for_opening(staff.locked, created_by=staff.compliance)
    TableStatus.objects.filter(table_id=staff.locked.pk).update(state=TableState.LOCKED)
    layout_submitted(staff)
    later = property_today(staff.property) + timedelta(days=30)
    for odds in ([34, 1], [35, 1]):  # a draft that breaks § 617a.4(a), and one filed with the regulator
        submission = approvals.rules_submission_draft(
            prop=staff.property,
            game="roulette",
            effective_from=later,
            wheel_types=["double_zero"],
            payout_odds={"straight": odds},
            options={},
            created_by=staff.compliance,
        )
    approvals.rules_submission_file(submission_id=submission.pk, signature=sign(staff.compliance))
    staff.regulator = RegulatorFactory()
    staff.admin = UserFactory(
        role=Role.ADMIN, property=None, is_staff=True, is_superuser=True, credential_number="ADMIN-1"
    )
    return staff


def walk_links(
    start: list[str], visit: Callable[[str], Iterable[SplitResult]], *, skip: re.Pattern, most: int
) -> list[str]:
    """The paths reached from `start` by following links, breadth first, each once, `most` at the
    most: `visit(path)` opens the page and gives its links on this site; `skip` matches the paths
    not followed. The admin's lists once each, not once a filter or an order."""
    seen, queue = [], list(start)
    while queue and len(seen) < most:
        path = queue.pop(0)
        if path in seen:
            continue
        seen.append(path)
        for link in visit(path):
            query = link.query if link.query and not link.path.startswith("/admin/") else ""
            found = link.path + (f"?{query}" if query else "")
            if not skip.search(link.path) and found not in seen and found not in queue:
                queue.append(found)
    return seen
