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
    ATTACK,
    ATTACK_KIND,
    BEATS,
    DEFENCE,
    DEFEND_KIND,
    DEFEND_PHASE,
    DEFENDER,
    FAILED,
    GIVE_PHASE,
    HAND_SIZE,
    HANDS,
    LEAD_PHASE,
    LOSER,
    N_ATTACK,
    N_STOCK,
    OVER_PHASE,
    PASS_KIND,
    PHASE,
    PLAYERS,
    RANK_SETS,
    RESULT,
    TAKING,
    TO_ACT,
    TRANSFER,
    TRANSFER_KIND,
)

EPSILON_SCALE = 1 << 20
"""Epsilon is compared against a draw below this (``eps * EPSILON_SCALE`` as an integer)."""

# The heuristic's data (``rollouts.CardWorth.kernel_defence``): card values at [0, 64),
# card flags at [64, 128), then its thresholds and bonuses.
FLAGS_AT = _FLAGS = 64
"""Where the card flags start in the heuristic's data (``dv``)."""
LARGE_STOCK_AT = _LARGE_STOCK = 128
"""Where ``dv`` keeps the stock size from which the heuristic may rather take (a two-deck
start, whose stock is short, lowers it by the cards it hides)."""
_CHEAP_TAKE = 129
_MAX_HAND = 130
_CHEAP_THROW, _CHEAP_GIFT, _PAIR_BONUS, _UNBEATABLE, _TRUMP_BONUS = 131, 132, 133, 134, 135
_TRUMP, _HIGH, _LOW = 1, 2, 4  # rollouts.TRUMP_FLAG, HIGH_TRUMP_FLAG, LOW_TRUMP_FLAG
SCRATCH_SIZE = 6 * 66
"""Room :func:`heuristic_defence` works in: six rows of up to 65 entries."""


@njit(cache=True, inline="always")
def _card(mask):  # type: ignore[no-untyped-def]
    """The index of a one-card set."""
    return popcount((mask & -mask) - 1)


@njit(cache=True)
def greedy_choice(s, masks, metas, k, worth, lim_stock, lim_empty):  # type: ignore[no-untyped-def]
    """``rollouts.greedy_move``: the index of the greedy move among the ``k`` legal ones (ties
    go to the lower set of cards, as there)."""
    ph = s[PHASE]
    if ph == GIVE_PHASE:
        return k - 1  # a joker's gift (#24): the last move listed, as ``greedy_move`` takes
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
def heuristic_defence(s, masks, metas, k, dv, scratch):  # type: ignore[no-untyped-def]
    """``rollouts.heuristic_defence``: the index of the heuristic's defence among the ``k``
    legal ones (``dv`` its card data, ``scratch`` room for the cover search)."""
    hand = s[HANDS + s[DEFENDER]]
    na = s[N_ATTACK]
    # the uncovered cards, dearest first (stable: play order among equals)
    n = 0
    order = scratch[0:66]
    for i in range(na):
        if s[DEFENCE + i] == -1:
            a = s[ATTACK + i]
            j = n
            while j > 0 and dv[order[j - 1]] < dv[a]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = a
            n += 1
    # the cheapest plan, depth first like HeuristicBot.cover_plan (cheapest cover first)
    cur = scratch[66:132]
    tried = scratch[132:198]
    used = scratch[198:264]
    cost = scratch[264:330]
    best = scratch[330:396]
    best_cost = 1 << 30
    found = False
    budget = 400  # heuristic.COVER_SEARCH_NODES
    i = 0 if n > 0 else -1  # (no uncovered card: no plan)
    used[0] = 0
    cost[0] = 0
    entering = True
    while i >= 0:
        if entering:
            entering = False
            if cost[i] >= best_cost or budget <= 0:
                i -= 1
                continue
            budget -= 1
            if i == n:
                for j in range(n):
                    best[j] = cur[j]
                best_cost = cost[i]
                found = True
                i -= 1
                continue
            tried[i] = 0
        opts = hand & s[BEATS + order[i]] & ~used[i] & ~tried[i]
        if opts == 0:
            i -= 1
            continue
        d = -1
        m = opts
        while m:
            low = m & -m
            c = _card(low)
            if d < 0 or dv[c] < dv[d]:
                d = c
            m ^= low
        tried[i] |= 1 << d
        cur[i] = d
        used[i + 1] = used[i] | (1 << d)
        cost[i + 1] = cost[i] + dv[d]
        i += 1
        entering = True
    trumps = 0
    high = 0
    if found:
        for j in range(n):
            f = dv[_FLAGS + best[j]]
            if f & _TRUMP:
                trumps += 1
            if f & _HIGH:
                high += 1
    # early on, take cheap plain cards rather than spend a high trump or two trumps
    rather_take = False
    if found and s[N_STOCK] >= dv[_LARGE_STOCK] and (high > 0 or trumps >= 2):
        cheap = True
        count = 0
        for j in range(na):
            a = s[ATTACK + j]
            count += 1
            if dv[_FLAGS + a] & _TRUMP or dv[a] > dv[_CHEAP_TAKE]:
                cheap = False
            d = s[DEFENCE + j]
            if d != -1:
                count += 1
                if dv[_FLAGS + d] & _TRUMP or dv[d] > dv[_CHEAP_TAKE]:
                    cheap = False
        rather_take = cheap and popcount(hand) + count <= dv[_MAX_HAND]
    move = -1
    move_v = 0
    for j in range(k):
        if metas[j] & 7 == TRANSFER_KIND and masks[j] != 0:
            v = dv[_card(masks[j])]
            if move < 0 or v < move_v or (v == move_v and masks[j] < masks[move]):
                move = j
                move_v = v
    if move >= 0:
        f = dv[_FLAGS + _card(masks[move])]
        if f & _TRUMP == 0:
            if not (found and s[N_STOCK] == 0 and trumps == 0):
                return move
        elif (not found or rather_take) and f & _LOW:
            return move
    if not found or rather_take:
        return k - 1  # take
    want = 1 << best[0]
    meta = DEFEND_KIND | ((order[0] + 1) << 3)
    for j in range(k):
        if masks[j] == want and metas[j] == meta:
            return j
    return k - 1


@njit(cache=True)
def _cannot_beat(s, defender, m, transfer):  # type: ignore[no-untyped-def]
    """``rollouts._cannot_beat``: some card of ``m`` has no cover in the hand ``defender``
    (and, leading with transfers on, he holds no card of their ranks)."""
    if transfer:
        x = m
        while x:
            low = x & -x
            if defender & s[RANK_SETS + _card(low)]:
                return False
            x ^= low
    x = m
    while x:
        low = x & -x
        if defender & s[BEATS + _card(low)] == 0:
            return True
        x ^= low
    return False


@njit(cache=True)
def heuristic_attack(s, masks, metas, k, dv, worth, lim_stock,
                     lim_empty):  # type: ignore[no-untyped-def]
    """``rollouts.heuristic_attack``: the index of the heuristic's lead or throw-in among the
    ``k`` legal moves (``dv`` its card data; moves of other kinds go to
    :func:`greedy_choice`)."""
    lead = s[PHASE] == LEAD_PHASE
    hand = s[HANDS + s[TO_ACT]]
    nh = popcount(hand)
    endgame = s[N_STOCK] == 0
    taking = s[TAKING] != 0
    defender = s[HANDS + s[DEFENDER]]
    transfer = lead and s[TRANSFER] != 0
    best = -1
    best_cost = 0
    for i in range(k):
        kind = metas[i] & 7
        m = masks[i]
        if kind != ATTACK_KIND or m == 0:
            if lead or kind != PASS_KIND:
                return greedy_choice(s, masks, metas, k, worth, lim_stock, lim_empty)
            continue
        first = _card(m)
        if not lead:  # HeuristicBot._worth_throwing
            if dv[_FLAGS + first] & _TRUMP == 0:
                limit = dv[_CHEAP_GIFT] if taking else dv[_CHEAP_THROW]
                if not endgame and dv[first] > limit:
                    continue
            elif not endgame or not (nh == 1 or (
                    not taking and _cannot_beat(s, defender, 1 << first, False))):
                continue
        cost = -(1 << 30)
        trumps = 0
        n = 0
        x = m
        while x:
            low = x & -x
            c = _card(low)
            if dv[c] > cost:
                cost = dv[c]
            if dv[_FLAGS + c] & _TRUMP:
                trumps += 1
            n += 1
            x ^= low
        if trumps == 0:
            cost -= dv[_PAIR_BONUS] * (n - 1)
        elif n != nh:
            cost += dv[_TRUMP_BONUS] * (trumps - 1)
        if endgame and (trumps == 0 or n == nh) and _cannot_beat(s, defender, m, transfer):
            cost -= dv[_UNBEATABLE]
        if best < 0 or cost < best_cost or (cost == best_cost and m < masks[best]):
            best = i
            best_cost = cost
    if best < 0:
        return k - 1  # pass
    return best


@njit(cache=True)
def greedy_playout(s, masks, metas, max_steps, rng, worth, lim_stock, lim_empty,
                   eps, dv, careful, shrewd, scratch):  # type: ignore[no-untyped-def]
    """``rollouts.greedy_playout`` on a kernel position: the greedy move, or with probability
    ``eps / EPSILON_SCALE`` a uniformly random legal one; the seats in the bitmask ``careful``
    defend as the heuristic does (:func:`heuristic_defence`, reading ``dv``), those in
    ``shrewd`` lead and throw in as it does (:func:`heuristic_attack`). Returns the
    actions played, or -1 (past ``max_steps``, or a running game without a legal action)."""
    steps = 0
    while s[PHASE] != OVER_PHASE:
        if steps >= max_steps:
            return -1
        if not greedy_step(s, masks, metas, rng, worth, lim_stock, lim_empty, eps, dv, careful,
                           shrewd, scratch):
            return -1
        steps += 1
    return steps


@njit(cache=True, inline="always")
def greedy_step(s, masks, metas, rng, worth, lim_stock, lim_empty, eps, dv, careful, shrewd,
                scratch):  # type: ignore[no-untyped-def]
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
    elif careful != 0 and s[PHASE] == DEFEND_PHASE and (careful >> s[DEFENDER]) & 1:
        r = heuristic_defence(s, masks, metas, k, dv, scratch)
    elif shrewd != 0 and s[PHASE] != DEFEND_PHASE and (shrewd >> s[TO_ACT]) & 1:
        r = heuristic_attack(s, masks, metas, k, dv, worth, lim_stock, lim_empty)
    else:
        r = greedy_choice(s, masks, metas, k, worth, lim_stock, lim_empty)
    step(s, masks[r], metas[r])
    return True


@njit(cache=True)
def greedy_move_values(world, move_masks, move_metas, seed, worth, lim_stock, lim_empty, eps,
                       seat, max_steps, totals, dv, careful, shrewd,
                       margin):  # type: ignore[no-untyped-def]
    """Play each of the ``len(move_masks)`` moves in ``world`` and finish the game greedily,
    every move from the same random stream (so the moves are compared on equal terms); add
    each move's score for ``seat`` to ``totals`` (1 not the fool, ½ a two-player draw or a
    failed playout, 0 the fool). The seats in ``careful`` defend, those in ``shrewd`` attack,
    as the heuristic does (``dv``: ``rollouts.CardWorth.kernel_defence``); ``margin``, as in
    ``rollouts.greedy_scores``, counts the cards the fool is left with. Returns the actions
    played in all."""
    scratch = np.empty(SCRATCH_SIZE, np.int64)
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
        steps = greedy_playout(p, mp, tp, max_steps, rng, worth, lim_stock, lim_empty, eps,
                               dv, careful, shrewd, scratch)
        if steps >= 0 and s[RESULT] != FAILED:
            total += steps
        totals[i] += playout_score(s, steps, seat, margin)
    return total


@njit(cache=True, inline="always")
def playout_score(s, steps, seat, margin):  # type: ignore[no-untyped-def]
    """A finished playout's score for ``seat`` (``rollouts.seat_score``): 1 not the fool, ½ a
    two-player draw or a failed playout (``steps`` < 0, or no room for the openings), 0 the
    fool; a ``margin`` above 0 moves a win up and a loss down by that share of a point per
    card the fool keeps, up to a hand's worth (``rollouts.greedy_scores``)."""
    if steps < 0 or s[RESULT] == FAILED:
        return 0.5
    loser = s[LOSER]
    share = 0.0
    if margin != 0.0 and loser >= 0:
        held = min(popcount(s[HANDS + loser]), s[HAND_SIZE])
        share = margin * held / s[HAND_SIZE]
    if loser == seat:
        return -share
    if s[RESULT] == 2 and s[PLAYERS] == 2:
        return 0.5
    return 1.0 + share


@njit(cache=True)
def greedy_losers(start, count, seed, worth, lim_stock, lim_empty, eps, max_steps,
                  losers, dv=None, careful=0, shrewd=0):  # type: ignore[no-untyped-def]
    """``count`` greedy playouts from ``start`` (one random stream); each fool's seat (-1 a
    draw, -2 a failed game) goes to ``losers``. Returns the actions played. The seats in
    ``careful`` defend, those in ``shrewd`` attack, as the heuristic does (``dv`` its
    data)."""
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    data = np.zeros(136, np.int64) if dv is None else dv
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
        # careful and shrewd as int64 values: the search's own compilation of the playout,
        # not one more for the defaults' constants
        steps = greedy_playout(p, mp, tp, max_steps, rng, worth, lim_stock, lim_empty, eps,
                               data, np.int64(careful), np.int64(shrewd), scratch)
        if steps < 0 or s[RESULT] == FAILED:
            losers[g] = -2
        else:
            total += steps
            losers[g] = s[LOSER]
    return total
