"""Duplicate deals: every deal is played once per seat rotation, so luck of the cards cancels.

A *table* is a list of bot names, one per seat. For deal ``d`` the cards are dealt from a seed
derived from ``(seed, d)``; in rotation ``r`` bot ``k`` sits at seat ``(k + r) % players``. With
two players the two rotations swap the hands and the first attack: a *duplicate pair*. Each work
item is one game, small and picklable, so an executor (local, process pool, Ray) can play the
items in any order and the results still come back in item order.
"""

from __future__ import annotations

from dataclasses import dataclass

from bito.bots import Bot, make_bot
from bito.bots.levels import make_level, search_budgeted
from bito.games import new_game
from bito.games.protocol import human_loser
from bito.sim import derive_seed, play_game


@dataclass(frozen=True)
class GameJob:
    """One game of a duplicate set: which table, which deal, which rotation."""

    variant: str
    players: int
    table: tuple[str, ...]  # bot names, by bot index (not by seat)
    table_index: int
    deal: int
    rotation: int
    seed: int
    think_ms: float | None = None
    playouts: int | None = None


@dataclass(frozen=True)
class GameRecord:
    """The result of a :class:`GameJob`: a score per bot index (1 not the fool, ½ a two-player
    draw, 0 the fool), or the error that stopped the game."""

    job: GameJob
    scores: tuple[float, ...]
    loser_bot: int | None
    draw: bool
    actions: int
    error: str | None = None


def build_bot(name: str, seed: int, think_ms: float | None = None,
              playouts: int | None = None) -> Bot:
    """A bot by name; ``think_ms`` fixes the time per decision of the search levels, and
    ``playouts`` their playouts per decision instead (then without a clock, so the games do
    not depend on the machine's speed or load)."""
    if playouts is not None and search_budgeted(name):
        return make_level(name, seed, think_ms=think_ms or 0.0, playouts=playouts)
    if think_ms is not None and search_budgeted(name):
        return make_level(name, seed, think_ms=think_ms)
    return make_bot(name, seed)


def play_job(job: GameJob) -> GameRecord:
    """Play one game of a duplicate set (a top-level function, so process pools can pickle
    it)."""
    n = job.players
    deal_seed = derive_seed(job.seed, job.deal)
    seat_of = [(k + job.rotation) % n for k in range(n)]
    bots: list[Bot | None] = [None] * n
    for k, name in enumerate(job.table):
        bots[seat_of[k]] = build_bot(name, derive_seed(job.seed, job.deal, job.rotation, k),
                                     job.think_ms, job.playouts)
    try:
        state = new_game(job.variant, n, seed=deal_seed)
        result = play_game(state, [b for b in bots if b is not None])
    except Exception as e:  # a broken bot must not end a long run: count it and go on
        return GameRecord(job, tuple(0.5 for _ in range(n)), None, False, 0,
                          f"{type(e).__name__}: {e}")
    outcome = result.outcome
    # #57: a playing dummy's loss is nobody's (A1), so its controller's bot is not charged.
    # The bot seated at the dummy's seat sits out that game; rotations give every bot that
    # seat equally often, so the duplicate sets stay fair.
    fool = human_loser(outcome)
    loser_bot = seat_of.index(fool) if fool is not None else None
    scores = []
    for k in range(n):
        if loser_bot == k:
            scores.append(0.0)
        elif outcome.draw and n == 2:
            scores.append(0.5)
        else:
            scores.append(1.0)
    return GameRecord(job, tuple(scores), loser_bot, outcome.draw, len(result.actions))


def jobs_for(variant: str, players: int, tables: list[tuple[str, ...]], deals: range,
             seed: int, think_ms: float | None = None,
             playouts: int | None = None) -> list[GameJob]:
    """Every game of ``deals`` duplicate deals at every table, deal by deal."""
    out = []
    for d in deals:
        for t, table in enumerate(tables):
            for r in range(players):
                out.append(GameJob(variant, players, table, t, d, r, seed, think_ms,
                                       playouts))
    return out
