"""Who may call an API by role: the person's `may` (compliance.accounts.models.User; the actions
are compliance.rulebook.roles.MAY)."""

from rest_framework import permissions


class ReadOrLogbookWriter(permissions.IsAuthenticated):
    """Anyone signed in reads (scoped by the selectors); floor staff and compliance write entries."""

    message = "Only the property's security, floor, maintenance and compliance staff write to the logbook."

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return request.user.may("logbook.write")


class ReportRoles(permissions.IsAuthenticated):
    """Reports are asked for and downloaded by compliance managers and regulators."""

    message = "Reports are for the property's compliance manager and the regulators of its jurisdiction."

    def has_permission(self, request, view) -> bool:
        return super().has_permission(request, view) and request.user.may("reports.request")
