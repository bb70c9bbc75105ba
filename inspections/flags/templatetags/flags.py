"""Template filters naming a flag, for any page that shows one (`{% load flags %}`): the floor, a table, the flags."""

from django import template

from inspections.flags.text import flag_acknowledgements, flag_history_text, flag_status_text
from inspections.flags.text import flag_label as label
from inspections.flags.text import flag_resolution_text as resolution_text

register = template.Library()


@register.filter
def flag_label(flag) -> str:
    """A flag's kind in words, as the rulebook names it."""
    return label(flag)


@register.filter
def flag_resolution(flag) -> str:
    """Where a flag stands: the entry that cured it, or open and who acknowledged it."""
    return resolution_text(flag, flag.property.zone)


@register.filter
def flag_status(flag) -> str:
    """Open, Open, acknowledged, or Cured."""
    return flag_status_text(flag)


@register.filter
def flag_acknowledged(flag) -> bool:
    return bool(flag_acknowledgements(flag))


@register.filter
def flag_history(flag) -> list:
    """The flag's history, (time, text) oldest first: its moved deadlines and its acknowledgements."""
    return flag_history_text(flag, flag.property.zone)
