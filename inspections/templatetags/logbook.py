"""Template filters of the logbook's pages."""

from django import template

from inspections.overdue import flag_label as label

register = template.Library()


@register.filter
def flag_label(flag) -> str:
    """A flag's kind in words, as the rulebook names it."""
    return label(flag)
