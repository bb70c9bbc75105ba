"""One way to ask what a person may do (`User.may`, the `may` filter) and which rows they see
(`restrict`): the role table of the rulebook, and each row's own rule."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from compliance.accounts.models import Role, User
from compliance.casinos.models import GamingTable, Property
from compliance.rulebook.roles import MAY
from tests.factories import GamingTableFactory, PropertyFactory, RegulatorFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [role for role in Role if role not in (Role.REGULATOR, Role.ADMIN)])
def test_a_property_persons_actions_are_the_role_tables(role):
    person = UserFactory(role=role)
    assert {action for action in MAY if person.may(action)} == {
        action for action, roles in MAY.items() if role in roles
    }


def test_a_superuser_may_what_an_administrator_may_and_an_unknown_action_is_an_error():
    person = UserFactory(role=Role.SECURITY, property=None, is_superuser=True)
    assert person.may("admin") and person.may("tables.configure")
    assert not person.may("approvals.decide")
    with pytest.raises(KeyError):
        person.may("tables.delete")


def test_with_a_row_a_person_may_only_where_they_see_it():
    manager = UserFactory(role=Role.COMPLIANCE)
    own = GamingTableFactory(property=manager.property)
    other = GamingTableFactory()
    assert manager.may("tables.configure", own)
    assert not manager.may("tables.configure", other)


def test_the_may_filter_asks_the_person_and_nobody_signed_in_may_nothing():
    from django.contrib.auth.models import AnonymousUser

    page = Template('{% load people %}{% if user|may:"reports.request" %}reports{% endif %}')
    assert page.render(Context({"user": UserFactory(role=Role.COMPLIANCE)})) == "reports"
    assert page.render(Context({"user": UserFactory(role=Role.SECURITY)})) == ""
    assert page.render(Context({"user": AnonymousUser()})) == ""


def test_restrict_applies_each_models_rule():
    from django.contrib.auth.models import AnonymousUser

    home, elsewhere = PropertyFactory(), PropertyFactory(jurisdiction="NJ")
    tables = [GamingTableFactory(property=home), GamingTableFactory(property=elsewhere)]
    staff = UserFactory(property=home)
    regulator = RegulatorFactory(jurisdiction="PA")
    admin = UserFactory(role=Role.ADMIN, property=None)
    assert list(Property.objects.restrict(staff)) == [home]
    assert list(Property.objects.restrict(regulator)) == [home]
    assert set(GamingTable.objects.restrict(admin)) == set(tables)
    assert list(GamingTable.objects.restrict(staff)) == [tables[0]]
    assert not GamingTable.objects.restrict(AnonymousUser()).exists()
    # People: staff see their property's; a regulator those of the jurisdiction and its regulators.
    assert set(User.objects.restrict(staff)) == {staff}
    assert set(User.objects.restrict(regulator)) == {staff, regulator}
