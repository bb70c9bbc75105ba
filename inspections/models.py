"""The logbook: append-only entries and their signatures, hash-chained per property.

Rows are written only by inspections.services and never updated or deleted: database triggers
(migration 0002) refuse UPDATE and DELETE, and a mistake is corrected by an amendment entry.
"""

from __future__ import annotations

import builtins

from django.conf import settings
from django.db import models
from django.utils import timezone

from compliance.models import GamingTable, Property
from compliance.validators import note_validators, printable_line


class EntryKind(models.TextChoices):
    UNLOCK = "unlock", "Wheel unlocked"
    OPEN = "open", "Table opened"
    CLOSE = "close", "Table closed"
    COVER = "cover", "Wheel covered and locked"
    INSPECTION = "inspection", "Inspection"
    ADJUSTMENT = "adjustment", "Adjustment"
    REPLACEMENT = "replacement", "Replacement"
    IRREGULARITY = "irregularity", "Irregularity"
    DECK_CHANGE = "deck_change", "Deck change"
    AMENDMENT = "amendment", "Amendment"


class SignatureMeaning(models.TextChoices):
    RECORDED = "recorded", "Recorded"
    INSPECTED = "inspected", "Inspected"
    PERFORMED = "performed", "Performed"
    WITNESSED = "witnessed", "Witnessed"
    AMENDED = "amended", "Amended"
    APPROVED = "approved", "Approved"


def amendment_label(details: dict) -> str:
    """What an amendment says of the entry it amends: "correction", "entered in error", "duplicate of #5"."""
    kind = details.get("amendment_kind", "correction")
    if kind == "duplicate":
        return f"duplicate of #{details.get('duplicate_of')}"
    return {"entered_in_error": "entered in error"}.get(kind, "correction")


class EntryQuerySet(models.QuerySet):
    def for_register(self) -> EntryQuerySet:
        """Everything a register row prints, in a constant number of queries.

        Only the property's time zone (rows show local time) and jurisdiction (its checklist) are
        joined, not whole related rows: building three model instances a row was most of a page's
        cost. The amendments made to each entry come along, so each row says it was amended and how.
        """
        return self.annotate(
            time_zone=models.F("property__time_zone"), jurisdiction=models.F("property__jurisdiction")
        ).prefetch_related(
            models.Prefetch("signatures", to_attr="prefetched_signatures"),
            models.Prefetch(
                "amendments",
                queryset=Entry.objects.order_by("seq").only("id", "seq", "amends_id", "details"),
                to_attr="prefetched_amendments",
            ),
        )


class Entry(models.Model):
    """One line of the logbook. Kind-specific fields live in `details` (see services)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="entries")
    seq = models.PositiveBigIntegerField(help_text="Position in the property's hash chain, from 1.")
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="entries")
    # The number the table had when the entry was made: part of the signed content.
    table_number = models.CharField(max_length=20, validators=[printable_line])
    kind = models.CharField(max_length=20, choices=EntryKind.choices)
    occurred_at = models.DateTimeField(help_text="When it happened (UTC).")
    recorded_at = models.DateTimeField(default=timezone.now, help_text="When it was logged (UTC).")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    description = models.TextField(blank=True, validators=note_validators())
    passed = models.BooleanField(null=True, blank=True, help_text="Inspections: every item passed.")
    details = models.JSONField(default=dict, blank=True)
    amends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments")
    prev_hash = models.CharField(max_length=64, validators=[printable_line])
    entry_hash = models.CharField(max_length=64, unique=True, validators=[printable_line])

    objects = EntryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["occurred_at", "seq"]
        constraints = [models.UniqueConstraint(fields=["property", "seq"], name="entry_seq_unique_per_property")]
        indexes = [
            # `property` is included so the scoped count of a table's entries (every page of the
            # register) is an index-only scan on PostgreSQL.
            models.Index(fields=["table", "occurred_at", "seq"], include=["property"], name="entry_table_time"),
            models.Index(fields=["property", "occurred_at", "seq"], name="entry_property_time"),
            # A table's page: its entries newest first, 25 at a time before a given position.
            models.Index(fields=["table", "seq"], name="entry_table_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.get_kind_display()} at table {self.table_number}"

    @builtins.property  # `property` is a field here
    def amended_by(self) -> list[dict]:
        """The amendments made to this entry, oldest first: number, id and what each says ("entered in error")."""
        if "prefetched_amendments" not in self.__dict__:
            self.prefetched_amendments = list(self.amendments.order_by("seq").only("id", "seq", "amends_id", "details"))
        return [
            {"id": a.pk, "seq": a.seq, "label": amendment_label(a.details), "reason": a.details.get("reason", "")}
            for a in self.prefetched_amendments
        ]

    @builtins.property
    def void(self) -> bool:
        """Marked entered in error or a duplicate by an amendment: it stays in the log, struck through."""
        return any(a["label"] != "correction" for a in self.amended_by)

    @builtins.property  # `property` is a field here
    def signature_list(self) -> list[Signature]:
        """The signatures in signing order (the performer's first), prefetched when listed."""
        if "prefetched_signatures" not in self.__dict__:
            self.prefetched_signatures = list(self.signatures.all())
        return self.prefetched_signatures


class Signature(models.Model):
    """An electronic signature made at the moment of signing, bound to the signed content's hash."""

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="signatures")
    signer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="signatures")
    # As they were at the moment of signing: a later change of name or credential can't alter them.
    signer_name = models.CharField(max_length=200, validators=[printable_line])
    credential_number = models.CharField(max_length=50, validators=[printable_line])
    meaning = models.CharField(max_length=20, choices=SignatureMeaning.choices)
    signed_at = models.DateTimeField()
    content_hash = models.CharField(
        max_length=64, help_text="SHA-256 of the entry content signed.", validators=[printable_line]
    )

    class Meta:
        ordering = ["entry", "id"]

    def __str__(self) -> str:
        return f"{self.signer_name} ({self.credential_number}), {self.meaning}"


class FlagStatus(models.TextChoices):
    OPEN = "open", "Open"
    RESOLVED = "resolved", "Resolved"


class FlagResolution(models.TextChoices):
    """How a flag was resolved (blank while open, and on flags resolved before this was recorded)."""

    CURED = "cured", "Cured by a logbook entry"
    CLEARED = "cleared", "Cured without a logbook entry (an approval, a policy or a configuration change)"
    MANAGER = "manager", "Resolved by a compliance manager's signed note"


class ComplianceException(models.Model):
    """A flag the overdue scan raised: a table late or wrong, with the rule and the deadline it missed.

    At most one open flag per table and kind, and never two for the same missed deadline (both
    are unique constraints, so concurrent scans cannot duplicate one). It resolves itself when the
    problem is cured or by a compliance manager's signed note; `resolution` says which, and a cure
    by a logbook entry names that entry (`cured_by_entry`), recorded in the entry's own
    transaction: the entry that moved the deadline the table had missed.
    """

    # No index of their own: flag_property_status and one_flag_per_missed_deadline lead with them
    # (fewer indexes to write when a scan raises many flags at once).
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="flags", db_index=False)
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="flags", db_index=False)
    kind = models.CharField(max_length=40, validators=[printable_line])
    citation = models.CharField(max_length=200, validators=[printable_line])
    due_at = models.DateTimeField(help_text="The deadline missed (for a problem at once: when it happened).")
    detected_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=FlagStatus.choices, default=FlagStatus.OPEN)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Defaults in the database too: the scan inserts flags with one SQL statement.
    resolver_name = models.CharField(max_length=200, blank=True, db_default="", validators=[printable_line])
    resolver_credential = models.CharField(max_length=50, blank=True, db_default="", validators=[printable_line])
    resolution_note = models.TextField(blank=True, db_default="", validators=note_validators())
    resolution = models.CharField(max_length=10, choices=FlagResolution.choices, blank=True, db_default="")
    cured_by_entry = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cured_flags",
        db_index=False,  # read from the flag only; no entry is ever deleted
        help_text="The logbook entry that moved the missed deadline, so cured the flag.",
    )
    notified_at = models.DateTimeField(null=True, blank=True, help_text="When the supervisors were mailed.")

    class Meta:
        ordering = ["-detected_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "kind"], condition=models.Q(status="open"), name="one_open_flag_per_table_kind"
            ),
            models.UniqueConstraint(fields=["table", "kind", "due_at"], name="one_flag_per_missed_deadline"),
            # Each way of resolving carries its own evidence, and only it: an entry for a cure, a
            # signer for a manager's resolution, neither for a cure without an entry. Blank: open,
            # or resolved before the resolution was recorded.
            models.CheckConstraint(
                condition=(
                    models.Q(resolution="cured", cured_by_entry__isnull=False, resolved_by__isnull=True)
                    | models.Q(resolution="manager", resolved_by__isnull=False, cured_by_entry__isnull=True)
                    | models.Q(resolution__in=["cleared", ""], resolved_by__isnull=True, cured_by_entry__isnull=True)
                )
                & (models.Q(status="resolved") | models.Q(resolution="")),
                name="flag_resolution_evidence",
            ),
        ]
        indexes = [
            models.Index(fields=["property", "status"], name="flag_property_status"),
            models.Index(fields=["notified_at"], condition=models.Q(notified_at__isnull=True), name="flag_unnotified"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on table {self.table_id} ({self.status})"


class ReportKind(models.TextChoices):
    INSPECTION_REGISTER = "inspection_register", "Inspection log register (§ 617a.2(e))"
    TABLE_HISTORY = "table_history", "Table history"
    EXCEPTIONS = "exceptions", "Flags and their resolution"
    APPROVALS_IN_EFFECT = "approvals_in_effect", "Layouts and Rules Submissions in effect"


class ReportStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Being generated"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ChainState(models.TextChoices):
    INTACT = "intact", "Intact"
    BROKEN = "broken", "Broken"
    NOT_VERIFIED = "not_verified", "Not verified"


class Report(models.Model):
    """An audit report asked for, generated in the background, stored with its SHA-256.

    Its file is served only once `status` is done: it is written whole, hashed, then published.
    """

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="reports")
    kind = models.CharField(max_length=30, choices=ReportKind.choices)
    format = models.CharField(max_length=3, choices=[("pdf", "PDF"), ("csv", "CSV")], default="pdf")
    period_from = models.DateField()
    period_to = models.DateField()
    tables = models.ManyToManyField(GamingTable, blank=True, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=ReportStatus.choices, default=ReportStatus.QUEUED)
    # Whether its task reached the broker; one that did not (Redis down) is sent again by beat.
    sent = models.BooleanField(default=False)
    # 0 to 100, to a tenth: a long report's 500 pieces each move it by less than one percent.
    progress = models.FloatField(default=0)
    # The rendering in pieces: how many pieces (of both passes) there are, and how many are done.
    chunks_total = models.PositiveIntegerField(default=0)
    chunks_done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, validators=note_validators())
    file = models.FileField(upload_to="reports/", blank=True)
    sha256 = models.CharField(max_length=64, blank=True, validators=[printable_line])
    size = models.PositiveBigIntegerField(null=True, blank=True)
    pages = models.PositiveIntegerField(null=True, blank=True)
    rows = models.PositiveIntegerField(null=True, blank=True)
    # The property's hash chain when the report was made: intact (True), broken (False, with the
    # first broken entry and why), or not verified (None): an unknown is never shown as broken.
    chain_intact = models.BooleanField(null=True, blank=True)
    chain_head = models.CharField(max_length=64, blank=True, validators=[printable_line])
    chain_broken_seq = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The first broken entry's number in the property's chain."
    )
    chain_broken_reason = models.TextField(blank=True, validators=note_validators())
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [models.Index(fields=["property", "-requested_at"], name="report_property_recent")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.period_from}–{self.period_to} ({self.status})"

    @builtins.property
    def chain_state(self) -> str:
        """intact, broken or not_verified: the three answers the list, the API and the cover give."""
        return {True: ChainState.INTACT, False: ChainState.BROKEN}.get(self.chain_intact, ChainState.NOT_VERIFIED)

    @builtins.property
    def chain_verdict(self) -> str:
        """The verdict in words, naming the first broken entry."""
        if self.chain_intact is None:
            return "Not verified"
        if self.chain_intact:
            return "Verified: intact"
        where = f" at entry #{self.chain_broken_seq}" if self.chain_broken_seq else ""
        return f"BROKEN{where}" + (f": {self.chain_broken_reason}" if self.chain_broken_reason else "")


class ReportDownload(models.Model):
    """Every download of a report: who, when, which file (its hash). Append-only, like the logbook."""

    report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="downloads")
    downloaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    downloaded_at = models.DateTimeField(default=timezone.now)
    sha256 = models.CharField(max_length=64, validators=[printable_line])

    class Meta:
        ordering = ["-downloaded_at", "-id"]

    def __str__(self) -> str:
        return f"Report {self.report_id} downloaded by {self.downloaded_by_id} at {self.downloaded_at:%Y-%m-%d %H:%M}"


# The tables the append-only triggers protect (migration 0002 installs them).
APPEND_ONLY_TABLES = ("inspections_entry", "inspections_signature", "inspections_reportdownload")
