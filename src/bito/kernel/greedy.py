"""Greedy playouts in the kernel: the search bots' rollout policy, compiled.

The search bot judges a move by finishing many possible worlds with the *greedy* policy of
:mod:`bito.bots.rollouts` (cheapest rank led, cheap cards thrown in, cheapest cover, transfer
when it is cheaper). In pure Python one such playout costs about a millisecond, which is what
limits how many worlds a decision can look at. Here the same policy runs on the kernel's
position arrays: the move it picks is the one :func:`bito.bots.rollouts.greedy_move` picks,
decision for decision (``tests/engine/test_kernel_greedy.py`` plays both with no randomness and
compares), so a search gets several times more worlds in the same time and judges them by the
same standard.

The randomness differs: the epsilon choices and random moves come from the kernel's own
generator (:func:`~bito.kernel.core.next_below`), not from Python's ``random``.

Card worths (how many cards a card covers) come from the reference engine's beat table
(:class:`bito.bots.rollouts.CardWorth`), as an int64 array over the kernel's card indices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bito.kernel.core import (
    legal_actions,
    next_below,
    popcount,
    ptr_of,
    restore,
    seed_state,
    step,
)
from bito.kernel.layout import (
    ATTACK_KIND,
    DEFEND_KIND,
    DEFEND_PHASE,
    FAILED,
    LEAD_PHASE,
    LOSER,
    N_STOCK,
    OVER_PHASE,
    PHASE,
    PLAYERS,
    RESULT,
    TRANSFER_KIND,
)

EPSILON_SCALE = 1 << 20
"""Epsilon is compared against a draw below this (``eps * EPSILON_SCALE`` as an integer)."""


@njit(cache=True, inline="always")
def _card(mask):  # type: ignore[no-untyped-def]
    """The index of a one-card set."""
    return popcount((mask & -mask) - 1)


@njit(cache=True)
def greedy_choice(s, masks, metas, k, worth, lim_stock, lim_empty):  # type: ignore[no-untyped-def]
    """``rollouts.greedy_move``: the index of the greedy move among the ``k`` legal ones (ties
    go to the lower set of cards, as there)."""
    ph = s[PHASE]
    if ph == LEAD_PHASE:
        best = 0
        best_cost = 1e300
        for i in range(k):
            m = masks[i]
            n = 0
            total = 0
            while m:
                low = m & -m
                total += worth[_card(low)]
                n += 1
                m ^= low
            # a lead from the stock (#40) is played blind: last of all, as there
            cost = total / n - 2.0 * (n - 1) if n else float(1 << 20)
            if cost < best_cost or (cost == best_cost and masks[i] < masks[best]):
                best = i
                best_cost = cost
        return best
    if ph == DEFEND_PHASE:
        cover = -1
        cover_w = 0
        target = -2
        move = -1
        move_w = 0
        for i in range(k):
            kind = metas[i] & 7
            if kind == DEFEND_KIND:
                t = metas[i] >> 3
                if target == -2:
                    target = t
                if t == target:
                    w = worth[_card(masks[i])]
                    if cover < 0 or w < cover_w or (w == cover_w and masks[i] < masks[cover]):
                        cover = i
                        cover_w = w
            elif kind == TRANSFER_KIND:
                w = worth[_card(masks[i])]
                if move < 0 or w < move_w or (w == move_w and masks[i] < masks[move]):
                    move = i
                    move_w = w
        if move >= 0 and (cover < 0 or move_w <= cover_w):
            return move
        if cover >= 0:
            return cover
        return k - 1  # take
    # throw in: cards low to high, then pass
    best = -1
    best_w = 0
    for i in range(k):
        if metas[i] & 7 == ATTACK_KIND:
            w = worth[_card(masks[i])]
            if best < 0 or w < best_w or (w == best_w and masks[i] < masks[best]):
                best = i
                best_w = w
    if best < 0:
        return k - 1
    limit = lim_stock if s[N_STOCK] > 0 else lim_empty
    if best_w <= limit:
        return best
    return k - 1


@njit(cache=True)
def greedy_playout(s, masks, metas, max_steps, rng, worth, lim_stock, lim_empty,
                   eps):  # type: ignore[no-untyped-def]
    """``rollouts.greedy_playout`` on a kernel position: the greedy move, or with probability
    ``eps / EPSILON_SCALE`` a uniformly random legal one. Returns the actions played, or -1
    (past ``max_steps``, or a running game without a legal action)."""
    steps = 0
    while s[PHASE] != OVER_PHASE:
        if steps >= max_steps:
            return -1
        if not greedy_step(s, masks, metas, rng, worth, lim_stock, lim_empty, eps):
            return -1
        steps += 1
    return steps


@njit(cache=True, inline="always")
def greedy_step(s, masks, metas, rng, worth, lim_stock, lim_empty, eps):  # type: ignore[no-untyped-def]
    """One action of :func:`greedy_playout` (shared with the two-deck playouts of
    :mod:`bito.kernel.two_decks`, which look at the discard between actions). False when a
    running game has no legal action (a kernel bug, reported as a failed playout)."""
    k = legal_actions(s, masks, metas)
    if k == 0:
        return False
    if k == 1:
        r = 0
    elif next_below(rng, EPSILON_SCALE) < eps:
        r = next_below(rng, k)
    else:
        r = greedy_choice(s, masks, metas, k, worth, lim_stock, lim_empty)
    step(s, masks[r], metas[r])
    return True


@njit(cache=True)
def greedy_move_values(world, move_masks, move_metas, seed, worth, lim_stock, lim_empty, eps,
                       seat, max_steps, totals):  # type: ignore[no-untyped-def]
    """Play each of the ``len(move_masks)`` moves in ``world`` and finish the game greedily,
    every move from the same random stream (so the moves are compared on equal terms); add
    each move's score for ``seat`` to ``totals`` (1 not the fool, ½ a two-player draw or a
    failed playout, 0 the fool). Returns the actions played in all."""
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    rng = np.empty(1, np.uint64)
    s = world.copy()
    p = ptr_of(s)
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    total = 0
    for i in range(move_masks.size):
        restore(s, world)
        seed_state(rng, seed)
        step(p, move_masks[i], move_metas[i])
        steps = greedy_playout(p, mp, tp, max_steps, rng, worth, lim_stock, lim_empty, eps)
        if steps >= 0 and s[RESULT] != FAILED:
            total += steps
        totals[i] += playout_score(s, steps, seat)
    return total


@njit(cache=True, inline="always")
def playout_score(s, steps, seat):  # type: ignore[no-untyped-def]
    """A finished playout's score for ``seat`` (``rollouts.seat_score``): 1 not the fool, ½ a
    two-player draw or a failed playout (``steps`` < 0, or no room for the openings), 0 the
    fool."""
    if steps < 0 or s[RESULT] == FAILED:
        return 0.5
    if s[LOSER] == seat:
        return 0.0
    if s[RESULT] == 2 and s[PLAYERS] == 2:
        return 0.5
    return 1.0


@njit(cache=True)
def greedy_losers(start, count, seed, worth, lim_stock, lim_empty, eps, max_steps,
                  losers):  # type: ignore[no-untyped-def]
    """``count`` greedy playouts from ``start`` (one random stream); each fool's seat (-1 a
    draw, -2 a failed game) goes to ``losers``. Returns the actions played."""
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    rng = np.empty(1, np.uint64)
    seed_state(rng, seed)
    s = start.copy()
    p = ptr_of(s)
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    total = 0
    for g in range(count):
        restore(s, start)
        steps = greedy_playout(p, mp, tp, max_steps, rng, worth, lim_stock, lim_empty, eps)
        if steps < 0 or s[RESULT] == FAILED:
            losers[g] = -2
        else:
            total += steps
            losers[g] = s[LOSER]
    return total
