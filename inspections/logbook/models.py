"""The logbook: append-only entries and their signatures, hash-chained per property.

Rows are written only by inspections.logbook.services and never updated or deleted: database
triggers refuse UPDATE and DELETE, and a mistake is corrected by an amendment entry.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from compliance.casinos.models import GamingTable, Property, PropertyScopedQuerySet, TableState
from compliance.rulebook.flags import DEADLINE_COLUMNS
from config.validators import note_validators, printable_line


class EntryKind(models.TextChoices):
    UNLOCK = "unlock", _("Wheel unlocked")
    OPEN = "open", _("Table opened")
    CLOSE = "close", _("Table closed")
    COVER = "cover", _("Wheel covered and locked")
    INSPECTION = "inspection", _("Inspection")
    ADJUSTMENT = "adjustment", _("Adjustment")
    REPLACEMENT = "replacement", _("Replacement")
    IRREGULARITY = "irregularity", _("Irregularity")
    DECK_CHANGE = "deck_change", _("Deck change")
    AMENDMENT = "amendment", _("Amendment")


# The kinds of entry § 617a.2(b) and (d) are about: a part of the wheel adjusted or replaced.
ADJUSTMENT_KINDS = (EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT)


class SignatureMeaning(models.TextChoices):
    RECORDED = "recorded", _("Recorded")
    INSPECTED = "inspected", _("Inspected")
    PERFORMED = "performed", _("Performed")
    WITNESSED = "witnessed", _("Witnessed")
    AMENDED = "amended", _("Amended")
    APPROVED = "approved", _("Approved")


# What an amendment says of the entry it amends. The record (the entry's description, the API, the
# register) keeps English; a page passes `gettext` to say it in the reader's language.
AMENDMENT_WORDS = {
    "correction": gettext_noop("correction"),
    "entered_in_error": gettext_noop("entered in error"),
    "duplicate": gettext_noop("duplicate of #{seq}"),
}


def amendment_label(details: dict, translate: Callable[[str], str] = str) -> str:
    """What an amendment says of the entry it amends: "correction", "entered in error", "duplicate of #5"."""
    kind = details.get("amendment_kind", "correction")
    words = translate(AMENDMENT_WORDS.get(kind, AMENDMENT_WORDS["correction"]))
    return words.format(seq=details.get("duplicate_of")) if kind == "duplicate" else words


class EntryQuerySet(PropertyScopedQuerySet):
    """Entries are seen as their property is (`restrict`)."""

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


class ChainHead(models.Model):
    """The head of a property's hash chain: how many entries it has and the last one's hash ("0" * 64
    while empty). Moved by every append (services.entry_append) under this row's lock, which is the
    chain's lock; verification (chain.chain_verify) compares it with the entries, so a deleted last
    entry shows too. Made at the property's first append: no row reads as an empty chain."""

    property = models.OneToOneField(
        Property, on_delete=models.CASCADE, primary_key=True, related_name="chain", editable=False
    )
    length = models.PositiveBigIntegerField(default=0, editable=False)
    head = models.CharField(max_length=64, default="0" * 64, editable=False, validators=[printable_line])

    def __str__(self) -> str:
        return f"{self.property_id}: {self.length} entries, head {self.head[:12]}…"


# The overdue scan's deadline columns of a table's status (below), one per kind of flag: the
# rulebook's registry of flag kinds names them (compliance.rulebook.flags.FLAG_KINDS).
TABLE_DEADLINES = DEADLINE_COLUMNS


class TableStatus(models.Model):
    """Where a table is in its day, by its logbook: its state, the clocks its entries set and the
    overdue scan's deadlines (compliance.rulebook.deadlines), one row a table.

    Written only by the logbook's services, with the table's row locked and in the same transaction as
    the entry (or the configuration, policy or approval change) that moves it, so a reader, and the
    overdue scan, never walks the history."""

    table = models.OneToOneField(
        GamingTable, on_delete=models.CASCADE, primary_key=True, related_name="status", editable=False
    )
    state = models.CharField(editable=False, max_length=20, choices=TableState.choices, default=TableState.CLOSED)
    # Why the table may not open although it is not locked: "" (never inspected since it was
    # closed), "adjustment", "replacement", "configuration" (changed while closed: the product's
    # policy, compliance.casinos.services.table_update) or "failed" (the latest inspection failed).
    inspection_void_reason = models.CharField(editable=False, max_length=20, blank=True, validators=[printable_line])
    last_entry_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_inspection_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_adjustment_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_replacement_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_opened_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_closed_at = models.DateTimeField(editable=False, null=True, blank=True)
    last_deck_change_at = models.DateTimeField(editable=False, null=True, blank=True)
    # The earliest of the deadlines below, shown on the floor as "due".
    next_due = models.DateTimeField(editable=False, null=True, blank=True, db_index=True)
    # The overdue scan's deadlines (docs/architecture.md: The flag kinds): each is the moment a kind of
    # flag is due, or null while nothing is pending. A problem that is one at once (an adjustment on
    # an open table) is "due" when it happened.
    uninspected_since = models.DateTimeField(editable=False, null=True, blank=True)
    adjusted_since = models.DateTimeField(editable=False, null=True, blank=True)
    replaced_since = models.DateTimeField(editable=False, null=True, blank=True)
    cover_due_at = models.DateTimeField(editable=False, null=True, blank=True)
    inspection_due_at = models.DateTimeField(editable=False, null=True, blank=True)
    decks_due_at = models.DateTimeField(editable=False, null=True, blank=True)
    approval_due_at = models.DateTimeField(editable=False, null=True, blank=True)

    class Meta:
        verbose_name_plural = "table statuses"
        # One small index per deadline, of the tables where it is set: the scan reads only those.
        indexes = [
            models.Index(fields=[name], condition=models.Q(**{f"{name}__isnull": False}), name=f"status_{name}")
            for name in TABLE_DEADLINES
        ]

    def __str__(self) -> str:
        return f"{self.table_id}: {self.state}"


class Entry(models.Model):
    """One line of the logbook. Kind-specific fields live in `details` (see services)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="entries")
    seq = models.PositiveBigIntegerField(help_text="Position in the property's hash chain, from 1.")
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="entries")
    # The number the table had when the entry was made: part of the signed content.
    table_number = models.CharField(max_length=20, validators=[printable_line])
    kind = models.CharField(max_length=20, choices=EntryKind.choices)
    occurred_at = models.DateTimeField(help_text="When it happened.")
    recorded_at = models.DateTimeField(default=timezone.now, help_text="When it was logged.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    description = models.TextField(blank=True, validators=note_validators())
    passed = models.BooleanField(null=True, blank=True, help_text="Inspections: every item passed.")
    details = models.JSONField(default=dict, blank=True)
    amends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments")
    prev_hash = models.CharField(max_length=64, validators=[printable_line])
    entry_hash = models.CharField(max_length=64, unique=True, validators=[printable_line])

    # Read with the entry by EntryQuerySet.for_register(): its property's jurisdiction and time zone.
    jurisdiction: str
    time_zone: str

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
            # The register's order across properties (a regulator's jurisdiction): its first page is
            # the index's first rows, whatever the number of properties, with no sort of them all.
            models.Index(fields=["occurred_at", "seq", "id"], name="entry_register_order"),
            # The same order for one kind of entry (GET /api/inspections/ and the other kinds' lists).
            models.Index(fields=["kind", "occurred_at", "seq", "id"], name="entry_kind_order"),
            # A table's page: its entries newest first, 25 at a time before a given position.
            models.Index(fields=["table", "seq"], name="entry_table_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.get_kind_display()} at table {self.table_number}"

    @builtins.property  # `property` is a field here
    def amended_by(self) -> list[dict]:
        """The amendments made to this entry, oldest first: number, id and what each says ("entered in error")."""
        return self._amendments(str)

    @builtins.property
    def amended_by_in_words(self) -> list[dict]:
        """The same, what each says in the reader's language (a page's; the record keeps English)."""
        return self._amendments(gettext)

    def _amendments(self, translate: Callable[[str], str]) -> list[dict]:
        if "prefetched_amendments" not in self.__dict__:
            self.prefetched_amendments = list(self.amendments.order_by("seq").only("id", "seq", "amends_id", "details"))
        return [
            {
                "id": a.pk,
                "seq": a.seq,
                "label": amendment_label(a.details, translate),
                "reason": a.details.get("reason", ""),
            }
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


class CheckpointQuerySet(PropertyScopedQuerySet):
    """Checkpoints are seen as their property is (`restrict`)."""


class Checkpoint(models.Model):
    """A signed statement of a property's chain: "entry #`entry_seq` of property `property` has the hash
    `head`", made at `signed_at` and signed with the Ed25519 key `key_id`, which is not in the database
    (config/keyring.py). Append-only, numbered per property; written only by
    services.checkpoint_sign, under the chain's lock. `timestamp_token` is an RFC 3161 token over the
    signature from the configured authority; without one, `timestamp_note` says why."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="checkpoints")
    seq = models.PositiveBigIntegerField(help_text="The checkpoint's number in its property's, from 1.")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="+")
    entry_seq = models.PositiveBigIntegerField(help_text="The number of the last entry it covers.")
    head = models.CharField(max_length=64, help_text="That entry's hash.", validators=[printable_line])
    signed_at = models.DateTimeField()
    reason = models.CharField(max_length=20, choices=[("interval", "Interval"), ("report", "Report")])
    key_id = models.CharField(max_length=16, validators=[printable_line])
    signature = models.CharField(max_length=128, help_text="Ed25519, hexadecimal.", validators=[printable_line])
    timestamp_token = models.BinaryField(null=True, blank=True, editable=False)
    timestamp_note = models.CharField(max_length=300, blank=True, validators=[printable_line])
    # The property's identity as signed (format 2): a checkpoint binds the licence and jurisdiction, not
    # only the property's number. Empty (NULL) in a format-1 checkpoint, signed before they were bound;
    # nullable so that adding them keeps the append-only table (SQLite would rebuild it for a default).
    licence_number = models.CharField(max_length=50, null=True, blank=True, validators=[printable_line])
    jurisdiction = models.CharField(max_length=2, null=True, blank=True, validators=[printable_line])

    objects = CheckpointQuerySet.as_manager()

    class Meta:
        ordering = ["property", "seq"]
        constraints = [models.UniqueConstraint(fields=["property", "seq"], name="checkpoint_seq_unique_per_property")]
        # A report's segment carries the checkpoints over its entries (reports.render.segment_write): found
        # by the entries they cover, not by reading every checkpoint of the property (583,333 at 1,000,000
        # entries, 0.3 s a report).
        indexes = [models.Index(fields=["property", "entry_seq"], name="checkpoint_entry_seq")]

    def __str__(self) -> str:
        return f"checkpoint #{self.seq} of property {self.property_id}: entry #{self.entry_seq}"

    @builtins.property  # `property` is the field above
    def format(self) -> str:
        return "logbook-checkpoint/1" if self.licence_number is None else "logbook-checkpoint/2"


class EntryPhoto(models.Model):
    """A photo attached to an entry when it was signed: its original's SHA-256 is in the entry's signed
    `details["photos"]`, so the signatures and the chain bind it. Append-only like the entry: never
    replaced or removed (an amendment may add photos of its own). Two files under the storage, both
    named by the product, never by the client: the original as uploaded (the bytes its hash is of,
    kept for verification, never served) and a copy re-encoded without any metadata (no EXIF, no
    location) that the pages show, served only to those who may see the entry."""

    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="photos")
    position = models.PositiveSmallIntegerField(help_text="Its place among the entry's photos, from 1.")
    sha256 = models.CharField(max_length=64, help_text="SHA-256 of the original file.", validators=[printable_line])
    kind = models.CharField(max_length=8, validators=[printable_line])
    size = models.PositiveIntegerField(help_text="The original's size in bytes.")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    item = models.CharField(
        max_length=60, blank=True, help_text="The checklist item it shows, if any.", validators=[printable_line]
    )
    original = models.FileField(upload_to="photos/", max_length=200)
    display = models.FileField(upload_to="photos/", max_length=200)

    class Meta:
        ordering = ["entry", "position"]
        constraints = [models.UniqueConstraint(fields=["entry", "position"], name="entry_photo_position_unique")]

    def __str__(self) -> str:
        return f"photo {self.position} of entry {self.entry_id}: {self.sha256[:12]}…"


# The tables the append-only triggers protect (installed by this app's migrations).
APPEND_ONLY_TABLES = ("logbook_entry", "logbook_signature", "logbook_checkpoint", "logbook_entryphoto")
