"""The configuration's permissions, which every app shares. A person is asked (`may(action)`:
compliance.accounts.models.User; the actions are compliance.rulebook.roles.MAY), never imported:
the kernel imports no app. The logbook's and the reports' permissions are the people's app's
(compliance.accounts.api.permissions)."""

from rest_framework import permissions


class ReadOrConfigure(permissions.IsAuthenticated):
    """Configuration (properties, tables, submissions) is changed by administrators and compliance managers."""

    message = "Only an administrator or the property's compliance manager changes this."
    action = "tables.configure"

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return request.user.may(self.action)


class ReadOrManagePeople(ReadOrConfigure):
    """The people of a property are added and changed by administrators and its compliance manager."""

    action = "people.manage"


class ReadOrAdministrator(permissions.IsAuthenticated):
    message = "Only an administrator creates properties."

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS or request.method == "PATCH":
            return True
        return request.user.may("admin")
