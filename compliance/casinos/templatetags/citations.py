"""A citation in templates, in the reader's language (compliance.rulebook.violations.cited): the law's
paragraph as the law writes it, a product policy's explanation translated. Built in
(settings.TEMPLATES), so no template needs to load it:

    <cite>{{ violation.citation|cited }}</cite>     58 Pa. Code § 617a.2(a)
    <cite>{{ flag.citation|cited }}</cite>          Política del producto: …
"""

from django import template

from compliance.rulebook import violations

register = template.Library()


@register.filter
def cited(citation) -> str:
    return violations.cited(str(citation) if citation else "")
