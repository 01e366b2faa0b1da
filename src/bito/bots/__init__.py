"""Bots: ``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``)."""

from __future__ import annotations

from collections.abc import Callable

from bito.bots.base import Bot, RandomBot
from bito.bots.heuristic import HeuristicBot

_FACTORIES: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot}


def register_bot(name: str, factory: Callable[[int | None], Bot]) -> None:
    _FACTORIES[name] = factory


register_bot("heuristic", HeuristicBot)


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name; raises ValueError listing the known names."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bot_names())})") from None
    return factory(seed)


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot"]
