"""What a finished game is worth to each seat: one convention for every adapter.

A Durak game has one loser, not one winner, so the natural zero-sum score is: the losing side
pays 1 a member, shared out equally among the other sides. A *side* is a team in partnership
games (#53-55, ``Outcome.teams``) and a single seat everywhere else. With ``T`` sides of equal
size (partnerships always seat equal teams), a seat ``s`` scores

    r(s) = -1            if s's side lost,
    r(s) = +1 / (T - 1)  otherwise,

and every score is 0 when the game is drawn or still running. Every member of a side gets the
side's score, so partners share the result (a fool's partner loses too), and the sum over the
seats is 0. Without teams ``T`` is the seat count: -1 for the fool, +1/(players-1) for each
other player. Every adapter (Gymnasium, PettingZoo, OpenSpiel, the batch environment) uses
this function; docs/rl.md states the formula.
"""

from __future__ import annotations

from collections.abc import Sequence

from bito.games.protocol import Outcome


def sides(teams: Sequence[Sequence[int]], players: int) -> list[tuple[int, ...]]:
    """The sides of a game: its teams, or one side per seat without teams."""
    if teams:
        return [tuple(t) for t in teams]
    return [(s,) for s in range(players)]


def seat_returns(outcome: Outcome | None, players: int) -> list[float]:
    """Per-seat score of a game (see the module docstring); all zeros while it is still
    running or drawn."""
    if outcome is None or outcome.loser is None:
        return [0.0] * players
    groups = sides(outcome.teams, players)
    if outcome.teams and outcome.losing_team is not None:
        losing = groups[outcome.losing_team]
    else:  # the fool's side (his team, or himself)
        losing = next(g for g in groups if outcome.loser in g)
    share = 1.0 / (len(groups) - 1)
    return [-1.0 if s in losing else share for s in range(players)]


def best_return(teams: Sequence[Sequence[int]], players: int) -> float:
    """The most one seat can score: a winning side's share, 1/(T-1)."""
    return 1.0 / (len(sides(teams, players)) - 1)


__all__ = ["best_return", "seat_returns", "sides"]
