"""Flags: what the overdue scan found late or wrong at a table, and how each was resolved."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from compliance.casinos.models import GamingTable, Property, PropertyScopedQuerySet
from compliance.rulebook.flags import FLAG_KINDS
from config.validators import note_validators, printable_line
from inspections.logbook.models import Entry


class FlagStatus(models.TextChoices):
    OPEN = "open", _("Open")
    RESOLVED = "resolved", _("Resolved")


class FlagResolution(models.TextChoices):
    """How a flag was closed (blank while open). Only `cured` is written now: a flag closes only with
    the logbook entry that ends its condition. `cleared` and `manager` are kept for the flags closed
    before that rule (by a policy, approval or configuration change; by a manager's note)."""

    CURED = "cured", _("Cured by a logbook entry")
    CLEARED = "cleared", _("Cured without a logbook entry (an approval, a policy or a configuration change)")
    MANAGER = "manager", _("Resolved by a compliance manager's signed note")


class FlagEventKind(models.TextChoices):
    """What happened to an open flag besides its raising and its cure (both on the flag itself)."""

    MOVED = "moved", _("Deadline moved")
    LIFTED = "lifted", _("Deadline lifted")
    ACKNOWLEDGED = "acknowledged", _("Acknowledged")


class FlagEventCause(models.TextChoices):
    """What moved an open flag's deadline without a logbook entry."""

    POLICY = "policy", _("the property's overdue policy or time zone changed")
    APPROVAL = "approval", _("a layout or Rules Submission was decided")
    CONFIGURATION = "configuration", _("the table's configuration changed")


class Digest(models.Model):
    """The property's morning digest (services.send_digests): the local day it was last claimed, so two
    beat ticks or workers never send one day's digest twice."""

    property = models.OneToOneField(
        Property, on_delete=models.CASCADE, primary_key=True, related_name="digest", editable=False
    )
    sent_on = models.DateField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return f"{self.property_id}: sent on {self.sent_on}"


class ComplianceException(models.Model):
    """A flag the overdue scan raised: a table late or wrong, with the rule and the deadline it missed.

    At most one open flag per table and kind (a unique constraint, so concurrent scans cannot
    duplicate one). It closes only when the logbook entry that ends its condition is recorded, and
    names that entry (`cured_by_entry`), in the entry's own transaction. A policy, approval or
    configuration change moves its deadline (`due_at`) and a compliance manager may acknowledge it
    with a signed note; both are in its `history` (FlagEvent), and neither closes it.
    """

    # No index of their own: flag_property_status and flag_table_kind lead with them (fewer indexes to
    # write when a scan raises many flags at once).
    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="flags", db_index=False)
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="flags", db_index=False)
    # The registry of flag kinds (compliance.rulebook.flags) is the list of codes and their labels.
    kind = models.CharField(
        max_length=40, choices=[(kind.code, kind.label) for kind in FLAG_KINDS], validators=[printable_line]
    )
    citation = models.CharField(max_length=200, validators=[printable_line])
    due_at = models.DateTimeField(
        help_text="The deadline missed (for a problem at once: when it happened); moved by a policy, approval or "
        "configuration change while open (its history says from what)."
    )
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
        help_text="The logbook entry that ended the flag's condition, so cured it.",
    )
    notified_at = models.DateTimeField(null=True, blank=True, help_text="When the supervisors were mailed.")
    # A mail that failed: how many times, and when it is tried again (inspections.flags.services).
    mail_attempts = models.PositiveSmallIntegerField(default=0, db_default=0)  # the scan inserts in SQL
    mail_retry_at = models.DateTimeField(null=True, blank=True)

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["-detected_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "kind"], condition=models.Q(status="open"), name="one_open_flag_per_table_kind"
            ),
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
            # A table's flags (its page, the PROTECT of its row). Not unique: a deadline the table
            # misses again after a cure (the same time, by chance) is flagged again.
            models.Index(fields=["table", "kind", "due_at"], name="flag_table_kind"),
            # The flags list's order (newest first): a regulator's first page is its first rows.
            models.Index(fields=["-detected_at", "-id"], name="flag_newest_first"),
            models.Index(fields=["notified_at"], condition=models.Q(notified_at__isnull=True), name="flag_unnotified"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} on table {self.table_id} ({self.status})"


class FlagEvent(models.Model):
    """A line of an open flag's history: its deadline moved or lifted by a change that is not a
    logbook entry (`cause`, by `actor`), or a person's signed acknowledgement (`note`). Written by
    inspections.flags.services only, never changed."""

    flag = models.ForeignKey(ComplianceException, on_delete=models.PROTECT, related_name="history")
    kind = models.CharField(max_length=20, choices=FlagEventKind.choices)
    at = models.DateTimeField()
    cause = models.CharField(max_length=20, choices=FlagEventCause.choices, blank=True, default="")
    due_before = models.DateTimeField(null=True, blank=True)
    due_after = models.DateTimeField(
        null=True, blank=True, help_text="The new deadline (empty: lifted, the condition no longer has one)."
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=200, blank=True, default="", validators=[printable_line])
    actor_credential = models.CharField(max_length=50, blank=True, default="", validators=[printable_line])
    note = models.TextField(blank=True, default="", validators=note_validators())

    class Meta:
        ordering = ["at", "id"]
        constraints = [
            # An acknowledgement is signed and says why; a move names its cause.
            models.CheckConstraint(
                condition=(
                    models.Q(kind="acknowledged", actor__isnull=False, cause="")
                    | (models.Q(kind__in=["moved", "lifted"]) & ~models.Q(cause=""))
                ),
                name="flag_event_evidence",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of flag {self.flag_id}"
