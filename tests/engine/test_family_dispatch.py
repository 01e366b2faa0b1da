"""One family object per game family, and interfaces that dispatch on it (GUIDE.md §1a:
"Interfaces dispatch on family objects ..., never on ``family == "durak"``").

Every registered game belongs to a family registered once in :mod:`bito.games.family`; the
family object answers what records, the CLI, the server, the simulator and the RL adapters
used to find out by comparing family names or testing ``isinstance(state, DurakState)``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bito
from bito.errors import RulesError
from bito.games import FAMILIES, Family, family_for, is_event
from bito.games.family import EVENT_FAMILIES
from bito.rules import all_variants

GAMES = [v for v in all_variants() if v.kind == "game" and v.family not in EVENT_FAMILIES]
SRC = Path(bito.__file__).parent


def _deal(family: Family, spec: str) -> object:
    rules = family.rules_for(spec)
    return family.new_game(spec, rules.players_min, seed=11)


def test_every_registered_game_has_a_family_object() -> None:
    """Each game of the registry (VARIANTS.md §1-§3) names a family that deals games, and
    each family deals at least one registered game."""
    assert {v.family for v in GAMES} == set(FAMILIES)
    for name, family in FAMILIES.items():
        assert family.name == name
        assert family.package.startswith("bito.games.")


@pytest.mark.parametrize("spec", [v.id for v in GAMES])
def test_the_family_is_found_from_spec_rules_state_and_view(spec: str) -> None:
    """Whatever an interface holds (the spec text, the rules, a state, a seat's view), it
    reaches the same family object, whose declared engines dealt the state."""
    family = family_for(spec)
    state = _deal(family, spec)
    assert type(state) in family.state_types()
    assert family_for(family.rules_for(spec)) is family
    assert family_for(state) is family
    assert family_for(state.view(0)) is family  # type: ignore[attr-defined]
    assert family_for(f"{spec}") is FAMILIES[family.name]


@pytest.mark.parametrize("spec", [v.id for v in GAMES])
def test_each_family_object_serves_records_and_notation(spec: str) -> None:
    """What a record needs of a family: the header fields deal the same game again, the
    seed is the one dealt, actions read back from their text, a seat's view is written as
    text the family accepts, and the whole position has a picture."""
    family = family_for(spec)
    state = _deal(family, spec)
    assert family.seed(state) == 11
    header = family.record_fields(state, spec)
    assert header["game"] == family.name and header["seed"] == 11
    again = family.start_from_record(header)
    assert family.position_text(again, 0) == family.position_text(state, 0)
    family.check_position_text(family.position_text(state, 0))
    first = state.legal_actions()[0]  # type: ignore[attr-defined]
    assert family.parse_action(str(first)) == first
    assert family.picture(state)
    assert isinstance(family.described_options(spec), dict)
    assert family.dummy_seat(family.rules_for(spec), state.players) < state.players  # type: ignore[attr-defined]


@pytest.mark.parametrize("spec", [v.id for v in GAMES])
def test_search_bots_find_a_world_sampler_for_every_family_but_durak(spec: str) -> None:
    """The families outside Durak declare a world sampler for their views (the Durak family
    has its own determinizer in the bots layer)."""
    family = family_for(spec)
    view = _deal(family, spec).view(0)  # type: ignore[attr-defined]
    assert (type(view) in family.samplers()) == (family is not FAMILIES["durak"])


def test_the_rl_codec_covers_exactly_the_families_that_say_so() -> None:
    """``bito.env`` asks the family (``codec``) instead of comparing names: a game of a
    family without the codec is refused naming its family."""
    pytest.importorskip("numpy")
    from bito.env.codec import durak_rules

    for family in FAMILIES.values():
        spec = next(v.id for v in GAMES if v.family == family.name)
        if family.codec:
            durak_rules(spec)
        else:
            with pytest.raises(ValueError, match=family.name):
                durak_rules(spec)


def test_a_deck_option_is_a_real_option_of_its_family() -> None:
    """``--deck`` becomes the family's deck option; families without one fix their deck."""
    for family in FAMILIES.values():
        spec = next(v.id for v in GAMES if v.family == family.name)
        if family.deck_option is not None:
            rules = family.resolve(f"{spec}+{family.deck_option}=52").rules
            assert rules.deck_size == 52


def test_an_event_is_not_a_family() -> None:
    """#64's tournament is an event over many games: no family deals it, and asking for one
    names the ``family`` key."""
    assert is_event("tournament") and not is_event("podkidnoy")
    with pytest.raises(RulesError) as e:
        family_for("tournament")
    assert e.value.key == "family"


# --- no family branches outside bito.games -----------------------------------------------

FAMILY_NAMES = set(FAMILIES) | set(EVENT_FAMILIES)
#: The engines' state classes and the view classes their packages export: what a family
#: ``isinstance`` test (or a comparison of a class name) would name.
STATE_NAMES = {n for f in FAMILIES.values() for n in f.state_names} | {
    n for f in FAMILIES.values() for n in dir(f.engine()) if n.endswith("View")}

#: Modules that still branch on a family, each named with its reason (empty when done).
ALLOWED: dict[str, str] = {
    # bito.rules sits under the games layer and cannot see the family objects; it refuses
    # a house-rules base that is an event (#64), not a game.
    "rules/house.py": "under the games layer",
}


def _constants(node: ast.AST) -> list[object]:
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return []


def family_branches(text: str) -> list[str]:
    """Comparisons with a family's name or a state or view class's name, and ``isinstance``
    tests against a family's state or view class, as ``line: code``."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Compare):
            if any(c in FAMILY_NAMES or c in STATE_NAMES for o in [node.left, *node.comparators]
                   for c in _constants(o)):
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "isinstance" and len(node.args) == 2):
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.args[1]) if isinstance(n, ast.Attribute)}
            if names & STATE_NAMES:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_branch_finder_finds_the_old_forms() -> None:
    """The checker itself, on the forms the interfaces used to have."""
    old = ('if family == "durak": pass\n'
           'if getattr(rules, "family", "durak") != "durak": pass\n'
           'if v.family not in ("durak", "meta"): pass\n'
           'if isinstance(state, DurakState): pass\n'
           'if isinstance(s, (games.MauMauState, int)): pass\n'
           'if isinstance(view, DurakView): pass\n'
           'if isinstance(view, AnimalView) and view.phase == JUDGE: pass\n'
           'lower = type(state).__name__ == "MauMauState"\n')
    assert len(family_branches(old)) == 8
    assert family_branches('if family_for(spec).codec: pass\nx = {"durak": 1}\n') == []


def test_no_module_outside_the_games_layer_branches_on_a_family() -> None:
    """Outside bito.games, code asks the family object; it never compares family names or
    tests a family's state class (allow-list: :data:`ALLOWED`, each with its reason)."""
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("games/") or rel in ALLOWED:
            continue
        branches = family_branches(path.read_text(encoding="utf-8"))
        if branches:
            found[rel] = branches
    assert found == {}


@pytest.mark.parametrize("family_name", sorted(FAMILIES))
def test_one_record_writer_serves_every_family(family_name: str) -> None:
    """``record_from_game`` writes the record of a game of any family (the server and the
    sweep used to build the other families' headers by hand); the record replays to the
    same position, and each seat's censored record loads back."""
    import random

    from bito.games import Game
    from bito.record import load_record, record_from_game

    family = FAMILIES[family_name]
    spec = next(v.id for v in GAMES if v.family == family_name)
    game = Game(_deal(family, spec))  # type: ignore[arg-type]
    rng = random.Random(5)
    for _ in range(30):
        if game.state.is_over:
            break
        game.push(rng.choice(game.state.legal_actions()))
    record = record_from_game(game, spec=spec)
    assert record.header["game"] == family_name
    replayed = load_record(record.to_jsonl()).replay()[-1]
    assert family.position_text(replayed, None) == family.position_text(game.state, None)
    for seat in range(game.state.players):
        assert load_record(record.censored(seat).to_jsonl()).censored_for == seat
