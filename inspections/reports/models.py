"""Audit reports: asked for, generated in the background, stored with their SHA-256, and every
download of one recorded."""

from __future__ import annotations

import builtins
from datetime import UTC

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.casinos.clock import local_text
from compliance.casinos.models import GamingTable, Property, PropertyScopedQuerySet
from config.validators import note_validators, printable_line
from config.visibility import NOTHING


class ReportKind(models.TextChoices):
    INSPECTION_REGISTER = "inspection_register", _("Inspection log register (§ 617a.2(e))")
    TABLE_HISTORY = "table_history", _("Table history")
    EXCEPTIONS = "exceptions", _("Flags and their resolution")
    APPROVALS_IN_EFFECT = "approvals_in_effect", _("Layouts and Rules Submissions in effect")


class ReportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Being generated")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ChainState(models.TextChoices):
    INTACT = "intact", _("Intact")
    BROKEN = "broken", _("Broken")
    NOT_VERIFIED = "not_verified", _("Not verified")


class ReportQuerySet(PropertyScopedQuerySet):
    """A property's reports: seen by those of its people who may ask for them (its compliance manager,
    its jurisdiction's regulators), nobody else."""

    def visibility(self, person) -> models.Q:
        return super().visibility(person) if person.may("reports.request") else NOTHING


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
    # What the report's check covered (the cover says it): from the signed checkpoint it started from
    # (None: the property's first entry) to entry #chain_to_seq, re-hashing chain_rows_read entries.
    # What lies before that checkpoint rests on its signature; verify_logbook checks the whole chain.
    chain_from = models.ForeignKey(
        "logbook.Checkpoint", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    chain_to_seq = models.PositiveBigIntegerField(null=True, blank=True)
    chain_rows_read = models.PositiveBigIntegerField(null=True, blank=True)
    # The signed checkpoint made for the report (printed on its cover, the end of the chain segment it
    # carries): the regulator's receipt of the history up to it. None without a checkpoint key.
    checkpoint = models.ForeignKey(
        "logbook.Checkpoint", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The run rendering it (set by `plan`, a random token): only the pieces this run rendered, their
    # hashes recorded as they were written (ReportPiece), are joined, signed and published.
    run = models.CharField(max_length=32, blank=True, validators=[printable_line])
    # Who signed the PDF (the certificate's subject), empty while unsigned.
    signed_by = models.CharField(max_length=300, blank=True, validators=[printable_line])
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = ReportQuerySet.as_manager()

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [
            models.Index(fields=["property", "-requested_at"], name="report_property_recent"),
            # The reports list's order across properties (a regulator's): its first page is the index's first rows.
            models.Index(fields=["-requested_at", "-id"], name="report_newest_first"),
        ]

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


class ReportPiece(models.Model):
    """One piece of a PDF report's run, as `plan` cut it: the rows it holds, then, once rendered and
    numbered, its pages and the SHA-256 of each file, checked before the next step reads it. The task
    messages carry only the report's id and the piece's index: every file is found from these rows
    inside the report's own work directory, and a file not as its run wrote it is never signed."""

    report = models.ForeignKey(Report, on_delete=models.CASCADE, related_name="pieces")
    run = models.CharField(max_length=32, validators=[printable_line])
    index = models.IntegerField()  # -1 the cover, then the pieces from 0
    keys = models.JSONField(default=list)
    pages = models.PositiveIntegerField(null=True, blank=True)
    rendered_sha256 = models.CharField(max_length=64, blank=True, validators=[printable_line])
    numbered_sha256 = models.CharField(max_length=64, blank=True, validators=[printable_line])

    class Meta:
        ordering = ["report", "index"]
        constraints = [models.UniqueConstraint(fields=["report", "run", "index"], name="report_piece_once")]

    def __str__(self) -> str:
        return f"Report {self.report_id} piece {self.index} ({self.run})"


class ReportDownload(models.Model):
    """Every download of a report: who, when, which file (its hash). Append-only, like the logbook."""

    report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="downloads")
    downloaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    downloaded_at = models.DateTimeField(default=timezone.now)
    sha256 = models.CharField(max_length=64, validators=[printable_line])

    class Meta:
        ordering = ["-downloaded_at", "-id"]

    def __str__(self) -> str:
        return f"Report {self.report_id} downloaded by {self.downloaded_by_id} at {local_text(self.downloaded_at, UTC)}"


# The tables the append-only triggers protect (installed by this app's migrations).
APPEND_ONLY_TABLES = ("reports_reportdownload",)
