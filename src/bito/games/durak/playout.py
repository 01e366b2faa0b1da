"""Random playouts on the reference engine, for search bots without the compiled kernel.

A playout owns a private copy of the state and steps it in place, so it allocates no new state
per move; the rules applied are exactly those of :meth:`DurakState.apply`, and the moves drawn
are those a loop over :meth:`DurakState.legal_actions` would draw from the same random stream.
The loop only draws moves and steps the engine; it holds no rules of its own (speed comes from
:mod:`bito.kernel`, never from a second Python copy of the rules).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bito.games.durak.actions import Action
from bito.games.durak.state import (
    CALL_PHASE,
    EXCHANGE_PHASE,
    GIVE_PHASE,
    DurakState,
)
from bito.games.protocol import Outcome


def random_playout(state: DurakState, rng: random.Random, *,
                   in_place: bool = False) -> tuple[Outcome, int]:
    """Play uniformly random legal moves to the end; return the outcome and the move count.

    The loop asks :func:`move_generators` for each phase's moves and picks with one
    ``rng.random()`` per move. It plays a copy of ``state`` unless ``in_place`` (for a caller
    that made the state for this playout alone, such as ``bito bench``'s ``playout`` rows).
    """
    s = state if in_place else state.copy()
    steps = 0
    rand = rng.random
    step = s.step_unchecked
    generate = move_generators(s)
    while s.outcome is None:
        acts = generate[s.phase]()
        step(acts[int(rand() * len(acts))])
        steps += 1
    return s.outcome, steps


def move_generators(s: DurakState) -> tuple[Callable[[], list[Action]], ...]:
    """The move generator of each phase of ``s``, for a loop that steps ``s`` in place.

    Base rules call the phase's generator directly (what :meth:`DurakState.legal_list`
    dispatches to, minus its cache, which a state stepped once per generation never hits).
    Rules whose moves come from hooks (:mod:`bito.games.durak.hooks`: #39-51's extras, #31's
    choices, #58's blind plays, #59's face-down covers and calls, #56's dummy throws) ask
    ``legal_list`` in every phase (each step clears its cache)."""
    hooks = s.deal.hooks
    if hooks.moves:
        return (s.legal_list,) * (max(EXCHANGE_PHASE, CALL_PHASE, GIVE_PHASE) + 1)
    # indexed by phase: lead, defend, throw, (over: never asked)
    return (s._lead_actions, s._defend_actions, s._throw_actions, s._lead_actions)
