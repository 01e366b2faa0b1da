"""Difficulty levels: the names a player picks a bot by, wherever a bot can sit.

=========  =====================================================================================
level      bot
=========  =====================================================================================
easy       the rule-of-thumb :class:`~bito.bots.heuristic.HeuristicBot`
medium     :class:`~bito.bots.search.SearchBot` with 40 ms per decision
strong     :class:`~bito.bots.search.SearchBot` with 250 ms per decision
analysis   :class:`~bito.bots.search.SearchBot` with no time limit: 20,000 playouts per decision
           and an endgame solver without a node cap
=========  =====================================================================================

A fixed time budget makes the strength depend on the machine; :func:`make_level` takes
``think_ms`` to fix it for a measurement (``bito arena --think-ms``), and ``playouts`` to make a
run independent of the machine's speed altogether.
"""

from __future__ import annotations

from typing import Final

from bito.bots.base import Bot
from bito.bots.heuristic import HeuristicBot
from bito.bots.search import SearchBot

LEVELS: Final = ("easy", "medium", "strong", "analysis")
THINK_MS: Final = {"medium": 40.0, "strong": 250.0}
ANALYSIS_PLAYOUTS: Final = 20_000


def make_level(level: str, seed: int | None = None, think_ms: float | None = None,
               playouts: int | None = None) -> Bot:
    """The bot of a difficulty level, optionally with a fixed budget per decision."""
    if level == "easy":
        bot = HeuristicBot(seed)
        bot.name = "easy"
        return bot
    if level in THINK_MS:
        return SearchBot(seed, name=level,
                         think_ms=THINK_MS[level] if think_ms is None else think_ms,
                         playouts=playouts or 0)
    if level == "analysis":
        return SearchBot(seed, name=level, think_ms=think_ms or 0.0,
                         playouts=ANALYSIS_PLAYOUTS if playouts is None else playouts,
                         min_worlds=16, solver_nodes=0)
    raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")


def search_budgeted(name: str) -> bool:
    """Does ``--think-ms`` apply to this bot name?"""
    return name in THINK_MS or name == "analysis" or name == "search"
