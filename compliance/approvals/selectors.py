"""Which Rules Submissions and layouts a person sees, and which are in effect."""

from __future__ import annotations

from datetime import date

from django.db.models import QuerySet

from compliance.approvals.models import LayoutStatus, LayoutSubmission, RulesSubmission, SubmissionStatus


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
