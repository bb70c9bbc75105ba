"""The base of an admin page whose saves go through a service (the casinos' and the people's pages)."""

from django.contrib import admin, messages
from django.http import HttpResponseRedirect

from compliance.rulebook import RuleViolation


class ServiceAdmin(admin.ModelAdmin):
    """An admin whose saves go through the service the API uses (save_model), under its lock and rules.

    A refusal the form could not foresee (another write came first) is shown as a message and
    nothing is saved: the admin's own transaction is rolled back.
    """

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except RuleViolation as refusal:
            for violation in refusal.violations:
                messages.error(request, f"{violation.message} ({violation.cited})")
            return HttpResponseRedirect(request.get_full_path())

    def has_delete_permission(self, request, obj=None) -> bool:
        # The API deletes none of these; a row with a history is protected by its logbook anyway.
        return False

    @staticmethod
    def changes(form, editable) -> dict:
        return {name: form.cleaned_data[name] for name in form.changed_data if name in editable}
