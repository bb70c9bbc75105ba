"""The floor's one-screen forms: what is typed, and where a refusal's words go back."""

from __future__ import annotations

from typing import cast

from django import forms
from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from compliance.accounts.forms import SignatureFields
from compliance.accounts.signatures import SignatureInput
from compliance.casinos.models import Ball
from compliance.rulebook import RuleViolation
from compliance.rulebook.procedure import replaces_the_ball
from config.forms import note_field
from config.validators import password_form_field, printable_line


class SignedForm(SignatureFields):
    """Every form ends with a signature: the signer's username (the person at the tablet by default)
    and their password, typed again now."""

    # Where a violation's `field` is shown on this form.
    FIELD_FOR = {"signature": "password", "table": None}

    def show(self, refusal: RuleViolation) -> None:
        """Each violation next to its field, in words and with its citation; the typed values stay."""
        for violation in refusal.violations:
            field = violation.field
            target = self.FIELD_FOR.get(field, field) if field else None
            if target and target.startswith("items."):
                target = target.removeprefix("items.")
            if target not in self.fields:
                target = None
            citation = f" ({violation.cited})" if violation.citation else ""
            self.add_error(target, f"{violation.message}{citation}")


class PhotosInput(forms.FileInput):
    """The tablet's camera (or its files, where the browser offers them), several photos at once."""

    allow_multiple_selected = True


class PhotosField(forms.FileField):
    """Any number of files (the service judges each by its content and their count)."""

    widget = PhotosInput(attrs={"accept": "image/*", "capture": "environment", "multiple": True})

    def clean(self, data, initial=None):
        files = data if isinstance(data, (list, tuple)) else [data]
        return [super(PhotosField, self).clean(f, initial) for f in files if f]


def photo_fields(form: SignedForm, *, checklist=()) -> SignedForm:
    """The form with its photos (an inspection's may name the checklist item they show), just
    before its signature: uploaded in the same signed POST as the entry."""
    fields: dict[str, forms.Field] = {
        "photos": PhotosField(
            label=_("Photos"),
            required=False,
            help_text=_("Optional: taken with the tablet's camera. They are signed with the entry and never removed."),
        )
    }
    if checklist:
        fields["photo_item"] = forms.ChoiceField(
            label=_("The photos show"),
            required=False,
            choices=[("", _("The whole table")), *((item.code, _(item.label)) for item in checklist)],
        )
    names = list(form.fields)
    at = names.index("username") if "username" in names else len(names)
    form.fields = {
        **{name: form.fields[name] for name in names[:at]},
        **fields,
        **{name: form.fields[name] for name in names[at:]},
    }
    return form


class TableEventForm(SignedForm):
    """Nothing to fill in but the signature (the cursor starts in the password field); opening a
    Casino War table also says how its cards were inspected (§ 651a.4)."""

    def __init__(self, *args, card_checks=(), **kwargs):
        super().__init__(*args, **kwargs)
        if card_checks:
            self.fields["cards"] = forms.ChoiceField(
                label=_("The cards"), choices=card_checks, widget=forms.RadioSelect, help_text="§ 651a.4"
            )
            self.order_fields(["cards"])
        self.fields["password"].widget.attrs["autofocus"] = True


class InspectionForm(SignedForm):
    notes = note_field(_("Notes"), required=False)

    def __init__(self, *args, checklist=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.checklist = checklist
        items = {}
        for item in checklist:
            items[item.code] = forms.ChoiceField(
                # The rulebook's words, said in the language in use (their catalogue: makemessages).
                label=_(item.label),
                choices=[("pass", _("Pass")), ("fail", _("Fail"))],
                widget=forms.RadioSelect,
                help_text=item.citation,
            )
        # The checklist first, then notes and the signature.
        self.fields = {**items, "notes": self.fields.pop("notes"), **self.fields}

    def items(self) -> dict[str, bool]:
        return {item.code: self.cleaned_data[item.code] == "pass" for item in self.checklist}


class NewBallField(forms.ModelChoiceField):
    """The registered ball put in play, optional, each named by its serial, material and size; none
    offered until the form is given the table's balls."""

    def __init__(self, **kwargs):
        super().__init__(queryset=Ball.objects.none(), required=False, **kwargs)

    def label_from_instance(self, ball: Ball) -> str:
        # The size as the page around it writes a number (Spanish: "0,8125 in", as the table's page).
        return f"{ball.serial} ({ball.get_material_display().lower()}, {formats.localize(ball.diameter_inches)} in)"


class AdjustmentForm(SignedForm):
    """An adjustment or replacement of a part of the wheel. The ball is not a part of the wheel: a
    ball change has its own form (BallChangeForm), which names the ball put on."""

    kind = forms.ChoiceField(
        label=_("What was done"), choices=[("adjustment", _("Adjustment")), ("replacement", _("Replacement"))]
    )
    part = forms.CharField(label=_("Part"), max_length=200, validators=[printable_line])
    description = note_field(_("Description"))
    witness_username = forms.CharField(
        label=_("Security witness (username)"), max_length=150, validators=[printable_line]
    )
    witness_password = password_form_field(label=_("Witness's password"))

    FIELD_FOR = {"performer": "password", "witness": "witness_password", "table": None, "ball": None, "new_ball": None}
    # What was done, then the performer's signature, then the witness's.
    field_order = [
        "kind",
        "part",
        "description",
        "username",
        "password",
        "witness_username",
        "witness_password",
    ]

    def clean(self):
        data = super().clean() or self.cleaned_data
        # The ball is changed on its own form, which names the ball put on (the rulebook's reading of a part).
        if replaces_the_ball(kind=data.get("kind", ""), part=data.get("part", "")):
            self.add_error("part", _("The ball is not a part of the wheel: log a ball change with “Change the ball”."))
        return data

    def witness(self) -> SignatureInput:
        return self.signature_from("witness_username", "witness_password")


class BallChangeForm(SignedForm):
    """A ball change: the registered spare ball put on (the one taken off is the table's), why, and
    the performer's and the security witness's signatures, as a replacement's."""

    new_ball = NewBallField(
        label=_("Ball put on"),
        empty_label=_("Choose a spare ball"),
        help_text=_("A registered spare ball of this property; it becomes the table's ball."),
    )
    description = note_field(_("Why the ball was changed"))
    witness_username = forms.CharField(
        label=_("Security witness (username)"), max_length=150, validators=[printable_line]
    )
    witness_password = password_form_field(label=_("Witness's password"))

    FIELD_FOR = {"performer": "password", "witness": "witness_password", "table": None, "ball": "new_ball"}
    field_order = ["new_ball", "description", "username", "password", "witness_username", "witness_password"]

    def __init__(self, *args, balls=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_ball"].required = True
        if balls is not None:
            cast(forms.ModelChoiceField, self.fields["new_ball"]).queryset = balls

    def witness(self) -> SignatureInput:
        return self.signature_from("witness_username", "witness_password")


class IrregularityForm(SignedForm):
    """A "no spin": its reason (the rulebook's list for the table's jurisdiction), the ball, notes."""

    kind = forms.ChoiceField(label=_("Reason for the no spin"), widget=forms.RadioSelect(attrs={"class": "stacked"}))
    ball_replaced = forms.BooleanField(label=_("Ball replaced"), required=False)
    new_ball = NewBallField(
        label=_("New ball"),
        empty_label=_("None named"),
        help_text=_("The registered ball put in play; it becomes the table's ball."),
    )
    notes = note_field(_("Notes"), required=False)

    field_order = ["kind", "ball_replaced", "new_ball", "notes", "username", "password"]
    FIELD_FOR = {"signature": "password", "table": None, "at": None, "ball": "new_ball"}

    def __init__(self, *args, kinds=(), balls=None, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["kind"]).choices = [(code, capfirst(_(label))) for code, label in kinds]
        if balls is not None:
            cast(forms.ModelChoiceField, self.fields["new_ball"]).queryset = balls

    def clean(self):
        data = super().clean() or self.cleaned_data
        # As the API reads it: a new ball is named only with a replacement.
        if data.get("new_ball") and not data.get("ball_replaced"):
            self.add_error("new_ball", _("A new ball is named only when the ball was replaced."))
        return data


class AmendmentForm(SignedForm):
    """Why, and what: corrected values of the fields the amended entry has (services.CORRECTABLE),
    or the entry marked entered in error, or a duplicate of an earlier entry (its number)."""

    reason = note_field(_("Reason for the amendment"))
    amendment_kind = forms.ChoiceField(
        label=_("What the amendment says"),
        choices=[
            ("correction", _("Correct what is below")),
            ("entered_in_error", _("Entered in error: it should not be in the logbook")),
            ("duplicate", _("A duplicate of an earlier entry")),
        ],
        initial="correction",
        required=False,  # a correction unless another is chosen
        widget=forms.RadioSelect(attrs={"class": "stacked"}),
    )
    duplicate_of = forms.IntegerField(
        label=_("Duplicate of entry #"),
        required=False,
        min_value=1,
        max_value=2**31 - 1,
        help_text=_("The number of the earlier entry of this table it repeats."),
    )
    corrected_time = forms.DateTimeField(
        label=_("Corrected time"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    corrected_kind = forms.ChoiceField(label=_("Corrected kind"), required=False)
    corrected_part = forms.CharField(
        label=_("Corrected part"), required=False, max_length=200, validators=[printable_line]
    )
    corrected_decks = forms.IntegerField(
        label=_("Corrected number of decks"), required=False, min_value=1, max_value=16
    )
    corrected_cards_per_deck = forms.IntegerField(
        label=_("Corrected cards in each deck"), required=False, min_value=0, max_value=99, help_text="§ 651a.3(a)"
    )
    corrected_cover_cards_per_deck = forms.IntegerField(
        label=_("Corrected cover cards in each deck"),
        required=False,
        min_value=0,
        max_value=99,
        help_text="§ 651a.3(a)",
    )
    corrected_back_colours = forms.CharField(
        label=_("Corrected colours of the backs"),
        required=False,
        max_length=81,
        validators=[printable_line],
        help_text=_("One colour, or one per batch separated by a comma (§ 651a.3(a), (c)(2))."),
    )
    corrected_notes = note_field(_("Corrected notes"), required=False)
    corrected_description = note_field(_("Corrected description"), required=False)

    field_order = [
        "reason",
        "amendment_kind",
        "duplicate_of",
        "corrected_time",
        "corrected_kind",
        "corrected_part",
        "corrected_decks",
        "corrected_cards_per_deck",
        "corrected_cover_cards_per_deck",
        "corrected_back_colours",
        "corrected_notes",
        "corrected_description",
        "username",
        "password",
    ]
    FIELD_FOR = {
        "signature": "password",
        "table": None,
        "entry": None,
        "correction": None,
        "duplicate_of": "duplicate_of",
        "correction.at": "corrected_time",
        "correction.performed_at": "corrected_time",
        "correction.notes": "corrected_notes",
        "correction.description": "corrected_description",
        "correction.kind": "corrected_kind",
        "correction.part": "corrected_part",
        "correction.decks": "corrected_decks",
        "correction.cards_per_deck": "corrected_cards_per_deck",
        "correction.cover_cards_per_deck": "corrected_cover_cards_per_deck",
        "correction.back_colours": "corrected_back_colours",
    }
    # A deck change's composition (§ 651a.3(a), (c)(2)), by the names of its API resource.
    DECK_COMPOSITION = ("cards_per_deck", "cover_cards_per_deck", "back_colours")
    # The names an entry's time has in a correction (inspections and adjustments: "performed_at").
    TIMES = ("performed_at", "at")
    TEXTS = ("notes", "description", "part")
    UNCHANGED = ("", _("— unchanged —"))

    @classmethod
    def offered_for(cls, correctable: frozenset[str]) -> bool:
        """Every entry may be amended here: at least marked entered in error or a duplicate."""
        return True

    def __init__(
        self, *args, correctable: frozenset[str], zone, entry_kind: str = "", kinds=(), checklist=(), **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.zone = zone
        self.time_name = next((name for name in self.TIMES if name in correctable), None)
        if self.time_name is None:
            del self.fields["corrected_time"]
        else:
            self.fields["corrected_time"].help_text = _("In the property's time (%(zone)s); empty if it was right.") % {
                "zone": zone.key
            }
        for name in self.TEXTS:
            if name not in correctable:
                del self.fields[f"corrected_{name}"]
        if "decks" not in correctable:
            del self.fields["corrected_decks"]
        for name in self.DECK_COMPOSITION:
            if name not in correctable:
                del self.fields[f"corrected_{name}"]
        if "kind" in correctable and kinds:
            cast(forms.ChoiceField, self.fields["corrected_kind"]).choices = [
                self.UNCHANGED,
                *((code, capfirst(_(label))) for code, label in kinds),
            ]
        else:
            del self.fields["corrected_kind"]
        # An inspection's checklist: each item's corrected result, or unchanged.
        self.checklist = checklist if "items" in correctable else ()
        items = {
            f"corrected_item_{item.code}": forms.ChoiceField(
                label=_("Corrected: %(item)s") % {"item": _(item.label)},
                required=False,
                choices=[self.UNCHANGED, ("pass", _("Pass")), ("fail", _("Fail"))],
                help_text=item.citation,
            )
            for item in self.checklist
        }
        if items:
            # After the time, before the notes.
            names = list(self.fields)
            at = names.index("corrected_notes") if "corrected_notes" in names else len(names) - 2
            self.fields = {
                **{n: self.fields[n] for n in names[:at]},
                **items,
                **{n: self.fields[n] for n in names[at:]},
            }
            for item in self.checklist:
                self.FIELD_FOR = {**self.FIELD_FOR, f"correction.items.{item.code}": f"corrected_item_{item.code}"}

    def full_clean(self):
        # The time typed is the property's wall-clock time, whatever the server's own zone.
        with timezone.override(self.zone):
            super().full_clean()

    def kind_chosen(self) -> str:
        return self.cleaned_data.get("amendment_kind") or "correction"

    def duplicate_number(self) -> int | None:
        return self.cleaned_data.get("duplicate_of")

    def correction(self) -> dict:
        """What was filled in, by the names of the amended entry's API resource; times in ISO 8601 with offset."""
        data = self.cleaned_data
        correction = {}
        if data.get("corrected_time"):
            correction[self.time_name] = data["corrected_time"].isoformat()
        for name in (*self.TEXTS, "kind"):
            if data.get(f"corrected_{name}"):
                correction[name] = data[f"corrected_{name}"]
        if data.get("corrected_decks"):
            correction["decks"] = data["corrected_decks"]
        for name in ("cards_per_deck", "cover_cards_per_deck"):
            if data.get(f"corrected_{name}") is not None:
                correction[name] = data[f"corrected_{name}"]
        if data.get("corrected_back_colours"):
            correction["back_colours"] = [c.strip() for c in data["corrected_back_colours"].split(",")]
        items = {
            item.code: data[f"corrected_item_{item.code}"] == "pass"
            for item in self.checklist
            if data.get(f"corrected_item_{item.code}")
        }
        if items:
            correction["items"] = items
        return correction
