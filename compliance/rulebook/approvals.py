"""What the Board approves before a table is used: Rules Submissions (58 Pa. Code § 601a.2) and
layouts (§ 617a.1(e)–(g), § 617c.1(b), § 617c.2(b), § 617c.3(b), § 619a.1(g), § 651a.2(b)): what
is filed, by whom, who decides, and whether a table's configuration is ready to open."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from compliance.rulebook.catalogue import violation
from compliance.rulebook.configurations import (
    as_configuration,
    check_shape,
    configuration_of,
    configurations_of,
    within,
)
from compliance.rulebook.games.big_six import check_big_six_submission
from compliance.rulebook.games.casino_war import check_casino_war_submission
from compliance.rulebook.games.roulette import NOT_CHOSEN, check_roulette_submission
from compliance.rulebook.jurisdiction import GameRules
from compliance.rulebook.jurisdictions import pennsylvania as pa
from compliance.rulebook.roles import APPROVER_ROLES, FILER_ROLES
from compliance.rulebook.subjects import Layout, Person, RulesSubmission, Table
from compliance.rulebook.violations import Violation, gettext_noop
from compliance.rulebook.vocabulary import Game, WheelType
from compliance.rulebook.words import feature_label

# ---- Rules Submissions (§ 601a.2) ----


def check_rules_submission(
    *,
    game_rules: GameRules,
    game: str,
    wheel_types: list[str],
    payout_odds: dict[str, object],
    options: dict[str, object],
    configurations: object = None,
) -> list[Violation]:
    """Every violation of a submission's content at once (the wagers are the jurisdiction's own):
    its standard configuration (its own fields) and each other configuration, each judged alone
    (configurations.py): what one table offers is checked together, never across tables."""
    found = check_configuration(
        game_rules=game_rules, game=game, wheel_types=wheel_types, payout_odds=payout_odds, options=options
    )
    if configurations is None:
        return found
    shape = check_shape(configurations)
    if shape:
        return found + shape
    if not isinstance(configurations, list):  # check_shape refused anything else just above
        raise TypeError("configurations passed check_shape without being a list")
    for index, raw in enumerate(configurations):
        configuration = as_configuration(raw)
        found.extend(
            within(
                configuration,
                index,
                check_configuration(
                    game_rules=game_rules,
                    game=game,
                    wheel_types=configuration.wheel_types,
                    payout_odds=configuration.payout_odds,
                    options=configuration.options,
                ),
            )
        )
    return found


def check_configuration(
    *,
    game_rules: GameRules,
    game: str,
    wheel_types: list[str],
    payout_odds: dict[str, object],
    options: dict[str, object],
) -> list[Violation]:
    """Every violation of one configuration: what one table offers."""
    if game == Game.BIG_SIX:
        return check_big_six_submission(game_rules, payout_odds=payout_odds, options=options)
    if game == Game.CASINO_WAR:
        if game_rules.CASINO_WAR_PAYOUTS is None:
            if game_rules.NO_CASINO_WAR is None:  # a text without the game says why it is refused
                raise TypeError(f"{game_rules.NAME} has no Casino War and no citation saying so")
            return [
                violation(
                    "game_not_in_jurisdiction",
                    field="game",
                    citation=game_rules.NO_CASINO_WAR,
                    jurisdiction=game_rules.NAME,
                )
            ]
        return check_casino_war_submission(payout_odds=payout_odds, options=options)
    violations = []
    if not wheel_types:
        violations.append(violation("wheel_types_required", field="wheel_types"))
    if not payout_odds:
        violations.append(violation("payout_odds_required", field="payout_odds"))
    for index, wheel_type in enumerate(wheel_types):
        if wheel_type not in WheelType.values():
            violations.append(violation("wheel_type_unknown", field=f"wheel_types.{index}", wheel_type=wheel_type))
    known = [w for w in wheel_types if w in WheelType.values()]
    return violations + check_roulette_submission(
        game_rules, wheel_types=known, payout_odds=payout_odds, options=options
    )


def may_edit_submission(*, submission: RulesSubmission) -> Violation | None:
    if submission.status != "draft":
        return violation(
            "submission_not_draft",
            field=None,
            version=submission.version,
            status=submission.get_status_display().lower(),
        )
    return None


def may_file(*, submission: RulesSubmission, signer: Person) -> list[Violation | None]:
    """The certificate holder's compliance manager files a valid draft with the Board."""
    violations = [may_edit_submission(submission=submission)]
    if signer.role not in FILER_ROLES or signer.property_id != submission.property_id:
        violations.append(violation("filer_role", field="signature", property=submission.property.name))
    if submission.violations:
        violations.append(
            violation(
                "submission_has_violations",
                field=None,
                count=len(submission.violations),
                rules=" ".join(dict.fromkeys(v["message"] for v in submission.violations)),
            )
        )
    return violations


def may_decide(submission: RulesSubmission, *, signer: Person) -> list[Violation | None]:
    """A Board agent of the property's jurisdiction approves or rejects a filed submission."""
    violations: list[Violation | None] = []
    if submission.status != "filed":
        violations.append(violation("submission_not_filed", field=None, status=submission.get_status_display().lower()))
    if signer.role not in APPROVER_ROLES or signer.jurisdiction != submission.property.jurisdiction:
        violations.append(violation("approver_role", field="signature"))
    return violations


# ---- Layouts ----


def check_layout(
    *, features: list[str], tables: Iterable[Table], options: dict[str, object] | None, game: str = Game.ROULETTE
) -> list[Violation]:
    """Every feature the layout needs for what is offered on its tables, and none unknown."""
    tables = list(tables)
    violations = []
    for index, feature in enumerate(features):
        if feature not in pa.LAYOUT_FEATURES:
            violations.append(
                violation(
                    "layout_feature_unknown",
                    field=f"features.{index}",
                    citation=pa.LAYOUT_APPROVAL_BY_GAME[game],
                    feature=feature,
                )
            )
    needed = list(pa.LAYOUT_ALWAYS_BY_GAME[game])
    if game != Game.ROULETTE:
        options = None  # the Roulette options add Roulette areas only
    for option, requirements in pa.LAYOUT_FOR_OPTION.items():
        if options and options.get(option) not in NOT_CHOSEN:
            needed.extend(requirements)
    if any(table.wheel_type == WheelType.DOUBLE_ZERO_AS_SINGLE_ZERO for table in tables):
        needed.extend(pa.LAYOUT_FOR_AS_SINGLE_ZERO)
    for feature, citation in needed:
        if feature not in features:
            violations.append(
                violation("layout_feature_missing", field="features", citation=citation, feature=feature_label(feature))
            )
    electronic = [t.number for t in tables if not t.electronic]
    if options and options.get("touchdown_paytable") and electronic:
        violations.append(violation("touchdown_not_electronic", field="tables", tables=", ".join(electronic)))
    return violations


def may_decide_layout(layout: Layout, *, signer: Person) -> list[Violation | None]:
    """The Bureau approves a layout (§ 617a.1(f); § 619a.1(g), § 651a.2(b) for Big Six and Casino War,
    proposed): a regulator of the jurisdiction, on a pending one."""
    citation = pa.LAYOUT_APPROVAL_BY_GAME[layout.game]
    violations: list[Violation | None] = []
    if layout.status != "pending":
        violations.append(
            violation("layout_not_pending", field=None, citation=citation, status=layout.get_status_display().lower())
        )
    if signer.role not in APPROVER_ROLES or signer.jurisdiction != layout.property.jurisdiction:
        violations.append(violation("approver_role/layout", field="signature", citation=citation))
    return violations


# ---- Before a table opens ----


# A jurisdiction's own layout areas beyond Pennsylvania's (rulebooks.Borrowing.own_layout_areas): called
# with the layout's features, its tables, the game and the wagers offered; answers the areas missing.
OwnLayoutAreas = Callable[..., list[Violation]]


def configuration_ready(
    *,
    table: Table,
    layout: Layout | None,
    rules_submission: RulesSubmission | None,
    own_layout: OwnLayoutAreas | None = None,
) -> list[Violation]:
    """Before a table opens: an approved layout and an approved Rules Submission in effect for its
    game that approves the table's configuration (configurations.py); for Roulette, a configuration
    covering its wheel type, and registered (so compliant) equipment. The layout is checked again
    against the table as it is now (its wheel type, its configuration's wagers and options), with
    the jurisdiction's own areas (`own_layout`) as well as Pennsylvania's."""
    violations = []
    configuration = configuration_of(rules_submission, table.configuration)
    if layout is None:
        violations.append(
            violation(
                "layout_not_approved",
                field="table",
                citation=pa.LAYOUT_APPROVAL_BY_GAME[table.game],
                table=table.number,
            )
        )
    if rules_submission is None:
        violations.append(
            violation(
                "rules_submission_not_in_effect",
                field="table",
                property=table.property.name,
                game=table.get_game_display(),
            )
        )
    elif configuration is None:
        violations.append(
            violation(
                "table_configuration_not_approved",
                field="table",
                table=table.number,
                configuration=table.configuration,
                game=table.get_game_display(),
                version=rules_submission.version,
                keys=", ".join(c.key for c in configurations_of(rules_submission)),
            )
        )
    if layout is not None and configuration is not None:
        # The rules in effect may offer more than when the layout was approved (§ 617c.1(b), …).
        lacking = check_layout(features=layout.features, tables=[table], options=configuration.options, game=table.game)
        if own_layout is not None:
            lacking += own_layout(
                features=layout.features, tables=[table], game=table.game, offered=list(configuration.payout_odds)
            )
        violations.extend(
            dataclasses.replace(
                v.reworded(gettext_noop("Table {table}'s approved layout: {inner}"), table=table.number), field="table"
            )
            for v in lacking
            if v.code not in ("layout_feature_unknown", "touchdown_not_electronic")
        )
    if table.game == Game.BIG_SIX and table.wheel_id is None:
        violations.append(violation("wheel_not_registered/big_six", field="table", table=table.number))
    if table.game != Game.ROULETTE:
        return violations
    # A configuration is only ever found in a Rules Submission (configuration_of).
    if rules_submission is not None and configuration is not None and table.wheel_type not in configuration.wheel_types:
        violations.append(
            violation(
                "rules_submission_wheel_type",
                field="table",
                table=table.number,
                configuration=configuration.name,
                version=rules_submission.version,
                wheel=(table.get_wheel_type_display() or "this").lower(),
            )
        )
    if (
        configuration is not None
        and configuration.options.get("touchdown_paytable") not in NOT_CHOSEN
        and (not table.electronic or table.wheel_type != WheelType.DOUBLE_ZERO)
    ):
        violations.append(
            violation("touchdown_table", field="table", table=table.number, configuration=configuration.name)
        )
    if table.wheel_id is None:
        violations.append(violation("wheel_not_registered", field="table", table=table.number))
    if table.ball_id is None:
        violations.append(violation("ball_not_registered", field="table", table=table.number))
    return violations
