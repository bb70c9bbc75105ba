"""The configuration's permissions, which every app shares. A person is asked (`role`,
`is_administrator`: compliance.accounts.models.User), never imported: the kernel imports no app.
The permissions that follow a role list of the rulebook are the people's app's
(compliance.accounts.api.permissions)."""

from rest_framework import permissions


class ReadOrConfigure(permissions.IsAuthenticated):
    """Configuration (properties, people, tables) is changed by administrators and compliance managers."""

    message = "Only an administrator or the property's compliance manager changes this."

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS:
            return True
        return request.user.is_administrator or request.user.role == "compliance"


class ReadOrAdministrator(permissions.IsAuthenticated):
    message = "Only an administrator creates properties."

    def has_permission(self, request, view) -> bool:
        if not super().has_permission(request, view):
            return False
        if request.method in permissions.SAFE_METHODS or request.method == "PATCH":
            return True
        return request.user.is_administrator
