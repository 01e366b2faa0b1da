"""Game engines, one per family, behind one protocol (see ``docs/architecture.md``)."""

from __future__ import annotations

from bito.games.durak import new_game
from bito.games.game import Game

__all__ = ["Game", "new_game"]
