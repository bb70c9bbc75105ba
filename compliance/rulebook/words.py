"""What a person reads for a code of the rulebook (a layout feature, an option, its value, a wager):
every page, report, CSV and mail says these, never the code itself."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime

from compliance.rulebook.violations import gettext_noop

# The areas and signs a layout shows (jurisdictions.pennsylvania.LAYOUT_FEATURES), in words.
LAYOUT_FEATURE_LABELS = {
    "name_or_logo": gettext_noop("the certificate holder's name or logo"),
    "betting_areas": gettext_noop("a betting area for each wager offered"),
    "min_max_signage": gettext_noop("the table's minimum and maximum wager signs"),
    "wheel_replica": gettext_noop("a replica of the Roulette wheel"),
    "touchdown_electronic_area": gettext_noop("the Touchdown Roulette electronic wager area"),
    "b2b_area": gettext_noop("the B2B wager area"),
    "b2b_reader_board_rng": gettext_noop("the B2B reader board and random number generator"),
    "blazing7_area": gettext_noop("the Blazing 7's wager area"),
    "blazing7_release_device": gettext_noop("the Blazing 7's wager release device"),
    "lightning_rng": gettext_noop("the Lightning Roulette random number generator"),
    "double_zero_cover": gettext_noop("the cover of the 00 area"),
    "single_zero_signage": gettext_noop("the single-zero signage notices"),
    "drop_box": gettext_noop("the drop box"),
    "tip_box": gettext_noop("the tip box"),
    "payout_odds_signage": gettext_noop("the payout odds sign"),
    "tie_betting_area": gettext_noop("the tie wager area"),
    "seven_numbers_area": gettext_noop("the seven numbers wager area"),
    "color_wager_area": gettext_noop("the colour wager area"),
    "double_zero_option_notice": gettext_noop("the notice of the double-zero option chosen"),
    "clapper_option_sign": gettext_noop("the sign of the clapper option chosen"),
}

# A Rules Submission's options, in words.
OPTION_LABELS = {
    "five_adjacent": gettext_noop("Five adjacent numbers wager"),
    "touchdown_paytable": gettext_noop("Touchdown Roulette paytable"),
    "b2b_payouts": gettext_noop("B2B payouts"),
    "blazing7_paytable": gettext_noop("Blazing 7's paytable"),
    "lightning_payouts": gettext_noop("Lightning Roulette payouts"),
    "double_zero_loss": gettext_noop("Even-money wagers on 0 and 00"),
    "seven_numbers": gettext_noop("Seven numbers wager"),
    "seven_numbers_color": gettext_noop("Seven numbers colour wager"),
    "six_numbers_color": gettext_noop("Six numbers colour wager"),
    "eight_numbers_color": gettext_noop("Eight numbers colour wager"),
    "initial": gettext_noop("Initial wager"),
    "war": gettext_noop("Going to war"),
    "war_tie": gettext_noop("Tie after going to war"),
    "tie": gettext_noop("Tie wager"),
    "big_six_clapper_between": gettext_noop("Clapper stopping between two sections"),
    "big_six_odds_wording": gettext_noop("How the Big Six odds are stated"),
}
VALUE_WORDS = {
    True: gettext_noop("yes"),
    False: gettext_noop("no"),
    "half": gettext_noop("half lost"),
    "all": gettext_noop("all lost"),
}


def humanized(code: str) -> str:
    """A code no table names, as words (never shown as the code)."""
    return code.replace("_", " ").capitalize().replace("B2b", "B2B")


def feature_label(code: str) -> str:
    return LAYOUT_FEATURE_LABELS.get(code, humanized(code))


def option_label(code: str) -> str:
    return OPTION_LABELS.get(code, humanized(code))


def option_value(value: object) -> str:
    """An option's value in words: yes / no, a paytable's letter, a list of payouts."""
    if isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    if isinstance(value, bool | str) and value in VALUE_WORDS:
        return VALUE_WORDS[value]
    return str(value)


def options_text(options: Mapping[str, object]) -> str:
    """A submission's options as a person reads them: "Five adjacent numbers wager: yes; …"."""
    return "; ".join(f"{option_label(name)}: {option_value(value)}" for name, value in options.items())


def wager_label(wagers: Mapping[str, object], code: str) -> str:
    """A wager's label from the game's wagers (code → Wager), or the code in words if none names it."""
    wager = wagers.get(code)
    return str(getattr(wager, "label", "")) or humanized(code)


# ---- Dates and times a person reads: one format ----
# On every page, report, mail, admin list and refusal (compliance.casinos.clock turns a stored UTC
# time into the property's; docs/architecture.md, "Dates and times"): the ISO date, the 24-hour time
# and the abbreviation of the property's zone at that instant, EST or EDT across daylight saving
# time. No month or day names: the same text in every language. Seconds only where the record needs
# them (a report cover's signing and timestamp times, a time refused as in the future).
DATE_FORMAT = "%Y-%m-%d"  # 2026-11-24
TIME_FORMAT = "%H:%M %Z"  # 01:25 EST
MOMENT_FORMAT = f"{DATE_FORMAT} {TIME_FORMAT}"  # 2026-11-24 01:25 EST
MOMENT_SECONDS_FORMAT = f"{DATE_FORMAT} %H:%M:%S %Z"  # 2026-11-24 01:25:07 EST


def moment_words(moment: datetime, *, seconds: bool = False) -> str:
    """An aware moment in its own zone ("2026-11-24 01:25 EST"): the caller gives it in the
    property's zone (compliance.casinos.clock.local_text)."""
    if moment.tzinfo is None:
        raise ValueError("a moment a person reads names its zone: give an aware datetime")
    return moment.strftime(MOMENT_SECONDS_FORMAT if seconds else MOMENT_FORMAT)


def time_words(moment: datetime) -> str:
    """Only the time of an aware moment, its zone named ("01:25 EST")."""
    if moment.tzinfo is None:
        raise ValueError("a moment a person reads names its zone: give an aware datetime")
    return moment.strftime(TIME_FORMAT)


def date_words(day: date) -> str:
    """A calendar date ("2026-11-24"): a day of the property's calendar needs no zone."""
    return day.strftime(DATE_FORMAT)


def in_words(choices: tuple[tuple[str, str], ...]) -> str:
    """A refusal's list of the choices a person may make, in their words (the codes are the API's,
    in its schema): "ball spun in the same direction as the wheel (§ 617a.6(a)); …"."""
    return "; ".join(label for _code, label in choices)
