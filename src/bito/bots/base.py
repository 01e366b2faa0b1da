"""The bot protocol: a bot sees only a seat's view and returns one of its legal actions."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from bito.games.durak import Action, DurakView
from bito.games.family import family_name
from bito.games.protocol import PlayAction, SeatView

_FAMILY_OF: dict[type[Any], str] = {}


def view_family(view: Any) -> str:
    """The family's name of a view (``family_for(view).name``), cached by view type: a view
    type belongs to one family, and the bots ask at every move. Bots keep their per-family
    tables keyed by this name."""
    name = _FAMILY_OF.get(type(view))
    if name is None:
        name = _FAMILY_OF[type(view)] = family_name(view)
    return name


class DurakBot(Protocol):
    """A bot that plays Durak games only (its own encoders, its own policies): seated in a
    game of any family it goes behind a :class:`Bot` that plays the others."""

    name: str

    def choose(self, view: DurakView) -> Action:
        """Return one of ``view.legal`` (never called when it is empty)."""
        ...


class Bot(Protocol):
    """Anything that can choose a move from a view. ``name`` identifies it in results."""

    name: str

    def choose(self, view: SeatView) -> PlayAction:
        """Return one of ``view.legal`` (never called when it is empty), for a view of any
        family (a bot that plays only some families refuses the others' views)."""
        ...


@runtime_checkable
class Watcher(Protocol):
    """A bot that wants to see the other seats' moves (an opponent model, issue 20): the game
    loop calls :meth:`observe` after each of them."""

    def observe(self, view: Any, seat: int, action: Any) -> None:
        """``seat`` played ``action`` (as this bot's seat saw it: a move that hides its cards
        comes as its :class:`~bito.games.protocol.Hidden` form); ``view`` is this bot's
        seat's view just before the move."""
        ...


def remember(bot: object, view: object) -> None:
    """Feed an earlier view of its seat into ``bot``'s memory without deciding anything, so a
    bot built in the middle of a game (a seat taken over after its player's clock ran out, a
    worker rebuilt after a crash) knows what it would have known. A bot remembers through its
    own ``remember`` method, which takes a view of any family and keeps only what it can use;
    a bot without one (``random``) remembers nothing."""
    own = getattr(bot, "remember", None)
    if callable(own):
        own(view)


class RandomBot:
    """Plays a uniformly random legal action. The zero of every rating scale."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> PlayAction:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]
