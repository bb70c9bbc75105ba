"""Pennsylvania, 58 Pa. Code: the facts of Chapter 617a (Roulette), 617c (side wagers), 619a (Big
Six) and 651a (Casino War), and of § 601a.2 (Rules Submissions): citations, numbers and tables.

The rules that apply them are procedure.py (§ 617a.2), equipment.py (§ 617a.1), approvals.py and
games/. The New Jersey and Section 4 texts set no wheel inspection procedure: their properties keep
the logbook by this § 617a.2 (compliance.rulebook.LOGBOOK_PROCEDURE).
"""

from __future__ import annotations

from decimal import Decimal

from compliance.rulebook.facts import ChecklistItem, Facts
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.vocabulary import Game, Role
from compliance.rulebook.wagers import DOUBLE, SINGLE, Choice, Option, Paytable, big_six_wagers, standard_wagers

NAME = gettext_noop("Pennsylvania (58 Pa. Code)")


def proposed(section: str) -> str:
    """A paragraph of Chapter 619a or 651a: the text this product holds of them is the 2011 proposed
    rulemaking (41 Pa.B. 3000), so every citation of them says so, in this one form."""
    return f"58 Pa. Code § {section} (proposed, 41 Pa.B. 3000)"


# ---- The paragraphs the rules cite ----

BALL = "58 Pa. Code § 617a.1(a)"
WHEEL_DIAMETER = "58 Pa. Code § 617a.1(b)"
SINGLE_ZERO_WHEEL = "58 Pa. Code § 617a.1(c)"
DOUBLE_ZERO_WHEEL = "58 Pa. Code § 617a.1(d)"
INSPECTION = "58 Pa. Code § 617a.2(a)"
ADJUSTMENT = "58 Pa. Code § 617a.2(b)"
ADJUSTMENTS_BEFORE_INSPECTION = "58 Pa. Code § 617a.2(c)"
REPLACEMENT = "58 Pa. Code § 617a.2(d)"
ADJUSTMENT_OR_REPLACEMENT = "58 Pa. Code § 617a.2(c), (d)"
INSPECTION_LOG = "58 Pa. Code § 617a.2(e)"
PROCEDURE = "58 Pa. Code § 617a.2"
COVER_AND_LOCK = "58 Pa. Code § 617a.2(f)"
# § 617a.2(a)(5): the checklist's item (5) and its condition ("if a double zero Roulette wheel is being
# used as a single zero Roulette wheel"); § 617a.1(e) is what the item confirms, not the item.
INSPECTION_ITEM_5 = "58 Pa. Code § 617a.2(a)(5)"
WHEELS = "58 Pa. Code § 617a.1(c), (d)"
IRREGULARITIES = "58 Pa. Code § 617a.6"
CASINO_WAR_DECKS = proposed("651a.3(d)")
TOUCHDOWN_TABLE = "58 Pa. Code § 617a.1(f)(5)"
RULES_SUBMISSION = "58 Pa. Code § 601a.2"
LAYOUT_APPROVAL = "58 Pa. Code § 617a.1(f)"
# The product's own policies, each derived from the paragraph it names (which does not say it in so many words).
CONFIGURATION_WHILE_CLOSED = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(a), (d)")
TABLE_STAYS_AT_PROPERTY = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
TABLE_KEEPS_NUMBER = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
PROPERTY_KEEPS_JURISDICTION = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
# The signed checkpoints name the property by its licence number (inspections/logbook/checkpoints.py).
PROPERTY_KEEPS_LICENCE = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
PERSON_STAYS_AT_PROPERTY = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
# § 617a.2(e) asks the log for the credential number of who signed; that it never changes afterwards is ours.
CREDENTIAL_NUMBER_KEPT = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
# § 617a.2(e) asks for a log with its contents; it says nothing of correcting one. The product never
# changes a signed entry: a signed amendment corrects it, or marks it entered in error or a duplicate.
AMENDMENT_POLICY = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
# Product policy, not law: no paragraph says who records opening, closing, covering, unlocking, a "no
# spin" or a deck change (§ 617a.2(a) and (b) name who inspects and who adjusts; nothing else), nor
# that a table must be open to be closed. The property's staff and the table's states say it.
EVENT_ROLES_POLICY = gettext_noop(
    "Product policy: a security officer or floorperson of the property records the table's events "
    "(no paragraph names who opens, closes, covers, unlocks, records a no spin or a deck change)"
)
TABLE_STATES_POLICY = gettext_noop(
    "Product policy: the table's states (no paragraph governs opening an open table or closing one not open)"
)
# § 617a.2(a) asks for an inspection before opening, not again after so many hours of play: the
# re-inspection interval (max_inspection_interval_hours) is the property's own policy.
REINSPECTION_POLICY = gettext_noop(
    "Product policy: the property's re-inspection interval (58 Pa. Code § 617a.2(a) requires an inspection "
    "before opening only)"
)
# A ball is on one table at a time: § 617a.6(b), (c) speak of a new ball for the table, not of sharing one.
BALL_ONE_TABLE_POLICY = gettext_noop("Product policy: a ball is on one table at a time")
# § 617a.6(b), (c) call for "a new Roulette ball": that the new ball is one of the property's registered
# balls, named in the entry, is how the product keeps the table's ball known (the paragraph names no register).
REPLACED_BALL_POLICY = gettext_noop(
    "Product policy: a replaced ball is named from the property's registered balls "
    "(58 Pa. Code § 617a.6(b), (c) call for a new Roulette ball)"
)
# The ball (§ 617a.1(a)) is not a part of the wheel: § 617a.2(b)–(d) speak of a wheel's external movable
# parts only, so a wheel without any has nothing they govern. A ball change is logged, made and witnessed,
# and followed by an inspection before play as a replacement is, on every Roulette table: § 617a.2(b) and
# (d) applied to the ball as product policy; § 617a.2(a)(1) inspects the ball before the table opens
# (docs/readings.md).
BALL_CHANGE_POLICY = gettext_noop(
    "Product policy: a ball change is made, witnessed, logged and inspected before play as a replacement is "
    "(58 Pa. Code § 617a.2(b), (d) govern a wheel's external movable parts; the ball, § 617a.1(a), is not one, "
    "and § 617a.2(a)(1) inspects it before opening)"
)
# Equipment: registering it, and keeping it to one property, is how the product checks § 617a.1;
# the paragraph sets the standard, not the register.
OWN_EQUIPMENT_POLICY = gettext_noop("Product policy: a property uses its own registered wheels and balls")
REGISTERED_EQUIPMENT_POLICY = gettext_noop(
    "Product policy: a Roulette table opens with a registered wheel and ball, checked against "
    "58 Pa. Code § 617a.1(a)–(d)"
)
# § 619a.1(a), (b) (proposed) set the Big Six wheel's standard; registering it is how it is checked.
REGISTERED_BIG_SIX_WHEEL_POLICY = gettext_noop(
    "Product policy: a Big Six table opens with a registered Big Six wheel, checked against "
    "58 Pa. Code § 619a.1(a) (proposed, 41 Pa.B. 3000) and § 619a.1(b) (proposed, 41 Pa.B. 3000)"
)
# § 617a.1(a) describes the Roulette ball; Big Six (§ 619a.1, proposed) and Casino War have none.
BALL_ROULETTE_ONLY_POLICY = gettext_noop(
    "Product policy: only a Roulette table has a ball (58 Pa. Code § 617a.1(a) describes the Roulette ball; "
    "neither § 619a.1 (proposed, 41 Pa.B. 3000) nor § 651a.2 (proposed, 41 Pa.B. 3000) has one)"
)
# § 617a.2(d) lets a part be replaced at any time, with an inspection before reopening: changing
# the wheel or ball only while the table is closed is the product's stricter order.
EQUIPMENT_CHANGE_POLICY = gettext_noop(
    "Product policy: the wheel or ball is changed while the table is closed "
    "(58 Pa. Code § 617a.2(d) requires an inspection before it reopens)"
)
# § 617a.2(f) covers and locks the wheel; that it is unlocked (a logbook entry) before anyone
# inspects or adjusts it is the product's order of events.
UNLOCK_FIRST_POLICY = gettext_noop(
    "Product policy: a covered and locked wheel (58 Pa. Code § 617a.2(f)) is unlocked, with its "
    "logbook entry, before it is inspected or adjusted"
)
# § 617a.2(e) asks for the date and time of each entry, not that a table's entries be in order.
ENTRY_ORDER_POLICY = gettext_noop(
    "Product policy: a table's entries follow each other in time (58 Pa. Code § 617a.2(e) requires their date and time)"
)
# § 601a.2 (not among the texts held, "relating to table games Rules Submissions") is where the rules are
# submitted; that a filed version never changes, a change being a new version, is the product's.
SUBMISSION_VERSIONS_POLICY = gettext_noop(
    "Product policy: a filed Rules Submission is never rewritten; a change is a new version "
    "(58 Pa. Code § 601a.2, relating to table games Rules Submissions)"
)
# § 617a.1(c)–(e) describe the wheels; that a Roulette Rules Submission names those it is for is the product's.
WHEEL_TYPES_NAMED_POLICY = gettext_noop(
    "Product policy: a Roulette Rules Submission names the wheel types it is for "
    "(58 Pa. Code § 617a.1(c)–(e) describe the wheels)"
)
# § 601a.2 (not among the texts held) has the certificate holder file: who files is the property's.
FILER_POLICY = gettext_noop("Product policy: a compliance manager files the property's Rules Submission")
# How far back a time an entry may carry (ENTRY_MAX_BACKDATE_HOURS): the log holds the true date and time.
ENTRY_TIME_PLAUSIBLE = gettext_noop("Product policy, derived from 58 Pa. Code § 617a.2(e)")
# Outside the logbook (a flag's resolution, a filing, a regulator's decision) no paragraph asks for the
# signature: signing by the password re-entered is the product's own rule (docs/architecture.md: Signatures).
SIGNATURE_POLICY = gettext_noop("Product policy: a signature is the signer's password re-entered at signing")

# ---- § 617a.1: the wheel and the ball ----

# § 617a.1(c), (d): the numbers clockwise from zero.
SINGLE_ZERO_ORDER = tuple(  # the order as the regulation prints it
    "0 32 15 19 4 21 2 25 17 34 6 27 13 36 11 30 8 23 10 5 24 16 33 1 20 14 31 9 22 18 29 7 28 12 35 3 26".split()
)
DOUBLE_ZERO_ORDER = tuple(  # the order as the regulation prints it
    "0 28 9 26 30 11 7 20 32 17 5 22 34 15 3 24 36 13 1 00 27 10 25 29 12 8 19 31 18 6 21 33 16 4 23 35 14 2".split()
)
# The red numbers of both rings ("colored alternately red and black"); 0 and 00 are green.
RED_NUMBERS = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
# § 617a.1(a): 12/16 to 14/16 inch inclusive; § 617a.1(b): at least 30 inches.
BALL_DIAMETER_INCHES = (Decimal(12) / 16, Decimal(14) / 16)
WHEEL_MIN_DIAMETER_INCHES = Decimal(30)

# ---- § 619a.1(a), (b): the Big Six wheel (proposed, 41 Pa.B. 3000) ----

# Its sections' symbols and their counts are the wagers' (BIG_SIX_WAGERS, § 619a.1(a)), their
# clockwise order BIG_SIX_ORDER (§ 619a.1(b)), both below.
BIG_SIX_WHEEL = "58 Pa. Code § 619a.1(a) (proposed, 41 Pa.B. 3000)"
BIG_SIX_WHEEL_ORDER = "58 Pa. Code § 619a.1(b) (proposed, 41 Pa.B. 3000)"
# What else the wheel "must" have, stated by the registrar when it is registered (the register's
# fields): its sections covered with glass (a), each showing the payout odds of § 619a.3 (d), and a
# clapper that selects a section at the end of the spin (e).
BIG_SIX_WHEEL_PARTS = (
    ("sections_under_glass", "its sections are covered with glass", BIG_SIX_WHEEL),
    (
        "sections_show_odds",
        "each of its sections displays the payout odds of its wager",
        "58 Pa. Code § 619a.1(d) (proposed, 41 Pa.B. 3000)",
    ),
    (
        "clapper",
        "it has a clapper that selects a section at the end of the spin",
        "58 Pa. Code § 619a.1(e) (proposed, 41 Pa.B. 3000)",
    ),
)
# "A circular wheel at least 5 feet in diameter".
BIG_SIX_WHEEL_MIN_DIAMETER_INCHES = Decimal(60)
# A table of another game has no wheel: Chapter 651a describes a Casino War table with none.
NO_WHEEL_AT_CASINO_WAR = gettext_noop("Product policy, derived from 58 Pa. Code § 651a.2(a) (proposed, 41 Pa.B. 3000)")

# ---- § 617a.2: the inspection and security procedures ----

# § 617a.2(a)(1)–(5), in the order the regulation lists them.
CHECKLIST = (
    ChecklistItem(
        "ball_non_magnetic",
        gettext_noop("Ball passed over a magnet or compass: it is non-magnetic"),
        "58 Pa. Code § 617a.2(a)(1)",
    ),
    ChecklistItem(
        "no_magnet_or_contrivance",
        gettext_noop("Table and wheel free of any magnet or contrivance affecting fair operation"),
        "58 Pa. Code § 617a.2(a)(2)",
    ),
    ChecklistItem(
        "wheel_level_and_rotating",
        gettext_noop("Wheel level and rotating freely and evenly"),
        "58 Pa. Code § 617a.2(a)(3)",
    ),
    ChecklistItem(
        "parts_secure",
        gettext_noop("All parts of the wheel secure and free from movement"),
        "58 Pa. Code § 617a.2(a)(4)",
    ),
    ChecklistItem(
        "layout_and_signage_00",
        gettext_noop(
            "00 area covered and the three § 617a.1(e) notices posted (double-zero wheel used as single-zero)"
        ),
        "58 Pa. Code § 617a.2(a)(5)",
    ),
)
CHECKLIST_BY_CODE = {item.code: item for item in CHECKLIST}

INSPECTOR_ROLES = frozenset({Role.FLOORPERSON, Role.SECURITY})  # § 617a.2(a)
ADJUSTER_ROLES = frozenset({Role.FLOORPERSON, Role.MAINTENANCE})  # § 617a.2(b)
WITNESS_ROLES = frozenset({Role.SECURITY})  # § 617a.2(b)
# Who records the other logbook events. § 617a.2 names no role for them; these are the floor
# roles docs/architecture.md: People gives them, cited as the product policy they are.
EVENT_ROLES = {
    event: (frozenset({Role.SECURITY, Role.FLOORPERSON}), EVENT_ROLES_POLICY)
    for event in ("unlock", "cover", "open", "close", "irregularity", "deck_change")
}

# § 617a.6(a)–(d): the reasons for a "no spin".
IRREGULARITY_KINDS = (
    ("same_direction", gettext_noop("ball spun in the same direction as the wheel (§ 617a.6(a))")),
    ("under_four_revolutions", gettext_noop("ball did not complete four revolutions (§ 617a.6(b))")),
    ("ball_left_wheel", gettext_noop("ball left the wheel during the spin (§ 617a.6(c))")),
    ("foreign_object", gettext_noop("a foreign object entered the wheel (§ 617a.6(d))")),
)

# ---- Wagers, payout odds and Rules Submission options (§ 617a.3, § 617a.4, Chapter 617c) ----

WAGERS_CITATION = "58 Pa. Code § 617a.3(e)"
PAYOUT_ODDS = "58 Pa. Code § 617a.4(a)"

WAGERS = standard_wagers(payout_citation=PAYOUT_ODDS, first_five_citation="58 Pa. Code § 617a.3(e)(5)")

OPTIONS: dict[str, Option] = {
    "five_adjacent": ((True, False), "58 Pa. Code § 617a.3(e)(1)(i)"),
    # § 617a.1(f)(5): Touchdown Roulette is played on a double-zero wheel (and a fully automated
    # electronic table, checked where the submission meets its tables).
    "touchdown_paytable": Paytable(
        "58 Pa. Code § 617a.4(d)",
        choices=("A", "B", "C", "D"),
        wheels=frozenset({DOUBLE}),
        wheels_citation=TOUCHDOWN_TABLE,
    ),
    "b2b_payouts": Paytable("58 Pa. Code § 617c.1(e)", include_all=frozenset({1000, 500, 250, 100, 50, 25, 10})),
    "blazing7_paytable": Paytable("58 Pa. Code § 617c.2(j)", choices=(1, 2, 3, 4)),
    "lightning_payouts": Paytable(
        "58 Pa. Code § 617c.3(g)",
        include_all=frozenset({499, 399, 349, 299, 249, 199, 149, 99, 49}),
        wheels=frozenset({SINGLE}),
        wheels_citation="58 Pa. Code § 617c.3(a)",
        # § 617c.3(f): a straight wager not on a Lucky Number is paid 29 to 1.
        straight=(29, 1),
        straight_citation="58 Pa. Code § 617c.3(f)",
    ),
}


def exclusivity(*, offered: set[str]) -> list[Violation]:
    """Pennsylvania's text has no wagers that exclude one another."""
    return []


def required_options(*, wheel_types: list[str], options: dict[str, object]) -> list[Violation]:
    """§ 617a.4(b): on 0 and 00 the even-money wagers are lost; there is no half-loss option here."""
    return []


# The options another text has that this one refuses by a paragraph of its own (else WAGERS_CITATION):
# § 617a.4(b), on 0 or 00 the even-money wagers "will be lost", so no half-loss option.
OPTIONS_REFUSED: dict[str, str] = {"double_zero_loss": "58 Pa. Code § 617a.4(b)"}


# ---- Layouts (§ 617a.1(e)–(g), § 617c.1(b), § 617c.2(b), § 617c.3(b); § 619a.1; § 651a.2) ----

LAYOUT_APPROVAL_BY_GAME: dict[str, str] = {
    Game.ROULETTE: LAYOUT_APPROVAL,
    Game.BIG_SIX: proposed("619a.1(g)"),
    Game.CASINO_WAR: proposed("651a.2(b)"),
}
LAYOUT_FEATURES = frozenset(
    {
        "name_or_logo",
        "betting_areas",
        "min_max_signage",
        "wheel_replica",
        "touchdown_electronic_area",
        "b2b_area",
        "b2b_reader_board_rng",
        "blazing7_area",
        "blazing7_release_device",
        "lightning_rng",
        "double_zero_cover",
        "single_zero_signage",
        "drop_box",
        "tip_box",
        "payout_odds_signage",
        "tie_betting_area",
        # What New Jersey's and Section 4's texts ask for (rulebooks.Borrowing.check_layout).
        "seven_numbers_area",
        "color_wager_area",
        "double_zero_option_notice",
        "clapper_option_sign",
    }
)
# Always: § 617a.1(f)(1)–(3) and (g).
LAYOUT_ALWAYS = (
    ("name_or_logo", "58 Pa. Code § 617a.1(f)(1)"),
    ("betting_areas", "58 Pa. Code § 617a.1(f)(2)"),
    ("min_max_signage", "58 Pa. Code § 617a.1(f)(3)"),
    ("drop_box", "58 Pa. Code § 617a.1(g)"),
    ("tip_box", "58 Pa. Code § 617a.1(g)"),
)
# Big Six (§ 619a.1(f), (g)) and Casino War (§ 651a.2(b), (c)), from the 2011 text.
LAYOUT_ALWAYS_BY_GAME: dict[str, tuple[tuple[str, str], ...]] = {
    Game.ROULETTE: LAYOUT_ALWAYS,
    Game.BIG_SIX: (
        ("name_or_logo", proposed("619a.1(g)(1)")),
        ("betting_areas", proposed("619a.1(g)(2)")),
        ("payout_odds_signage", proposed("619a.1(g)(3)")),
        ("drop_box", proposed("619a.1(f)")),
        ("tip_box", proposed("619a.1(f)")),
    ),
    Game.CASINO_WAR: (
        ("name_or_logo", proposed("651a.2(b)(1)")),
        ("betting_areas", proposed("651a.2(b)(2)")),
        ("tie_betting_area", proposed("651a.2(b)(3)")),
        ("payout_odds_signage", proposed("651a.2(b)(4)")),
        ("drop_box", proposed("651a.2(c)")),
        ("tip_box", proposed("651a.2(c)")),
    ),
}
# What an option of the Rules Submission in effect adds.
LAYOUT_FOR_OPTION = {
    "five_adjacent": (("wheel_replica", "58 Pa. Code § 617a.1(f)(4)"),),
    "touchdown_paytable": (("touchdown_electronic_area", TOUCHDOWN_TABLE),),
    "b2b_payouts": (("b2b_area", "58 Pa. Code § 617c.1(b)"), ("b2b_reader_board_rng", "58 Pa. Code § 617c.1(b)")),
    "blazing7_paytable": (
        ("blazing7_area", "58 Pa. Code § 617c.2(b)"),
        ("blazing7_release_device", "58 Pa. Code § 617c.2(b)"),
    ),
    "lightning_payouts": (("lightning_rng", "58 Pa. Code § 617c.3(b)"),),
}
# A double-zero wheel used as single-zero: the 00 area covered and the notices posted.
LAYOUT_FOR_AS_SINGLE_ZERO = (
    ("double_zero_cover", "58 Pa. Code § 617a.1(e)(1)"),
    ("single_zero_signage", "58 Pa. Code § 617a.1(e)(2)"),
)

# ---- Big Six Wheel (Chapter 619a, from the 2011 text) ----

BIG_SIX_CITATION = proposed("619a.3")
BIG_SIX_WAGERS = big_six_wagers(payout_citation=BIG_SIX_CITATION, flag_label=gettext_noop("Flag, name or logo"))
# § 619a.1(b): clockwise from the joker.
BIG_SIX_ORDER = tuple(  # the order as the regulation prints it
    "joker 1 2 1 5 2 1 10 1 5 1 2 1 20 1 2 1 5 2 1 10 1 2 5 1 2 1 flag 2 5 2 1 2 1 10 1 5 1 2 1 20 1 "
    "2 1 5 2 1 10 1 2 5 1 2 1".split()
)
# § 619a.2(d): between two sections the spin is void and respun; Pennsylvania gives no choice.
BIG_SIX_CLAPPER: Choice = (("void_and_respin",), proposed("619a.2(d)"))
# Chapter 619a says nothing of the words the odds are stated in (§ 619a.1(d), (g)(3) ask only that they be shown).
BIG_SIX_ODDS_WORDING: Choice | None = None

# ---- Casino War (Chapter 651a, from the 2011 text) ----

# None: Pennsylvania's texts have Casino War (a jurisdiction without it says why it refuses the game).
NO_CASINO_WAR: str | None = None

CASINO_WAR_WAGERS = proposed("651a.7")
# § 651a.10: the odds at which each wager "shall be paid" — exactly these, not minimums.
CASINO_WAR_PAYOUTS: dict[str, tuple[tuple[int, int], str]] | None = {
    "initial": ((1, 1), proposed("651a.10(1)")),
    "tie": ((10, 1), proposed("651a.10(2)")),
    "war": ((2, 1), proposed("651a.10(3)")),
    "war_tie": ((3, 1), proposed("651a.10(3)")),
}
# § 651a.3(a): six or eight decks from a manual shoe; § 651a.3(c): 12 to 16, in two equal batches,
# with an automated card shuffling device.
CASINO_WAR_DECK_COUNT = proposed("651a.3(a)")
CASINO_WAR_MANUAL_DECKS = frozenset({6, 8})
CASINO_WAR_SHUFFLER = proposed("651a.3(c)")
CASINO_WAR_SHUFFLER_DECKS = frozenset({12, 14, 16})
# § 651a.3(a): "Each deck of cards must consist of 52 cards and 2 cover cards", and the six or eight
# decks are "identical in appearance" (one colour of back). § 651a.3(c)(2): with a shuffler "the backs
# of the cards in one batch must be of a different color than the cards included in the other batch".
CASINO_WAR_DECK_CARDS = 52
CASINO_WAR_COVER_CARDS = 2
CASINO_WAR_BATCH_BACKS = proposed("651a.3(c)(2)")
# § 651a.7(e): a player wagers on adjacent boxes, at most seven, in one round (the casino says how many).
CASINO_WAR_BOXES = proposed("651a.7(e)")
CASINO_WAR_MAX_BOXES = 7
# § 651a.3(d): the decks opened for use are changed at least once every 24 hours (the overdue scan's deadline).
CASINO_WAR_DECK_CHANGE_HOURS = 24


# ---- This text's facts, as its rulebook applies them (rulebooks.py) ----

FACTS = Facts(
    name=NAME,
    text="58 Pa. Code",
    wagers_citation=WAGERS_CITATION,
    payout_odds=PAYOUT_ODDS,
    wagers=WAGERS,
    options=OPTIONS,
    exclusivity=exclusivity,
    required_options=required_options,
    options_refused=OPTIONS_REFUSED,
    big_six_citation=BIG_SIX_CITATION,
    big_six_wagers=BIG_SIX_WAGERS,
    big_six_clapper=BIG_SIX_CLAPPER,
    big_six_odds_wording=BIG_SIX_ODDS_WORDING,
    casino_war_payouts=CASINO_WAR_PAYOUTS,
    no_casino_war=NO_CASINO_WAR,
    irregularities=IRREGULARITIES,
    irregularity_kinds=IRREGULARITY_KINDS,
)
