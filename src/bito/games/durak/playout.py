"""Fast random playouts on the reference engine, for benchmarks and search.

A playout owns a private copy of the state and steps it in place, so it allocates no new state
per move; the rules applied are exactly those of :meth:`DurakState.apply`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bito.games.durak.actions import Action
from bito.games.durak.duel import duel_applies, duel_playout
from bito.games.durak.state import DurakState, Outcome


def random_playout(state: DurakState, rng: random.Random) -> tuple[Outcome, int]:
    """Play uniformly random legal moves to the end; return the outcome and the move count.

    The loop calls the phase's move generator directly (what
    :meth:`DurakState.legal_actions` dispatches to, minus its cache, which a state stepped
    once per generation never hits) and picks with one ``rng.random()`` per move.
    """
    s = state.copy()
    if duel_applies(s):  # two seats under the base rules: the same game, in one loop
        steps = duel_playout(s, rng)
        assert s.outcome is not None
        return s.outcome, steps
    steps = 0
    rand = rng.random
    step = s._step
    # indexed by phase: lead, defend, throw, (over: never asked), give (#24)
    generate: tuple[Callable[[], list[Action]], ...] = (
        s._lead_actions, s._defend_actions, s._throw_actions, s._lead_actions, s._give_actions)
    if s.deal.extras or s.deal.exchange_choice:  # #39-51, #31: every move from _legal_list
        generate = (s._legal_list,) * 7  # (each step clears its cache)
    while s.outcome is None:
        acts = generate[s.phase]()
        step(acts[int(rand() * len(acts))])
        steps += 1
    return s.outcome, steps
