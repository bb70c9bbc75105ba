"""Template filters naming a flag, for any page that shows one (`{% load flags %}`): the floor, a table, the flags."""

from django import template

from inspections.flags.overdue import flag_label as label
from inspections.flags.overdue import flag_resolution_text as resolution_text

register = template.Library()


@register.filter
def flag_label(flag) -> str:
    """A flag's kind in words, as the rulebook names it."""
    return label(flag)


@register.filter
def flag_resolution(flag) -> str:
    """How a flag was resolved: the entry that cured it, or the manager's signed note."""
    return resolution_text(flag, flag.property.zone)
