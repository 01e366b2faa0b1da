"""The family seam is typed (GUIDE.md §1b: ``Family[R, S, V, A]``, no ``Any``).

mypy --strict checks the types themselves (``tests/engine/test_quality.py``); these tests
keep the two seam modules free of ``Any`` and check at run time what the types promise: each
family narrows a state, view or action of its own to its own type and refuses another
family's, its rules refuse another family's rules, and every engine refuses an action of
another game as an illegal move, naming the rule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bito.games
from bito.errors import IllegalActionError, RulesError
from bito.games import DURAK, FAMILIES, family_for
from bito.games.family import EVENT_FAMILIES, family_of_state
from bito.rules import all_variants

SEAM = [Path(bito.games.__file__).parent / name for name in ("protocol.py", "family.py")]
GAMES = [v for v in all_variants() if v.kind == "game" and v.family not in EVENT_FAMILIES]
#: One game of each family, dealt at its fewest seats.
ONE_EACH = {v.family: v.id for v in reversed(GAMES)}


def any_names(source: str) -> list[int]:
    """The lines that name ``Any``: as a name, as ``typing.Any``, or inside a string
    annotation (a forward reference)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        named = (node.id if isinstance(node, ast.Name) else
                 node.attr if isinstance(node, ast.Attribute) else
                 node.name.split(".")[-1] if isinstance(node, ast.alias) else None)
        if named == "Any":
            found.append(getattr(node, "lineno", 0))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval")
            except SyntaxError:
                continue
            if any(isinstance(n, ast.Name) and n.id == "Any" for n in ast.walk(inner)):
                found.append(node.lineno)
    return sorted(found)


def test_the_counter_finds_each_form_of_any() -> None:
    """The checker itself: an import, an annotation, a dotted name and a string
    annotation are found; a word in a docstring is not."""
    source = ('from typing import Any\nimport typing\n'
              'def f(x: Any) -> "list[Any]":\n    """Any text."""\n    return typing.Any\n')
    assert any_names(source) == [1, 3, 3, 5]
    assert any_names('def f(x: object) -> "list[int]":\n    """Any text."""\n') == []


@pytest.mark.parametrize("path", SEAM, ids=lambda p: p.name)
def test_the_seam_modules_name_no_any(path: Path) -> None:
    """games/protocol.py and games/family.py type everything: a family's types are its
    type parameters, and what every game offers is a protocol."""
    assert any_names(path.read_text(encoding="utf-8")) == []


def _deal(spec: str) -> object:
    family = family_for(spec)
    return family.new_game(spec, family.rules_for(spec).players_min, seed=3)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_a_family_narrows_its_own_and_refuses_the_others(name: str) -> None:
    """``own``, ``own_view`` and ``own_action`` hand back a family's own state, view and
    action unchanged; those of every other family raise TypeError naming the family."""
    family = FAMILIES[name]
    state = family.new_game(ONE_EACH[name], family.rules_for(ONE_EACH[name]).players_min, 3)
    view = state.view(state.to_act)
    action = state.legal_actions()[0]
    assert family.own(state) is state
    assert family.own_view(view) is view
    assert family.own_action(action) is action
    assert family_of_state(state) is family
    for other_name, other in FAMILIES.items():
        if other_name == name:
            continue
        with pytest.raises(TypeError, match=other_name):
            other.own(state)
        with pytest.raises(TypeError, match=other_name):
            other.own_view(view)
        if not isinstance(action, other.action_types()):  # the bout games share Durak's
            with pytest.raises(TypeError, match=other_name):
                other.own_action(action)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_rules_of_another_family_are_refused_naming_the_family_key(name: str) -> None:
    """A family's ``rules_for`` takes a spec or its own rules; another family's rules
    object is refused with a RulesError on the ``family`` key, not read as its own."""
    family = FAMILIES[name]
    own = family.rules_for(ONE_EACH[name])
    assert family.rules_for(own) == own
    for other_name, other in FAMILIES.items():
        if other_name == name:
            continue
        with pytest.raises(RulesError) as e:
            other.rules_for(own)
        assert e.value.key == "family"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_an_action_of_another_game_is_an_illegal_move(name: str) -> None:
    """``apply`` takes any action (the seam's ``PlayState.apply``): one of another family's
    type is refused as an illegal move naming the rule, and the state is left alone."""
    state = _deal(ONE_EACH[name])
    before = str(state)
    for other_name in FAMILIES:
        if other_name == name:
            continue
        foreign = _deal(ONE_EACH[other_name]).legal_actions()[0]  # type: ignore[attr-defined]
        if isinstance(foreign, FAMILIES[name].action_types()):
            continue  # the bout games play Durak's and the shedding games' action types
        with pytest.raises(IllegalActionError) as e:
            state.apply(foreign)  # type: ignore[attr-defined]
        assert e.value.rule
    assert str(state) == before


def test_the_durak_family_is_typed_as_itself() -> None:
    """``DURAK`` is the registered Durak family, so ``DURAK.own(state)`` narrows a state
    of some game to a DurakState without a cast."""
    assert FAMILIES["durak"] is DURAK
    state = DURAK.new_game("podkidnoy", 2, seed=1)
    assert DURAK.own(state).deal.seed == 1
