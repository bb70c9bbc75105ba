from types import SimpleNamespace

import pytest
from django.db import connection

from compliance.models import Role
from compliance.signatures import SignatureInput
from tests import append_only as triggers
from tests.factories import (
    PASSWORD,
    GamingTableFactory,
    PropertyFactory,
    RegulatorFactory,
    UserFactory,
    configure_for_opening,
)


def sign(user, password: str = PASSWORD) -> SignatureInput:
    return SignatureInput(username=user.username, password=password)


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


@pytest.fixture
def casino(db):
    """A Pennsylvania property with one person of each floor role and a double-zero table."""
    staff = staff_of(PropertyFactory(name="Keystone Casino"))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


@pytest.fixture
def other_casino(db):
    staff = staff_of(PropertyFactory(name="Other Casino"))
    staff.table = configure_for_opening(
        GamingTableFactory(property=staff.property, number="R-01"), created_by=staff.compliance
    )
    return staff


@pytest.fixture
def regulator(db):
    return RegulatorFactory()


@pytest.fixture
def _logbook_triggers_restored(django_db_blocker):
    yield
    with django_db_blocker.unblock():
        triggers.install(connection)


@pytest.fixture
def committed_db(_logbook_triggers_restored, transactional_db, django_db_blocker):
    """Real commits (for threads and other processes); the logbook is emptied after the test.

    The flush that empties the database after a transactional test would be refused by the
    append-only triggers, so they are dropped just for it and put back right after.
    """
    yield
    with django_db_blocker.unblock():
        triggers.drop(connection)
