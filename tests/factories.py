"""Test data. Every person's password is PASSWORD."""

import factory

from compliance.accounts.models import Role, User
from compliance.casinos.models import Game, GamingTable, Jurisdiction, Property, WheelType
from inspections.flags.models import ComplianceException

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
    number = factory.Sequence(lambda n: f"T-{n:03d}")
    game = Game.ROULETTE
    wheel_type = WheelType.DOUBLE_ZERO
    has_external_movable_parts = True


def flag_raised(table: GamingTable, *, due_at, kind: str = "not_covered", detected_at=None, **fields):
    """A flag on `table` as the overdue scan raises it (§ 617a.2(f)'s deadlines), detected when it
    fell due unless said; `fields` for the rest (a status, a resolution)."""
    return ComplianceException.objects.create(
        property=table.property,
        table=table,
        kind=kind,
        citation="58 Pa. Code § 617a.2(f)",
        due_at=due_at,
        detected_at=due_at if detected_at is None else detected_at,
        **fields,
    )


# Everything a Roulette layout may need for the demo options (§ 617a.1(e)–(g)).
ROULETTE_LAYOUT = [
    "name_or_logo",
    "betting_areas",
    "min_max_signage",
    "drop_box",
    "tip_box",
    "wheel_replica",
    "double_zero_cover",
    "single_zero_signage",
    # N.J.A.C. 19:47-5.2(b), Section 4(b)(2): a double-zero table's notice of the option in effect,
    # asked again at each opening there (and unknown to no jurisdiction: Pennsylvania accepts it).
    "double_zero_option_notice",
]


def configure_for_opening(
    table: GamingTable,
    *,
    created_by: User,
    rules_wheel_types: list[str] | None = None,
    layout_features: list[str] | None = None,
) -> GamingTable:
    """What a Roulette table needs before it opens: registered equipment, an approved Rules
    Submission in effect for its wheel type, an approved layout. Made directly: these tests are
    about the logbook; the approvals have their own tests."""
    from datetime import date
    from decimal import Decimal

    from compliance.approvals.models import LayoutSubmission, RulesSubmission
    from compliance.casinos.models import Ball, Wheel
    from compliance.rulebook import pa

    physical = "single_zero" if table.wheel_type == WheelType.SINGLE_ZERO else "double_zero"
    table.wheel = Wheel.objects.create(
        property=table.property,
        serial=f"W-{table.number}",
        wheel_type=physical,
        diameter_inches=Decimal(32),
        number_order=list(pa.wheel_order_for(physical)),
        colours=pa.ring_colours(pa.wheel_order_for(physical)),
    )
    table.ball = Ball.objects.create(
        property=table.property, serial=f"B-{table.number}", material="non_metallic", diameter_inches=Decimal("0.8125")
    )
    table.save()
    RulesSubmission.objects.get_or_create(
        property=table.property,
        game=table.game,
        version=1,
        defaults={
            "effective_from": date(2020, 1, 1),
            "wheel_types": rules_wheel_types or list(WheelType.values),
            "payout_odds": {"straight": [35, 1]},
            "status": "approved",
            "created_by": created_by,
        },
    )
    layout = LayoutSubmission.objects.create(
        property=table.property,
        name=f"Layout {table.number}",
        features=ROULETTE_LAYOUT if layout_features is None else layout_features,
        status="approved",
        created_by=created_by,
        content_hash="0" * 64,
    )
    layout.tables.add(table)
    return table


def rules_submission_version(submission, *, version: int, status: str, created_by: User):
    """A later version of `submission` with the same content, in the given status: what a test of
    filing or deciding needs beside the approved version 1. Made directly, as above."""
    from compliance.approvals.models import RulesSubmission

    return RulesSubmission.objects.create(
        property=submission.property,
        game=submission.game,
        version=version,
        effective_from=submission.effective_from,
        wheel_types=submission.wheel_types,
        payout_odds=submission.payout_odds,
        status=status,
        created_by=created_by,
    )


def artwork_upload(content: bytes | None = None, name: str = "layout.png"):
    """A layout's artwork as uploaded: by default the demo's small generated PNG."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from compliance.approvals.artwork import demo_artwork_png

    return SimpleUploadedFile(name, demo_artwork_png() if content is None else content)


def layout_submitted(staff, *, name: str = "Keystone standard layout", artwork=None):
    """A Roulette layout of every feature (ROULETTE_LAYOUT) for `staff.table`, submitted by the
    property's compliance manager and waiting for the regulator; a generated PNG unless `artwork`."""
    from compliance.approvals import services

    return services.layout_submit(
        prop=staff.property,
        game="roulette",
        name=name,
        features=ROULETTE_LAYOUT,
        tables=[staff.table],
        artwork=artwork_upload() if artwork is None else artwork,
        created_by=staff.compliance,
    )


def pdf_bytes(
    *, note: str = "the layout's artwork", catalog: dict | None = None, attachment: bytes | None = None
) -> bytes:
    """A real one-page PDF (written by pypdf, so every reader reads it): `catalog` adds entries to its
    catalog (pypdf objects: an /OpenAction, /Names…), `attachment` embeds a file."""
    import io

    from pypdf import PdfWriter
    from pypdf.generic import NameObject

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=100)
    writer.add_metadata({"/Subject": note})
    for key, value in (catalog or {}).items():
        writer._root_object[NameObject(key)] = value
    if attachment is not None:
        writer.add_attachment("inside.txt", attachment)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
