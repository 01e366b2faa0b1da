"""Every bot plays every family (issue 33 item 4): ``random``, ``easy``, ``heuristic``, the
search levels (on playout budgets, never the clock), ``learned`` and ``dmc`` (each with its
documented fallback to the heuristic where it has no weights) return a legal move for the seat
to act in random reachable positions of every game, at every seat count the game accepts.

Each bot is built fresh at the position and first fed the seat's earlier views, as the
server's bot pool does when a bot takes over a seat whose player's clock ran out
(:func:`bito.bots.remember`); that path raised ``AttributeError`` for the Mau-Mau, Cheat and
animal-sounds views before (the heuristic's Durak card tracker read ``view.bout``).
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bito.bots import Bot, make_bot, remember
from bito.bots.levels import make_level
from bito.errors import BitoError
from bito.games.family import family_for
from bito.rules.registry import all_variants

FAMILY_GAMES = sorted(v.id for v in all_variants() if v.kind == "game"
                      and v.family not in ("durak", "meta"))
"""Every game of the families outside Durak (Mau-Mau, adjacent ranks, Fool!, animal sounds,
Cheat, the bout-structure games)."""

DURAK_GAMES = ("podkidnoy", "perevodnoy", "team_fool")
"""Durak itself, with transfers and with partnerships (its team seats)."""

BOTS = ("random", "easy", "heuristic", "medium", "strong", "analysis", "learned", "dmc")


def _bot(name: str, seed: int) -> Bot:
    if name in ("medium", "strong", "analysis"):
        return make_level(name, seed, think_ms=0, playouts=12)
    return make_bot(name, seed)


def _random_position(spec: str, players: int, seed: int, moves: int) -> tuple[Any, list[Any]]:
    """A position reached by random moves, and the views the seat to act had before."""
    state = family_for(spec).new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    seen: dict[int, list[Any]] = {}
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_act
        seen.setdefault(seat, []).append(state.view(seat))
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:  # a short game: start again from the deal
        state = family_for(spec).new_game(spec, players, seed=seed)
        return state, []
    return state, seen.get(state.to_act, [])


def _check_every_bot(spec: str, data: st.DataObject) -> None:
    rules = family_for(spec).rules_for(spec)
    players = data.draw(st.integers(rules.players_min, rules.max_players), label="players")
    if family_for(rules).seats_partners(rules) and players % 2:
        players -= 1
    seed = data.draw(st.integers(0, 10_000), label="seed")
    moves = data.draw(st.integers(0, 80), label="moves")
    state, earlier = _random_position(spec, players, seed, moves)
    seat = state.to_act
    view = state.view(seat)
    legal = state.legal_actions()
    for name in BOTS:
        bot = _bot(name, seed)
        for past in earlier:
            remember(bot, past)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "no weights for this game"
            move = bot.choose(view)
        assert move in legal, (name, spec, players, seed, moves, move)


@pytest.mark.parametrize("spec", FAMILY_GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))  # the failing case is printed
@given(data=st.data())
def test_every_bot_plays_a_legal_move_in_every_family_game(spec: str,
                                                           data: st.DataObject) -> None:
    _check_every_bot(spec, data)


@pytest.mark.parametrize("spec", DURAK_GAMES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))  # the failing case is printed
@given(data=st.data())
def test_every_bot_plays_a_legal_move_in_durak(spec: str, data: st.DataObject) -> None:
    _check_every_bot(spec, data)


@pytest.mark.parametrize("spec,players", [("czech_fool", 2), ("believe_not_believe_2", 3),
                                          ("animal_sounds", 3), ("friese_fool", 4)])
def test_the_heuristic_remembers_a_family_view_without_reading_durak_fields(
        spec: str, players: int) -> None:
    """The case the server met: a heuristic built mid-game is fed the seat's earlier views of
    a game outside Durak; it keeps them without error and its card tracker stays empty."""
    state, earlier = _random_position(spec, players, 3, 30)
    assert earlier, "the seat had turns before (else nothing is remembered)"
    bot = make_bot("heuristic", 1)
    for past in earlier:
        remember(bot, past)
    assert bot.choose(state.view(state.to_act)) in state.legal_actions()
    assert bot.tracker.view is None  # a Durak tracker reads only Durak views


DURAK_IDS = sorted(v.id for v in all_variants() if v.kind == "game" and v.family == "durak")
HOUSE_RULES = sorted(f"{v.default_base}+{v.id}" for v in all_variants()
                     if v.kind == "modifier" and v.family == "durak"
                     and not (v.parameter and v.parameter_default is None))


@pytest.mark.parametrize("spec", DURAK_IDS + HOUSE_RULES)
def test_the_quick_bots_take_over_any_durak_game(spec: str) -> None:
    """Every Durak game and house rule: the bots a server seats when a clock runs out (and
    the learned ones, falling back where they have no weights) play a legal move after
    remembering the seat's earlier views."""
    try:
        rules = family_for(spec).rules_for(spec)
    except BitoError:  # a house rule its default game refuses alone is not a game to play
        pytest.skip("not dealt alone")
    players = 4 if family_for(rules).seats_partners(rules) else max(rules.players_min, 3)
    players = min(players, rules.max_players)
    state, earlier = _random_position(spec, players, 5, 40)
    legal = state.legal_actions()
    for name in ("random", "easy", "heuristic", "learned", "dmc"):
        bot = make_bot(name, 5)
        for past in earlier:
            remember(bot, past)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            assert bot.choose(state.view(state.to_act)) in legal, (name, spec)
