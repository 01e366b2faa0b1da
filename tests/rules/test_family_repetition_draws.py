"""The repetition rule of the non-Durak games (docs/variants.md, "Where rules meet: the other
families' options and endings"): a game that could go on for ever ends by a rule, not by a
move cap.

* Bout-structure games (#65-#72): the game is drawn when the same position (hands, centre,
  seat to act, phase) follows a take for the third time since a card was last drawn or
  discarded or a player went out.
* Mau-Mau (#86-#93): a round in which the same position follows a draw for the third time is
  blocked: nobody wins it, everyone scores his hand (the catalogue's A5 leaves the match
  length to bito; the seeds never meet a loop).

The tests replay games and count the positions themselves, from that wording."""

from __future__ import annotations

import random
from typing import Any

from bito.bots import make_bot
from bito.games import new_game


def test_polish_fool_is_drawn_exactly_at_the_third_repetition() -> None:
    """#72 (S1:89, "the one who cannot beat takes"): with the stock gone the moves are
    mostly forced and random tables fall into loops; each game ends as a draw exactly when
    a position after a take comes round the third time, and never before."""
    repetitions = 0
    for seed in range(12):
        state = new_game("polish_fool", 2, seed=seed)
        rng = random.Random(seed)
        seen: list[tuple[Any, ...]] = []
        mark = None
        while not state.is_over:
            actions = state.legal_actions()
            before = state
            state = state.apply(actions[rng.randrange(len(actions))])
            now = (len(state.stock), state.discard, len(state.out))
            if now != mark:
                mark, seen = now, []
                assert state.outcome is None or state.outcome.note != "repetition"
                continue
            took = sum(h.bit_count() for h in state.hands) > sum(
                h.bit_count() for h in before.hands)
            if not took:
                assert state.outcome is None or state.outcome.note != "repetition"
                continue
            key = (*state.hands, *state.centre(), -1, state.to_act, state.phase)
            third = seen.count(key) == 2
            assert (state.outcome is not None and state.outcome.note == "repetition") == third
            seen.append(key)
        if state.outcome.note == "repetition":
            repetitions += 1
            assert state.outcome.draw and state.outcome.loser is None
            assert sorted(state.outcome.order) == [0, 1]
    assert repetitions, "random Polish tables loop often; none met the rule here"


def test_mau_mau_round_looping_is_blocked_at_the_third_repetition() -> None:
    """#86 (S1:19-23, draw until a card fits, the pile turned over as the new stock): two
    bots that always answer the same way can pass the same cards round for ever; the round
    is blocked (no winner) exactly when a position after a draw comes round the third
    time, and the match goes on with the next round."""
    blocked_by_repetition = 0
    for seed in range(6):
        state = new_game("czech_fool", 2, seed=seed)
        bots = [make_bot("heuristic", seed + i) for i in range(2)]
        seen: list[tuple[Any, ...]] = []
        while not state.is_over:
            before = state
            action = bots[state.to_act].choose(state.view(state.to_act))
            state = state.apply(action)
            over = state.is_over or state.round != before.round
            if action.kind != "draw":
                if over:
                    seen = []
                continue
            if over:
                if state.last_round.winner is None:
                    blocked_by_repetition += int(_third(seen, before))
                seen = []
                continue
            key = (*state.hands, *state.stock, -1, *state.pile, -1, state.called,
                   state.ace_open, state.to_act, state.phase, state.drawn)
            assert seen.count(key) < 2, "a third repetition did not block the round"
            seen.append(key)
    assert blocked_by_repetition, "no looping round met in these seeds"


def _third(seen: list[tuple[Any, ...]], before: Any) -> bool:
    """Whether this draw, replayed on a copy without the rule's effect, recreates a position
    already seen twice this round."""
    probe = before.copy()
    probe.seen = ()
    probe.moves = 0
    probe._draw_action(probe.to_act)
    key = (*probe.hands, *probe.stock, -1, *probe.pile, -1, probe.called, probe.ace_open,
           probe.to_act, probe.phase, probe.drawn)
    return seen.count(key) == 2
