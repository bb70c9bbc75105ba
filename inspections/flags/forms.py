"""The flags' form: a compliance manager resolves a flag by hand, with a signed note."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance.approvals.forms import note_field
from inspections.logbook.forms import SignedForm


class FlagResolveForm(SignedForm):
    note = note_field(_("How the problem was dealt with"), rows=3)

    field_order = ["note", "username", "password"]
