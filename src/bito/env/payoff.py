"""What a finished deal is worth to each seat: one convention for every adapter.

Durak has one loser, not one winner, so the natural zero-sum score is: the fool pays 1, shared
out equally among the others (+1 each in two-player games); a drawn deal scores 0 for all.
Every adapter (Gymnasium, PettingZoo, OpenSpiel, the batch environment) uses this function.
"""

from __future__ import annotations

from bito.games.durak import Outcome


def seat_returns(outcome: Outcome | None, players: int) -> list[float]:
    """Per-seat score of a deal; all zeros while it is still running or drawn."""
    if outcome is None or outcome.loser is None:
        return [0.0] * players
    share = 1.0 / (players - 1)
    return [-1.0 if s == outcome.loser else share for s in range(players)]
