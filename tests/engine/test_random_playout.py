"""``random_playout`` against the engine's public path, ``legal_actions`` and ``apply``.

The playout steps a private copy in place and asks each phase's move generator directly; it
must draw exactly the moves a caller of the public API draws from the same random stream (one
``rng.random()`` per action, the action at ``int(r * len(legal))``), and end in the same state.
Positions are deals of the base games (VARIANTS.md §1) with house rules, games whose moves
come from hooks, and positions part-way through a game in every phase.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.games.durak import MatchContext, new_game
from bito.games.durak.playout import random_playout
from bito.games.durak.state import DurakState
from bito.rules import rules_for

FIELDS = ("hands", "known", "stock", "discard", "attack", "defence", "uncovered",
          "table_ranks", "phase", "to_act", "attacker", "leader", "defender", "taking", "bout",
          "out", "out_mask", "outcome", "last_bout", "seen", "idle")

SPECS = ("podkidnoy", "perevodnoy", "simple", "podkidnoy+armenian")


def _public(state: DurakState, rng: random.Random) -> tuple[int, DurakState]:
    """A random game through the public API: the yardstick ``random_playout`` must match."""
    steps = 0
    rand = rng.random
    while not state.is_over:
        acts = state.legal_actions()
        state = state.apply(acts[int(rand() * len(acts))])
        steps += 1
    return steps, state


def _fields(s: DurakState) -> dict[str, Any]:
    return {f: getattr(s, f) for f in FIELDS}


def _same_game(start: DurakState, seed: int) -> None:
    mine = start.copy()
    outcome, steps = random_playout(mine, random.Random(seed), in_place=True)
    n, theirs = _public(start, random.Random(seed))
    assert (steps, outcome, _fields(mine)) == (n, theirs.outcome, _fields(theirs)), (
        start.rules.changed_options(), seed)


@settings(max_examples=60, deadline=None)
@given(spec=st.sampled_from(SPECS), players=st.integers(2, 5), deal=st.integers(0, 2**62),
       seed=st.integers(0, 2**62), into=st.integers(0, 80))
def test_random_playout_plays_the_public_apis_game(spec: str, players: int, deal: int,
                                                   seed: int, into: int) -> None:
    """From a deal or a position ``into`` actions deep (any phase): the same actions, the
    same final state field by field, the same outcome."""
    start = new_game(spec, players, seed=deal)
    walk = random.Random(deal)
    for _ in range(into):
        if start.is_over:
            break
        acts = start.legal_actions()
        start = start.apply(acts[walk.randrange(len(acts))])
    _same_game(start, seed)


@pytest.mark.parametrize("options", [
    {"deck.size": 24}, {"deck.size": 24, "lead.max": 2}, {"deck.size": 24, "lead.max": 3},
    {"deck.size": 52, "lead.shape": "same_rank_1or2"}, {"lead.shape": "single"},
    {"lead.shape": "rozaliev"}])
def test_two_seat_lead_shapes_play_the_same_game(options: dict[str, Any]) -> None:
    """Short decks (three or four of a rank in one hand) and each lead limit: a lead drawn
    from rich rank groups is the public API's lead."""
    rules = rules_for("podkidnoy").with_options(**options)
    for seed in range(25):
        _same_game(new_game(rules, 2, seed=seed), seed)


def test_a_later_deal_of_a_match_plays_the_same_game() -> None:
    """Later deals (#74-#79: who leads the next game) start from another seat."""
    for seed in range(10):
        fool = seed % 2
        match = MatchContext(game_number=1 + seed % 3, dealer=fool, previous_fool=fool,
                             previous_winner=1 - fool)
        _same_game(new_game("podkidnoy", 2, seed=seed, match=match), seed)


def test_random_playout_leaves_the_state_alone() -> None:
    state = new_game("podkidnoy", 2, seed=5)
    before = _fields(state.copy())
    outcome, steps = random_playout(state, random.Random(9))
    assert _fields(state) == before
    n, end = _public(state, random.Random(9))
    assert (steps, outcome) == (n, end.outcome)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "podkidnoy+armenian"])
def test_an_in_place_playout_ends_where_a_copied_one_does(variant: str) -> None:
    """``in_place=True`` (a caller's fresh deal) plays the same game on the state it is
    given."""
    for seed in range(5):
        state = new_game(variant, 2 + seed % 2, seed=seed)
        copied = random_playout(state, random.Random(seed))
        assert state.outcome is None
        assert random_playout(state, random.Random(seed), in_place=True) == copied
        assert state.outcome == copied[0]


@pytest.mark.parametrize(("spec", "players"), [
    ("believe_not_believe", 3), ("podkidnoy+blind_face_out", 3),
    ("podkidnoy+tossing_dummy", 3), ("podkidnoy+playing_dummy", 3),
    ("podkidnoy+joker_gift", 2), ("podkidnoy+exchange=choose", 3), ("podkidnoy", 4)])
def test_random_playout_plays_every_hooked_move(spec: str, players: int) -> None:
    """Games whose moves come from hooks (#59's calls, #58's blind plays, #56's dummy throws,
    #24's gifts, #31's choices): the public API's games from the same random stream."""
    for seed in range(4):
        _same_game(new_game(spec, players, seed=seed), seed)


@pytest.mark.parametrize(("spec", "players"), [
    ("believe_not_believe", 3), ("podkidnoy+tossing_dummy", 3),
    ("podkidnoy+joker_gift", 2), ("podkidnoy+exchange=choose", 3)])
def test_greedy_rollouts_finish_hooked_games(spec: str, players: int) -> None:
    """The search bots' greedy rollouts play the hooked moves too (a call, a gift, a dummy
    throw, an exchange choice) and finish every game with a legal outcome."""
    from bito.bots.rollouts import greedy_playout

    for seed in range(6):
        state = new_game(spec, players, seed=seed)
        outcome = greedy_playout(state, random.Random(seed))
        assert outcome is not None and (outcome.draw or 0 <= outcome.loser < players)


def test_bench_reference_rows_play_the_general_path() -> None:
    """``bito bench``'s ``reference`` rows (``legal_actions``/``apply``) and ``playout`` rows
    (``random_playout`` in place) play the same games from the same seeds; the playout row's
    speedup is taken against the reference row."""
    from bito.bench import BenchCase, playout_game, reference_game, run_bench
    from bito.rules import rules_for

    rules = rules_for("perevodnoy")
    for seed in range(5):
        assert (reference_game(rules, 2, seed, random.Random(seed))
                == playout_game(rules, 2, seed, random.Random(seed)))
    report = run_bench(games=3, engines=["reference", "playout"],
                       cases=[BenchCase("podkidnoy-2p", "podkidnoy", 2)])
    reference, playout = report["results"]
    assert reference["engine"] == "reference" and "speedup" not in reference
    assert playout["engine"] == "playout" and "speedup" in playout
    assert reference["mean_actions"] == playout["mean_actions"]
