"""Every jurisdiction provides what its interface says (GameRules; Pennsylvania's rulebook class),
with the same signatures. (That the rulebook is
pure Python, importing neither Django nor the rest of the project, is import-linter's `rulebook-pure`
contract in pyproject.toml, checked by make test.)"""

from __future__ import annotations

import ast
import inspect
import pathlib
import typing

import pytest

from compliance import rulebook
from compliance.rulebook import GAME_RULES, LOGBOOK_PROCEDURE, GameRules, Jurisdiction

RULEBOOK = pathlib.Path(rulebook.__file__).parent


def _members(protocol: type) -> tuple[set[str], set[str]]:
    """(the attributes, the methods) the protocol declares, its bases' included. A rulebook's class
    (Jurisdiction, Pennsylvania's: the class is the interface) declares its public methods, and the
    attributes Pennsylvania's rulebook has."""
    if not getattr(protocol, "_is_protocol", False):
        methods = {
            name
            for klass in protocol.__mro__
            if klass is not object
            for name, value in vars(klass).items()
            if inspect.isfunction(value) and name[0] != "_"
        }
        return {name for name in dir(rulebook.pa) if name[0] != "_" and name not in methods}, methods
    attributes: set[str] = set()
    methods: set[str] = set()
    for klass in protocol.__mro__:
        if klass in (object, typing.Protocol, typing.Generic) or not getattr(klass, "_is_protocol", False):
            continue
        attributes |= set(getattr(klass, "__annotations__", {}))
        methods |= {name for name, value in vars(klass).items() if inspect.isfunction(value) and name[0] != "_"}
    return attributes, methods


def _parameters(function) -> list[tuple[str, object, bool]]:
    """Name, kind and whether it has a default, for every parameter but the protocol's `self`."""
    parameters = list(inspect.signature(function).parameters.values())
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return [(p.name, p.kind, p.default is not inspect.Parameter.empty) for p in parameters]


CASES = [(f"rulebook_for({code})", rules, Jurisdiction) for code, rules in LOGBOOK_PROCEDURE.items()] + [
    (f"game_rules_for({code})", rules, GameRules) for code, rules in GAME_RULES.items()
]


@pytest.mark.parametrize(("name", "rules", "protocol"), CASES, ids=[case[0] for case in CASES])
def test_each_jurisdiction_provides_its_protocol(name, rules, protocol):
    assert isinstance(rules, protocol), name
    attributes, methods = _members(protocol)
    missing = sorted(member for member in attributes | methods if not hasattr(rules, member))
    assert not missing, f"{name} lacks {missing}"
    for method in sorted(methods):
        provided = getattr(rules, method)
        assert callable(provided), f"{name}.{method}"
        wanted = _parameters(getattr(protocol, method))
        assert _parameters(provided) == wanted, f"{name}.{method}{inspect.signature(provided)}"


def test_the_protocol_names_every_rule_the_rest_of_the_code_calls():
    """Each name the project reads from rulebook_for(…) or game_rules_for(…) is a Protocol member."""
    attributes, methods = _members(Jurisdiction)
    project = pathlib.Path(rulebook.__file__).parents[2]
    called = set()
    for path in [*project.glob("compliance/**/*.py"), *project.glob("inspections/**/*.py")]:
        if RULEBOOK in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", "") in ("rulebook_for", "game_rules_for")
            ):
                called.add(node.attr)
    assert called, "the scan found no call"
    assert called <= attributes | methods, sorted(called - attributes - methods)
