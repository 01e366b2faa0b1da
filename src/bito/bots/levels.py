"""Difficulty levels: the names a player picks a bot by, wherever a bot can sit.

=========  =====================================================================================
level      bot
=========  =====================================================================================
easy       the rule-of-thumb heuristic of every family
           (:class:`~bito.bots.families.FamilyHeuristicBot`)
medium     the search bots (:class:`LevelBot`) with 40 ms per decision
strong     the search bots with 250 ms per decision
analysis   the search bots with no time limit: 20,000 playouts per decision and an endgame
           solver without a node cap
=========  =====================================================================================

A level plays every game in the registry, choosing its search by the view it is handed
(:class:`LevelBot`): a Durak-family view goes to the Durak search bot (PIMC with the exact
endgame), every other family's view to :class:`~bito.bots.pimc.FamilySearchBot` (PIMC over
worlds sampled by the family's sampler), with the same budgets. Positions no sampler can
rebuild are played by the family heuristic and counted in :attr:`LevelBot.fallbacks`: positions
without a sampler, and Durak options listed in :data:`DURAK_NOT_SEARCHED` (none at present).

A fixed time budget makes the strength depend on the machine; :func:`make_level` takes
``think_ms`` to fix it for a measurement (``bito arena --think-ms``), and ``playouts`` to make a
run independent of the machine's speed altogether: a playout budget alone turns the clock off
(the level's default time would otherwise still cut a search short on a slow machine, and a
test's result would depend on how busy the machine was).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from bito.bots.base import Bot, view_family
from bito.bots.search import SearchBot
from bito.games.durak import DurakView

LEVELS: Final = ("easy", "medium", "strong", "analysis")
THINK_MS: Final = {"medium": 40.0, "strong": 250.0}
ANALYSIS_PLAYOUTS: Final = 20_000


class LevelBot(SearchBot):
    """A search level for every game: Durak views are searched by :class:`SearchBot` (this
    class), other views by a :class:`~bito.bots.pimc.FamilySearchBot` with the same budget,
    and what neither can search by the family heuristic (counted in :attr:`fallbacks`)."""

    def __init__(self, seed: int | None = None, *, name: str = "search",
                 think_ms: float = 250.0, playouts: int = 0, min_worlds: int = 4,
                 solver_nodes: int = 20_000, style: bool = False) -> None:
        super().__init__(seed, name=name, think_ms=think_ms, playouts=playouts,
                         min_worlds=min_worlds, solver_nodes=solver_nodes, style=style)
        self.seed = seed
        self._family: Any = None
        self._heuristic: Any = None
        #: Decisions (with a choice) played by the family heuristic instead of a search.
        self.fallbacks = 0
        #: Searches that raised (by exception type) and fell back to the heuristic: a Durak
        #: variant newer than :data:`DURAK_NOT_SEARCHED`, or worlds that could not be dealt.
        self.errors: dict[str, int] = {}

    def choose(self, view: Any) -> Any:
        own = OWN_SEARCHES.get(view_family(view))
        if own is not None:
            return own(self, view)
        return self._family_search(view)

    def _durak_search(self, view: DurakView) -> Any:
        if not durak_searchable(view):
            return self._fall_back(view)
        try:
            return super().choose(view)
        except Exception as e:  # a variant newer than this list: never lose the game
            self.errors[type(e).__name__] = self.errors.get(type(e).__name__, 0) + 1
            return self._fall_back(view)

    def _family_search(self, view: Any) -> Any:
        """PIMC over the worlds of the view's family sampler; the heuristic where there is
        none or it cannot deal the position."""
        family = self._family_bot()
        if family.supports(view):
            from bito.bots.worlds import Unsatisfiable
            from bito.games.bouts.worlds import NotSampled

            try:
                return family.choose(view)
            except NotSampled:
                pass
            except Unsatisfiable:  # a sampler's memory contradicts the view: play on
                self.errors["Unsatisfiable"] = self.errors.get("Unsatisfiable", 0) + 1
        return self._fall_back(view)

    def observe(self, view: Any, seat: int, action: Any) -> None:
        """Another seat's move (see :class:`~bito.bots.base.Watcher`): to the card tracker
        where the family has a search of its own, else to the family search's sampler."""
        if view_family(view) in OWN_SEARCHES:
            super().observe(view, seat, action)
            return
        family = self._family_bot()
        if family.supports(view):
            family.observe(view, seat, action)

    def remember(self, view: Any) -> None:
        """Take in an earlier view of this bot's seat without deciding anything, so a bot
        rebuilt in the middle of a game (the server's bot pool after losing a worker)
        recovers its memory: the card tracker where the family has a search of its own, the
        family search's world sampler otherwise."""
        if view_family(view) in OWN_SEARCHES:
            self.tracker.update(view)
            return
        family = self._family_bot()
        if family.supports(view):
            family.sampler.observe(view)

    def _family_bot(self) -> Any:
        if self._family is None:
            from bito.bots.pimc import FamilySearchBot

            self._family = FamilySearchBot(self.seed, name=self.name, think_ms=self.think_ms,
                                           playouts=self.playouts,
                                           min_worlds=max(1, self.min_worlds // 2))
        return self._family

    def _fall_back(self, view: Any) -> Any:
        if self._heuristic is None:
            from bito.bots.families import FamilyHeuristicBot

            self._heuristic = FamilyHeuristicBot(self.seed)
        if len(view.legal) > 1:
            self.fallbacks += 1
        return self._heuristic.choose(view)


OWN_SEARCHES: Final[dict[str, Callable[[LevelBot, Any], Any]]] = {
    "durak": LevelBot._durak_search}
"""Families searched by a search of their own (the Durak search with its exact endgame), by
family name; every other family is searched by :class:`~bito.bots.pimc.FamilySearchBot` over
its sampler's worlds."""


DURAK_NOT_SEARCHED: Final[tuple[tuple[str, object, str], ...]] = ()
"""Durak-family options under which :class:`SearchBot` cannot search, as (rule field, value,
why); a level plays those games with the heuristic. Empty since the fifth session: running
``strong`` over every Durak-family id of the registry finds none (docs/bots.md)."""


def durak_searchable(view: DurakView) -> bool:
    """Whether the Durak search can play this view's game (see :data:`DURAK_NOT_SEARCHED`)."""
    rules = view.rules
    return not any(getattr(rules, f) == v for f, v, _ in DURAK_NOT_SEARCHED)


def make_level(level: str, seed: int | None = None, think_ms: float | None = None,
               playouts: int | None = None) -> Bot:
    """The bot of a difficulty level, optionally with a fixed budget per decision.

    ``playouts`` without ``think_ms`` is a fixed amount of work: no clock at all, so the same
    seed makes the same moves on any machine. Give both to bound a search by whichever ends
    first."""
    if level == "easy":
        from bito.bots.families import FamilyHeuristicBot  # late: the other engines

        bot = FamilyHeuristicBot(seed)
        bot.name = "easy"
        return bot
    if level in THINK_MS:
        if think_ms is None:
            think_ms = 0.0 if playouts else THINK_MS[level]
        return LevelBot(seed, name=level, think_ms=think_ms, playouts=playouts or 0)
    if level == "analysis":
        return LevelBot(seed, name=level, think_ms=think_ms or 0.0,
                        playouts=ANALYSIS_PLAYOUTS if playouts is None else playouts,
                        min_worlds=16, solver_nodes=0)
    raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")


def search_budgeted(name: str) -> bool:
    """Does ``--think-ms`` apply to this bot name?"""
    return name in THINK_MS or name == "analysis" or name == "search"
