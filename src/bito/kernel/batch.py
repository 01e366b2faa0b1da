"""Many random playouts in one compiled call: the entry points that search and benchmarks use.

Every position plays in the one compiled loop, :func:`~bito.kernel.core.playout`. Positions
and buffers are handed to the loop as raw pointers (see
:func:`~bito.kernel.core.ptr_of`). Each entry point takes ``facts``: None reads every rule
fact from the position array, a :class:`~bito.kernel.frozen.RuleFacts` of the same array
compiles the loop once more with those facts as constants (:mod:`bito.kernel.frozen`:
faster, at a one-time compilation per rule set that numba keeps on disk).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bito.kernel.core import deal, playout, ptr_of, restore, seed_state
from bito.kernel.frozen import frozen_ptr
from bito.kernel.layout import HANDS, LOSER, RESULT


@njit(cache=True)
def playouts_from(start, facts, count, seed, losers, max_steps):  # type: ignore[no-untyped-def]
    """``count`` random playouts from the position ``start``; each fool's seat (-1 for a draw,
    -2 for a failed game) goes to ``losers``. Returns the actions played."""
    np.random.seed(seed)
    rng = np.empty(1, np.uint64)
    seed_state(rng, seed)
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    s = start.copy()
    p = frozen_ptr(s, facts)
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    total = 0
    for g in range(count):
        restore(s, start)
        steps = playout(p, mp, tp, max_steps, rng)
        if steps < 0 or s[RESULT] == 3:
            losers[g] = -2
        else:
            total += steps
            losers[g] = s[LOSER]
    return total


@njit(cache=True)
def dealt(template, pack, seed):  # type: ignore[no-untyped-def]
    """The position :func:`deal` makes from the rule facts in ``template`` with the
    generators seeded as :func:`full_games` seeds them (the kernel's own deal, for tests)."""
    np.random.seed(seed)
    rng = np.empty(1, np.uint64)
    seed_state(rng, seed)
    work = np.empty(pack.size, np.int64)
    s = template.copy()
    deal(ptr_of(s), pack, work, rng)
    return s


@njit(cache=True)
def full_games(template, facts, pack, count, seed, losers, max_steps):  # type: ignore[no-untyped-def]
    """``count`` whole random games, each dealt by :func:`deal` from the rule facts in
    ``template``; like :func:`playouts_from` otherwise."""
    np.random.seed(seed)
    rng = np.empty(1, np.uint64)
    seed_state(rng, seed)
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    work = np.empty(pack.size, np.int64)
    s = template.copy()
    p = frozen_ptr(s, facts)
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    total = 0
    for g in range(count):
        # The rule facts and the changing facts; the deal writes every hand and the stock, and
        # the areas behind them are only read up to counts that start at zero. (A plain loop:
        # numba's slice assignment is four times slower.)
        for j in range(HANDS):
            s[j] = template[j]
        deal(p, pack, work, rng)
        steps = playout(p, mp, tp, max_steps, rng)
        if steps < 0 or s[RESULT] == 3:
            losers[g] = -2
        else:
            total += steps
            losers[g] = s[LOSER]
    return total
