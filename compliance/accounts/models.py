"""People: one role each, a Board-issued credential number, a property (regulators: a jurisdiction);
and the writes a person has already made, so that a repeat is answered instead of done twice."""

from __future__ import annotations

import builtins

from django.conf import settings
from django.contrib.auth.hashers import check_password
from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from compliance.casinos.models import Jurisdiction, Property, PropertyScopedQuerySet
from compliance.rulebook import vocabulary as words
from compliance.rulebook.roles import MAY, SUPERVISOR_MAY
from config.i18n import choice
from config.validators import printable_line
from config.visibility import NOTHING, VisibleQuerySet


class Role(models.TextChoices):
    # The values and labels are the rulebook's (compliance.rulebook.vocabulary): one definition each.
    SECURITY = choice(words.Role.SECURITY)
    FLOORPERSON = choice(words.Role.FLOORPERSON)
    MAINTENANCE = choice(words.Role.MAINTENANCE)
    COMPLIANCE = choice(words.Role.COMPLIANCE)
    REGULATOR = choice(words.Role.REGULATOR)
    ADMIN = choice(words.Role.ADMIN)


class PersonQuerySet(VisibleQuerySet):
    """People are seen by the staff of their property; by the regulators of its jurisdiction, with
    that jurisdiction's regulators; by administrators all."""

    def visibility(self, person) -> models.Q:
        if person.is_administrator:
            return models.Q()
        if person.role == Role.REGULATOR:
            return models.Q(property__jurisdiction=person.jurisdiction) | models.Q(
                role=Role.REGULATOR, jurisdiction=person.jurisdiction
            )
        return models.Q(property_id=person.property_id) if person.property_id else NOTHING


class PersonManager(UserManager.from_queryset(PersonQuerySet)):
    # Not in migrations: they create no one, so they need none of this code.
    use_in_migrations = False

    def create_superuser(self, username, email=None, password=None, **extra_fields):
        """`manage.py createsuperuser` asks here by this name: the write is the service's."""
        from compliance.accounts.services import administrator_create  # services imports this module

        return administrator_create(manager=self, username=username, email=email, password=password, **extra_fields)


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
    security_supervisor = models.BooleanField(
        default=False,
        help_text="A security officer who is the property's security supervisor: may lift a lock on the floor.",
    )
    # The pages, the API's refusals and the flags' mail in this language; empty: the browser's
    # (Accept-Language), else English (config.middleware.PreferredLanguageMiddleware).
    language = models.CharField(
        _("language"),
        max_length=10,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text=_("The language of your pages and mail. Empty: your browser's."),
    )

    objects = PersonManager()
    REQUIRED_FIELDS = ["email"]

    class Meta:
        ordering = ["username"]

    def check_password(self, raw_password) -> bool:
        """Django's check; a hash of an older algorithm is stored again with the current one by the
        service (Django's own setter would save the row itself)."""
        from compliance.accounts.services import person_password_rehash  # services imports this module

        return check_password(raw_password, self.password, lambda raw: person_password_rehash(self, raw))

    def __str__(self) -> str:
        return self.display_name

    @builtins.property  # `property` is a field here
    def display_name(self) -> str:
        return self.full_name or self.get_full_name() or self.username

    @builtins.property
    def is_administrator(self) -> bool:
        """Sees and changes everything (the apps below this one ask the person, importing nothing)."""
        return self.may("admin")

    def may(self, action: str, obj: models.Model | None = None) -> bool:
        """Whether this person's role may do `action` (compliance.rulebook.roles.MAY names them; an
        unknown action is a KeyError, never a silent no). With `obj`, also whether that row is one
        this person sees (its model's `restrict`): whose property it is stays the selectors'."""
        roles = MAY[action]
        allowed = self.role in roles or (self.is_superuser and Role.ADMIN in roles)
        # A security supervisor is a security officer with a permission of their own (roles.SUPERVISOR_MAY).
        allowed = allowed or (action in SUPERVISOR_MAY and self.security_supervisor and self.role == Role.SECURITY)
        if allowed and obj is not None:
            return type(obj)._default_manager.all().restrict(self).filter(pk=obj.pk).exists()
        return allowed

    def clean(self) -> None:
        if self.role == Role.REGULATOR:
            if self.property_id or not self.jurisdiction:
                raise ValidationError("A regulator has a jurisdiction and no property.")
        elif self.role != Role.ADMIN and not self.property_id:
            raise ValidationError("Property staff belong to a property.")


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


class SignatureFailures(models.Model):
    """Wrong passwords typed to sign as a name from an address: the signature's own count, apart from
    sign-in's (django-axes), so a witness's mistyped password on someone else's tablet locks their
    signing there, never their signing in. Written by compliance.accounts.services only."""

    username = models.CharField(max_length=150, validators=[printable_line])
    address = models.CharField(max_length=45, blank=True, validators=[printable_line])
    failures = models.PositiveIntegerField(default=0)
    last_failure_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["username", "address"], name="one_count_per_name_address")]

    def __str__(self) -> str:
        return f"{self.username} from {self.address or '?'}: {self.failures}"


class LockLift(models.Model):
    """A lock lifted on the floor (sign-in, signatures or both), by whom, for whom, why and when.
    Append-only in the database: the record of who let a locked name try again."""

    lifted_by = models.ForeignKey(User, on_delete=models.PROTECT, related_name="+")
    lifter_name = models.CharField(max_length=200, validators=[printable_line])
    lifter_credential = models.CharField(max_length=50, validators=[printable_line])
    person = models.ForeignKey(User, on_delete=models.PROTECT, related_name="locks_lifted")
    property = models.ForeignKey(Property, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    sign_in_attempts = models.PositiveIntegerField(help_text="The failed sign-ins cleared.")
    signature_failures = models.PositiveIntegerField(help_text="The failed signatures cleared.")
    reason = models.CharField(max_length=200, validators=[printable_line])
    lifted_at = models.DateTimeField()

    objects = PropertyScopedQuerySet.as_manager()

    class Meta:
        ordering = ["-lifted_at", "-id"]

    def __str__(self) -> str:
        return f"{self.person_id}'s lock lifted by {self.lifter_name}"


# The tables whose rows the database refuses to update or delete (this app's migrations install the triggers).
class ThrottleCount(models.Model):
    """How often one client asked in the current window of its rate, and in the previous one: what
    the throttles (compliance.accounts.throttles) count, one row per client and rate, locked and
    written back once a request. A row past `expires_at` counts nothing any more and is culled by that index."""

    key = models.CharField(max_length=255, primary_key=True, validators=[printable_line])
    window_index = models.BigIntegerField(
        help_text="The window's number: seconds since the epoch // the rate's duration."
    )
    hits = models.PositiveIntegerField(help_text="Requests allowed in that window.")
    previous = models.PositiveIntegerField(help_text="Requests allowed in the window before it.")
    refused = models.BooleanField(help_text="Whether the last request was refused.")
    expires_at = models.FloatField(help_text="Seconds since the epoch after which the row counts nothing.")

    class Meta:
        indexes = [models.Index(fields=["expires_at"], name="throttle_count_expires")]

    def __str__(self) -> str:
        return f"{self.key}: {self.hits} in window {self.window_index}"


# The tables whose rows the database refuses to update or delete (this app's migrations install the triggers).
APPEND_ONLY_TABLES = ("accounts_locklift",)
