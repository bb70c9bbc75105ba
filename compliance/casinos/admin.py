from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.core.validators import validate_email

from compliance.casinos import services
from compliance.casinos.admin_base import ServiceAdmin
from compliance.casinos.admin_zones import PropertyZoneAdmin
from compliance.casinos.models import Ball, GamingTable, InspectionVoid, Property, Wheel
from compliance.rulebook.flags import DEADLINE_COLUMNS
from config.validators import mail_domain_encodable, printable_line

NOTIFY_EMAILS_MAX = 50  # as the API's PropertySerializer


class EmailListField(forms.CharField):
    """A list of addresses typed one a line or separated by commas, shown one a line; each checked."""

    widget = forms.Textarea(attrs={"rows": 4})

    def prepare_value(self, value):
        if isinstance(value, list | tuple):
            return "\n".join(value)
        return value

    def to_python(self, value) -> list[str]:
        text = super().to_python(value) or ""
        return [part.strip() for line in text.splitlines() for part in line.split(",") if part.strip()]

    def validate(self, value):
        if self.required and not value:
            raise ValidationError(self.error_messages["required"], code="required")

    def run_validators(self, value):
        errors = []
        for address in value:
            try:
                validate_email(address)
                printable_line(address)
                mail_domain_encodable(address)
            except ValidationError:
                errors.append(ValidationError(f"“{address}” is not an email address.", code="invalid"))
        if len(value) > NOTIFY_EMAILS_MAX:
            errors.append(ValidationError(f"At most {NOTIFY_EMAILS_MAX} addresses.", code="max_length"))
        if errors:
            raise ValidationError(errors)


class PropertyForm(forms.ModelForm):
    notify_emails = EmailListField(
        required=False,
        label="Notify emails",
        help_text="The security supervisors' addresses, one a line or separated by commas: each new flag is "
        "mailed to them, and each morning a digest.",
    )


@admin.register(Property)
class PropertyAdmin(ServiceAdmin):
    form = PropertyForm
    list_display = [
        "name",
        "licence_number",
        "jurisdiction",
        "time_zone",
        "cover_grace_minutes",
        "max_inspection_interval_hours",
        "chain_length",
    ]
    list_filter = ["jurisdiction"]
    search_fields = ["name", "licence_number"]
    # The logbook's chain and the morning digest's date: the logbook's and the flags' own rows
    # (`prop.chain`, `prop.digest`, which this app does not import), shown here read-only.
    readonly_fields = ["chain_length", "chain_head", "digest_sent_on"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("chain", "digest")

    @admin.display(description="chain length")
    def chain_length(self, obj: Property) -> int:
        chain = getattr(obj, "chain", None) if obj.pk else None
        return chain.length if chain else 0

    @admin.display(description="chain head")
    def chain_head(self, obj: Property) -> str:
        chain = getattr(obj, "chain", None) if obj.pk else None
        return chain.head if chain else "0" * 64

    @admin.display(description="digest sent on")
    def digest_sent_on(self, obj: Property):
        digest = getattr(obj, "digest", None) if obj.pk else None
        return digest.sent_on if digest else None

    def save_model(self, request, obj, form, change):
        if not change:
            # A new property has no tables yet; the admin goes on with the row the service made.
            fields = {name: form.cleaned_data[name] for name in services.PROPERTY_EDITABLE if name in form.cleaned_data}
            created = services.property_create(actor=request.user, **fields)
            obj.pk = created.pk
            obj._state.adding = False
            obj.refresh_from_db()
            return
        # The overdue policy moves the tables' deadlines with it, as through the API.
        services.property_update(
            property_id=obj.pk, actor=request.user, changes=self.changes(form, services.PROPERTY_EDITABLE)
        )


class GamingTableForm(forms.ModelForm):
    """Shows beside its field every rule a change breaks, as the API refuses it (table_violations)."""

    def clean(self):
        data = super().clean()
        if self.errors or not data.get("property"):
            return data
        changes = {name: data[name] for name in services.TABLE_EDITABLE if name in data}
        if self.instance.pk is not None:
            changes = {name: value for name, value in changes.items() if name in self.changed_data}
        # self.instance is still the row as read: the form's values are put on it after clean().
        found = services.table_violations(table=self.instance if self.instance.pk else None, changes=changes)
        for violation in found:
            field = violation.field if violation.field in self.fields else None
            self.add_error(field, f"{violation.message} ({violation.cited})")
        return data


# The logbook's columns of a table's status the admin shows (inspections.logbook.models.TableStatus).
STATUS_SHOWN = (
    "last_entry_at",
    "last_inspection_at",
    "last_adjustment_at",
    "last_replacement_at",
    "last_opened_at",
    "last_closed_at",
    "last_deck_change_at",
    "next_due",
    *DEADLINE_COLUMNS,
)


def _status_shown(name: str):
    @admin.display(description=name.replace("_", " ").capitalize())
    def shown(self, table):
        return getattr(table.status, name) if table.pk else None

    return shown


@admin.register(GamingTable)
class GamingTableAdmin(PropertyZoneAdmin, ServiceAdmin):
    form = GamingTableForm
    list_display = [
        "number",
        "property",
        "game",
        "wheel_type",
        "has_external_movable_parts",
        "electronic",
        "configuration",
        "status__state",
        "status__next_due",
    ]
    list_select_related = ["property", "status"]
    list_filter = ["property", "game", "wheel_type", "status__state", "has_external_movable_parts", "electronic"]
    search_fields = ["number", "property__name"]
    # The state, its times and the overdue scan's deadlines are the logbook's (the table's `status`):
    # only its services move them, so none is a field of the form; shown read-only.
    readonly_fields = ["state", "inspection_void", *STATUS_SHOWN]

    @admin.display(description="State")
    def state(self, table) -> str:
        return table.status.get_state_display() if table.pk else "-"

    @admin.display(description="Why the inspection no longer counts")
    def inspection_void(self, table) -> str:
        """The reason in words, never its internal code."""
        if not table.pk:
            return "-"
        reason = table.status.inspection_void_reason
        return InspectionVoid(reason).label if reason in InspectionVoid.values else reason or "-"

    def save_model(self, request, obj, form, change):
        changes = self.changes(form, services.TABLE_EDITABLE)
        if change:
            services.table_update(table_id=obj.pk, actor=request.user, changes=changes)
            return
        fields = {name: form.cleaned_data[name] for name in services.TABLE_EDITABLE if name in form.cleaned_data}
        created = services.table_create(actor=request.user, **fields)
        # The admin goes on with the object it built (its message, its history): make it the row.
        obj.pk = created.pk
        obj._state.adding = False
        obj.refresh_from_db()


for _name in STATUS_SHOWN:
    setattr(GamingTableAdmin, _name, _status_shown(_name))


class EquipmentForm(forms.ModelForm):
    """The admin registers equipment under the same rule as the API (§ 617a.1(a)–(d); § 619a.1(a), (b))."""

    def clean(self):
        data = super().clean()
        if self.errors or not data.get("property"):
            return data
        if self._meta.model is Wheel:
            found = services.wheel_violations(
                prop=data["property"],
                game=data.get("game") or "roulette",
                wheel_type=data.get("wheel_type") or "",
                diameter_inches=data["diameter_inches"],
                number_order=data["number_order"] or [],
                colours=data.get("colours") or [],
                **{name: data.get(name) or "" for name in services.COMPARTMENT_FIELDS},
                parts={name: data.get(name) for name in services.BIG_SIX_PART_FIELDS},
            )
        else:
            found = services.ball_violations(
                prop=data["property"], material=data["material"], diameter_inches=data["diameter_inches"]
            )
        for violation in found:
            field = (violation.field or "").split(".")[0] or None
            self.add_error(field, f"{violation.message} ({violation.cited})")
        return data


class RegisteredEquipmentAdmin(PropertyZoneAdmin, admin.ModelAdmin):
    """Registered once, by the rule; never rewritten or deleted (its history is in the logbook)."""

    form = EquipmentForm

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change):
        register = services.wheel_register if self.model is Wheel else services.ball_register
        fields = services.WHEEL_FIELDS if self.model is Wheel else services.BALL_FIELDS
        created = register(actor=request.user, **{name: form.cleaned_data[name] for name in fields})
        obj.pk = created.pk
        obj._state.adding = False
        obj.refresh_from_db()


@admin.register(Wheel)
class WheelAdmin(RegisteredEquipmentAdmin):
    list_display = ["serial", "property", "game", "wheel_type", "diameter_inches", "registered_at"]
    list_filter = ["property", "game", "wheel_type"]
    search_fields = ["serial"]


@admin.register(Ball)
class BallAdmin(RegisteredEquipmentAdmin):
    list_display = ["serial", "property", "material", "diameter_inches", "registered_at"]
    list_filter = ["property", "material"]
    search_fields = ["serial"]
