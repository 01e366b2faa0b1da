"""The idle-takes rule of the bout games (#65-#72): a draw after 300 takes in a row
with no card drawn or discarded and nobody going out.

An engine rule, not from the seeds (as Durak's ``end.idle_bouts``): the Polish fool's endgame
(#72; S1:89 "hands grow by taking") can circle for thousands of takes under random play.
Progress is what the repetition rule already watches: the stock's size, the discard and the
players out; a take is any action after which the state says a hand took cards.
"""

from __future__ import annotations

import random

import pytest

from bito.errors import RulesError
from bito.games import new_game
from bito.games.bouts.rules import IDLE_TAKES


def _progress(state) -> tuple[int, int, int]:
    return (len(state.stock), state.discard, len(state.out))


def _play(spec: str, players: int, seed: int, limit: int = 200_000):
    """Random play; yields (state, takes in a row since the last progress)."""
    state = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    idle, mark = 0, _progress(state)
    for _ in range(limit):
        if state.is_over:
            return state, idle
        acts = state.legal_actions()
        state = state.apply(acts[rng.randrange(len(acts))])
        if _progress(state) != mark:
            idle, mark = 0, _progress(state)
        elif state.took:
            idle += 1
    raise AssertionError("no end within the limit")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_polish_fool_never_goes_past_the_idle_limit(players: int) -> None:
    """#72: a game ends at the latest on the 300th idle take, as a draw that says so;
    a game that ends otherwise never saw that many."""
    ended_idle = 0
    for seed in range(12):
        state, idle = _play("polish_fool", players, seed)
        assert idle <= IDLE_TAKES
        if idle == IDLE_TAKES:
            ended_idle += 1
            assert state.outcome.draw and state.outcome.loser is None
            assert "idle" in state.outcome.note
    assert ended_idle  # random endgames do circle: the rule is met, not only possible


def test_the_rule_can_be_moved_but_not_turned_off() -> None:
    """Another value moves the limit; ``polish.idle_takes=0`` is refused naming the option.
    The million-game sweep (seed 1, game 763,844: ``polish_fool+polish.fail_take=1
    +polish.idle_takes=0`` at 2 seats) ran for minutes with the rule off: random endgames
    circle for tens of thousands of takes, and only this rule bounds them in time."""
    ends = [_play("polish_fool+polish.idle_takes=20", 3, seed) for seed in range(6)]
    assert all(idle <= 20 for _, idle in ends)
    assert any(idle == 20 and "idle" in state.outcome.note for state, idle in ends)
    for prefix, game in (("polish", "polish_fool"), ("heap", "heaped"), ("chinese", "chinese"),
                         ("prelude", "two_phase_japanese")):
        with pytest.raises(RulesError, match=rf"{prefix}\.idle_takes"):
            new_game(f"{game}+{prefix}.idle_takes=0", players=3, seed=1)
