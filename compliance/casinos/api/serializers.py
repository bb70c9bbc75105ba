from rest_framework import serializers

from compliance.casinos import services
from compliance.casinos.models import Ball, GamingTable, Property, TableState, Wheel, WheelColour
from compliance.casinos.selectors import balls_visible_to, properties_managed_by, wheels_visible_to
from config.api.fields import ScopedPrimaryKeyRelatedField
from config.validators import mail_domain_encodable, printable_line


class ChainHeadField(serializers.ReadOnlyField):
    """A column of the property's hash chain head, kept by the logbook (inspections.logbook's ChainHead,
    `prop.chain`, which this app does not import): a property with no entry yet has no row, and shows
    the empty chain's value."""

    def __init__(self, *, empty, **kwargs):
        self.empty = empty
        super().__init__(**kwargs)

    def get_attribute(self, instance):
        value = super().get_attribute(instance)
        return self.empty if value is None else value


# The chain head's columns of a property with no entry yet (the empty chain's).
EMPTY_CHAIN = {"chain_length": 0, "chain_head": "0" * 64}


class PropertySerializer(serializers.ModelSerializer):
    chain_length = ChainHeadField(source="chain.length", empty=EMPTY_CHAIN["chain_length"])
    chain_head = ChainHeadField(source="chain.head", empty=EMPTY_CHAIN["chain_head"])
    notify_emails = serializers.ListField(
        child=serializers.EmailField(max_length=254, validators=[printable_line, mail_domain_encodable]),
        required=False,
        max_length=50,
        help_text="The security supervisors mailed when a flag opens, and each morning with a digest.",
    )

    class Meta:
        model = Property
        fields = ["id", *services.PROPERTY_EDITABLE, "chain_length", "chain_head"]


# The table's logbook status: moved only by the logbook (inspections.logbook.services), never by a request.
TABLE_STATE_FIELDS = [
    "state",
    "next_due",
    "inspection_void_reason",
    "last_inspection_at",
    "last_adjustment_at",
    "last_replacement_at",
    "last_opened_at",
    "last_closed_at",
]


class WheelSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    number_order = serializers.ListField(
        child=serializers.CharField(max_length=5, validators=[printable_line]),
        max_length=60,
        help_text='Roulette: the numbers read clockwise from "0", e.g. ["0", "32", "15", …]; Big Six: the sections\' '
        'symbols read clockwise from the joker, e.g. ["joker", "1", "2", "1", "5", …].',
    )
    colours = serializers.ListField(
        child=serializers.ChoiceField(choices=WheelColour.choices),
        max_length=60,
        required=False,
        help_text="Roulette (required): the colour of each number's area of the ring, in the order of number_order, "
        'e.g. ["green", "red", "black", …]. Big Six: none.',
    )

    class Meta:
        model = Wheel
        fields = [
            "id",
            "property",
            "serial",
            "game",
            "wheel_type",
            "diameter_inches",
            "number_order",
            "colours",
            "compartments",
            "compartment_colour",
            "compartment_approval",
            "sections_under_glass",
            "sections_show_odds",
            "clapper",
            "registered_at",
        ]


class BallSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)

    class Meta:
        model = Ball
        fields = ["id", "property", "serial", "material", "diameter_inches", "registered_at"]


class GamingTableSerializer(serializers.ModelSerializer):
    property = ScopedPrimaryKeyRelatedField(scope=properties_managed_by)
    wheel = ScopedPrimaryKeyRelatedField(scope=wheels_visible_to, required=False, allow_null=True)
    ball = ScopedPrimaryKeyRelatedField(scope=balls_visible_to, required=False, allow_null=True)
    # The table's logbook status (`status`, inspections.logbook.models.TableStatus).
    state = serializers.ChoiceField(source="status.state", choices=TableState.choices, read_only=True)
    next_due = serializers.DateTimeField(source="status.next_due", read_only=True, allow_null=True)
    inspection_void_reason = serializers.CharField(source="status.inspection_void_reason", read_only=True)
    last_inspection_at = serializers.DateTimeField(source="status.last_inspection_at", read_only=True, allow_null=True)
    last_adjustment_at = serializers.DateTimeField(source="status.last_adjustment_at", read_only=True, allow_null=True)
    last_replacement_at = serializers.DateTimeField(
        source="status.last_replacement_at", read_only=True, allow_null=True
    )
    last_opened_at = serializers.DateTimeField(source="status.last_opened_at", read_only=True, allow_null=True)
    last_closed_at = serializers.DateTimeField(source="status.last_closed_at", read_only=True, allow_null=True)

    class Meta:
        model = GamingTable
        fields = [
            "id",
            *services.TABLE_EDITABLE,
            *TABLE_STATE_FIELDS,
        ]

    # The rules (configuration, equipment, moves) are compliance.casinos.services.table_create and table_update's.
