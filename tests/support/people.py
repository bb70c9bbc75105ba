"""The casino's people as tests make them: a property's staff, one of each floor role, and a
signature typed by one of them."""

from types import SimpleNamespace

from django.test import RequestFactory

from compliance.accounts.models import Role
from compliance.accounts.signatures import SignatureInput
from tests.factories import PASSWORD, GamingTableFactory, PropertyFactory, UserFactory


def sign(user, password: str = PASSWORD) -> SignatureInput:
    """A signature typed on a tablet: with a request, so that the lockout counts it as in production."""
    return SignatureInput(username=user.username, password=password, request=RequestFactory().post("/"))


def staff_of(prop) -> SimpleNamespace:
    people = {role: UserFactory(property=prop, role=role) for role in Role if role not in (Role.REGULATOR, Role.ADMIN)}
    return SimpleNamespace(
        property=prop,
        security=people[Role.SECURITY],
        security2=UserFactory(property=prop, role=Role.SECURITY),
        floorperson=people[Role.FLOORPERSON],
        maintenance=people[Role.MAINTENANCE],
        compliance=people[Role.COMPLIANCE],
    )


def bare_casino_staff(name: str) -> SimpleNamespace:
    staff = staff_of(PropertyFactory(name=name))
    staff.table = GamingTableFactory(property=staff.property, number="R-01")
    return staff
