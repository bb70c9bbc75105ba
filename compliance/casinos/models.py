"""The casino's inventory: properties, their gaming tables and the wheels and balls on them."""

from __future__ import annotations

import builtins
import zoneinfo

from django.conf import settings
from django.core.validators import MaxValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from compliance.rulebook import jurisdiction as rules
from compliance.rulebook import rulebook_for
from compliance.rulebook import vocabulary as words
from compliance.rulebook.configurations import KEY, STANDARD
from config.i18n import choice
from config.validators import note_validators, printable_line, validate_time_zone
from config.visibility import NOTHING, VisibleQuerySet


# The values and labels are the rulebook's (compliance.rulebook.vocabulary): one definition each.
class Jurisdiction(models.TextChoices):
    PA = choice(words.Jurisdiction.PA)
    NJ = choice(words.Jurisdiction.NJ)
    S4 = choice(words.Jurisdiction.S4)


class Procedure(models.TextChoices):
    KEPT = choice(words.Procedure.KEPT)
    NONE = choice(words.Procedure.NONE)


class Game(models.TextChoices):
    ROULETTE = choice(words.Game.ROULETTE)
    BIG_SIX = choice(words.Game.BIG_SIX)
    CASINO_WAR = choice(words.Game.CASINO_WAR)


class WheelType(models.TextChoices):
    SINGLE_ZERO = choice(words.WheelType.SINGLE_ZERO)
    DOUBLE_ZERO = choice(words.WheelType.DOUBLE_ZERO)
    DOUBLE_ZERO_AS_SINGLE_ZERO = choice(words.WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO)


class TableState(models.TextChoices):
    CLOSED = choice(words.TableState.CLOSED)
    LOCKED = choice(words.TableState.LOCKED)
    UNLOCKED = choice(words.TableState.UNLOCKED)
    INSPECTED = choice(words.TableState.INSPECTED)
    OPEN = choice(words.TableState.OPEN)


class PropertyScopedQuerySet(VisibleQuerySet):
    """Rows of a property (through `property_path`; "" for a property itself), seen as their property is:
    by administrators all; by regulators their jurisdiction's; by the staff of a property its own."""

    property_path = "property"

    def visibility(self, person) -> Q:
        path = self.property_path
        if person.is_administrator:
            return Q()
        if person.role == words.Role.REGULATOR:
            if not person.jurisdiction:
                return NOTHING
            return Q(**{f"{path}__jurisdiction" if path else "jurisdiction": person.jurisdiction})
        if person.property_id:
            return Q(**{f"{path}_id" if path else "pk": person.property_id})
        return NOTHING


class PropertyQuerySet(PropertyScopedQuerySet):
    property_path = ""


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
    # Pennsylvania's properties keep § 617a.2 (its law); a New Jersey or Section 4 one keeps it by
    # policy or keeps none (compliance.rulebook.rulebook_for).
    procedure = models.CharField(
        max_length=10,
        choices=Procedure.choices,
        default=Procedure.KEPT,
        help_text="Whether the property keeps the § 617a.2 inspection procedure (New Jersey and Section 4 "
        "properties may keep a signed log without it).",
    )
    notify_emails = models.JSONField(
        default=list,
        blank=True,
        help_text="The security supervisors' addresses: each new flag is mailed to them, and each morning a digest.",
    )
    # What is derived from the logbook lives with it: the hash chain's head (inspections.logbook's
    # ChainHead, `prop.chain`) and the morning digest's date (inspections.flags' Digest, `prop.digest`).

    objects = PropertyQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "properties"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def rulebook(self) -> rules.Jurisdiction:
        """The rules its tables are kept by: its jurisdiction's, with or without the procedure."""
        return rulebook_for(self.jurisdiction, procedure=self.procedure)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone)


class InspectionVoid(models.TextChoices):
    """Why a table's inspection no longer lets it open (its logbook status's inspection_void_reason), in words."""

    NONE = "", _("-")
    ADJUSTMENT = "adjustment", _("Wheel adjusted after the inspection")
    REPLACEMENT = "replacement", _("A movable part replaced after the inspection")
    BALL_CHANGE = "ball_change", _("The ball changed after the inspection")
    CONFIGURATION = "configuration", _("Configuration changed after the inspection")
    FAILED = "failed", _("The inspection failed an item")
    ENTERED_IN_ERROR = "entered_in_error", _("The inspection was marked entered in error")
    DUPLICATE = "duplicate", _("The inspection was marked a duplicate of one that no longer counts")


class BallMaterial(models.TextChoices):
    NON_METALLIC = "non_metallic", _("Non-metallic")
    METALLIC = "metallic", _("Metallic")


class WheelColour(models.TextChoices):
    GREEN = choice(words.WheelColour.GREEN)
    RED = choice(words.WheelColour.RED)
    BLACK = choice(words.WheelColour.BLACK)


class Compartments(models.TextChoices):
    RING = choice(words.Compartments.RING)
    NEUTRAL = choice(words.Compartments.NEUTRAL)


class Wheel(models.Model):
    """A registered wheel: a Roulette wheel checked against § 617a.1(b)–(d), a Big Six wheel against
    § 619a.1(a), (b) (proposed), when registered."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="wheels")
    serial = models.CharField(max_length=50, validators=[printable_line])
    # The games played on a wheel: a table of the game takes a wheel of the game.
    game = models.CharField(
        max_length=20, choices=[words.Game.ROULETTE.choice(), words.Game.BIG_SIX.choice()], default=Game.ROULETTE
    )
    # A physical Roulette wheel is single-zero or double-zero ("used as single-zero" is the table's
    # choice); a Big Six wheel has none.
    wheel_type = models.CharField(
        max_length=40,
        choices=[choice(words.WheelType.SINGLE_ZERO), choice(words.WheelType.DOUBLE_ZERO)],
        blank=True,
        help_text="Roulette only.",
    )
    diameter_inches = models.DecimalField(max_digits=5, decimal_places=2)
    number_order = models.JSONField(
        help_text="Roulette: the numbers read clockwise from 0; Big Six: the sections' symbols (1, 2, 5, 10, 20, "
        "flag, joker) read clockwise from the joker. As entered at registration."
    )
    colours = models.JSONField(
        default=list,
        blank=True,
        help_text="Roulette only: the colour of the ring's area of each number (green, red or black), in the order "
        "of the numbers.",
    )
    # § 617a.1(c), (d): each compartment the colour of its ring's area, or a neutral colour approved by
    # the Bureau (§ 601a.10(a)): which, and for a neutral one its colour and the approval's reference.
    # Empty on a Big Six wheel, and on a Roulette wheel registered before they were recorded.
    compartments = models.CharField(
        max_length=10,
        choices=Compartments.choices,
        blank=True,
        help_text="Roulette only: the compartments coloured as the ring's areas, or a neutral colour approved.",
    )
    compartment_colour = models.CharField(
        max_length=40, blank=True, validators=[printable_line], help_text="The neutral colour of the compartments."
    )
    compartment_approval = models.CharField(
        max_length=80,
        blank=True,
        validators=[printable_line],
        help_text="The Bureau's reference approving the neutral colour (§ 601a.10(a)).",
    )
    # § 619a.1(a), (d), (e) (proposed): what a Big Six wheel must have, stated at registration (True);
    # None on a Roulette wheel, and on a Big Six wheel registered before they were recorded.
    sections_under_glass = models.BooleanField(
        null=True, blank=True, help_text="Big Six only: its sections are covered with glass (§ 619a.1(a))."
    )
    sections_show_odds = models.BooleanField(
        null=True, blank=True, help_text="Big Six only: each section displays its wager's payout odds (§ 619a.1(d))."
    )
    clapper = models.BooleanField(
        null=True,
        blank=True,
        help_text="Big Six only: a clapper selects a section at the end of the spin (§ 619a.1(e)).",
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    objects = PropertyScopedQuerySet.as_manager()

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

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["property", "serial"]
        constraints = [models.UniqueConstraint(fields=["property", "serial"], name="ball_serial_unique_per_property")]

    def __str__(self) -> str:
        return f"Ball {self.serial}"


class GamingTable(models.Model):
    """A table: its game, configuration and equipment. Where it is in its day, the precomputed state
    its logbook entries lead to, is its logbook's (`status`: inspections.logbook.models.TableStatus)."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(max_length=20, validators=[printable_line])
    game = models.CharField(max_length=20, choices=Game.choices, default=Game.ROULETTE)
    wheel_type = models.CharField(max_length=40, choices=WheelType.choices, null=True, blank=True)
    has_external_movable_parts = models.BooleanField(default=False)
    electronic = models.BooleanField(default=False, help_text="A fully automated electronic table game.")
    # Which configuration of its game's Rules Submission in effect the table uses, by key
    # (compliance.rulebook.configurations): what the table offers is the table's.
    configuration = models.CharField(
        max_length=40,
        default=STANDARD,
        validators=[
            printable_line,
            RegexValidator(KEY, "A configuration's key: lower-case letters, digits, “-” and “_”."),
        ],
        help_text="The key of the Rules Submission's configuration this table uses.",
    )
    wheel = models.ForeignKey(Wheel, null=True, blank=True, on_delete=models.PROTECT, related_name="tables")
    ball = models.ForeignKey(Ball, null=True, blank=True, on_delete=models.PROTECT, related_name="tables")

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["property", "number"]
        constraints = [models.UniqueConstraint(fields=["property", "number"], name="table_number_unique_per_property")]

    def __str__(self) -> str:
        return f"Table {self.number}"

    # Where the table is in its day is its logbook's (inspections.logbook.models.TableStatus, one row a
    # table: `status`), written only by the logbook's services. The rulebook's table subject reads
    # these of it (compliance.rulebook.subjects).

    @builtins.property  # `property` here is the table's field
    def state(self) -> str:
        return self.status.state

    def get_state_display(self) -> str:
        return self.status.get_state_display()

    @builtins.property  # `property` here is the table's field
    def inspection_void_reason(self) -> str:
        return self.status.inspection_void_reason

    @builtins.property  # `property` here is the table's field
    def last_entry_at(self):
        return self.status.last_entry_at


class LabelSheetStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Being generated")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class LabelSheetQuerySet(PropertyScopedQuerySet):
    """A property's label sheets: seen by those of its people who manage its tables."""

    def visibility(self, person) -> Q:
        return super().visibility(person) if person.may("tables.configure") else NOTHING


class LabelSheet(models.Model):
    """A sheet of the tables' QR labels, asked for on a page and rendered by a worker
    (compliance.casinos.labels): a web request never renders nor waits for a PDF. It holds the
    property's tables from position `first` (0: the first by number), `count` of them."""

    property = models.ForeignKey(Property, on_delete=models.PROTECT, related_name="label_sheets")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField(default=timezone.now)
    first = models.PositiveIntegerField(default=0)
    count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=LabelSheetStatus.choices, default=LabelSheetStatus.QUEUED)
    error = models.TextField(blank=True, validators=note_validators())
    file = models.FileField(upload_to="labels/", blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = LabelSheetQuerySet.as_manager()

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"Labels of {self.property_id}, tables {self.first + 1}–{self.first + self.count} ({self.status})"
