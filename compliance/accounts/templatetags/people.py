"""What the signed-in person may do, for the templates (`{% load people %}`):
`{% if user|may:"reports.request" %}` asks `User.may` (actions: compliance.rulebook.roles.MAY)."""

from django import template

register = template.Library()


@register.filter
def may(user, action: str) -> bool:
    """Whether `user` may do `action`; nobody signed in may do nothing."""
    return bool(user.is_authenticated and user.may(action))
