"""The bot protocol: a bot sees only a seat's view and returns one of its legal actions."""

from __future__ import annotations

import random
from typing import Protocol

from bito.games.durak import Action, DurakView


class Bot(Protocol):
    """Anything that can choose a move from a view. ``name`` identifies it in results."""

    name: str

    def choose(self, view: DurakView) -> Action:
        """Return one of ``view.legal`` (never called when it is empty)."""
        ...


class RandomBot:
    """Plays a uniformly random legal action. The zero of every rating scale."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: DurakView) -> Action:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]
