"""The regulator's pages escape what a property's people typed: a hostile name, licence or time zone
shows as text on the regulator's home and on the floor's property tiles, never as markup."""

import pytest
from django.test import Client

from tests.factories import GamingTableFactory, PropertyFactory, RegulatorFactory

pytestmark = pytest.mark.django_db

HOSTILE = {
    "name": '<script>alert("name")</script>',
    "licence_number": "<script>licence()</script>",
    "time_zone": "<img src=x onerror=zone()>",
}


def escaped(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@pytest.fixture
def regulator():
    prop = PropertyFactory(**HOSTILE)
    GamingTableFactory(property=prop, number="R-01")
    client = Client()
    client.force_login(RegulatorFactory(jurisdiction=prop.jurisdiction))
    return client


@pytest.mark.parametrize(
    ("path", "fields"),
    [("/", ["name", "licence_number", "time_zone"]), ("/floor/", ["name", "licence_number"])],
)
def test_a_propertys_hostile_words_show_escaped_on_the_regulators_pages(regulator, path, fields):
    page = regulator.get(path).content.decode()
    for field in fields:
        assert HOSTILE[field] not in page, field
        assert escaped(HOSTILE[field]) in page, field
