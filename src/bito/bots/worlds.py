"""Possible worlds for the search bots of the games outside the Durak family.

A search bot plays many *worlds* per decision: full states that agree with everything its
seat has seen. The samplers live beside each engine (``bito.games.<family>.worlds``) and are
declared on the family objects (:meth:`bito.games.family.Family.samplers`); the dealing
routine they share, :func:`~bito.games.worlds.deal_slots`, is in :mod:`bito.games.worlds`, so
no engine imports a bot. This module is the bots' registry (view type -> sampler class). The
Durak family has its own determinizer (:mod:`bito.bots.determinize`) and declares no sampler.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bito.games.worlds import DEAL_TRIES, Sampler, Unsatisfiable, deal_slots, mask

_SAMPLERS: dict[type[Any], Callable[[], Sampler]] = {}


def register_sampler(view_type: type[Any], factory: Callable[[], Sampler]) -> None:
    _SAMPLERS[view_type] = factory


def _load() -> None:
    """Register every family's samplers (late: a Durak game needs none of them)."""
    if _SAMPLERS:
        return
    from bito.games.family import FAMILIES

    for family in FAMILIES.values():
        for view_type, factory in family.samplers().items():
            register_sampler(view_type, factory)
    # Worlds the bots model beyond what a view shows: Cheat's claimer (issue 20, item 5).
    from bito.bots.claims import ClaimModelSampler
    from bito.games.social.cheat import CheatView

    register_sampler(CheatView, ClaimModelSampler)


def sampler_for(view: Any) -> Sampler | None:
    """A fresh sampler for the family of ``view``, or None when the family has none."""
    _load()
    factory = _SAMPLERS.get(type(view))
    return factory() if factory is not None else None


__all__ = ["DEAL_TRIES", "Sampler", "Unsatisfiable", "deal_slots", "mask", "register_sampler",
           "sampler_for"]
