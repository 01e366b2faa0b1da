"""The greedy opponent as a bot: the reference twin of the vector environment's compiled one.

:class:`bito.env.vector.DurakVectorEnv` plays its ``"greedy"`` opponents with the search bots'
rollout policy compiled in the kernel (:func:`bito.kernel.greedy.greedy_choice`). This bot makes
the same choice from a seat's view with :func:`bito.bots.rollouts.greedy_move`, so the single
environment (``opponents=("greedy",)``) meets the same opponent and the two environments can be
compared step by step. It is deterministic: the seed is accepted for the bot protocol only.
"""

from __future__ import annotations

from dataclasses import dataclass

from bito.bots.rollouts import card_worth, greedy_move
from bito.games.family import DURAK
from bito.games.protocol import PlayAction, SeatView


@dataclass(frozen=True)
class _Position:
    """The two facts of a position :func:`greedy_move` reads: the phase, and whether any
    stock is left (its ``stock`` is only tested for being empty)."""

    phase: int
    stock: bool


class GreedyBot:
    """Leads its cheapest rank, throws in cheap cards, covers with the cheapest card, transfers
    when that is cheaper, else takes (:mod:`bito.bots.rollouts`)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> PlayAction:
        own = DURAK.own_view(view)  # Durak only
        legal = list(own.legal)
        if len(legal) == 1:
            return legal[0]
        worth = card_worth(own.beats, own.trumps)
        return greedy_move(_Position(own.phase, own.stock_count > 0),  # type: ignore[arg-type]
                           legal, worth)
