"""Dealing possible worlds: the routine every world sampler shares.

A search bot never sees the hidden cards; for each decision it plays *worlds*, full states
that agree with everything its seat has seen. Each family that can be searched keeps a
*sampler* beside its engine (``bito.games.<family>.worlds``, registered on its
:class:`~bito.games.family.Family`); the search bots (:mod:`bito.bots.worlds`) use them. This
module sits in the games layer, under both, so an engine's sampler never imports a bot:

* ``observe(view)``: remember what the view shows that later views forget (a suit a player
  showed void in, the dealer of the round...). The memory is per deal: a sampler notices a
  new deal or round by itself and forgets what no longer holds;
* ``sample(view, rng)``: one full state consistent with the view and the memory, the unseen
  cards dealt at random into the hidden slots (other hands, the stock, face-down piles).

:func:`deal_slots` fills slots of given sizes from a pool of unseen cards, keeping each slot
clear of the cards it may not hold.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

DEAL_TRIES = 8
"""Shuffles tried greedily before :func:`deal_slots` solves the constraints as a matching."""


class Sampler(Protocol):
    """A per-deal memory plus a world sampler for one family's views."""

    def observe(self, view: Any) -> None: ...

    def sample(self, view: Any, rng: random.Random) -> Any: ...


class Unsatisfiable(ValueError):
    """The constraints left no way to deal the unseen cards (a bug in a sampler's memory or
    an inconsistent view); the message names the slot that could not be filled."""


def deal_slots(pool: Sequence[int], sizes: Sequence[int], banned: Sequence[int],
               rng: random.Random) -> list[list[int]]:
    """Deal ``sizes[i]`` cards of ``pool`` to slot ``i``, none of them in the bitmask
    ``banned[i]``. Cards beyond the slots stay undealt (set aside).

    The pool is shuffled and the most constrained slots take their cards first (the first
    allowed cards of the shuffled pool), so every world is consistent; unconstrained slots are
    dealt uniformly. If a shuffle leaves a slot short it is retried; after
    :data:`DEAL_TRIES` shuffles the constrained slots are filled by a bipartite matching
    (cards to places, in random order), which finds a deal whenever one exists; if none does,
    :class:`Unsatisfiable` is raised.
    """
    if sum(sizes) > len(pool):
        raise Unsatisfiable(f"{len(pool)} unseen cards for {sum(sizes)} hidden places")
    order = sorted(range(len(sizes)),
                   key=lambda i: -sum(1 for c in pool if banned[i] >> c & 1) if banned[i] else 0)
    cards = list(pool)
    for _ in range(DEAL_TRIES):
        rng.shuffle(cards)
        out = _greedy(cards, sizes, banned, order)
        if out is not None:
            return out
    return _matched(cards, sizes, banned, rng)


def _greedy(cards: list[int], sizes: Sequence[int], banned: Sequence[int],
            order: list[int]) -> list[list[int]] | None:
    left = cards
    out: list[list[int]] = [[] for _ in sizes]
    for i in order:
        need = sizes[i]
        if not need:
            continue
        ban = banned[i]
        if not ban:
            out[i], left = left[:need], left[need:]
            continue
        took: list[int] = []
        rest: list[int] = []
        for c in left:
            if len(took) < need and not ban >> c & 1:
                took.append(c)
            else:
                rest.append(c)
        if len(took) < need:
            return None
        out[i], left = took, rest
    return out


def _matched(cards: list[int], sizes: Sequence[int], banned: Sequence[int],
             rng: random.Random) -> list[list[int]]:
    """Fill the constrained slots by augmenting paths (Kuhn's algorithm), then deal the rest
    of the shuffled pool to the unconstrained slots."""
    places = [i for i in range(len(sizes)) if banned[i] for _ in range(sizes[i])]
    rng.shuffle(places)
    owner: dict[int, int] = {}  # card -> place index

    def augment(p: int, seen: set[int]) -> bool:
        ban = banned[places[p]]
        for c in cards:
            if ban >> c & 1 or c in seen:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = p
                return True
        return False

    for p in range(len(places)):
        if not augment(p, set()):
            raise Unsatisfiable(f"no deal of {len(cards)} unseen cards respects every known "
                                f"void (slot sizes {list(sizes)})")
    out: list[list[int]] = [[] for _ in sizes]
    for c, p in owner.items():
        out[places[p]].append(c)
    left = [c for c in cards if c not in owner]
    for i in range(len(sizes)):
        if not banned[i] and sizes[i]:
            out[i], left = left[:sizes[i]], left[sizes[i]:]
    if any(len(out[i]) != sizes[i] for i in range(len(sizes))):
        raise Unsatisfiable(f"{len(cards)} unseen cards for slot sizes {list(sizes)}")
    return out


def mask(cards: Sequence[int]) -> int:
    """The bitmask of ``cards`` (card ``c`` is bit ``c``)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


__all__ = ["DEAL_TRIES", "Sampler", "Unsatisfiable", "deal_slots", "mask"]
