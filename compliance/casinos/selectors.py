"""Who may see what, decided once (every list, filter and lookup starts here)."""

from __future__ import annotations

from datetime import date

from django.db.models import Q, QuerySet

from compliance.accounts.models import Role, User
from compliance.approvals.models import LayoutStatus, LayoutSubmission, RulesSubmission, SubmissionStatus
from compliance.casinos.models import Ball, GamingTable, Property, Wheel


def is_administrator(user) -> bool:
    return user.is_superuser or user.role == Role.ADMIN


def property_filter(user, field: str = "property") -> Q:
    """The properties a person sees: administrators all; regulators their jurisdiction's; staff their own."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if is_administrator(user):
        return Q()
    if user.role == Role.REGULATOR:
        return Q(**{f"{field}__jurisdiction": user.jurisdiction}) if user.jurisdiction else Q(pk__in=[])
    if user.property_id:
        return Q(**{f"{field}_id": user.property_id})
    return Q(pk__in=[])


def properties_visible_to(user) -> QuerySet[Property]:
    if not user.is_authenticated:
        return Property.objects.none()
    if is_administrator(user):
        return Property.objects.all()
    if user.role == Role.REGULATOR:
        return Property.objects.filter(jurisdiction=user.jurisdiction)
    return Property.objects.filter(pk=user.property_id)


def tables_visible_to(user) -> QuerySet[GamingTable]:
    return GamingTable.objects.filter(property_filter(user)).select_related("property")


def people_visible_to(user) -> QuerySet[User]:
    """Staff see their property's people; regulators the people of their jurisdiction and its regulators."""
    people = User.objects.select_related("property")
    if not user.is_authenticated:
        return people.none()
    if is_administrator(user):
        return people.all()
    if user.role == Role.REGULATOR:
        return people.filter(
            Q(property__jurisdiction=user.jurisdiction) | Q(role=Role.REGULATOR, jurisdiction=user.jurisdiction)
        )
    return people.filter(property_id=user.property_id)


def properties_managed_by(user) -> QuerySet[Property]:
    """Where a person may change the configuration: administrators anywhere, compliance managers at home."""
    if not user.is_authenticated:
        return Property.objects.none()
    if is_administrator(user):
        return Property.objects.all()
    if user.role == Role.COMPLIANCE and user.property_id:
        return Property.objects.filter(pk=user.property_id)
    return Property.objects.none()


def wheels_visible_to(user) -> QuerySet[Wheel]:
    return Wheel.objects.filter(property_filter(user))


def balls_visible_to(user) -> QuerySet[Ball]:
    return Ball.objects.filter(property_filter(user))


def rules_submissions_visible_to(user) -> QuerySet[RulesSubmission]:
    return (
        RulesSubmission.objects.filter(property_filter(user)).select_related("property").prefetch_related("signatures")
    )


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
    return (
        LayoutSubmission.objects.filter(property_filter(user))
        .select_related("property")
        .prefetch_related("tables", "signatures")
    )


def layout_approved_for(*, table_id: int) -> LayoutSubmission | None:
    """The most recently submitted approved layout used on the table."""
    return (
        LayoutSubmission.objects.filter(tables__id=table_id, status=LayoutStatus.APPROVED)
        .order_by("-created_at", "-id")
        .first()
    )
