"""The flags' form: a compliance manager acknowledges a flag with a signed note."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from compliance.approvals.forms import note_field
from inspections.logbook.forms import SignedForm


class FlagAcknowledgeForm(SignedForm):
    note = note_field(_("What is being done about it"), rows=3)

    field_order = ["note", "username", "password"]
