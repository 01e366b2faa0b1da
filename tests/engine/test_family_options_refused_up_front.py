"""The options of the shedding, trick-taking, social and bout-structure games: every option
declares what it may hold (``LIMITS`` on its rules class, checked in one place,
``bito.games.protocol.check_limits``), and a value outside that is refused by ``new_game``
with a RulesError naming the key, never accepted and broken later (a deal that runs out of
cards, a game with no move, a phase 2 that cannot start, a match that never ends)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.errors import RulesError
from bito.games import new_game
from bito.games.bouts import ENGINES as BOUT_ENGINES
from bito.games.protocol import Limit, check_limits
from bito.games.shedding import ENGINES as SHED_ENGINES
from bito.games.social.rules import AnimalRules, CheatRules
from bito.games.tricks.rules import FoolRules
from bito.rules.catalogue_games import GAME_OPTIONS

#: One registered game per engine, to write specs with.
GAME_OF = {"maumau": "czech_fool", "adjacent": "ontoys_adjacent_rank", "fool": "friese_fool",
           "animal": "animal_sounds", "cheat": "believe_not_believe_2", "heap": "heaped",
           "chinese": "chinese", "prelude": "deck_duel_prelude", "polish": "polish_fool"}
CLASSES: dict[str, type[Any]] = {**SHED_ENGINES, **BOUT_ENGINES, "fool": FoolRules,
                                 "animal": AnimalRules, "cheat": CheatRules}
OPTIONS = [(engine, f.name) for engine, cls in CLASSES.items()
           for f in dataclasses.fields(cls) if f.name not in ("variant", "family")]


def text(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def bad_values(limit: Limit) -> list[str]:
    """Values just outside what the option declares."""
    if limit.kind == "bool":
        return ["maybe", "2"]
    if limit.choices is not None:
        if limit.kind == "int":
            return [str(max(map(int, limit.choices)) + 1), "-1"]  # type: ignore[call-overload]
        return ["bogus"]
    if limit.kind == "str":
        return ["standard"]  # prelude.main: not a Durak game
    assert limit.low is not None and limit.high is not None
    if limit.kind == "ints":
        assert limit.length is not None
        n = max(limit.length[0], 1)
        return [",".join([str(limit.high + 1)] * n), ",".join([str(limit.low - 1)] * n), "x"]
    return [str(limit.low - 1), str(limit.high + 1), "1.5", "9" * 5000]


def test_every_option_declares_its_limit() -> None:
    """One mechanism for every option: a field without a declared Limit is an error."""
    for engine, cls in CLASSES.items():
        for f in dataclasses.fields(cls):
            if f.name not in ("variant", "family"):
                assert f.name in cls.LIMITS, f"{engine}: {f.name}"
        check_limits(cls(variant=GAME_OF[engine]))


@pytest.mark.parametrize(("engine", "name"), OPTIONS)
def test_out_of_range_value_is_refused_naming_the_key(engine: str, name: str) -> None:
    """Every option: a value outside its declared limit raises RulesError naming the key
    (issue 16 item 5, "validate every family's options at new_game")."""
    cls = CLASSES[engine]
    key = f"{cls.PREFIX}.{name}"
    for value in bad_values(cls.LIMITS[name]):
        spec = f"{GAME_OF[engine]}+{key}={value}"
        with pytest.raises(RulesError) as err:
            new_game(spec, players=4, seed=0)
        assert key in str(err.value), (spec, str(err.value))


@pytest.mark.parametrize(("spec", "players", "key"), [
    ("ontoys_adjacent_rank+shed.hand_size=36", 2, "shed.hand_size"),
    ("friese_fool+fool.hand_size=-999", 4, "fool.hand_size"),
    ("deck_duel_prelude+prelude.main=standard", 2, "prelude.main"),
    ("pharaoh+shed.rounds=999999999999", 2, "shed.rounds"),
])
def test_reported_option_values_fail_at_new_game(spec: str, players: int, key: str) -> None:
    """The issue's reproducers: each failed later (IndexError at the deal, no legal action,
    UnknownVariantError at the handoff, a match without end); now refused up front."""
    with pytest.raises(RulesError) as err:
        new_game(spec, players, seed=0)
    assert err.value.key == key


@pytest.mark.parametrize(("spec", "players", "key"), [
    ("czech_fool+shed.hand_size=8", 5, "shed.hand_size"),  # 40 cards of 36 (S1:17)
    ("ontoys_adjacent_rank+shed.hand_size=20", 3, "shed.hand_size"),  # 61 of 54 (S3:15)
    ("heaped+heap.hand_size=9", 4, "heap.hand_size"),  # 36 cards and no trump card left
    ("friese_fool+fool.hand_size=22", 5, "fool.hand_size"),  # 110 of 88 (S2:19)
    ("deck_duel_prelude+prelude.main=double_fool", 3, "prelude.main"),  # teams of 2 (#54)
])
def test_hands_times_players_must_fit_the_pack(spec: str, players: int, key: str) -> None:
    """Options that depend on the seat count: the hands must come out of the pack, and
    phase 2 must seat the players of phase 1; the same spec deals at a count that fits."""
    with pytest.raises(RulesError) as err:
        new_game(spec, players, seed=0)
    assert err.value.key == key


@pytest.mark.parametrize("spec", ["simple+bogus.key=1", "podkidnoy+throw_in.bogus=2",
                                  "czech_fool+bogus.key=1", "heaped+heap.bogus=1"])
def test_unknown_dotted_key_is_an_unknown_option(spec: str) -> None:
    """A dotted part is an option key: an unknown one is an "unknown option", named, in
    every family (not "no such variant")."""
    with pytest.raises(RulesError) as err:
        new_game(spec, 2, seed=0)
    assert "unknown option" in str(err.value) and "no such variant" not in str(err.value)
    assert err.value.key == spec.split("+")[1].split("=")[0]


def near(limit: Limit, short: bool) -> st.SearchStrategy[str]:
    """Values in and just around an option's limit (caps kept small so games stay short)."""
    if limit.kind == "bool":
        return st.sampled_from(["true", "false", "maybe"])
    if limit.choices is not None:
        return st.sampled_from([text(c) for c in limit.choices] + ["bogus", "0"])
    if limit.kind == "str":
        return st.sampled_from(["podkidnoy", "perevodnoy", "japanese", "standard",
                                "double_fool", "czech_fool"])
    assert limit.low is not None and limit.high is not None
    high = min(limit.high, limit.low + 400) if short else limit.high
    number = st.integers(limit.low - 2, high + 2)
    if limit.kind == "ints":
        assert limit.length is not None
        return st.lists(number, min_size=limit.length[0],
                        max_size=limit.length[1] + 1).map(lambda xs: ",".join(map(str, xs)))
    return number.map(str)


@st.composite
def option_stacks(draw: st.DrawFn) -> tuple[str, int]:
    vid = draw(st.sampled_from(sorted(GAME_OPTIONS)))
    cls = CLASSES[_engine(vid)]
    names = draw(st.lists(st.sampled_from(sorted(cls.LIMITS)), max_size=3, unique=True))
    parts = [vid]
    for name in names:
        short = "cap" in name or name in ("max_rounds", "rounds")
        parts.append(f"{cls.PREFIX}.{name}={draw(near(cls.LIMITS[name], short))}")
    return "+".join(parts), draw(st.one_of(st.integers(2, 6), st.integers(1, 11)))


def _engine(vid: str) -> str:
    from bito.rules.catalogue_games import game_options

    return str(game_options(vid)["engine"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=option_stacks(), seed=st.integers(0, 10**6))
def test_random_option_stacks_are_refused_or_play_to_the_end(case: tuple[str, int],
                                                             seed: int) -> None:
    """Whatever the option values: RulesError at new_game, or a game whose every state
    offers a move until it is over and that ends (by a rule or, with a small cap drawn
    here, its last guard)."""
    spec, players = case
    try:
        state = new_game(spec, players, seed=seed)
    except RulesError:
        return
    rng = random.Random(seed)
    for _ in range(400_000):
        if state.is_over:
            return
        actions = state.legal_actions()
        assert actions, spec
        state = state.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"{spec} with {players} players did not end")
