"""Product policy from 58 Pa. Code § 617a.2(e): records stay where they were signed. A table with
history stays at its property and keeps its number; a property with records keeps its jurisdiction and its licence number;
a person who has signed keeps their credential number and their property."""

from __future__ import annotations

from compliance.rulebook.catalogue import violation
from compliance.rulebook.subjects import Person, Property, Table
from compliance.rulebook.violations import Violation


def table_may_move(*, table: Table, has_history: bool) -> Violation | None:
    """A table's logbook, flags and layouts stay with the certificate holder whose records they
    are, so a table that has any never changes property."""
    if has_history:
        return violation("table_has_history", field="property", table=table.number, property=table.property.name)
    return None


def table_may_renumber(*, table: Table, has_entries: bool) -> Violation | None:
    """The log holds the table number, and its entries read it from the table, so a table with
    logbook entries keeps its number (a renamed table would change the "Table" of every entry
    already signed)."""
    if has_entries:
        return violation("table_number_in_logbook", field="number", table=table.number)
    return None


def property_may_change_jurisdiction(*, prop: Property, has_records: bool) -> Violation | None:
    """A property's logbook was signed and chained under its jurisdiction's rules, and that
    jurisdiction's regulators are the ones who may read it; so a property with entries, flags,
    Rules Submissions or layouts keeps its jurisdiction."""
    if has_records:
        return violation("property_has_records", field="jurisdiction", property=prop.name)
    return None


def property_may_change_licence(*, prop: Property, has_records: bool) -> Violation | None:
    """The signed checkpoints bind the property by its licence number, and the logbook was kept
    under that licence; so a property with records keeps it (a new licence is a new property)."""
    if has_records:
        return violation("licence_has_records", field="licence_number", property=prop.name, licence=prop.licence_number)
    return None


def person_may_change(*, person: Person, changed: set[str], has_signed: bool) -> list[Violation]:
    """Once a person has signed or recorded an entry (product policy from § 617a.2(e), which asks the log
    for the credential number of who signs): their Board-issued credential number never changes; and
    they stay at the property, or for a regulator the jurisdiction, whose records
    they signed. A new role at the same property is allowed: each signature keeps what it meant."""
    if not has_signed:
        return []
    name = person.full_name or person.username
    violations = []
    if "credential_number" in changed:
        violations.append(
            violation(
                "credential_number_signed",
                field="credential_number",
                name=name,
                credential_number=person.credential_number,
            )
        )
    for field in ("property", "jurisdiction"):
        if field in changed:
            violations.append(violation("person_has_signed", field=field, name=name, where=field))
    return violations
