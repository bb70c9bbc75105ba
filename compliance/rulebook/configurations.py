"""A Rules Submission's table configurations (58 Pa. Code § 601a.2): what one table offers.

A certificate holder files one Rules Submission per game, but its tables differ: single-zero and
double-zero wheels side by side, Lightning Roulette on some, Touchdown on an electronic one, a
colour-wager table beside red/black ones. A submission therefore approves one or more
configurations (the wheel types, the wagers and their odds, the options) and each table uses one
of them by its key. Every rule about what is offered together (exclusivity, the wheel types a
wager or option needs, Lightning's fixed straight odds, Touchdown's table) is judged within one
configuration, never across the property.

The submission's own wheel types, payout odds and options are its standard configuration (key
"standard"); `configurations` adds the others, each with a key of its own that tables name.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from compliance.rulebook.catalogue import violation
from compliance.rulebook.games.roulette import NOT_CHOSEN
from compliance.rulebook.subjects import RulesSubmission, Table
from compliance.rulebook.violations import Listed, Odds, Typed, Violation, gettext_noop, said, translated
from compliance.rulebook.vocabulary import Game, WheelType
from compliance.rulebook.words import option_label, option_value

STANDARD = "standard"
STANDARD_NAME = "Standard"
KEY = re.compile(r"^[a-z][a-z0-9_-]{0,39}\Z")
MAX_CONFIGURATIONS = 20
NAME_MAX_LENGTH = 100


@dataclass(frozen=True)
class Configuration:
    """One way a table plays the game: the wheel types, wagers with their odds, and options."""

    key: str
    name: str
    wheel_types: list[str]
    payout_odds: dict[str, object]
    options: dict[str, object]

    def as_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)


def as_configuration(raw: dict[str, Any]) -> Configuration:
    return Configuration(
        key=str(raw.get("key", "")),
        name=str(raw.get("name") or raw.get("key", "")),
        wheel_types=list(raw.get("wheel_types") or []),
        payout_odds=dict(raw.get("payout_odds") or {}),
        options=dict(raw.get("options") or {}),
    )


def configurations_of(submission: RulesSubmission) -> list[Configuration]:
    """The standard configuration (the submission's own fields), then the others it names."""
    standard = Configuration(
        key=STANDARD,
        name=STANDARD_NAME,
        wheel_types=list(submission.wheel_types),
        payout_odds=dict(submission.payout_odds),
        options=dict(submission.options),
    )
    others = [as_configuration(raw) for raw in (submission.configurations or []) if isinstance(raw, dict)]
    return [standard, *others]


def configuration_of(submission: RulesSubmission | None, key: str) -> Configuration | None:
    """The configuration a table names, in this submission; None if it has none by that key."""
    if submission is None:
        return None
    return next((c for c in configurations_of(submission) if c.key == key), None)


def check_shape(configurations: object) -> list[Violation]:
    """The configurations' own form: a list of objects, each with a unique key tables can name."""
    if not isinstance(configurations, list):
        return [violation("configurations_format", field="configurations")]
    found: list[Violation] = []
    if len(configurations) > MAX_CONFIGURATIONS:
        found.append(violation("configurations_too_many", field="configurations", most=MAX_CONFIGURATIONS))
    seen: set[str] = {STANDARD}
    for index, raw in enumerate(configurations):
        field = f"configurations.{index}"
        if not isinstance(raw, dict):
            found.append(violation("configurations_format", field=field))
            continue
        key = raw.get("key")
        if not isinstance(key, str) or not KEY.match(key):
            found.append(violation("configuration_key", field=f"{field}.key", value=str(key)))
        elif key in seen:
            found.append(violation("configuration_key_taken", field=f"{field}.key", value=key))
        else:
            seen.add(key)
        name = raw.get("name", "")
        if not isinstance(name, str) or len(name) > NAME_MAX_LENGTH or not name.isprintable():
            found.append(violation("configuration_name", field=f"{field}.name", most=NAME_MAX_LENGTH))
        for part, kind in (("wheel_types", list), ("payout_odds", dict), ("options", dict)):
            if part in raw and not isinstance(raw[part], kind):
                found.append(violation("configurations_format", field=f"{field}.{part}"))
        unknown = sorted(set(raw) - {"key", "name", "wheel_types", "payout_odds", "options"})
        if unknown:
            found.append(violation("configuration_field_unknown", field=field, fields=", ".join(unknown)))
    return found


def index_of(configurations: Sequence[object], key: str) -> int | None:
    """Where the configuration named `key` stands among a submission's others (None: it has none)."""
    return next((i for i, raw in enumerate(configurations) if isinstance(raw, dict) and raw.get("key") == key), None)


def configuration_missing(*, configurations: Sequence[object], key: str) -> Violation | None:
    """A change or removal names a configuration besides the standard one that the submission has."""
    if index_of(configurations, key) is None:
        return violation("configuration_missing", field="configurations", configuration=key)
    return None


def within(configuration: Configuration, index: int | None, found: Iterable[Violation]) -> list[Violation]:
    """A configuration's violations, each saying which configuration it is about (the standard one
    keeps the submission's own field names)."""
    if index is None:
        return list(found)
    return [
        dataclasses.replace(
            v.reworded(gettext_noop("Configuration “{name}”: {inner}"), name=configuration.name),
            field=f"configurations.{index}.{v.field}" if v.field else f"configurations.{index}",
        )
        for v in found
    ]


# Why a table is left without a configuration, in the rulebook's English (said in the reader's
# language where a page shows it: marked for the translators with gettext_noop).
NOT_IN_VERSION = gettext_noop("it uses the configuration “{configuration}”, which this version does not have")
WHEEL_NOT_ALLOWED = gettext_noop("it has a {wheel} wheel, which the configuration “{name}” does not allow")

# The words of a configuration's differences from the version in effect (`_differences`).
DIFFERENCES = (
    gettext_noop("wheel types: {before} → {after}"),
    gettext_noop("{label}: offered at {after}"),
    gettext_noop("{label}: no longer offered (was {before})"),
    gettext_noop("{label}: {before} → {after}"),
    gettext_noop("name: {before} → {after}"),
    gettext_noop("not chosen"),
    gettext_noop("none"),
)


@dataclass(frozen=True)
class LeftWithout:
    """A table that a version would leave without a configuration in effect, and why."""

    table: str
    configuration: str
    reason: str  # in English: the API's
    template: str = dataclasses.field(default="", compare=False, repr=False)
    values: Mapping[str, object] = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @property
    def said(self) -> str:
        """The reason in the language in use (the configuration's key and name as typed)."""
        return said(self.template, self.values) if self.template else translated(self.reason)

    def as_dict(self) -> dict[str, str]:
        return {"table": self.table, "configuration": self.configuration, "reason": self.reason}


def _left(table: Table, template: str, **values: object) -> LeftWithout:
    return LeftWithout(
        table=table.number,
        configuration=table.configuration,
        reason=template.format(**values),
        template=template,
        values=values,
    )


def tables_left_without(*, submission: RulesSubmission, tables: Iterable[Table]) -> list[LeftWithout]:
    """The tables of the submission's game that it gives no configuration they can open under: the
    key they name is not in it, or (for Roulette) their wheel type is not among the configuration's."""
    left = []
    for table in tables:
        if table.game != submission.game:
            continue
        configuration = configuration_of(submission, table.configuration)
        if configuration is None:
            left.append(_left(table, NOT_IN_VERSION, configuration=Typed(table.configuration)))
        elif table.game == Game.ROULETTE and table.wheel_type not in configuration.wheel_types:
            known = table.wheel_type in WheelType.values()
            wheel = Listed([WheelType.label_of(table.wheel_type or "")]) if known else gettext_noop("no")
            left.append(_left(table, WHEEL_NOT_ALLOWED, wheel=wheel, name=Typed(configuration.name)))
    return left


@dataclass(frozen=True)
class Difference:
    """One thing a configuration changes: its wheel types, a wager's odds, an option or its name.
    `before` and `after` are the values (None where the wager or option was not, or is no longer,
    there); `label` is the wager's or option's words. Pages say it in their reader's language; `text`
    is the English sentence the API gives."""

    subject: str  # "wheel_types", "payout_odds", "options" or "name"
    code: str  # the wager's or option's code ("" for wheel types and the name)
    label: str
    before: object
    after: object

    def parts(self) -> tuple[str, Mapping[str, object]]:
        """The difference as a template of the rulebook's English and its values (`said` fills it in
        the reader's language, `text` in English)."""
        if self.subject == "wheel_types":
            return (
                gettext_noop("wheel types: {before} → {after}"),
                {"before": _wheel_types(self.before), "after": _wheel_types(self.after)},  # type: ignore[arg-type]
            )
        if self.subject == "payout_odds":
            if self.before is None:
                return (gettext_noop("{label}: offered at {after}"), {"label": self.label, "after": _odds(self.after)})
            if self.after is None:
                return (
                    gettext_noop("{label}: no longer offered (was {before})"),
                    {"label": self.label, "before": _odds(self.before)},
                )
            return (
                gettext_noop("{label}: {before} → {after}"),
                {"label": self.label, "before": _odds(self.before), "after": _odds(self.after)},
            )
        if self.subject == "options":
            return (
                gettext_noop("{label}: {before} → {after}"),
                {"label": self.label, "before": _option(self.before), "after": _option(self.after)},
            )
        return (
            gettext_noop("name: {before} → {after}"),
            {"before": Typed(str(self.before)), "after": Typed(str(self.after))},
        )

    def text(self) -> str:
        template, values = self.parts()
        return template.format(**values)


@dataclass(frozen=True)
class Change:
    """How one configuration differs from the version in effect."""

    configuration: str
    change: str  # "added", "removed" or "changed"
    differences: list[Difference] = dataclasses.field(default_factory=list)

    @property
    def details(self) -> list[str]:
        """Each difference as an English sentence (the API's)."""
        return [d.text() for d in self.differences]

    def as_dict(self) -> dict[str, object]:
        return {"configuration": self.configuration, "change": self.change, "details": self.details}


def _odds(value: object) -> object:
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) == 2:
        return Odds(*value)
    return Typed(str(value))


def _wheel_types(codes: Iterable[str]) -> object:
    """The wheel types in the words of the rules ("single zero, double zero used as single zero")."""
    known = WheelType.values()
    names = [WheelType.label_of(code) if code in known else code for code in codes]
    return Listed(names) if names else gettext_noop("none")


def _option(value: object) -> object:
    return gettext_noop("not chosen") if value in NOT_CHOSEN else option_value(value)


def _differences(old: Configuration, new: Configuration, labels: Mapping[str, str]) -> list[Difference]:
    found = []
    if sorted(old.wheel_types) != sorted(new.wheel_types):
        found.append(Difference("wheel_types", "", "wheel types", list(old.wheel_types), list(new.wheel_types)))
    for code in sorted(set(old.payout_odds) | set(new.payout_odds)):
        before, after = old.payout_odds.get(code), new.payout_odds.get(code)
        if before != after:
            found.append(Difference("payout_odds", code, labels.get(code, code.replace("_", " ")), before, after))
    for name in sorted(set(old.options) | set(new.options)):
        before, after = old.options.get(name), new.options.get(name)
        if before != after:
            found.append(Difference("options", name, option_label(name), before, after))
    if old.name != new.name:
        found.append(Difference("name", "", "name", old.name, new.name))
    return found


def compare(
    *, in_effect: RulesSubmission | None, submission: RulesSubmission, labels: Mapping[str, str] | None = None
) -> list[Change]:
    """What this version changes against the version in effect, configuration by configuration
    (`labels`: wager code → the words a person reads, the jurisdiction's)."""
    new = {c.key: c for c in configurations_of(submission)}
    old = {c.key: c for c in configurations_of(in_effect)} if in_effect is not None else {}
    changes = []
    for key, configuration in new.items():
        if key not in old:
            changes.append(Change(configuration.name, "added"))
        elif differences := _differences(old[key], configuration, labels or {}):
            changes.append(Change(configuration.name, "changed", differences))
    changes.extend(Change(c.name, "removed") for key, c in old.items() if key not in new)
    return changes
