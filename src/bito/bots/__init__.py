"""Bots: ``make_bot(name, seed)`` builds one by name (``random``, ``heuristic``)."""

from __future__ import annotations

from collections.abc import Callable

from bito.bots.base import Bot, RandomBot, remember

_FACTORIES: dict[str, Callable[[int | None], Bot]] = {"random": RandomBot}


def register_bot(name: str, factory: Callable[[int | None], Bot]) -> None:
    _FACTORIES[name] = factory


def unregister_bot(name: str) -> None:
    """Forget a bot registered for a while (a training run's candidate), so that it does not
    show up among the bots a server offers afterwards in the same process."""
    _FACTORIES.pop(name, None)




def _register_levels() -> None:
    """The difficulty levels (``easy``, ``medium``, ``strong``, ``analysis``): see
    :mod:`bito.bots.levels`."""
    from functools import partial

    from bito.bots.levels import LEVELS, make_level

    for level in LEVELS:
        register_bot(level, partial(make_level, level))


_register_levels()


def _heuristic_for_every_family(seed: int | None = None) -> Bot:
    """The heuristic bot, playing the shedding, trick and social games too (imported late:
    those engines are not needed to play Durak)."""
    from bito.bots.families import FamilyHeuristicBot

    return FamilyHeuristicBot(seed)


register_bot("heuristic", _heuristic_for_every_family)


def _learned(seed: int | None = None) -> Bot:
    """The trained 2-player podkidnoy bot of :mod:`bito.env.agent` (imported late: it needs
    numpy, the ``rl`` extra, and says so when it is missing); the games it was not trained
    for are played by the heuristic (:class:`~bito.bots.learned.TrainedOrHeuristic`)."""
    from bito.bots.learned import TrainedOrHeuristic
    from bito.env.agent import DMCBot

    return TrainedOrHeuristic(DMCBot(seed), seed)


register_bot("dmc", _learned)


def _policy_network(seed: int | None = None) -> Bot:
    """The ``learned`` bot of :mod:`bito.bots.learned`: a policy network trained by PPO on the
    compiled vector environment, played in numpy (imported late: it needs the ``rl`` extra's
    numpy and says so when it is missing)."""
    from bito.bots.learned import LearnedBot

    return LearnedBot(seed)


register_bot("learned", _policy_network)


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """Build a bot by name; raises ValueError listing the known names."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bot_names())})") from None
    return factory(seed)


__all__ = ["Bot", "RandomBot", "bot_names", "make_bot", "register_bot", "remember",
           "unregister_bot"]
