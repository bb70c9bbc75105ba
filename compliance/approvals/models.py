"""Approvals: Rules Submissions (a game's paytable and options, by version) and table layouts, each
filed and decided with signatures bound to the content's hash."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from compliance.accounts.models import User
from compliance.casinos.models import Game, GamingTable, Property, PropertyScopedQuerySet
from compliance.rulebook.configurations import Configuration, configurations_of
from config.validators import note_validators, printable_line


class SubmissionStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    FILED = "filed", _("Filed with the regulator")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class RulesSubmission(models.Model):
    """A property's Rules Submission for one game: a version, in effect from a date once approved.

    Once filed its content never changes (compliance.approvals.services); a change is a new version, and the
    newest approved version in effect on a date supersedes the older ones from its effective date.
    """

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="rules_submissions")
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    version = models.PositiveIntegerField(editable=False)
    effective_from = models.DateField()
    wheel_types = models.JSONField(default=list, blank=True)
    payout_odds = models.JSONField(default=dict, blank=True, help_text='Wager code → [X, Y] for "X to Y".')
    options = models.JSONField(default=dict, blank=True)
    # The table configurations besides the standard one (the three fields above), each
    # {"key", "name", "wheel_types", "payout_odds", "options"}; a table names the one it uses by its
    # key (compliance.rulebook.configurations).
    configurations = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=20, choices=SubmissionStatus.choices, default=SubmissionStatus.DRAFT)
    violations = models.JSONField(default=list, blank=True, editable=False, help_text="As last checked.")
    created_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    content_hash = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Set when filed.", validators=[printable_line]
    )
    decision_reference = models.CharField(max_length=100, blank=True, validators=[printable_line])

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["property", "game", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["property", "game", "version"], name="rules_submission_version_unique")
        ]
        indexes = [models.Index(fields=["property", "game", "status", "effective_from"], name="rules_in_effect")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} Rules Submission v{self.version} ({self.get_status_display()})"

    def all_configurations(self) -> list[Configuration]:
        """The standard configuration, then the others, as the rules read them."""
        return configurations_of(self)


class LayoutStatus(models.TextChoices):
    PENDING = "pending", _("Pending the regulator's decision")
    APPROVED = "approved", _("Approved")
    REJECTED = "rejected", _("Rejected")


class LayoutSubmission(models.Model):
    """A table layout submitted for approval (58 Pa. Code § 617a.1(f)), with the tables it is used on."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="layouts")
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    name = models.CharField(max_length=200, validators=[printable_line])
    features = models.JSONField(default=list, help_text="What the layout shows, from the API's vocabulary.")
    tables = models.ManyToManyField(GamingTable, related_name="layouts", blank=True)
    status = models.CharField(max_length=20, choices=LayoutStatus.choices, default=LayoutStatus.PENDING)
    # The layout's artwork (compliance.rulebook.artwork): kept under MEDIA_ROOT/layouts/, never served
    # as a public file (the layout's page serves it to those who may see the layout); its SHA-256 is
    # part of the content hash the signatures bind. Blank only for layouts submitted before it was asked.
    artwork = models.FileField(upload_to="layouts/", blank=True, editable=False)
    artwork_kind = models.CharField(
        max_length=10, blank=True, editable=False, choices=[("pdf", "PDF"), ("png", "PNG"), ("jpeg", "JPEG")]
    )
    artwork_sha256 = models.CharField(max_length=64, blank=True, editable=False, validators=[printable_line])
    content_hash = models.CharField(max_length=64, editable=False, validators=[printable_line])
    decision_reference = models.CharField(max_length=100, blank=True, validators=[printable_line])
    created_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["property", "-created_at"]

    def __str__(self) -> str:
        return f"Layout {self.name} ({self.get_status_display()})"

    def artwork_is_image(self) -> bool:
        return self.artwork_kind in ("png", "jpeg")


class ApprovalSignature(models.Model):
    """A signed step of an approval (filed, approved, rejected), bound to the content's hash."""

    rules_submission = models.ForeignKey(
        RulesSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    layout = models.ForeignKey(
        LayoutSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    # Said in the reader's language where a page lists the signatures ("Filed by …").
    action = models.CharField(
        max_length=20,
        choices=[
            ("filed", pgettext_lazy("signed step", "Filed")),
            ("approved", pgettext_lazy("signed step", "Approved")),
            ("rejected", pgettext_lazy("signed step", "Rejected")),
        ],
    )
    reference = models.CharField(
        max_length=100, blank=True, help_text="The regulator's reference.", validators=[printable_line]
    )
    note = models.TextField(blank=True, validators=note_validators())
    signer = models.ForeignKey(User, on_delete=models.PROTECT, related_name="approval_signatures")
    signer_name = models.CharField(max_length=200, validators=[printable_line])
    credential_number = models.CharField(max_length=50, validators=[printable_line])
    signed_at = models.DateTimeField()
    content_hash = models.CharField(max_length=64, validators=[printable_line])

    class Meta:
        ordering = ["signed_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} by {self.signer_name} ({self.credential_number})"


# The tables whose rows the database refuses to update or delete (migrations install the triggers).
APPEND_ONLY_TABLES = ("approvals_approvalsignature", "approvals_layoutsubmission_tables")
