"""Properties, the people who work there, and their gaming tables."""

from __future__ import annotations

import builtins
import zoneinfo

from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models

from compliance.validators import note_validators, printable_line


class Jurisdiction(models.TextChoices):
    PA = "PA", "Pennsylvania (58 Pa. Code)"
    NJ = "NJ", "New Jersey (N.J.A.C. 19:47)"
    S4 = "S4", "Section 4 rules"


class Role(models.TextChoices):
    SECURITY = "security", "Security officer"
    FLOORPERSON = "floorperson", "Floorperson"
    MAINTENANCE = "maintenance", "Table game maintenance member"
    COMPLIANCE = "compliance", "Compliance manager"
    REGULATOR = "regulator", "Regulator (Board agent)"
    ADMIN = "admin", "Administrator"


class Game(models.TextChoices):
    ROULETTE = "roulette", "Roulette"
    BIG_SIX = "big_six", "Big Six"
    CASINO_WAR = "casino_war", "Casino War"


class WheelType(models.TextChoices):
    SINGLE_ZERO = "single_zero", "Single zero"
    DOUBLE_ZERO = "double_zero", "Double zero"
    DOUBLE_ZERO_AS_SINGLE_ZERO = "double_zero_as_single_zero", "Double zero used as single zero"


class TableState(models.TextChoices):
    CLOSED = "closed", "Closed, wheel not yet covered"
    LOCKED = "locked", "Closed, wheel covered and locked"
    UNLOCKED = "unlocked", "Unlocked"
    INSPECTED = "inspected", "Inspected, ready to open"
    OPEN = "open", "Open for play"


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not an IANA time zone such as America/New_York.")


class Property(models.Model):
    """A certificate holder's casino."""

    name = models.CharField(max_length=200, validators=[printable_line])
    licence_number = models.CharField(max_length=50, unique=True, validators=[printable_line])
    jurisdiction = models.CharField(max_length=2, choices=Jurisdiction.choices)
    time_zone = models.CharField(
        max_length=64, default="America/New_York", validators=[printable_line, validate_time_zone]
    )
    # Bounded (a week, a year): a deadline millennia away overflowed the calendar, a 500 at the next entry.
    cover_grace_minutes = models.PositiveIntegerField(
        default=15,
        help_text="How long after closing a wheel may stay uncovered (§ 617a.2(f)).",
        validators=[MaxValueValidator(7 * 24 * 60)],
    )
    max_inspection_interval_hours = models.PositiveIntegerField(
        default=24,
        help_text="How long an open table may go without a fresh inspection.",
        validators=[MaxValueValidator(366 * 24)],
    )
    notify_emails = models.JSONField(
        default=list,
        blank=True,
        help_text="The security supervisors' addresses: each new flag is mailed to them, and each morning a digest.",
    )
    digest_sent_on = models.DateField(null=True, blank=True, editable=False)
    # The head of the property's logbook hash chain, moved by every append (inspections.chain):
    # verification compares it with the entries, so a deleted last entry shows too.
    chain_length = models.PositiveBigIntegerField(default=0, editable=False)
    chain_head = models.CharField(max_length=64, default="0" * 64, editable=False, validators=[printable_line])

    class Meta:
        verbose_name_plural = "properties"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class PersonManager(UserManager):
    def create_superuser(self, username, email=None, password=None, **extra_fields):
        # `createsuperuser --noinput` gives the administrator role and a placeholder credential.
        extra_fields.setdefault("role", Role.ADMIN)
        extra_fields.setdefault("credential_number", f"ADMIN-{username}")
        if password is not None:
            # `--noinput` skips Django's password validation: the administrator's password is the
            # one most worth guessing, so it meets the same policy as everyone's.
            validate_password(password, self.model(username=username, email=email or ""))
        return super().create_superuser(username, email, password, **extra_fields)


class User(AbstractUser):
    """A person: one role, a Board-issued credential number, a property (regulators: a jurisdiction)."""

    # AbstractUser's own name fields, with the product's rule on typed names added.
    username = models.CharField(
        "username",
        max_length=150,
        unique=True,
        help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
        validators=[UnicodeUsernameValidator(), printable_line],
        error_messages={"unique": "A user with that username already exists."},
    )
    first_name = models.CharField("first name", max_length=150, blank=True, validators=[printable_line])
    last_name = models.CharField("last name", max_length=150, blank=True, validators=[printable_line])
    email = models.EmailField("email address", blank=True, validators=[printable_line])
    full_name = models.CharField(max_length=200, blank=True, validators=[printable_line])
    role = models.CharField(max_length=20, choices=Role.choices)
    credential_number = models.CharField(
        max_length=50,
        unique=True,
        help_text="Board-issued credential number, printed with every signature.",
        validators=[printable_line],
    )
    property = models.ForeignKey(Property, null=True, blank=True, on_delete=models.PROTECT, related_name="people")
    jurisdiction = models.CharField(
        max_length=2, choices=Jurisdiction.choices, blank=True, help_text="Regulators only."
    )

    objects = PersonManager()
    REQUIRED_FIELDS = ["email"]

    class Meta:
        ordering = ["username"]

    def __str__(self) -> str:
        return self.display_name

    @builtins.property  # `property` is a field here
    def display_name(self) -> str:
        return self.full_name or self.get_full_name() or self.username

    def clean(self) -> None:
        if self.role == Role.REGULATOR:
            if self.property_id or not self.jurisdiction:
                raise ValidationError("A regulator has a jurisdiction and no property.")
        elif self.role != Role.ADMIN and not self.property_id:
            raise ValidationError("Property staff belong to a property.")


class InspectionVoid(models.TextChoices):
    """Why a table's inspection no longer lets it open (GamingTable.inspection_void_reason), in words."""

    NONE = "", "-"
    ADJUSTMENT = "adjustment", "Wheel adjusted after the inspection"
    REPLACEMENT = "replacement", "A movable part replaced after the inspection"
    CONFIGURATION = "configuration", "Configuration changed after the inspection"
    FAILED = "failed", "The inspection failed an item"
    ENTERED_IN_ERROR = "entered_in_error", "The inspection was marked entered in error"
    DUPLICATE = "duplicate", "The inspection was marked a duplicate of one that no longer counts"


class BallMaterial(models.TextChoices):
    NON_METALLIC = "non_metallic", "Non-metallic"
    METALLIC = "metallic", "Metallic"


class Wheel(models.Model):
    """A registered Roulette wheel, checked against § 617a.1(b)–(d) when registered."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="wheels")
    serial = models.CharField(max_length=50, validators=[printable_line])
    # A physical wheel is single-zero or double-zero; "used as single-zero" is the table's choice.
    wheel_type = models.CharField(
        max_length=40, choices=[(WheelType.SINGLE_ZERO, "Single zero"), (WheelType.DOUBLE_ZERO, "Double zero")]
    )
    diameter_inches = models.DecimalField(max_digits=5, decimal_places=2)
    number_order = models.JSONField(help_text="The numbers read clockwise from 0, as entered at registration.")
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["property", "serial"]
        constraints = [models.UniqueConstraint(fields=["property", "serial"], name="wheel_serial_unique_per_property")]

    def __str__(self) -> str:
        return f"Wheel {self.serial}"


class Ball(models.Model):
    """A registered Roulette ball, checked against § 617a.1(a) when registered."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="balls")
    serial = models.CharField(max_length=50, validators=[printable_line])
    material = models.CharField(max_length=20, choices=BallMaterial.choices)
    diameter_inches = models.DecimalField(max_digits=5, decimal_places=4)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["property", "serial"]
        constraints = [models.UniqueConstraint(fields=["property", "serial"], name="ball_serial_unique_per_property")]

    def __str__(self) -> str:
        return f"Ball {self.serial}"


# The overdue scan's deadline columns of a table (below), one per kind of flag.
TABLE_DEADLINES = (
    "uninspected_since",
    "adjusted_since",
    "replaced_since",
    "cover_due_at",
    "inspection_due_at",
    "decks_due_at",
    "approval_due_at",
)


class GamingTable(models.Model):
    """A table and the precomputed state its logbook entries lead to.

    The state columns are written only by inspections.services, in the same transaction as the
    entry that changes them, so a reader (or the overdue scan) never walks the history.
    """

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(max_length=20, validators=[printable_line])
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    wheel_type = models.CharField(max_length=40, choices=WheelType.choices, null=True, blank=True)
    has_external_movable_parts = models.BooleanField(default=False)
    electronic = models.BooleanField(default=False, help_text="A fully automated electronic table game.")
    wheel = models.ForeignKey(Wheel, null=True, blank=True, on_delete=models.PROTECT, related_name="tables")
    ball = models.ForeignKey(Ball, null=True, blank=True, on_delete=models.PROTECT, related_name="tables")

    state = models.CharField(max_length=20, choices=TableState.choices, default=TableState.CLOSED)
    # Why the table may not open although it is not locked: "" (never inspected since it was
    # closed), "adjustment", "replacement", "configuration" (changed while closed: the product's
    # policy, compliance.services.table_update) or "failed" (the latest inspection failed).
    inspection_void_reason = models.CharField(max_length=20, blank=True, validators=[printable_line])
    last_entry_at = models.DateTimeField(null=True, blank=True)
    last_inspection_at = models.DateTimeField(null=True, blank=True)
    last_adjustment_at = models.DateTimeField(null=True, blank=True)
    last_replacement_at = models.DateTimeField(null=True, blank=True)
    last_opened_at = models.DateTimeField(null=True, blank=True)
    last_closed_at = models.DateTimeField(null=True, blank=True)
    last_deck_change_at = models.DateTimeField(null=True, blank=True)
    # The earliest of the deadlines below, shown on the floor as "due".
    next_due = models.DateTimeField(null=True, blank=True, db_index=True)
    # The overdue scan's deadlines (DESIGN.md §6): each is the moment a kind of flag is due, or
    # null while nothing is pending. A problem that is one at once (an adjustment on an open
    # table) is "due" when it happened. Kept by inspections.overdue with every entry.
    uninspected_since = models.DateTimeField(null=True, blank=True)
    adjusted_since = models.DateTimeField(null=True, blank=True)
    replaced_since = models.DateTimeField(null=True, blank=True)
    cover_due_at = models.DateTimeField(null=True, blank=True)
    inspection_due_at = models.DateTimeField(null=True, blank=True)
    decks_due_at = models.DateTimeField(null=True, blank=True)
    approval_due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["property", "number"]
        constraints = [models.UniqueConstraint(fields=["property", "number"], name="table_number_unique_per_property")]
        # One small index per deadline, of the tables where it is set: the scan reads only those.
        indexes = [
            models.Index(fields=[name], condition=models.Q(**{f"{name}__isnull": False}), name=f"table_{name}")
            for name in TABLE_DEADLINES
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class SubmissionStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    FILED = "filed", "Filed with the regulator"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class RulesSubmission(models.Model):
    """A property's Rules Submission for one game: a version, in effect from a date once approved.

    Once filed its content never changes (compliance.services); a change is a new version, and the
    newest approved version in effect on a date supersedes the older ones from its effective date.
    """

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="rules_submissions")
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    version = models.PositiveIntegerField(editable=False)
    effective_from = models.DateField()
    wheel_types = models.JSONField(default=list, blank=True)
    payout_odds = models.JSONField(default=dict, blank=True, help_text='Wager code → [X, Y] for "X to Y".')
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=20, choices=SubmissionStatus.choices, default=SubmissionStatus.DRAFT)
    violations = models.JSONField(default=list, blank=True, editable=False, help_text="As last checked.")
    created_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    content_hash = models.CharField(
        max_length=64, blank=True, editable=False, help_text="Set when filed.", validators=[printable_line]
    )
    decision_reference = models.CharField(max_length=100, blank=True, validators=[printable_line])

    class Meta:
        ordering = ["property", "game", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["property", "game", "version"], name="rules_submission_version_unique")
        ]
        indexes = [models.Index(fields=["property", "game", "status", "effective_from"], name="rules_in_effect")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} Rules Submission v{self.version} ({self.get_status_display()})"


class LayoutStatus(models.TextChoices):
    PENDING = "pending", "Pending the regulator's decision"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"


class LayoutSubmission(models.Model):
    """A table layout submitted for approval (58 Pa. Code § 617a.1(f)), with the tables it is used on."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="layouts")
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    name = models.CharField(max_length=200, validators=[printable_line])
    features = models.JSONField(default=list, help_text="What the layout shows, from the API's vocabulary.")
    tables = models.ManyToManyField(GamingTable, related_name="layouts", blank=True)
    status = models.CharField(max_length=20, choices=LayoutStatus.choices, default=LayoutStatus.PENDING)
    content_hash = models.CharField(max_length=64, editable=False, validators=[printable_line])
    decision_reference = models.CharField(max_length=100, blank=True, validators=[printable_line])
    created_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["property", "-created_at"]

    def __str__(self) -> str:
        return f"Layout {self.name} ({self.get_status_display()})"


class ApprovalSignature(models.Model):
    """A signed step of an approval (filed, approved, rejected), bound to the content's hash."""

    rules_submission = models.ForeignKey(
        RulesSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    layout = models.ForeignKey(
        LayoutSubmission, null=True, blank=True, on_delete=models.PROTECT, related_name="signatures"
    )
    action = models.CharField(
        max_length=20, choices=[("filed", "Filed"), ("approved", "Approved"), ("rejected", "Rejected")]
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
APPEND_ONLY_TABLES = ("compliance_approvalsignature", "compliance_layoutsubmission_tables")


class IdempotencyKey(models.Model):
    """A write already answered: the Idempotency-Key of an API request (draft-ietf-httpapi-idempotency-key-header)
    or the one-time token of a signed form, with what was answered, so a repeat gets that answer again
    instead of a second entry. Written in the same transaction as the write it guards."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255, validators=[printable_line])
    method = models.CharField(max_length=10, validators=[printable_line])
    path = models.CharField(max_length=500, validators=[printable_line])
    fingerprint = models.CharField(max_length=64, validators=[printable_line], help_text="SHA-256 of the request body.")
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    response_body = models.BinaryField(blank=True, default=b"")
    response_headers = models.JSONField(default=dict, blank=True)
    # For a form: what was recorded, in words ("Inspection, table R-01, entry #12").
    recorded = models.CharField(max_length=300, blank=True, validators=[printable_line])
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique_per_user")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_key_created")]

    def __str__(self) -> str:
        return f"{self.method} {self.path} ({self.key})"
