"""`manage.py seed_demo`: a Pennsylvania demo casino, its people and a week of logbook history.

Idempotent: when the demo property exists it says so and writes nothing. The history is written
only through inspections.logbook.services, so it obeys every § 617a.2 rule, is signed and hash-chained
like any real entry, and passes `manage.py verify_logbook`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Q
from django.test.utils import override_settings
from django.utils import timezone

from compliance.accounts import services as accounts
from compliance.accounts.models import Role, User
from compliance.accounts.signatures import SignatureInput, Unattended
from compliance.approvals import services as approvals
from compliance.approvals.artwork import demo_artwork_png
from compliance.casinos import services as casinos
from compliance.casinos.clock import property_today
from compliance.casinos.models import BallMaterial, Game, GamingTable, Property, WheelType
from compliance.rulebook import rulebook_for
from inspections.logbook import demo, services
from inspections.logbook.models import Entry, EntryKind

# Every service call re-authenticates its signers, as a tablet on the floor does. With the
# production hasher (Argon2, about a tenth of a second a check) the ~450 signatures of a week's history
# would take minutes, so the demo people first get their password hashed with the fast MD5 hasher,
# the history is signed with it under override_settings, and at the end each password is hashed
# again with the project's real hasher. All of it happens in one transaction, so an MD5 hash is
# never committed, and the services are used exactly as the API uses them.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The demo's history is signed here on the server, with no request: nobody is guessing, and there is
# no address to count a wrong password against. Said explicitly, as a signature demands.
SEEDER = Unattended("seed_demo")

# Number, wheel type, external movable parts, fully automated electronic table, the configuration of
# the Rules Submission it uses: single- and double-zero tables side by side, Lightning Roulette on
# R-02, Touchdown on the electronic R-07, First Five on R-08, all under one approved submission.
TABLES = (
    ("R-01", WheelType.SINGLE_ZERO, True, False, "standard"),
    ("R-02", WheelType.SINGLE_ZERO, False, False, "lightning"),
    ("R-03", WheelType.DOUBLE_ZERO, True, False, "standard"),
    ("R-04", WheelType.DOUBLE_ZERO, False, False, "standard"),
    ("R-05", WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO, True, False, "standard"),
    ("R-06", WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO, False, False, "standard"),
    ("R-07", WheelType.DOUBLE_ZERO, False, True, "touchdown"),
    ("R-08", WheelType.DOUBLE_ZERO, True, False, "first-five"),
)

ADJUSTMENTS = (
    ("ball deflector (canoe)", "Re-seated and tightened a loose ball deflector (canoe) at the 3 o'clock position."),
    ("turret", "Tightened the turret cap; the rotor spins freely and evenly afterwards."),
    ("wheel head", "Re-levelled the wheel head with its adjusting feet (checked with a spirit level)."),
    ("ball track", "Re-seated the ball track ring where it had lifted by about a millimetre."),
)
REPLACEMENTS = (
    ("ball deflector (canoe)", "Replaced a cracked ball deflector (canoe) with a new one from sealed stock."),
    ("turret", "Replaced the worn turret handle with a new one from sealed stock."),
)
IRREGULARITIES = (
    ("same_direction", False, "Dealer spun the ball in the same direction as the wheel; no spin called."),
    ("under_four_revolutions", False, "Ball dropped after three revolutions; no spin called."),
    ("ball_left_wheel", True, "Ball jumped out of the wheel onto the layout; replaced with a checked spare."),
    ("foreign_object", False, "A chip fell into the bowl during the spin; removed, wheel checked."),
)

# What each table is doing at the end of the demo week (today), so the dashboard has some of
# everything: open for play, inspected and waiting, unlocked with an adjustment awaiting its
# inspection, still covered and locked, and one closed whose wheel is not yet covered (the README's
# "The demo", checked by tests/inspections/test_demo_story.py).
TODAY = {
    "R-01": ("unlock", "adjustment", "inspection", "open", "irregularity"),
    "R-02": ("unlock", "inspection", "open"),
    "R-03": ("unlock", "replacement", "inspection"),
    "R-04": (),
    "R-05": ("unlock", "inspection", "open"),
    "R-06": ("unlock", "inspection", "open", "close"),
    "R-07": (),
    "R-08": ("unlock", "adjustment"),
}
# The tables being worked on as the demo starts: their wheel was unlocked minutes before the seeding,
# one step a minute, so that their grace period to cover it (§ 617a.2(f)) is still running when the
# first scan comes, whatever the hour (the others' day began hours before, and R-06's closing is
# past its deadline on purpose).
JUST_NOW = frozenset({"R-03", "R-08"})
DAYS = 7

# The demo's approved Roulette odds: § 617a.4(a)'s minimums (First Five is left out: it needs a
# double-zero layout and the demo's Rules Submission covers every wheel type).
DEMO_PAYOUT_ODDS = {
    "straight": [35, 1],
    "split": [17, 1],
    "three_numbers": [11, 1],
    "four_numbers": [8, 1],
    "six_numbers": [5, 1],
    "column": [2, 1],
    "dozen": [2, 1],
    "red": [1, 1],
    "black": [1, 1],
    "odd": [1, 1],
    "even": [1, 1],
    "low": [1, 1],
    "high": [1, 1],
}
# The configurations besides the standard one (compliance.rulebook.configurations), each judged alone.
DEMO_CONFIGURATIONS = [
    {
        "key": "lightning",
        "name": "Lightning Roulette",
        "wheel_types": [WheelType.SINGLE_ZERO],
        # § 617c.3(f): a straight wager not on a Lucky Number is paid 29 to 1.
        "payout_odds": {**DEMO_PAYOUT_ODDS, "straight": [29, 1]},
        "options": {"lightning_payouts": [499, 399, 349, 299, 249, 199, 149, 99, 49]},
    },
    {
        "key": "touchdown",
        "name": "Touchdown Roulette (electronic)",
        "wheel_types": [WheelType.DOUBLE_ZERO],
        "payout_odds": DEMO_PAYOUT_ODDS,
        "options": {"touchdown_paytable": "A"},
    },
    {
        "key": "first-five",
        "name": "Double zero with First Five",
        "wheel_types": [WheelType.DOUBLE_ZERO],
        "payout_odds": {**DEMO_PAYOUT_ODDS, "first_five": [6, 1]},
        "options": {"five_adjacent": True},
    },
]


@dataclass
class Step:
    at: datetime
    table_index: int
    order: int
    run: Callable[[], Entry]


class History:
    """Plans a week of entries per table, then writes them all in time order through the services."""

    def __init__(self, *, people: dict[str, User], tables: list[GamingTable], now: datetime, seed: int = 2026):
        self.people = people
        self.tables = tables
        self.rng = random.Random(seed)
        self.steps: list[Step] = []
        self.jurisdiction = tables[0].property.jurisdiction
        self.spares = 0  # spare balls registered for the replacements
        # "Today" is the four hours before the last full hour; each earlier day starts 24 h before.
        self.now = now
        self.today = now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=4)

    # -- who signs -----------------------------------------------------------------------------

    def sign(self, username: str) -> SignatureInput:
        return SignatureInput(username=username, password=demo.DEMO_PASSWORD, request=SEEDER)

    def guard(self) -> str:
        return self.rng.choice(("security", "security2"))

    def inspector(self) -> str:
        return "floor" if self.rng.random() < 0.6 else self.guard()

    # -- planning --------------------------------------------------------------------------------

    def add(self, table_index: int, at: datetime, run: Callable[[], Entry]) -> None:
        self.steps.append(Step(at, table_index, len(self.steps), run))

    def event(self, index: int, kind: str, at: datetime, who: str) -> None:
        table_id = self.tables[index].pk

        def run() -> Entry:
            return services.table_event_record(
                table_id=table_id, kind=kind, signature=self.sign(who), recorded_by=self.people[who], at=at
            )

        self.add(index, at, run)

    def inspection(self, index: int, at: datetime) -> None:
        table = self.tables[index]
        items = {item.code: True for item in rulebook_for(self.jurisdiction).checklist_for(table)}
        who = self.inspector()

        def run() -> Entry:
            return services.inspection_record(
                table_id=table.pk, items=items, signature=self.sign(who), recorded_by=self.people[who], performed_at=at
            )

        self.add(index, at, run)

    def adjustment(self, index: int, at: datetime, kind: str) -> None:
        part, description = self.rng.choice(ADJUSTMENTS if kind == EntryKind.ADJUSTMENT else REPLACEMENTS)
        performer = "maintenance" if self.rng.random() < 0.7 else "floor"
        witness = self.guard()
        table_id = self.tables[index].pk

        def run() -> Entry:
            return services.adjustment_record(
                table_id=table_id,
                kind=kind,
                part=part,
                description=description,
                performer=self.sign(performer),
                witness=self.sign(witness),
                recorded_by=self.people[performer],
                performed_at=at,
            )

        self.add(index, at, run)

    def irregularity(self, index: int, at: datetime) -> None:
        kind, ball_replaced, notes = self.rng.choice(IRREGULARITIES)
        table = self.tables[index]

        def run() -> Entry:
            # A replaced ball is a registered spare, named in the entry; it becomes the table's ball.
            new_ball = None
            if ball_replaced:
                self.spares += 1
                new_ball = casinos.ball_register(
                    actor=self.people["compliance"],
                    property=table.property,
                    serial=f"BL-{table.number}-S{self.spares}",
                    material=BallMaterial.NON_METALLIC,
                    diameter_inches=Decimal("0.8125"),
                )
            return services.irregularity_record(
                table_id=table.pk,
                kind=kind,
                signature=self.sign("floor"),
                recorded_by=self.people["floor"],
                ball_replaced=ball_replaced,
                new_ball=new_ball,
                notes=notes,
                at=at,
            )

        self.add(index, at, run)

    def minutes(self, low: int, high: int) -> timedelta:
        return timedelta(minutes=self.rng.randint(low, high))

    def plan_day(self, index: int, start: datetime) -> None:
        """A full gaming day: unlock, (adjust), inspect, open, (no spin), (replace mid-session), close, cover."""
        table = self.tables[index]
        t = start + timedelta(minutes=4 * index) + self.minutes(0, 3)
        self.event(index, EntryKind.UNLOCK, t, self.guard())
        if table.has_external_movable_parts and self.rng.random() < 0.35:
            kind = EntryKind.REPLACEMENT if self.rng.random() < 0.25 else EntryKind.ADJUSTMENT
            self.adjustment(index, t + self.minutes(6, 12), kind)
        self.inspection(index, t + self.minutes(16, 22))
        self.event(index, EntryKind.OPEN, t + self.minutes(26, 32), "floor")
        if self.rng.random() < 0.25:
            self.irregularity(index, t + self.minutes(60, 330))
        if table.has_external_movable_parts and self.rng.random() < 0.12:
            # § 617a.2(d): a part replaced during the day; inspected again before the table reopens.
            pause = t + timedelta(hours=8) + self.minutes(0, 20)
            self.event(index, EntryKind.CLOSE, pause, "floor")
            self.adjustment(index, pause + timedelta(minutes=4), EntryKind.REPLACEMENT)
            self.inspection(index, pause + timedelta(minutes=9))
            self.event(index, EntryKind.OPEN, pause + timedelta(minutes=13), "floor")
        closed = t + timedelta(hours=15) + self.minutes(0, 60)
        self.event(index, EntryKind.CLOSE, closed, "floor")
        self.event(index, EntryKind.COVER, closed + self.minutes(4, 12), self.guard())

    def plan_today(self, index: int, steps: tuple[str, ...]) -> None:
        t = self.today + timedelta(minutes=5 + 4 * index)
        if self.tables[index].number in JUST_NOW:
            t = self.now - timedelta(minutes=len(steps) + 1)
        for step in steps:
            if step in (EntryKind.ADJUSTMENT, EntryKind.REPLACEMENT):
                self.adjustment(index, t, step)
            elif step == EntryKind.INSPECTION:
                self.inspection(index, t)
            elif step == EntryKind.IRREGULARITY:
                self.irregularity(index, t + timedelta(minutes=40))
            elif step == EntryKind.CLOSE:
                self.event(index, step, t + timedelta(hours=2, minutes=30), "floor")
            else:
                who = self.guard() if step == EntryKind.UNLOCK else "floor"
                self.event(index, step, t, who)
            t += timedelta(minutes=1 if self.tables[index].number in JUST_NOW else 8)

    def plan(self) -> None:
        first_day = self.today - timedelta(days=DAYS)
        for index in range(len(self.tables)):
            # The tables start the week covered and locked.
            self.event(index, EntryKind.COVER, first_day - timedelta(hours=1), self.guard())
        for day in range(DAYS):
            for index in range(len(self.tables)):
                self.plan_day(index, first_day + timedelta(days=day))
        for index, table in enumerate(self.tables):
            self.plan_today(index, TODAY[table.number])

    def write(self) -> list[Entry]:
        # The property's chain is in time order: all tables' entries interleaved as they happened,
        # each signed at its own time.
        with services.history_signed_when_it_happened():
            return [step.run() for step in sorted(self.steps, key=lambda s: (s.at, s.table_index, s.order))]


class Command(BaseCommand):
    help = "Create the demo casino, one login per role and a week of logbook history (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when the database already has any user (make run)"
        )

    def handle(self, *args, if_empty: bool = False, **options):
        existing = Property.objects.filter(licence_number=demo.PROPERTY_LICENCE).first()
        if existing:
            self.stdout.write(
                f"Demo property “{existing.name}” ({demo.PROPERTY_LICENCE}) already exists: nothing to do."
            )
            return
        if if_empty and User.objects.exists():
            self.stdout.write("The database already has users: demo data not loaded.")
            return
        clashes = User.objects.filter(
            Q(username__in=[u.username for u in demo.DEMO_USERS])
            | Q(credential_number__in=[u.credential_number for u in demo.DEMO_USERS])
        ).values_list("username", flat=True)
        if clashes:
            raise CommandError(f"Users {', '.join(sorted(clashes))} exist already; the demo needs their usernames.")
        try:
            # The demo logins meet the password policy like everyone's (a DEMO_PASSWORD set too short).
            validate_password(demo.DEMO_PASSWORD)
        except ValidationError as error:
            raise CommandError(f"DEMO_PASSWORD is refused: {' '.join(error.messages)}") from None

        started = time.monotonic()
        with transaction.atomic():
            # The demo's week of history is written at once, each entry with its own time: the
            # bound on back-dated entries (ENTRY_MAX_BACKDATE_HOURS) is widened to the week here only.
            with override_settings(PASSWORD_HASHERS=FAST_HASHERS, ENTRY_MAX_BACKDATE_HOURS=(DAYS + 2) * 24):
                prop, people, tables = self.create_property()
                self.approve(prop, people, tables)
                history = History(people=people, tables=tables, now=timezone.now())
                history.plan()
                entries = history.write()
                self.amend(entries, people)
            # Outside the override again: the real hasher, as for any other login.
            for person in people.values():
                accounts.person_password_set(person_id=person.pk, actor=person, password=demo.DEMO_PASSWORD)

        self.stdout.write(
            self.style.SUCCESS(
                f"Created “{prop.name}” with {len(tables)} tables, {len(people)} people and "
                f"{Entry.objects.filter(property=prop).count()} logbook entries in {time.monotonic() - started:.1f} s."
            )
        )
        for login in demo.DEMO_USERS:
            supervisor = " (security supervisor: lifts locks on the floor)" if login.supervisor else ""
            self.stdout.write(f"  {login.username:<12} {login.role_label}{supervisor}")
        self.stdout.write("Every demo login's password is the DEMO_PASSWORD (default demo-logbook-2026).")

    def create_property(self) -> tuple[Property, dict[str, User], list[GamingTable]]:
        """The property, its people, its equipment and its tables, through the services an administrator
        and the compliance manager would use (their permission checks and the rulebook included)."""
        # The administrator comes first, as on a fresh installation (`createsuperuser`): every other
        # write is made by someone who may make it.
        (admin_spec,) = [spec for spec in demo.DEMO_USERS if spec.superuser]
        admin = User.objects.create_superuser(
            admin_spec.username,
            f"{admin_spec.username}@demo.invalid",
            demo.DEMO_PASSWORD,  # MD5 here: hashed again at the end of seeding
            full_name=admin_spec.full_name,
            role=Role(admin_spec.role),
            credential_number=admin_spec.credential_number,
        )
        prop = casinos.property_create(
            actor=admin,
            name=demo.PROPERTY_NAME,
            licence_number=demo.PROPERTY_LICENCE,
            jurisdiction=demo.PROPERTY_JURISDICTION,
            time_zone=demo.PROPERTY_TIME_ZONE,
            # The grace period to cover an uncovered wheel: R-06 is past it at start, R-03 and R-08 within it.
            cover_grace_minutes=demo.COVER_GRACE_MINUTES,
            notify_emails=[demo.SUPERVISORS_EMAIL],
        )
        people = {admin.username: admin}
        for spec in demo.DEMO_USERS:
            if spec is admin_spec:
                continue
            people[spec.username] = accounts.person_create(
                actor=admin,
                password=demo.DEMO_PASSWORD,  # MD5 here: hashed again at the end of seeding
                username=spec.username,
                full_name=spec.full_name,
                email=f"{spec.username}@demo.invalid",
                role=Role(spec.role),
                credential_number=spec.credential_number,
                property=prop if spec.at_property else None,
                jurisdiction=spec.jurisdiction,
                security_supervisor=spec.supervisor,
            )
        # The compliance manager registers the equipment and sets up the tables, each checked by the rules.
        manager = people["compliance"]
        rules = rulebook_for(prop.jurisdiction)
        tables = []
        for number, wheel_type, external, electronic, configuration in TABLES:
            physical = WheelType.SINGLE_ZERO if wheel_type == WheelType.SINGLE_ZERO else WheelType.DOUBLE_ZERO
            wheel = casinos.wheel_register(
                actor=manager,
                property=prop,
                serial=f"WH-{number}",
                wheel_type=physical,
                diameter_inches=Decimal(32),
                number_order=list(rules.wheel_order_for(physical)),
                colours=rules.ring_colours(rules.wheel_order_for(physical)),
                compartments="ring",
            )
            ball = casinos.ball_register(
                actor=manager,
                property=prop,
                serial=f"BL-{number}-1",
                material=BallMaterial.NON_METALLIC,
                diameter_inches=Decimal("0.8125"),
            )
            tables.append(
                casinos.table_create(
                    actor=manager,
                    property=prop,
                    number=number,
                    game=Game.ROULETTE,
                    wheel_type=wheel_type,
                    has_external_movable_parts=external,
                    electronic=electronic,
                    configuration=configuration,
                    wheel=wheel,
                    ball=ball,
                )
            )
        # Two spare balls, so that a ball change can be tried on any table (the floor's "Change the ball").
        for spare in (1, 2):
            casinos.ball_register(
                actor=manager,
                property=prop,
                serial=f"BL-SPARE-{spare}",
                material=BallMaterial.NON_METALLIC,
                diameter_inches=Decimal("0.8125"),
            )
        return prop, people, tables

    def approve(self, prop: Property, people: dict[str, User], tables: list[GamingTable]) -> None:
        """What the tables need before they open: an approved Rules Submission and an approved layout,
        filed and decided through the approval services, signed."""
        compliance = people["compliance"]
        submission = approvals.rules_submission_draft(
            prop=prop,
            game=Game.ROULETTE,
            effective_from=property_today(prop) - timedelta(days=30),
            wheel_types=list(WheelType.values),
            payout_odds=DEMO_PAYOUT_ODDS,
            options={"five_adjacent": True},
            configurations=DEMO_CONFIGURATIONS,
            created_by=compliance,
        )
        approvals.rules_submission_file(
            submission_id=submission.pk, signature=SignatureInput("compliance", demo.DEMO_PASSWORD, SEEDER)
        )
        approvals.rules_submission_decide(
            submission_id=submission.pk,
            decision="approved",
            reference="BGO-RS-2026-0117",
            signature=SignatureInput("regulator", demo.DEMO_PASSWORD, SEEDER),
        )
        # A layout per kind of table: the Lightning and Touchdown tables show what their games need.
        standard = [
            "name_or_logo",
            "betting_areas",
            "min_max_signage",
            "wheel_replica",
            "double_zero_cover",
            "single_zero_signage",
            "drop_box",
            "tip_box",
        ]
        by_configuration = {
            key: [t for t in tables if t.configuration == key] for key in {t.configuration for t in tables}
        }
        for index, (name, features, used_on) in enumerate(
            (
                (
                    "Keystone standard Roulette layout (2026)",
                    standard,
                    by_configuration["standard"] + by_configuration["first-five"],
                ),
                (
                    "Keystone Lightning Roulette layout (2026)",
                    [*standard, "lightning_rng"],
                    by_configuration["lightning"],
                ),
                (
                    "Keystone Touchdown Roulette layout (2026)",
                    [*standard, "touchdown_electronic_area"],
                    by_configuration["touchdown"],
                ),
            ),
            start=42,
        ):
            layout = approvals.layout_submit(
                prop=prop,
                game=Game.ROULETTE,
                name=name,
                features=features,
                tables=used_on,
                artwork=ContentFile(demo_artwork_png(), name="keystone-layout-2026.png"),
                created_by=compliance,
            )
            approvals.layout_decide(
                layout_id=layout.pk,
                decision="approved",
                reference=f"BGO-LY-2026-{index:04d}",
                signature=SignatureInput("regulator", demo.DEMO_PASSWORD, SEEDER),
            )
        for table in tables:
            table.refresh_from_db()

    def amend(self, entries: list[Entry], people: dict[str, User]) -> None:
        """A compliance manager corrects one adjustment's part: the original stays as it was signed."""
        adjustment = next((e for e in entries if e.kind == EntryKind.ADJUSTMENT), None)
        if adjustment is None:
            return
        correct = next(part for part, _ in ADJUSTMENTS if part != adjustment.details["part"])
        services.amendment_record(
            entry_id=adjustment.pk,
            reason=f"The part was logged as the {adjustment.details['part']}; the work was on the {correct}.",
            correction={"part": correct},
            signature=SignatureInput(username="compliance", password=demo.DEMO_PASSWORD, request=SEEDER),
            recorded_by=people["compliance"],
        )
