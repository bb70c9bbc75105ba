"""Which Rules Submissions and layouts a person sees, which are in effect, and what a version or a
layout would change or break (read, never written)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet

from compliance.approvals.models import LayoutStatus, LayoutSubmission, RulesSubmission, SubmissionStatus
from compliance.casinos.clock import property_today
from compliance.casinos.models import GamingTable, Property
from compliance.rulebook import Violation, rulebook_for
from compliance.rulebook.configurations import (
    STANDARD,
    Change,
    LeftWithout,
    compare,
    configuration_of,
    tables_left_without,
)
from compliance.rulebook.submissions import wager_labels


def rules_submissions_visible_to(user) -> QuerySet[RulesSubmission]:
    return RulesSubmission.objects.restrict(user).select_related("property").prefetch_related("signatures")


def rules_submission_in_effect(*, property_id: int, game: str, on: date) -> RulesSubmission | None:
    """The newest approved version whose effective date has come: it supersedes the older ones."""
    return (
        RulesSubmission.objects.filter(
            property_id=property_id, game=game, status=SubmissionStatus.APPROVED, effective_from__lte=on
        )
        .order_by("-effective_from", "-version")
        .first()
    )


def layouts_visible_to(user) -> QuerySet[LayoutSubmission]:
    return LayoutSubmission.objects.restrict(user).select_related("property").prefetch_related("tables", "signatures")


def layout_approved_for(*, table_id: int) -> LayoutSubmission | None:
    """The most recently submitted approved layout used on the table."""
    return (
        LayoutSubmission.objects.filter(tables__id=table_id, status=LayoutStatus.APPROVED)
        .order_by("-created_at", "-id")
        .first()
    )


def submission_content(submission: RulesSubmission) -> dict:
    """What is signed when a submission is filed and decided (the other configurations only where
    there are some, so that a submission of one configuration hashes as it always did)."""
    content = {
        "property": submission.property_id,
        "game": submission.game,
        "version": submission.version,
        "effective_from": submission.effective_from.isoformat(),
        "wheel_types": submission.wheel_types,
        "payout_odds": submission.payout_odds,
        "options": submission.options,
    }
    if submission.configurations:
        content["configurations"] = submission.configurations
    return content


@dataclass(frozen=True)
class Warnings:
    """What a version would change for the property's tables: shown at drafting, at filing and to
    the regulator before the decision (the tables it leaves without a configuration in effect, next
    to how it differs from the version in effect)."""

    in_effect: RulesSubmission | None
    tables_left: list[LeftWithout]
    changes: list[Change]

    def as_dict(self) -> dict:
        return {
            "version_in_effect": self.in_effect.version if self.in_effect else None,
            "tables_left_without_configuration": [t.as_dict() for t in self.tables_left],
            "changes": [c.as_dict() for c in self.changes],
        }


def submission_warnings(submission: RulesSubmission) -> Warnings:
    """The tables this version leaves without a configuration they can open under, and how it
    differs from the version in effect today (none for a version already decided)."""
    prop = submission.property
    in_effect = rules_submission_in_effect(property_id=prop.pk, game=submission.game, on=property_today(prop))
    if in_effect is not None and in_effect.pk == submission.pk:
        in_effect = None
    tables = GamingTable.objects.filter(property=prop, game=submission.game).order_by("number")
    return Warnings(
        in_effect=in_effect,
        tables_left=tables_left_without(submission=submission, tables=tables),
        changes=compare(in_effect=in_effect, submission=submission, labels=wager_labels(prop.jurisdiction)),
    )


def layout_violations(*, prop: Property, game: str, features: list[str], tables: list[GamingTable]):
    """Checked against the Rules Submission in effect today for the property's game: for each
    configuration its tables use, what that configuration offers (configurations.py)."""
    rules = rulebook_for(prop.jurisdiction)
    in_effect = rules_submission_in_effect(property_id=prop.pk, game=game, on=property_today(prop))
    by_key: dict[str, list[GamingTable]] = {}
    for table in tables:
        by_key.setdefault(table.configuration, []).append(table)
    found: list[Violation] = []
    for key, used_by in sorted(by_key.items()) or [(STANDARD, [])]:
        configuration = configuration_of(in_effect, key)
        for v in rules.check_layout(
            features=features,
            tables=used_by,
            options=configuration.options if configuration else None,
            game=game,
            offered=list(configuration.payout_odds) if configuration else (),
        ):
            if v not in found:
                found.append(v)
    return found
