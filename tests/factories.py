"""Test data. Every person's password is PASSWORD."""

import factory

from compliance.models import Game, GamingTable, Jurisdiction, Property, Role, User, WheelType

PASSWORD = "correct horse battery staple"


class PropertyFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Property

    name = factory.Sequence(lambda n: f"Casino {n}")
    licence_number = factory.Sequence(lambda n: f"PA-{1000 + n}")
    jurisdiction = Jurisdiction.PA
    time_zone = "America/New_York"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"person{n}")
    full_name = factory.Sequence(lambda n: f"Person {n}")
    role = Role.SECURITY
    credential_number = factory.Sequence(lambda n: f"BC-{100000 + n}")
    property = factory.SubFactory(PropertyFactory)
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class RegulatorFactory(UserFactory):
    role = Role.REGULATOR
    property = None
    jurisdiction = Jurisdiction.PA


class GamingTableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = GamingTable

    property = factory.SubFactory(PropertyFactory)
    number = factory.Sequence(lambda n: f"R-{n:02d}")
    game = Game.ROULETTE
    wheel_type = WheelType.DOUBLE_ZERO
    has_external_movable_parts = True
