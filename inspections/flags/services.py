"""The flags' only write paths (docs/architecture.md: The flag kinds): the overdue scan, the mail
it sends, an entry's cure, a moved deadline and a signed acknowledgement.

Every kind of flag has a deadline column on the table, named by the registry of flag kinds
(compliance.rulebook.flags: FLAG_KINDS, DEADLINE_OF), set or
cleared by inspections.logbook.deadlines in the same transaction as the entry that changes it. The scan never walks the logbook:
one statement raises a flag for every deadline passed that has no open flag, reading only the tables
whose deadline is set (a partial index per column). The unique constraint of ComplianceException
(one open flag per table and kind) makes two scans at once raise each flag once.

A flag closes only with the logbook entry that ends its condition (`flags_cure`), in the entry's
transaction, and names it: what a regulator can check against the logbook, not an inference. The
scan never closes a flag. A policy, approval or configuration change moves an open flag's deadline
and writes that in its history (`flags_follow_deadlines`); a compliance manager's signed note
acknowledges a flag (`flag_acknowledge`); neither closes it. So after any scan, every standing
violation (a deadline column passed) has an open flag.
"""

from __future__ import annotations

import logging
import smtplib
import socket
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import DatabaseError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from compliance.accounts.signatures import SignatureInput, signer_authenticate
from compliance.casinos.clock import date_text
from compliance.casinos.models import GamingTable, Jurisdiction, Property
from compliance.rulebook import LOGBOOK_PROCEDURE, raise_if_any, rulebook_for
from compliance.rulebook.flags import DEADLINE_OF
from inspections.flags.models import (
    ComplianceException,
    Digest,
    FlagEvent,
    FlagEventCause,
    FlagEventKind,
    FlagResolution,
    FlagStatus,
)
from inspections.flags.selectors import flags_to_mail, recipients_by_language
from inspections.flags.text import flag_label, flag_mail_text, one_line
from inspections.logbook.models import Entry, TableStatus

log = logging.getLogger(__name__)


def _stands(deadline: datetime | None, at: datetime) -> bool:
    """A deadline column stands at `at`: set, and passed (the violation of its flag kind holds)."""
    return deadline is not None and deadline <= at


def flags_cure(*, entry: Entry, missed: dict[str, datetime], table: GamingTable, state_before: str | None) -> int:
    """The open flags of the table whose condition the entry ended are cured by it, and name it.

    The entry ends a flag's condition when, after it, the flag's deadline column no longer stands and
    the entry is what changed that: it moved the column (`missed`: column → the deadline it held
    before; an inspection, a covering, a deck change, a closing), or the column was already unset by
    a change that is no entry (an approval, a configuration change: the flag stayed open) and the
    entry moved the table's state (the closing that ends the play the flag was about). An entry that
    leaves the deadline standing (a second adjustment during play, an inspection entered hours late)
    cures nothing: the flag stays open with its first missed deadline.

    Called when the logbook's services send `entry_recorded`, with the table locked, in the entry's
    transaction; the scan takes the same locks before it raises a flag (`_lock_sql`).
    """
    state_moved = state_before is not None and state_before != table.status.state
    ended = [
        kind
        for kind, column in DEADLINE_OF.items()
        if not _stands(getattr(table.status, column), entry.recorded_at)
        and (column in missed or (getattr(table.status, column) is None and state_moved))
    ]
    if not ended:
        return 0
    return ComplianceException.objects.filter(table_id=entry.table_id, kind__in=ended, status=FlagStatus.OPEN).update(
        status=FlagStatus.RESOLVED,
        resolved_at=entry.recorded_at,
        resolution=FlagResolution.CURED,
        cured_by_entry=entry,
    )


def flags_follow_deadlines(
    sender, *, table: GamingTable, moved: dict[str, datetime | None], cause: str, actor=None, **kwargs
) -> int:
    """inspections.logbook.signals.deadlines_moved's receiver: a change that is no logbook entry (a
    policy, an approval, a configuration change) moved the table's deadline columns. Each open flag
    of a moved column stays open: its deadline follows the column (or, the column unset, stays as it
    was, "lifted"), and its history says so, with the cause and who made the change. Only an entry
    cures a flag (flags_cure); the scan raises a new one only where no flag is open."""
    now = timezone.now()
    column_of = DEADLINE_OF
    events = []
    for flag in ComplianceException.objects.select_for_update(of=("self",)).filter(
        table_id=table.pk, status=FlagStatus.OPEN
    ):
        column = column_of.get(flag.kind)
        if column not in moved:
            continue
        new = getattr(table.status, column)
        events.append(
            FlagEvent(
                flag=flag,
                kind=FlagEventKind.MOVED if new is not None else FlagEventKind.LIFTED,
                at=now,
                cause=FlagEventCause(cause),
                due_before=flag.due_at,
                due_after=new,
                actor=actor,
                actor_name=actor.display_name if actor else "",
                actor_credential=actor.credential_number if actor else "",
            )
        )
        if new is not None and new != flag.due_at:
            ComplianceException.objects.filter(pk=flag.pk).update(due_at=new)
    FlagEvent.objects.bulk_create(events)
    return len(events)


def flags_raise_due(*, entry: Entry, table: GamingTable) -> int:
    """The flags of the problems the entry made at once (an adjustment or replacement during play, a
    failed inspection of an open table, an inspection amended away while open), raised in the
    entry's transaction with the table locked: the next page shows them, not the next scan. The scan's
    own rules hold: one open flag per table and kind, never two for one missed deadline (the unique
    constraints, ON CONFLICT DO NOTHING), and the mail goes out with the next scan's."""
    kinds = rulebook_for(table.property.jurisdiction).FLAG_KINDS
    due = [
        ComplianceException(
            property_id=table.property_id,
            table_id=table.pk,
            kind=kind.code,
            citation=kind.citation_for(table.game),
            due_at=getattr(table.status, kind.deadline),
            detected_at=entry.recorded_at,
        )
        # The problems that exist at once (`ahead` False: the deadline is when it happened); a deadline
        # still ahead (a grace period, an interval) is the scan's when it passes.
        for kind in kinds
        if not kind.ahead
        and getattr(table.status, kind.deadline) is not None
        and getattr(table.status, kind.deadline) <= entry.recorded_at
    ]
    if not due:
        return 0
    return len(ComplianceException.objects.bulk_create(due, ignore_conflicts=True))


def entry_cures_flags(
    sender,
    *,
    entry: Entry,
    missed: dict[str, datetime],
    table: GamingTable,
    state_before: str | None = None,
    **kwargs,
) -> None:
    """inspections.logbook.signals.entry_recorded's receiver (connected in FlagsConfig.ready()): cures
    what the entry ended, then raises what it left due."""
    flags_cure(entry=entry, missed=missed, table=table, state_before=state_before)
    flags_raise_due(entry=entry, table=table)


def _citations() -> dict[tuple[str, str], list[tuple[str, str | None, str]]]:
    """What the rulebook cites for each flag kind, as the raise's CASE asks it: (kind, deadline
    column) → (jurisdiction, game, citation) rows, in the order a CASE tries them, each game the
    kind cites by its own paragraph (FlagKind.by_game) before the kind's citation for the other
    games (game None), as FlagKind.citation_for answers. A jurisdiction whose procedure module has
    no such kind has no row: the raise flags none of its tables for it."""
    rows: dict[tuple[str, str], list[tuple[str, str | None, str]]] = {}
    for jurisdiction, module in LOGBOOK_PROCEDURE.items():
        for kind in module.FLAG_KINDS:
            rows.setdefault((kind.code, kind.deadline), []).extend(
                [
                    *((jurisdiction, game, citation) for game, citation in kind.by_game),
                    (jurisdiction, None, kind.citation),
                ]
            )
    return rows


# The statements below are built from the models' table names and the registry's deadline columns
# only; every value (kinds, citations, times, jurisdictions) is a parameter. Their `now` is as the
# database adapted it (scan): a datetime, or on SQLite its text.


def _raise_sql(now: object) -> tuple[str, list]:
    """One INSERT … SELECT … UNION ALL …, one SELECT a kind of flag on its deadline column's partial
    index; ON CONFLICT DO NOTHING keeps one open flag a table and kind. Each row's citation is a
    CASE over its property's jurisdiction and its table's game, from the rulebook (_citations): one
    SELECT a kind, procedure module and game, each with its jurisdiction's subquery, took 5 ms to
    plan at any size (bench/README.md, goal 6)."""
    flag, table, prop = ComplianceException._meta.db_table, GamingTable._meta.db_table, Property._meta.db_table
    status = TableStatus._meta.db_table
    selects, params = [], []
    for (code, column), rows in _citations().items():
        whens, case_params = [], []
        for jurisdiction, game, citation in rows:
            on_game = [] if game is None else [game]
            whens.append(f"WHEN p.jurisdiction = %s{' AND t.game = %s' if on_game else ''} THEN %s")
            case_params += [jurisdiction, *on_game, citation]
        where = f"s.{column} <= %s"
        # Only where a jurisdiction has no such kind are the others' tables filtered (not its tables).
        having = list(dict.fromkeys(jurisdiction for jurisdiction, _game, _citation in rows))
        filtered = having if set(having) != set(Jurisdiction.values) else []
        if filtered:
            where += f" AND p.jurisdiction IN ({', '.join(['%s'] * len(filtered))})"
        # In the order of the placeholders: kind, the CASE's, detected_at, then the WHERE's.
        params += [code, *case_params, now, now, *filtered]
        selects.append(
            f"SELECT t.property_id, t.id, %s, CASE {' '.join(whens)} END, s.{column}, %s, 'open' "  # noqa: S608
            f"FROM {status} s JOIN {table} t ON t.id = s.table_id JOIN {prop} p ON p.id = t.property_id WHERE {where}"
        )
    sql = (
        f"INSERT INTO {flag} (property_id, table_id, kind, citation, due_at, detected_at, status) "
        + " UNION ALL ".join(selects)
        + " ON CONFLICT DO NOTHING"
    )
    return sql, params


def _lock_sql(now: object) -> tuple[str, list]:
    """Lock (in the logbook's order, one table at a time by id) every table the raise below would
    flag: a deadline passed and no open flag of its kind. An entry ending one of them waits for the
    scan, or the scan for the entry, so the scan never raises a flag from a deadline an entry has
    just ended, and the entry always sees the flag. Tables already flagged are left alone: the raise
    skips them (ON CONFLICT), and locking them again each minute cost the scan's second pass three
    times the rest of it.

    The due tables are found as the raise finds them, one SELECT a deadline joined by UNION ALL, each
    on its column's partial index (the tables where it is set); one `OR` of the seven deadlines read
    every table (at 100,000 tables 12 ms against 5, bench/README.md, goal 6). The tables are then
    read by primary key, `= ANY(ARRAY(…))`: as `IN (…)` PostgreSQL hashed the due tables and read
    every table to find them (at 10,000 tables 3.2 ms against 2.2; at 100,000 8.3 against 6.2). SQL and not a
    queryset's select_for_update(), which compiles only inside a transaction: the statement goes
    with the raise in one query string (_scan_in_one_trip)."""
    flag, table, status = ComplianceException._meta.db_table, GamingTable._meta.db_table, TableStatus._meta.db_table
    due, params = [], []
    for kind, column in DEADLINE_OF.items():
        due.append(
            f"SELECT s.table_id FROM {status} s WHERE s.{column} <= %s AND NOT EXISTS "  # noqa: S608
            f"(SELECT 1 FROM {flag} f WHERE f.table_id = s.table_id AND f.kind = %s AND f.status = 'open')"
        )
        params += [now, kind]
    return (
        f"SELECT t.id FROM {table} t WHERE t.id = ANY(ARRAY({' UNION ALL '.join(due)})) "  # noqa: S608
        "ORDER BY t.id FOR UPDATE OF t",
        params,
    )


def scan(now: datetime | None = None) -> dict[str, int]:
    """Raise a flag for every deadline passed that has none open; returns how many it raised.

    The scan closes nothing: a flag closes only with the entry that ends its condition (flags_cure)."""
    # As the database stores datetimes (on SQLite a UTC text that compares as the ORM's do).
    at = connection.ops.adapt_datetimefield_value(now or timezone.now())
    # Client-side binding (Django's default with psycopg 3) sends a string of several statements.
    if connection.vendor == "postgresql" and not connection.settings_dict["OPTIONS"].get("server_side_binding"):
        return _scan_in_one_trip(at)
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.features.has_select_for_update:  # SQLite has one writer at a time anyway
            cursor.execute(*_lock_sql(at))
        cursor.execute(*_raise_sql(at))
        raised = cursor.rowcount
    return {"raised": raised}


def _scan_in_one_trip(at: object) -> dict[str, int]:
    """The scan's two statements (lock, raise), in their order, sent to PostgreSQL as one query
    string: one round trip instead of four (BEGIN, two statements, COMMIT). Outside a transaction,
    PostgreSQL runs such a string as one transaction (an implicit one: all or nothing, the deferred
    foreign keys checked at its end); inside one, as part of it. Each statement still takes its own
    snapshot, after the lock before it, as when they were sent one by one."""
    lock_sql, lock_params = _lock_sql(at)
    parts = [
        # The lock's rows are not needed here, only the locks: one row back, not one per table.
        (f"SELECT count(*) FROM ({lock_sql}) locked", lock_params),  # noqa: S608
        _raise_sql(at),
    ]
    with connection.cursor() as cursor:
        cursor.execute("; ".join(sql for sql, _ in parts), [param for _, params in parts for param in params])
        raw = cursor.cursor  # psycopg's: a result per statement
        raw.nextset()
        raised = raw.rowcount
    return {"raised": raised}


def flag_acknowledge(*, flag_id: int, note: str, signature: SignatureInput) -> ComplianceException:
    """A compliance manager acknowledges an open flag with a signed note: written in its history, and
    the flag stays open until the logbook entry that ends its condition cures it (flags_cure)."""
    jurisdiction = ComplianceException.objects.values_list("property__jurisdiction", flat=True).get(pk=flag_id)
    signer = signer_authenticate(signature=signature, field="signature", jurisdiction=jurisdiction, in_logbook=False)
    with transaction.atomic():
        flag = ComplianceException.objects.select_for_update(of=("self",)).get(pk=flag_id)
        raise_if_any(rulebook_for(jurisdiction).may_resolve_flag(flag, signer=signer, note=note))
        FlagEvent.objects.create(
            flag=flag,
            kind=FlagEventKind.ACKNOWLEDGED,
            at=timezone.now(),
            actor=signer,
            actor_name=signer.display_name,
            actor_credential=signer.credential_number,
            note=note,
        )
    return flag


# And spends at most this long on one property's mail: a property whose mail is slow to go out
# waits for the next scan for the rest of its flags, never holding back the others'.
NOTIFY_SECONDS_PER_PROPERTY = 30.0
# A flag whose mail failed is tried again after 1, 2, 4… minutes, at most an hour apart (it stays
# open and in the morning digest meanwhile): it never stays first in line, scan after scan.
NOTIFY_RETRY_MAX_MINUTES = 60
# The SMTP server itself is unreachable (not one message refused): every other mail would wait for
# the same timeout, so this scan stops mailing and the next one tries again.
SERVER_UNREACHABLE = (
    smtplib.SMTPConnectError,
    smtplib.SMTPServerDisconnected,
    ConnectionError,
    TimeoutError,
    socket.gaierror,
)


def mail_retry_delay(attempts: int) -> timedelta:
    """How long a flag whose mail failed `attempts` times waits before the next try."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), NOTIFY_RETRY_MAX_MINUTES))


def notify_new_flags(now: datetime | None = None) -> int:
    """Mail each new flag to its property's security supervisors, one flag at a time, and mark it
    notified only once its mail went out; returns how many were marked.

    The properties take turns (`flags_to_mail`), each with at most NOTIFY_SECONDS_PER_PROPERTY of the
    scan. A mail that fails (the server refuses a recipient, a header is malformed…) is logged and
    leaves its flag unmarked, tried again after a growing delay (`mail_retry_delay`): it never stops
    another flag's mail, nor stays first in line. A worker lost between the mail and the commit mails
    that flag once more at the next scan: a repeated mail rather than a lost one.
    """
    now = now or timezone.now()
    notified = 0
    spent: dict[int, float] = {}
    for flag_id, property_id in flags_to_mail(now):
        if spent.get(property_id, 0.0) >= NOTIFY_SECONDS_PER_PROPERTY:
            continue  # this property's share of the scan is used: the rest at the next scan
        started = time.monotonic()
        try:
            notified += _notify_one(flag_id=flag_id, now=now)
        except DatabaseError:
            raise  # the task retries the whole scan
        except SERVER_UNREACHABLE as error:
            # The flag it happened on waits its turn too: were the server dropping only this mail,
            # the next scan begins with another property's.
            _mail_failed(flag_id, now)
            log.error("flag mail: the mail server cannot be reached (%s); the next scan tries again", error)
            break
        except Exception:
            _mail_failed(flag_id, now)
            log.exception("flag %s: its mail to the supervisors failed; it is tried again later", flag_id)
        finally:
            spent[property_id] = spent.get(property_id, 0.0) + time.monotonic() - started
    return notified


def _mail_failed(flag_id: int, now: datetime) -> None:
    """The flag's mail failed once more: its next try waits (1, 2, 4… minutes, at most an hour)."""
    with transaction.atomic():
        flag = ComplianceException.objects.select_for_update().filter(pk=flag_id, notified_at__isnull=True).first()
        if flag is None:
            return
        attempts = flag.mail_attempts + 1
        ComplianceException.objects.filter(pk=flag_id).update(
            mail_attempts=attempts, mail_retry_at=now + mail_retry_delay(attempts)
        )


def _notify_one(*, flag_id: int, now: datetime) -> int:
    """One flag's mail, sent while its row is locked, and the flag marked in the same transaction:
    two workers never mail it at once, and a failed mail rolls the mark back."""
    with transaction.atomic():
        flag = (
            ComplianceException.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(pk=flag_id, notified_at__isnull=True)
            .select_related("property", "table")
            .first()
        )
        if flag is None:
            return 0  # another worker holds it, or has mailed it already
        # One mail per language, each in its recipients' own (a mail has no browser to ask).
        for language, addresses in recipients_by_language(flag.property):
            with translation.override(language):
                send_mail(
                    subject=one_line(
                        _("[%(property)s] Table %(table)s: %(flag)s")
                        % {"property": flag.property.name, "table": flag.table.number, "flag": flag_label(flag)}
                    ),
                    message=flag_mail_text(flag),
                    from_email=settings.DEFAULT_FROM_EMAIL,
                    recipient_list=addresses,
                )
        ComplianceException.objects.filter(pk=flag.pk).update(notified_at=now)
    return 1


DIGEST_HOUR = 7  # local time at the property: the morning digest of what is still open
# The last local hour a digest that could not go out at 07:00 (the mail server refused it, beat
# was down) is still sent in: a morning's digest, never an evening's.
DIGEST_LAST_HOUR = 11


def send_digests(now: datetime | None = None) -> int:
    """Each property's morning digest of its open flags, once a local day, from its 07:00 hour.

    Beat asks every minute; each property answers by its own clock, so New York gets its digest
    at 07:00 EST/EDT and Los Angeles three hours later, and a server started at 07:47 sends it at
    07:47, in the 07:00 hour (asked every hour on the hour, it went out at 08:00). A digest that
    failed is tried again at each check until 11:00 local, and never later: "at or after 07:00"
    sent the first digest at whatever evening hour the property was set up.
    """
    now = now or timezone.now()
    sent = 0
    for prop in Property.objects.exclude(notify_emails=[]):
        local = timezone.localtime(now, prop.zone)
        if not DIGEST_HOUR <= local.hour <= DIGEST_LAST_HOUR:
            continue
        digest, _created = Digest.objects.get_or_create(property=prop)
        if digest.sent_on == local.date():
            continue
        # Claim the day first: two beat ticks or workers never send the same digest twice.
        claimed = Digest.objects.filter(pk=prop.pk).exclude(sent_on=local.date()).update(sent_on=local.date())
        if not claimed:
            continue
        flags = list(
            ComplianceException.objects.filter(property=prop, status=FlagStatus.OPEN)
            .select_related("property", "table")
            .order_by("due_at")
        )
        try:
            for language, addresses in recipients_by_language(prop):
                with translation.override(language):
                    subject = _("[%(property)s] %(count)s open flag(s) on %(day)s") % {
                        "property": prop.name,
                        "count": len(flags),
                        "day": date_text(local.date()),
                    }
                    send_mail(
                        subject=one_line(subject),
                        message="\n\n".join(flag_mail_text(flag) for flag in flags) or _("No open flags."),
                        from_email=settings.DEFAULT_FROM_EMAIL,
                        recipient_list=addresses,
                    )
        except DatabaseError:
            raise
        except Exception:
            # One property's digest failing stops no other's; the day is given back, so the next
            # hourly check sends it.
            log.exception("property %s: its morning digest failed; the next hourly check tries again", prop.pk)
            Digest.objects.filter(pk=prop.pk, sent_on=local.date()).update(sent_on=digest.sent_on)
            continue
        sent += 1
    return sent
