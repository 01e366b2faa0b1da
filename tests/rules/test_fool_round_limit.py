"""#95 Fool!: a table's own limit on the number of rounds (``fool.max_rounds``).

S2:57 ends the game by the scores ("the player with the lowest score is the Fool"); a table
that plays a fixed number of rounds ends after the last of them, and the scores decide in the
same way: the lowest score is the Fool, not a draw.
"""

from __future__ import annotations

import random

import pytest

from bito.games import new_game
from bito.sweep import Case, case_for_game, play_game


def _play_out(spec: str, players: int, seed: int):
    state = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        acts = state.legal_actions()
        state = state.apply(acts[rng.randrange(len(acts))])
    return state


@pytest.mark.parametrize("players", [4, 5, 8])
@pytest.mark.parametrize("seed", range(4))
def test_one_round_then_the_lowest_score_is_the_fool(players: int, seed: int) -> None:
    """#95; S2:57 "The player with the lowest score is the Fool": after the last round the
    table allows, the scores decide; a unique lowest score loses, a tie of all is a draw."""
    state = _play_out("friese_fool+fool.max_rounds=1", players, seed)
    out = state.outcome
    assert out.rounds == 1
    scores = list(out.scores)
    low = min(scores)
    if scores.count(low) == 1:
        assert out.loser == scores.index(low) and not out.draw
    else:
        assert out.loser is None
    assert out.draw == (len(set(scores)) == 1)
    assert list(out.order) == sorted(range(players), key=lambda s: (-scores[s], s))


@pytest.mark.parametrize("game", [20543, 28781, 29744])
def test_the_sweep_takes_a_tables_own_limit_for_a_rule(game: int) -> None:
    """The sweep's games (seed 1) that stopped at ``fool.max_rounds=1``: a limit set in the
    spec ends the game by the table's rule, not by a silent cap."""
    case, _ = case_for_game(1, game)
    assert "fool.max_rounds=1" in case.spec
    assert not play_game(1, game).violations


def test_a_long_polish_game_runs_to_its_own_end() -> None:
    """#72 Polish fool's random games can outlast the sweep's own 20,000-action cap (sweep
    seed 1, game 12835, 3 seats); the engine's declared last guard is higher, and the game
    ends by a rule before it."""
    # Pinned to its case: the fixed cases' order moves whenever the catalogue grows (game
    # 12835 is not an option-stack game, so a one-case list replays it exactly).
    only = (Case("polish_fool", 3),)
    case, _ = case_for_game(1, 12835, only)
    assert case.key == "polish_fool@3"
    assert not play_game(1, 12835, cases=only).violations
