"""The compiled state machine: the reference engine's rules, step for step, on one int64 array.

Every function here mirrors a method of :class:`bito.games.durak.state.DurakState` (named in
its docstring) for the base games of VARIANTS.md §1, and must stay in step with it: the
differential tests (``tests/test_kernel*.py``, ``bito bench --verify``) compare the two move by
move. The layout of the array is :mod:`bito.kernel.layout`.

An action is two integers: the set of its cards (``mask``) and ``meta = kind | (target + 1)
<< 3``, ``target`` being the covered card of a defence (-1 otherwise). Move generators write
actions into two caller-owned buffers and return how many they wrote.

Compiled with numba (``cache=True``: the machine code is kept on disk, so only the first import
after an install pays for compilation). The playouts' random choices and the shuffle come from
a small xorshift generator of our own (:func:`next_below`), seeded by the entry points, so the
same seed replays the same games everywhere; numba's generator, a tenth as fast, is left for
the rare random facts of a deal (a buried trump card, a first attacker by lot).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

import bito.kernel.freshness  # noqa: F401  (a cache compiled from older sources goes first)
from bito.kernel.layout import (
    ANY_TIME,
    ATTACK,
    ATTACK_KIND,
    ATTACKER,
    BEATS,
    BLOCK_META,
    BLOCK_OK,
    BOOKS,
    BOUT,
    CAP,
    CLOSED,
    CLOSES,
    CLOSING,
    DEFENCE,
    DEFEND_KIND,
    DEFEND_PHASE,
    DEFENDER,
    DESCENDING,
    DISCARD,
    DRAW_ALLOWED,
    DRAW_EMPTY,
    DRAW_RULE,
    EPAULETTES,
    EXCHANGE,
    FIGURE_CARDS,
    FIGURES,
    FIRST_CAP,
    FIXED_SOURCE,
    FIXED_SUIT,
    GIFT_BLOCK,
    GIFT_LEFT,
    GIFT_ON_COVER,
    GIFTS,
    GIVE_META,
    GIVE_PHASE,
    GIVER,
    GIVER_TRANSFERRER,
    HAND_SIZE,
    HANDS,
    HEAD,
    IDLE,
    IDLE_LIMIT,
    INSTANT_LOSS,
    JOKER_ROWS,
    JOKERS,
    LEAD_MAX,
    LEAD_MOST,
    LEAD_PHASE,
    LEADER,
    LEFT_OF_DEALER,
    LOSER,
    LOT_FALLBACK,
    LOW_RANK,
    MATCH_ALL,
    MAX_ACTIONS,
    MAX_SEEN,
    N_ATTACK,
    N_OUT,
    N_SEEN,
    N_STOCK,
    N_THROWERS,
    NEIGHBOURS,
    NO_FIRST_TRANSFER,
    NO_TRUMP_ROW,
    NO_TRUMP_TRANSFER,
    NONE_SOURCE,
    ONLY_NEW,
    OUT,
    OUT_MASK,
    OVER_PHASE,
    PAIR_BIT,
    PAIR_ONE_BIT,
    PARTIAL,
    PASS_KIND,
    PASS_LEAD,
    PASSES,
    PATTERN_LEADS,
    PHASE,
    PLAYED,
    PLAYERS,
    POINTS,
    PROGRESSIVE,
    PROGRESSIVE_CAP,
    QUADS_BIT,
    QUADS_ONE_BIT,
    RANK_OF,
    RANK_SETS,
    RECEIVER,
    RED_JOKERS,
    REFUSAL,
    REJECTED,
    REMOVE_STOCK,
    REPETITION,
    RESERVE,
    RESERVE_SIZE,
    RESULT,
    RESUME_PHASE,
    RESUME_TO_ACT,
    REVEALED,
    ROW_TRUMPS,
    ROZALIEV,
    SCORE_FIGURES,
    SCORE_POINTS,
    SEARCH_INDICATOR,
    SECOND_TRY,
    SECRET,
    SECRET_DRAWABLE,
    SECRET_SECOND,
    SEEN,
    SEQ,
    SHOW_KIND,
    SHOW_TRUMP,
    SHOWN,
    SINGLE_BIT,
    SIX_CARDS,
    SIXES,
    STOCK,
    STOCK_KIND,
    STOCK_LEAD,
    STOCK_ONCE,
    STOCK_PLAYS,
    STOCK_REFILL,
    STOCK_SEEN,
    STOCK_THROW,
    STRONGEST,
    SUIT_LEADS,
    SUIT_OF,
    SUITED,
    SWAP_META,
    SWAP_SIX,
    T_IDX,
    TABLE,
    TABLE_RANKS,
    TAKE_KIND,
    TAKE_SKIP,
    TAKING,
    TEAM_ATTACK,
    TEAM_OF,
    TEAM_PROXY,
    TEAM_THROW,
    TEAMS,
    THREE_ANY_BIT,
    THROW_GROUPS,
    THROW_IN,
    THROW_PHASE,
    THROWERS,
    TO_ACT,
    TRANSFER,
    TRANSFER_KIND,
    TRIED,
    TRIPS_BIT,
    TRUMP,
    TRUMP_CARD,
    TRUMP_ROWS,
    TRUMP_SET,
    TRUMP_SOURCE,
    TRY_KIND,
    TWIN_BLOCK,
    TWO_PAIRS_BIT,
    UNCAPPED,
    UNCOVERED,
    WHOLE_PACK,
    WHOLE_RANK,
)

_BIG = 1 << 30
_GROUP_MAX = 8


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Cards in a set (the CPU's population count)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def ptr_of(typingctx, arr):  # type: ignore[no-untyped-def]
    """The data pointer of an int64 array. The state machine passes positions and action
    buffers as raw pointers: an array argument costs two atomic reference-count updates per
    call, a fifth of the running time when every helper takes one. The entry points below
    hold the arrays, so the memory stays alive while the pointers are in use."""
    sig = types.CPointer(types.int64)(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@njit(cache=True, inline="always")
def low_card(m):  # type: ignore[no-untyped-def]
    """The lowest card code of a non-empty set."""
    return trailing_zeros(m)


@njit(cache=True, inline="always")
def rank_set(s, c):  # type: ignore[no-untyped-def]
    """Every card that counts as the rank of ``c`` (``cards.MATCH_MASKS``, read as data from
    ``layout.RANK_SETS``: a joker's "rank" is the jokers)."""
    return s[RANK_SETS + c]


@njit(cache=True, inline="always")
def beaters(s, a):  # type: ignore[no-untyped-def]
    """The cards that cover ``a``: the deal's beat table (VARIANTS.md §1.2 and the variants
    that change what beats what, read as data; see ``layout.BEATS``)."""
    return s[BEATS + a]


@njit(cache=True, inline="always")
def cap_now(s):  # type: ignore[no-untyped-def]
    """``DurakState.bout_cap``: the bout's cap under #75 and #76."""
    cap = s[CAP]
    if s[FIRST_CAP] != 0 and s[BOUT] == 0 and s[TAKING] == 0:
        cap = s[FIRST_CAP]
    if s[UNCAPPED] != 0 and s[N_STOCK] == 0:
        cap = _BIG
    return cap


@njit(cache=True, inline="always")
def room(s):  # type: ignore[no-untyped-def]
    """``DurakState.room``: more attack cards the bout can take now."""
    by_cap = cap_now(s) - s[N_ATTACK]
    by_hand = popcount(s[HANDS + s[DEFENDER]]) - s[UNCOVERED]
    return by_cap if by_cap < by_hand else by_hand


@njit(cache=True, inline="always")
def next_active(s, seat):  # type: ignore[no-untyped-def]
    """``DurakState.next_active``."""
    n = s[PLAYERS]
    out = s[OUT_MASK]
    t = (seat + 1) % n
    while (out >> t) & 1 and t != seat:
        t = (t + 1) % n
    return t


# --- randomness --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def seed_state(rng, seed):  # type: ignore[no-untyped-def]
    """Seed the generator ``rng`` (a one-element uint64 array) with splitmix64 of ``seed``, so
    that nearby seeds start far apart and the state is never zero."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    rng[0] = z if z != 0 else np.uint64(1)


@njit(cache=True, inline="always")
def next_below(rng, k):  # type: ignore[no-untyped-def]
    """A random integer in ``[0, k)``: xorshift64* and a multiply-shift to the range (Lemire).

    Random playouts make one choice per action, so the generator is a large share of their
    cost: this one takes about 2 ns where ``np.random.randint`` takes 20. The range's bias is
    below ``k / 2**32`` (under 2e-6 for the largest action lists), far below what playouts
    can notice."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
    return np.int64((r * np.uint64(k)) >> np.uint64(32))


# --- move generation -----------------------------------------------------------------------


@njit(cache=True, inline="always")
def _emit(masks, metas, k, mask, meta):  # type: ignore[no-untyped-def]
    masks[k] = mask
    metas[k] = meta
    return k + 1


@njit(cache=True, inline="always")
def _emit_groups(s, masks, metas, k, hand, most):  # type: ignore[no-untyped-def]
    """Every set of one rank's cards in ``hand`` of at most ``most`` cards, as attacks: a
    lead of several cards (#1's pairs and more) and #29's group throw-ins alike."""
    m = hand
    while m:
        group = hand & rank_set(s, low_card(m))
        m &= ~group
        sub = group
        while sub:
            if popcount(sub) <= most:
                k = _emit(masks, metas, k, sub, ATTACK_KIND)
            sub = (sub - 1) & group
    return k


@njit(cache=True)
def _suit_leads(s, masks, metas, k, hand, limit):  # type: ignore[no-untyped-def]
    """``suit_leads.suit_leads`` (#73): every set of 1 to ``limit`` cards of one suit, and a
    card without a suit alone. (A hand of forty cards of three suits would list more leads
    than the buffers hold: the list stops at their end rather than write past it.)"""
    for suit in range(4):
        group = cards_where(s, hand, SUIT_OF, suit)
        sub = group
        while sub:
            if popcount(sub) <= limit and k < MAX_ACTIONS - 1:
                k = _emit(masks, metas, k, sub, ATTACK_KIND)
            sub = (sub - 1) & group
    m = hand & ~s[SUITED]
    while m:
        low = m & -m
        k = _emit(masks, metas, k, low, ATTACK_KIND)
        m ^= low
    return k


@njit(cache=True)
def _emit_combinations(masks, metas, k, hand, size, meta):  # type: ignore[no-untyped-def]
    """Every set of ``size`` cards (1 to 3) of ``hand``, as moves of ``meta`` (in the order
    of ``itertools.combinations`` over the cards low to high)."""
    ma = hand
    while ma:
        a = ma & -ma
        ma ^= a
        if size == 1:
            k = _emit(masks, metas, k, a, meta)
            continue
        mb = ma
        while mb:
            b = mb & -mb
            mb ^= b
            if size == 2:
                k = _emit(masks, metas, k, a | b, meta)
                continue
            mc = mb
            while mc:
                c = mc & -mc
                mc ^= c
                k = _emit(masks, metas, k, a | b | c, meta)
    return k


@njit(cache=True, inline="always")
def cards_where(s, hand, table, value):  # type: ignore[no-untyped-def]
    """The cards of ``hand`` whose entry in a per-card table of the array (``RANK_OF``,
    ``SUIT_OF``) is ``value``."""
    out = np.int64(0)
    m = hand
    while m:
        c = low_card(m)
        m &= m - 1
        if s[table + c] == value:
            out |= np.int64(1) << c
    return out


@njit(cache=True, inline="always")
def lead_actions(s, masks, metas):  # type: ignore[no-untyped-def]
    """The leads: ``DurakState._lead_actions``, then the lead rules' filters (#12, #46), and
    under ``lead.shape=patterns`` what a seat without an allowed lead may do."""
    k = shape_leads(s, masks, metas)
    if (s[WHOLE_RANK] != 0 or s[STRONGEST] != 0) and k > 0:
        k = lead_rules(s, masks, metas, k)
    if s[PATTERN_LEADS] != 0:
        k = no_allowed_lead(s, masks, metas, k)
    if s[SWAP_SIX] != 0:
        six = swappable(s)
        if six != 0:  # #97: after the leads, as the reference lists it
            k = _emit(masks, metas, k, six, SWAP_META)
    return k


@njit(cache=True)
def _emit_sized(masks, metas, k, group, size):  # type: ignore[no-untyped-def]
    """Every set of exactly ``size`` cards of ``group`` (one rank's cards), as leads."""
    sub = group
    while sub:
        if popcount(sub) == size:
            k = _emit(masks, metas, k, sub, ATTACK_KIND)
        sub = (sub - 1) & group
    return k


@njit(cache=True)
def _highest(m):  # type: ignore[no-untyped-def]
    """The highest card index of a non-empty set."""
    return 63 - leading_zeros(m)


@njit(cache=True)
def _plus_one(masks, metas, k, hand, group, size):  # type: ignore[no-untyped-def]
    """``pair_plus_one`` (``size`` 2) and ``quads_plus_one`` (4): ``size`` cards of one rank's
    ``group`` and any other card of ``hand``, each set once (a card of the group's rank only
    above the chosen ones, so three of a rank are listed as their lowest two and the
    third)."""
    sub = group
    while sub:
        if popcount(sub) == size:
            me = hand & ~sub
            while me:
                e = low_card(me)
                me &= me - 1
                if not ((group >> e) & 1 and e < _highest(sub)):
                    k = _emit(masks, metas, k, sub | (np.int64(1) << e), ATTACK_KIND)
        sub = (sub - 1) & group
    return k


@njit(cache=True)
def _two_pairs_plus_one(s, masks, metas, k, hand):  # type: ignore[no-untyped-def]
    """``two_pairs_plus_one``: a pair of one rank, a pair of a higher-listed rank and any
    fifth card, each set once (a fifth card of a pair's rank only above that pair, so three of
    a rank are listed as their lowest two and the third). A hand of thirty cards would list
    more than the buffers hold: the list stops at their end rather than write past it."""
    m1 = hand
    while m1:
        g1 = hand & rank_set(s, low_card(m1))
        m1 &= ~g1
        if popcount(g1) < 2:
            continue
        m2 = m1
        while m2:
            g2 = hand & rank_set(s, low_card(m2))
            m2 &= ~g2
            if popcount(g2) < 2:
                continue
            p1s = g1
            while p1s:
                if popcount(p1s) == 2:
                    p2s = g2
                    while p2s:
                        if popcount(p2s) == 2:
                            me = hand & ~(p1s | p2s)
                            while me:
                                e = low_card(me)
                                me &= me - 1
                                if (g1 >> e) & 1 and e < _highest(p1s):
                                    continue
                                if (g2 >> e) & 1 and e < _highest(p2s):
                                    continue
                                if k < MAX_ACTIONS - 2:
                                    k = _emit(masks, metas, k,
                                              p1s | p2s | (np.int64(1) << e), ATTACK_KIND)
                        p2s = (p2s - 1) & g2
                p1s = (p1s - 1) & g1
    return k


@njit(cache=True)
def pattern_leads(s, masks, metas, k, hand, limit):  # type: ignore[no-untyped-def]
    """``leads.pattern_leads``: every lead of ``hand`` of at most ``limit`` cards taking one of
    the shapes of ``lead.patterns`` (the bits of ``layout.PATTERN_LEADS``), each set of cards
    once: where two shapes hold the same sets (three any cards and a pair plus one, a pair
    plus one and three of a kind) only the wider one lists them."""
    bits = s[PATTERN_LEADS]
    any3 = 0
    if bits & THREE_ANY_BIT:
        # #47: any three cards, fewer from a short hand or to a short defender
        any3 = popcount(hand)
        if any3 > 3:
            any3 = 3
        if any3 > limit:
            any3 = limit
        if any3 > 0:
            k = _emit_combinations(masks, metas, k, hand, any3, ATTACK_KIND)
    if bits & SINGLE_BIT and any3 != 1:
        m = hand
        while m:
            low = m & -m
            k = _emit(masks, metas, k, low, ATTACK_KIND)
            m ^= low
    pair_one = bits & PAIR_ONE_BIT != 0 and limit >= 3 and any3 != 3
    m = hand
    while m:
        group = hand & rank_set(s, low_card(m))
        m &= ~group
        size = popcount(group)
        if bits & PAIR_BIT and limit >= 2 and any3 != 2 and size >= 2:
            k = _emit_sized(masks, metas, k, group, 2)
        if bits & TRIPS_BIT and limit >= 3 and any3 != 3 and not pair_one and size >= 3:
            k = _emit_sized(masks, metas, k, group, 3)
        if size >= 4 and bits & QUADS_BIT and limit >= 4:
            k = _emit_sized(masks, metas, k, group, 4)
        if size >= 4 and bits & QUADS_ONE_BIT and limit >= 5:
            k = _plus_one(masks, metas, k, hand, group, 4)
        if pair_one and size >= 2:
            k = _plus_one(masks, metas, k, hand, group, 2)
    if bits & TWO_PAIRS_BIT and limit >= 5:
        k = _two_pairs_plus_one(s, masks, metas, k, hand)
    return k


@njit(cache=True)
def no_allowed_lead(s, masks, metas, k):  # type: ignore[no-untyped-def]
    """``leads.lead_actions`` for a seat none of whose leads takes an allowed shape (``k``
    moves listed, none of them a lead from the hand): under #5 he passes the attack on until
    the lead has gone round every seat with the stock empty (``leads.went_round``); then, or
    without that rule, he may lead any single card (the lead filters still apply)."""
    for i in range(k):
        if metas[i] & 7 == ATTACK_KIND:
            return k
    limit = room(s)
    if limit > s[LEAD_MAX]:
        limit = s[LEAD_MAX]
    if limit <= 0:
        return k
    if s[PASS_LEAD] != 0 and s[PASSES] != s[PLAYERS] + s[BOUT]:
        return _emit(masks, metas, k, 0, PASS_KIND)
    m = s[HANDS + s[TO_ACT]]
    while m:
        low = m & -m
        k = _emit(masks, metas, k, low, ATTACK_KIND)
        m ^= low
    if s[WHOLE_RANK] != 0 or s[STRONGEST] != 0:
        k = lead_rules(s, masks, metas, k)
    return k


@njit(cache=True)
def can_lead(s, seat, masks, metas):  # type: ignore[no-untyped-def]
    """``leads._allowed`` is not empty for ``seat`` leading against his left neighbour in
    play (#5), with ``masks``/``metas`` as scratch; the position is left as it was."""
    to_act = s[TO_ACT]
    defender = s[DEFENDER]
    s[TO_ACT] = seat
    s[DEFENDER] = next_active(s, seat)
    limit = room(s)
    if limit > s[LEAD_MAX]:
        limit = s[LEAD_MAX]
    k = 0
    if limit > 0:
        k = pattern_leads(s, masks, metas, 0, s[HANDS + seat], limit)
        if (s[WHOLE_RANK] != 0 or s[STRONGEST] != 0) and k > 0:
            k = lead_rules(s, masks, metas, k)
    s[TO_ACT] = to_act
    s[DEFENDER] = defender
    return k > 0


@njit(cache=True)
def pass_lead(s):  # type: ignore[no-untyped-def]
    """``leads.pass_lead`` (#5 A1): the attacker cannot lead, so the first seat clockwise
    that can attacks his own left neighbour; if nobody can, everyone in play draws one card
    from the stock, the attacker first, and he tries again; with the stock empty the lead
    has gone round (``PASSES`` holds the mark) and he may lead a single card."""
    s[PASSES] = 0
    a = s[ATTACKER]
    seat = next_active(s, a)
    if seat != a:
        masks = np.empty(MAX_ACTIONS, np.int64)
        metas = np.empty(MAX_ACTIONS, np.int64)
        while seat != a:
            if s[HANDS + seat] != 0 and can_lead(s, seat, masks, metas):
                s[ATTACKER] = seat  # ``DurakState.lead_from``
                s[LEADER] = seat
                s[TO_ACT] = seat
                s[DEFENDER] = next_active(s, seat)
                return
            seat = next_active(s, seat)
    n = s[PLAYERS]
    if s[N_STOCK] == 0:
        s[PASSES] = n + s[BOUT]
        return
    for _ in range(n):
        ns = s[N_STOCK]
        if ns == 0:
            break
        if not (s[OUT_MASK] >> a) & 1:
            s[HANDS + a] |= np.int64(1) << s[STOCK + ns - 1]
            s[N_STOCK] = ns - 1
        a = (a + 1) % n
    s[N_SEEN] = 0  # the stock shrank: no earlier bout opening can come back
    stock_taken(s)


@njit(cache=True)
def swappable(s):  # type: ignore[no-untyped-def]
    """``trump_swap.swappable`` (#97): the lowest trump in the leader's hand, while a trump
    card of a higher rank still lies under a stock of two cards or more, before his lead;
    else 0."""
    trump = s[TRUMP_CARD]
    if trump < 0 or s[SUIT_OF + trump] >= 4 or s[RANK_OF + trump] == s[LOW_RANK]:
        return 0
    if s[N_STOCK] < 2 or s[STOCK] != trump:
        return 0
    if s[TO_ACT] != s[ATTACKER] or s[N_ATTACK] != 0:
        return 0
    hand = s[HANDS + s[TO_ACT]]
    m = hand
    while m:
        c = low_card(m)
        m &= m - 1
        if s[RANK_OF + c] == s[LOW_RANK] and s[SUIT_OF + c] == s[SUIT_OF + trump]:
            return np.int64(1) << c
    return 0


@njit(cache=True)
def strongest_cards(s, hand):  # type: ignore[no-untyped-def]
    """``leads.strongest_cards`` (#46): special cards above trumps above plain cards, then
    the higher rank; every card of the best strength."""
    best = -1
    out = 0
    m = hand
    while m:
        c = low_card(m)
        m &= m - 1
        if not (s[SUITED] >> c) & 1:
            strength = 200
        elif (s[TRUMP_SET] >> c) & 1:
            strength = 100
        else:
            strength = 0
        strength += s[RANK_OF + c]
        if strength > best:
            best = strength
            out = np.int64(1) << c
        elif strength == best:
            out |= np.int64(1) << c
    return out


@njit(cache=True)
def lead_rules(s, masks, metas, k):  # type: ignore[no-untyped-def]
    """``leads._filtered`` on the ``k`` leads listed: of the one-rank leads of each rank only
    the largest (#12: the whole rank, as far as the limits allow), and only leads holding the
    strongest card (#46); other actions (#40's lead from the stock) stay. The order is
    kept."""
    strong = strongest_cards(s, s[HANDS + s[TO_ACT]]) if s[STRONGEST] != 0 else 0
    kept = 0
    for i in range(k):
        m = masks[i]
        keep = True
        if metas[i] & 7 == ATTACK_KIND and m != 0:
            if s[WHOLE_RANK] != 0:
                same = rank_set(s, low_card(m))
                if m & ~same == 0:
                    size = popcount(m)
                    for j in range(k):
                        o = masks[j]
                        if (metas[j] & 7 == ATTACK_KIND and o & ~same == 0 and o != 0
                                and popcount(o) > size):
                            keep = False
                            break
            if s[STRONGEST] != 0 and m & strong == 0:
                keep = False
        if keep:
            masks[kept] = m
            metas[kept] = metas[i]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def shape_leads(s, masks, metas):  # type: ignore[no-untyped-def]
    """``DurakState._lead_actions``: one-rank leads up to the limit (Rozaliev: pair plus one)."""
    limit = room(s)
    if limit > s[LEAD_MAX]:
        limit = s[LEAD_MAX]
    if limit <= 0:
        return 0
    hand = s[HANDS + s[TO_ACT]]
    most = s[LEAD_MOST]
    if most == 0 or most > limit:
        most = limit if limit < _GROUP_MAX else _GROUP_MAX
    k = 0
    if s[STOCK_LEAD] != 0 and s[N_STOCK] != 0 and not (s[STOCK_ONCE] != 0
                                                        and s[STOCK_PLAYS] != 0):
        # #40 (S0:32): the top card of the stock, turned up as it is led
        k = _emit(masks, metas, k, 0, STOCK_KIND)
    if s[SUIT_LEADS] != 0:
        return _suit_leads(s, masks, metas, k, hand, limit)
    if s[PATTERN_LEADS] != 0:
        return pattern_leads(s, masks, metas, k, hand, limit)
    if most == 1:
        m = hand
        while m:
            low = m & -m
            k = _emit(masks, metas, k, low, ATTACK_KIND)
            m ^= low
        return k
    k = _emit_groups(s, masks, metas, k, hand, most)
    if s[ROZALIEV] != 0 and limit >= 3:
        ma = hand
        while ma:
            a = low_card(ma)
            ma &= ma - 1
            same = rank_set(s, a)
            mb = ma & same
            while mb:
                b = low_card(mb)
                mb &= mb - 1
                pair = (1 << a) | (1 << b)
                me = hand & ~pair
                while me:
                    e = low_card(me)
                    me &= me - 1
                    # three of a kind arise from three pairs: keep only the pair of the lowest two
                    if (same >> e) & 1 and e < b:
                        continue
                    k = _emit(masks, metas, k, pair | (1 << e), ATTACK_KIND)
    return k


@njit(cache=True, inline="always")
def transfer_rank_card(s):  # type: ignore[no-untyped-def]
    """``DurakState.transfer_rank_card``: the card a transfer matches in rank, the lead, or
    under ``transfer.window=any_time`` (#10, S0:259) the last uncovered card thrown."""
    if s[ANY_TIME] != 0:
        for i in range(s[N_ATTACK] - 1, -1, -1):
            if s[DEFENCE + i] == -1:
                return s[ATTACK + i]
    return s[ATTACK]


@njit(cache=True)
def transfer_allowed(s):  # type: ignore[no-untyped-def]
    """``DurakState.transfer_block`` is None, given transfers on and (unless any time) nothing
    covered yet."""
    na = s[N_ATTACK]
    if s[ANY_TIME] != 0:
        if s[UNCOVERED] == 0:
            return False
        if s[MATCH_ALL] != 0:
            same = rank_set(s, transfer_rank_card(s))
            for i in range(na):
                if s[DEFENCE + i] == -1 and not (same >> s[ATTACK + i]) & 1:
                    return False
    else:
        if s[UNCOVERED] != na:
            # only under #11, whose neutralised cards count as open: nothing may be covered
            for i in range(na):
                if s[DEFENCE + i] >= 0:
                    return False
        same = rank_set(s, s[ATTACK])
        for i in range(na):
            if not (same >> s[ATTACK + i]) & 1:
                return False
    if s[BOUT] == 0 and s[NO_FIRST_TRANSFER] != 0:
        return False
    if s[NO_TRUMP_TRANSFER] != 0:
        for i in range(na):
            if (s[TRUMP_SET] >> s[ATTACK + i]) & 1:
                return False
    d = s[DEFENDER]
    nxt = next_active(s, d)
    if nxt == d:
        # nobody else in play: only #9's last duel hands the attack back, to an attacker who
        # holds nothing to cover with (so no hand is asked for)
        if s[REFUSAL] == 0 or not refusal_back(s):
            return False
    else:
        # the new defender must be able to cover every uncovered card and the transfer
        # card, or under #11 the transfer card only
        need = 1 if s[ONLY_NEW] != 0 else s[UNCOVERED] + 1
        if popcount(s[HANDS + nxt]) < need:
            return False
    return na + 1 <= cap_now(s)


@njit(cache=True)
def refusal_back(s):  # type: ignore[no-untyped-def]
    """``transfer_refusal.refusal_target`` >= 0 (#9): the attacker has just gone out (the last
    player out) and the defender is the only one still holding cards."""
    a = s[ATTACKER]
    n_out = s[N_OUT]
    return (n_out > 0 and s[OUT + n_out - 1] == a and a != s[DEFENDER]
            and s[PLAYERS] - popcount(s[OUT_MASK]) == 1)


@njit(cache=True)
def pass_attack_on(s):  # type: ignore[no-untyped-def]
    """``DurakState.pass_attack_on``: the defender becomes the attacker and the next player
    in play defends, or under #9's refusal the attacker gone out, back in play."""
    seat = s[DEFENDER]
    nxt = next_active(s, seat)
    if nxt == seat:
        nxt = s[ATTACKER]
        # ``DurakState.rejoin``: out of the order of players out (he was its last)
        s[OUT_MASK] &= ~(np.int64(1) << nxt)
        n_out = s[N_OUT]
        j = 0
        for i in range(n_out):
            if s[OUT + i] != nxt:
                s[OUT + j] = s[OUT + i]
                j += 1
        s[N_OUT] = j
    s[ATTACKER] = seat
    s[DEFENDER] = nxt
    s[TO_ACT] = nxt


@njit(cache=True)
def stuck_card(s):  # type: ignore[no-untyped-def]
    """``bout_extras._stuck_card`` (#39): an uncovered attack card the defender cannot beat
    and has not yet made a second try against; -1 if none, the stock is empty (#39 A3) or,
    per bout, he has tried once already."""
    if s[SECOND_TRY] == 0 or s[N_STOCK] == 0:
        return -1
    if s[SECOND_TRY] == 2 and s[TRIED] != 0:
        return -1
    hand = s[HANDS + s[DEFENDER]]
    for i in range(s[N_ATTACK]):
        if s[DEFENCE + i] == -1:
            a = s[ATTACK + i]
            if hand & beaters(s, a) == 0 and not (s[TRIED] >> a) & 1:
                return a
    return -1


@njit(cache=True)
def trumps_to_show(s):  # type: ignore[no-untyped-def]
    """``show_trump.trumps_to_show`` where ``show_trump._block`` lets the defender show (#96):
    his trumps of the rank led, while no attack card is covered, all are of that rank, he has
    not shown in this bout, the transfer rules allow a transfer (#78's first bout, B12's trump
    on the table, somebody left to pass to) and the next defender holds a card for each
    uncovered one; else 0. (The core's window and limit checks do not apply to a show, nor
    the bout's cap: no card is added.)"""
    na = s[N_ATTACK]
    d = s[DEFENDER]
    if s[TRANSFER] == 0 or (s[SHOWN] >> d) & 1:
        return 0
    lead = s[ATTACK]
    same = rank_set(s, lead)
    for i in range(na):
        if s[DEFENCE + i] != -1 or not (same >> s[ATTACK + i]) & 1:
            return 0
    if s[BOUT] == 0 and s[NO_FIRST_TRANSFER] != 0:
        return 0
    if s[NO_TRUMP_TRANSFER] != 0:
        for i in range(na):
            if (s[TRUMP_SET] >> s[ATTACK + i]) & 1:
                return 0
    nxt = next_active(s, d)
    if nxt == d or not (s[SUITED] >> lead) & 1:
        return 0  # nobody to pass to; a joker led has no trump of its rank
    if popcount(s[HANDS + nxt]) < s[UNCOVERED]:
        return 0
    return s[HANDS + d] & same & s[TRUMP_SET]


@njit(cache=True, inline="always")
def defend_actions(s, masks, metas):  # type: ignore[no-untyped-def]
    """``DurakState._defend_actions``: covers, then transfers, then take."""
    hand = s[HANDS + s[DEFENDER]]
    na = s[N_ATTACK]
    k = 0
    for i in range(na):
        if s[DEFENCE + i] == -1:
            a = s[ATTACK + i]
            m = hand & beaters(s, a)
            meta = DEFEND_KIND | ((a + 1) << 3)
            while m:
                low = m & -m
                k = _emit(masks, metas, k, low, meta)
                m ^= low
    if (s[TRANSFER] != 0 and (s[UNCOVERED] == na or s[ANY_TIME] != 0 or s[ONLY_NEW] != 0)
            and transfer_allowed(s)):
        # jokers never transfer (§3.3): only cards with a suit
        m = hand & rank_set(s, transfer_rank_card(s)) & s[SUITED]
        while m:
            low = m & -m
            k = _emit(masks, metas, k, low, TRANSFER_KIND)
            m ^= low
    if s[SECOND_TRY] != 0 and stuck_card(s) >= 0:
        k = _emit(masks, metas, k, 0, TRY_KIND)  # #39 (S0:29): draw the stock's top and go on
    if s[GIFTS] != 0:
        c = joker_transfer_card(s)
        if c >= 0:  # #24 A3: a lone joker passed on with the other one
            k = _emit(masks, metas, k, np.int64(1) << c, TRANSFER_KIND)
    if s[SHOW_TRUMP] != 0:
        # #96: pass the attack on by showing a trump of the rank led (just before the take,
        # as the reference lists them)
        m = trumps_to_show(s)
        while m:
            low = m & -m
            k = _emit(masks, metas, k, low, SHOW_KIND)
            m ^= low
    return _emit(masks, metas, k, 0, TAKE_KIND)


@njit(cache=True, inline="always")
def throw_actions(s, masks, metas):  # type: ignore[no-untyped-def]
    """``DurakState._throw_actions``: a card of a rank on the table, or pass."""
    k = 0
    m = s[HANDS + s[TO_ACT]] & s[TABLE_RANKS]
    if m and s[THROW_GROUPS] != 0:
        # #29 (S0:119): two, three or four cards of one rank may go in as one throw-in
        most = room(s)
        if most > _GROUP_MAX:
            most = _GROUP_MAX
        if most > 0:
            k = _emit_groups(s, masks, metas, k, m, most)
    elif m and room(s) > 0:
        while m:
            low = m & -m
            k = _emit(masks, metas, k, low, ATTACK_KIND)
            m ^= low
    if s[STOCK_THROW] != 0 and stock_throw(s):
        k = _emit(masks, metas, k, 0, STOCK_KIND)  # #83: the stock's top, blind
    return _emit(masks, metas, k, 0, PASS_KIND)


@njit(cache=True)
def stock_throw(s):  # type: ignore[no-untyped-def]
    """``bout_extras``' stock throw-in (#83): the stock holds a card, the bout has room, the
    stock's one play is not spent (#40's once), and no card turned and put back lies on top
    unless its rank has come onto the table since."""
    if s[N_STOCK] == 0 or room(s) <= 0 or (s[STOCK_ONCE] != 0 and s[STOCK_PLAYS] != 0):
        return False
    seen = s[STOCK_SEEN]
    return seen < 0 or (s[TABLE_RANKS] >> seen) & 1 != 0


@njit(cache=True, inline="always")
def legal_actions(s, masks, metas):  # type: ignore[no-untyped-def]
    """Every legal action of the seat to act; 0 once the game is over."""
    ph = s[PHASE]
    if ph == DEFEND_PHASE:
        return defend_actions(s, masks, metas)
    if ph == THROW_PHASE:
        return throw_actions(s, masks, metas)
    if ph == LEAD_PHASE:
        return lead_actions(s, masks, metas)
    if s[GIFTS] != 0 and ph == GIVE_PHASE:
        return give_actions(s, masks, metas)
    return 0


# --- joker gifts (#24, #84) ------------------------------------------------------------------


@njit(cache=True)
def joker_transfer_card(s):  # type: ignore[no-untyped-def]
    """``joker_gifts.joker_transfer_card`` (#24 A3): facing a lone joker, nothing covered,
    the defender may lay the other joker beside it to pass the attack on (in any base game);
    the joker he would use, or -1."""
    if s[N_ATTACK] != 1 or s[DEFENCE] != -1 or not (s[JOKERS] >> s[ATTACK]) & 1:
        return -1
    d = s[DEFENDER]
    other = s[HANDS + d] & s[JOKERS]
    if other == 0:
        return -1
    nxt = next_active(s, d)
    if nxt == d or popcount(s[HANDS + nxt]) < 2:
        return -1
    return low_card(other)


@njit(cache=True)
def give_actions(s, masks, metas):  # type: ignore[no-untyped-def]
    """``joker_gifts.give_actions``: any one card of the giver's, then (#84, before the
    first card and with five cards in hand) every three cards of one rank, ranks low to
    high, shown as a block."""
    hand = s[HANDS + s[GIVER]]
    k = 0
    m = hand
    while m:
        low = m & -m
        k = _emit(masks, metas, k, low, GIVE_META)
        m ^= low
    if s[BLOCK_OK] != 0 and popcount(hand) >= 5:
        plain = hand & s[SUITED]
        for r in range(16):  # ``cards.RANK_MASKS``: the suited cards of each rank
            group = cards_where(s, plain, RANK_OF, r)
            if popcount(group) >= 3:
                k = _emit_combinations(masks, metas, k, group, 3, BLOCK_META)
    return k


@njit(cache=True)
def start_gift(s, giver, receiver, count):  # type: ignore[no-untyped-def]
    """``joker_gifts.start_gift``: a gift of ``count`` cards, or none when either player is
    out (or they are one); a giver short of cards draws the shortfall first, and when the
    stock cannot make it up the joker does nothing (S0:95)."""
    out = s[OUT_MASK]
    if (out >> receiver) & 1 or (out >> giver) & 1 or giver == receiver:
        return
    short = count - popcount(s[HANDS + giver])
    if short > 0:
        ns = s[N_STOCK]
        if ns < short:
            return
        got = np.int64(0)
        for _ in range(short):
            ns -= 1
            got |= np.int64(1) << s[STOCK + ns]
        s[HANDS + giver] |= got
        s[N_STOCK] = ns
        stock_taken(s)
    s[GIVER] = giver
    s[RECEIVER] = receiver
    s[GIFT_LEFT] = count
    s[RESUME_PHASE] = s[PHASE]
    s[RESUME_TO_ACT] = s[TO_ACT]
    s[BLOCK_OK] = s[GIFT_BLOCK]
    s[PHASE] = GIVE_PHASE
    s[TO_ACT] = giver


@njit(cache=True)
def joker_gift(s, jokers, player, opponent):  # type: ignore[no-untyped-def]
    """``joker_gifts.joker_gift``: both jokers, ``player`` gives five to ``opponent``; the
    red one, the opponent gives him two; the black one, he gives two."""
    jokers &= s[JOKERS]
    if popcount(jokers) >= 2:
        start_gift(s, player, opponent, 5)
    elif jokers & s[RED_JOKERS]:
        start_gift(s, opponent, player, 2)
    else:
        start_gift(s, player, opponent, 2)


@njit(cache=True)
def out_if_done(s, seat):  # type: ignore[no-untyped-def]
    """``DurakState.out_if_done``: out once his hand and the stock are empty, unless he is a
    defender with cards still to cover or a take declared."""
    if s[HANDS + seat] != 0 or s[N_STOCK] != 0:
        return
    if seat == s[DEFENDER] and (s[UNCOVERED] > 0 or s[TAKING] != 0):
        return
    go_out(s, seat)


@njit(cache=True)
def step_gift(s, mask, meta):  # type: ignore[no-untyped-def]
    """``joker_gifts.step_gift``: one card handed over (or the gift blocked, #84); once the
    gift is made the bout resumes where it stopped."""
    giver = s[GIVER]
    left = s[GIFT_LEFT]
    if meta == BLOCK_META:
        left = 0
    else:
        s[HANDS + giver] &= ~mask
        s[HANDS + s[RECEIVER]] |= mask
        left -= 1
    if left != 0 and s[HANDS + giver] != 0:
        s[GIFT_LEFT] = left
        s[BLOCK_OK] = 0
        return
    phase = s[RESUME_PHASE]
    s[GIVER] = -1
    s[RECEIVER] = -1
    s[GIFT_LEFT] = 0
    s[BLOCK_OK] = 0
    if phase < 0:  # a joker cover left nothing uncovered: on as after the last cover
        if s[THROW_IN] != 0:
            start_throw_round(s)
        else:
            end_bout(s, False)
    else:
        s[PHASE] = phase
        s[TO_ACT] = s[RESUME_TO_ACT]
    out_if_done(s, giver)
    if s[PHASE] == THROW_PHASE and (s[HANDS + s[TO_ACT]] == 0 or room(s) <= 0):
        # the caps are judged on the hands the gift left (#24 A2)
        advance_thrower(s)


# --- transitions ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def go_out(s, seat):  # type: ignore[no-untyped-def]
    """``DurakState.go_out``: out now, unless #37's buy-in keeps him in (picked up once)."""
    if s[RESERVE_SIZE] != 0 and s[RESERVE + seat] != 0:
        s[HANDS + seat] |= s[RESERVE + seat]
        s[RESERVE + seat] = 0
        return
    if not (s[OUT_MASK] >> seat) & 1:
        s[OUT_MASK] |= 1 << seat
        s[OUT + s[N_OUT]] = seat
        s[N_OUT] += 1


@njit(cache=True, inline="always")
def team_of(s, seat):  # type: ignore[no-untyped-def]
    """``Deal.team_of[seat]`` (#53-55)."""
    return (s[TEAM_OF] >> (4 * seat)) & 15


@njit(cache=True)
def proxy_of(s, seat):  # type: ignore[no-untyped-def]
    """``teams.proxy_of`` (#55): who plays ``seat``: its owner while he is in, else his
    nearest partner still in play counter-clockwise; -1 when his whole team is out."""
    out = s[OUT_MASK]
    if not (out >> seat) & 1:
        return seat
    n = s[PLAYERS]
    mine = team_of(s, seat)
    for i in range(1, n):
        t = (seat - i) % n
        if team_of(s, t) == mine and not (out >> t) & 1:
            return t
    return -1


@njit(cache=True)
def attacked_seat(s, first):  # type: ignore[no-untyped-def]
    """``teams.attacked_seat``: the seat an attack from ``first`` is made at, partners
    passed over (under #55's proxies: the next seat of another team someone still plays)."""
    if s[TEAM_PROXY] != 0:
        n = s[PLAYERS]
        target = (first + 1) % n
        while team_of(s, target) == team_of(s, first) or proxy_of(s, target) < 0:
            target = (target + 1) % n
        return target
    target = next_active(s, first)
    if s[TEAM_ATTACK] != 0:
        while team_of(s, target) == team_of(s, first):
            target = next_active(s, target)
    return target


@njit(cache=True)
def finish(s):  # type: ignore[no-untyped-def]
    """``DurakState.finish`` with the players still holding cards."""
    s[PHASE] = OVER_PHASE
    s[TO_ACT] = -1
    n = s[PLAYERS]
    out = s[OUT_MASK]
    for seat in range(n):
        if not (out >> seat) & 1:
            s[LOSER] = seat
            s[RESULT] = 1
            return
    if s[DRAW_ALLOWED] != 0:
        s[LOSER] = -1
        s[RESULT] = 2
    else:
        s[LOSER] = s[OUT + s[N_OUT] - 1]
        s[RESULT] = 1


@njit(cache=True)
def next_team_bout(s, d, taken):  # type: ignore[no-untyped-def]
    """``teams.next_bout``: the next attacker (the defender is set), or -1 once every player
    still holding cards is on one team, which loses: the member holding most cards (ties: the
    lower seat) is the fool."""
    n = s[PLAYERS]
    out = s[OUT_MASK]
    fool = -1  # among the players still in: the one holding most cards, the lowest seat first
    opponents = False  # two of them on different teams
    for seat in range(n):
        if not (out >> seat) & 1:
            if fool >= 0 and team_of(s, seat) != team_of(s, fool):
                opponents = True
            if fool < 0 or popcount(s[HANDS + seat]) > popcount(s[HANDS + fool]):
                fool = seat
    if not opponents:
        if fool < 0:
            finish(s)  # nobody holds cards: a draw, or the last out (end.draw_allowed)
        else:
            s[PHASE] = OVER_PHASE
            s[TO_ACT] = -1
            s[LOSER] = fool
            s[RESULT] = 1
        return -1
    if s[TEAM_PROXY] != 0:
        first = (s[PLAYED] + 1) % n if taken else s[PLAYED]
        while proxy_of(s, first) < 0:
            first = (first + 1) % n
        target = attacked_seat(s, first)
        s[PLAYED] = target
        s[DEFENDER] = proxy_of(s, target)
        return proxy_of(s, first)
    attacker = next_active(s, d) if taken or (out >> d) & 1 else d
    s[DEFENDER] = attacked_seat(s, attacker)
    return attacker


@njit(cache=True)
def draw_sequence(s, seq):  # type: ignore[no-untyped-def]
    """``DurakState.draw_order``: who refills, in order (VARIANTS.md §1.7), written from
    ``s[seq]`` on; returns the count."""
    n = s[PLAYERS]
    rule = s[DRAW_RULE]
    d = s[DEFENDER]
    out = s[OUT_MASK]
    start = s[ATTACKER] if rule == 1 else s[LEADER]
    k = 0
    if rule == 3 and not (out >> d) & 1:
        s[seq + k] = d
        k += 1
    for i in range(n):
        seat = (start + i) % n
        if (out >> seat) & 1 or (seat == d and rule != 2):
            continue
        s[seq + k] = seat
        k += 1
    if (rule == 0 or rule == 1) and not (out >> d) & 1:
        s[seq + k] = d
        k += 1
    return k


@njit(cache=True)
def reveal(s):  # type: ignore[no-untyped-def]
    """``DurakState.reveal_secret`` (#18): the secret card is turned and its suit (what its
    card turned up would make of the trump) rules from now on; under #18 A1 it becomes the
    last card of the stock."""
    s[REVEALED] = 1
    c = s[SECRET]
    if s[SECRET_DRAWABLE] != 0:
        s[STOCK + s[N_STOCK]] = c
        s[N_STOCK] += 1
    set_trump_row(s, trump_row(s, c))


@njit(cache=True)
def stock_taken(s):  # type: ignore[no-untyped-def]
    """A card left the stock outside the refill (a stock play, a second try, a short joker
    giver): the last one turns #18's secret card."""
    if s[N_STOCK] == 0 and s[SECRET] >= 0 and s[REVEALED] == 0:
        reveal(s)


@njit(cache=True)
def draw(s):  # type: ignore[no-untyped-def]
    """``DurakState._draw``: refill from the top of the stock, then mark empty hands out."""
    count = draw_sequence(s, SEQ)
    ns = s[N_STOCK]
    while ns:
        target = s[HAND_SIZE]
        if s[PROGRESSIVE] != 0:
            # #36: one card at the deal, then two after the first bout, three ... (A1's cap)
            target = s[BOUT] + 2
            if s[PROGRESSIVE_CAP] != 0 and target > s[PROGRESSIVE_CAP]:
                target = s[PROGRESSIVE_CAP]
        for j in range(count):
            seat = s[SEQ + j]
            held = popcount(s[HANDS + seat])
            if s[DRAW_EMPTY] != 0 and held != 0:
                continue  # #34: only an empty hand draws
            need = target - held
            if need > 0:
                if need > ns:
                    need = ns
                got = 0
                for _ in range(need):
                    ns -= 1
                    got |= 1 << s[STOCK + ns]
                s[HANDS + seat] |= got
                if ns == 0:
                    break
        s[N_STOCK] = ns
        if s[SECRET_SECOND] != 0 and ns == 0 and s[SECRET] >= 0 and s[REVEALED] == 0:
            reveal(s)  # #18: the stock ran out; a drawable secret card refills on, in order
            ns = s[N_STOCK]
            if s[STOCK_REFILL] == 0:
                continue
        break
    if ns == 0:
        for j in range(count):
            seat = s[SEQ + j]
            if s[HANDS + seat] == 0:
                go_out(s, seat)


@njit(cache=True)
def tally(s, d, taken):  # type: ignore[no-untyped-def]
    """``stock.settle_bout``'s tallies, the table still on it: #63's plain sixes the
    defender faced (his epaulettes, should this bout be his last), and for a beaten bout
    #61's points and #62's figures."""
    na = s[N_ATTACK]
    if s[EPAULETTES] != 0:
        plain = s[SIX_CARDS] & ~s[TRUMP_SET]
        sixes = 2 if na > 2 else na
        for i in range(na):
            if not (plain >> s[ATTACK + i]) & 1:
                sixes = 0
                break
        s[SIXES + d] = sixes
    if taken:
        return
    covered = 0
    figures = 0
    for i in range(na):
        if s[DEFENCE + i] >= 0:
            covered += 1
            if (s[FIGURE_CARDS] >> s[ATTACK + i]) & 1:
                figures += 1
    if s[SCORE_POINTS] == 1:
        s[POINTS + d] += covered
    elif s[SCORE_POINTS] == 2:
        s[POINTS + d] += na + covered
    if s[SCORE_FIGURES] != 0:
        s[FIGURES + d] += figures


@njit(cache=True)
def exchange(s):  # type: ignore[no-untyped-def]
    """``stock._exchange`` (#31): after the refill every player still in with cards passes
    his whole hand to the next such player on his left (two players swap)."""
    n = s[PLAYERS]
    out = s[OUT_MASK]
    k = 0
    for seat in range(n):
        if not (out >> seat) & 1 and s[HANDS + seat] != 0:
            s[SEQ + k] = seat
            k += 1
    if k < 2:
        return
    last = s[HANDS + s[SEQ + k - 1]]
    for i in range(k - 1, 0, -1):
        s[HANDS + s[SEQ + i]] = s[HANDS + s[SEQ + i - 1]]
    s[HANDS + s[SEQ]] = last


@njit(cache=True, inline="always")
def _opening_value(s, j, n):  # type: ignore[no-untyped-def]
    """Entry ``j`` of the current bout opening ``(*hands, attacker, defender, stock size)``."""
    if j < n:
        return s[HANDS + j]
    if j == n:
        return s[ATTACKER]
    if j == n + 1:
        return s[DEFENDER]
    return s[N_STOCK]


@njit(cache=True)
def check_repetition(s):  # type: ignore[no-untyped-def]
    """``DurakState._check_repetition`` (``end.repetition``): with no card drawn since, the
    n-th time the same opening (every hand, attacker, defender, stock size) starts a bout draws
    the deal. Openings are compared entry by entry, exactly as the reference compares tuples."""
    n = s[PLAYERS]
    w = n + 3
    seen = s[N_SEEN]
    count = 1
    for i in range(seen):
        base = SEEN + i * w
        same = True
        for j in range(w):
            if s[base + j] != _opening_value(s, j, n):
                same = False
                break
        if same:
            count += 1
    if count >= s[REPETITION]:
        s[PHASE] = OVER_PHASE
        s[TO_ACT] = -1
        s[LOSER] = -1
        s[RESULT] = 2
        return
    if seen >= MAX_SEEN:
        s[PHASE] = OVER_PHASE  # no room left: the game is reported as failed, never guessed
        s[TO_ACT] = -1
        s[RESULT] = 3
        return
    base = SEEN + seen * w
    for j in range(w):
        s[base + j] = _opening_value(s, j, n)
    s[N_SEEN] = seen + 1


@njit(cache=True)
def covered_pairs(s):  # type: ignore[no-untyped-def]
    """``partial_defense.covered_cards``: the cards of the covered pairs on the table (a card
    neutralised by #11's transfer counts as covered)."""
    out = np.int64(0)
    for i in range(s[N_ATTACK]):
        cover = s[DEFENCE + i]
        if cover != -1:
            out |= np.int64(1) << s[ATTACK + i]
            if cover >= 0:
                out |= np.int64(1) << cover
    return out


@njit(cache=True, inline="always")
def twins(s, c, a):  # type: ignore[no-untyped-def]
    """``state.closes``' identical twins (#22): the two decks' copies of one card."""
    return s[RANK_OF + c] == s[RANK_OF + a] and s[SUIT_OF + c] == s[SUIT_OF + a]


@njit(cache=True)
def end_bout(s, taken):  # type: ignore[no-untyped-def]
    """``DurakState.end_bout``: the table to the discard or the defender, refill, next bout."""
    d = s[DEFENDER]
    if taken:
        table = s[TABLE]
        if s[PARTIAL] != 0:
            # ``partial_defense`` (#3): the covered pairs go to the discard
            done = covered_pairs(s)
            s[DISCARD] |= done
            table &= ~done
        s[HANDS + d] |= table
    else:
        s[DISCARD] |= s[TABLE]
    if s[SCORE_POINTS] != 0 or s[SCORE_FIGURES] != 0 or s[EPAULETTES] != 0:
        tally(s, d, taken)
    s[N_ATTACK] = 0
    s[UNCOVERED] = 0
    s[TABLE_RANKS] = 0
    s[TAKING] = 0
    s[N_THROWERS] = 0
    s[TABLE] = 0
    s[TRIED] = 0
    if s[CLOSING] != 0:
        s[CLOSED] = 0
    stock_before = s[N_STOCK]
    draw(s)
    if s[EXCHANGE] != 0:
        exchange(s)
    if s[STOCK_LEAD] != 0:
        s[STOCK_PLAYS] = 0
        seen = s[STOCK_SEEN]
        if seen >= 0 and not (s[N_STOCK] != 0 and s[STOCK + s[N_STOCK] - 1] == seen):
            s[STOCK_SEEN] = -1  # ``bout_extras.after_bout``: a seen card that left the top
    drew = s[N_STOCK] != stock_before
    n = s[PLAYERS]
    if s[IDLE_LIMIT] != 0:
        # end.idle_bouts: takes in a row with nobody drawing or going out draw the deal
        outs = s[N_OUT]
        idle = s[IDLE]
        if taken and not drew and idle >> 16 == outs:
            idle = (idle & 0xFFFF) + 1
        else:
            idle = 0
        s[IDLE] = idle | (outs << 16)
        if idle >= s[IDLE_LIMIT] and n - popcount(s[OUT_MASK]) > 1:
            s[PHASE] = OVER_PHASE
            s[TO_ACT] = -1
            s[LOSER] = -1
            s[RESULT] = 2
            return
    if s[INSTANT_LOSS] != 0 and taken and popcount(s[HANDS + d]) >= s[INSTANT_LOSS]:
        # #21 (S0:53): a player who takes up to this many cards is the fool at once
        s[PHASE] = OVER_PHASE
        s[TO_ACT] = -1
        s[LOSER] = d
        s[RESULT] = 1
        return
    if s[GIFTS] != 0 and s[N_STOCK] == 0 and n - popcount(s[OUT_MASK]) >= 2:
        # #24 A4: with the stock gone, a player left with nothing but jokers is the fool
        for seat in range(n):
            hand = s[HANDS + seat]
            if hand != 0 and hand & ~s[JOKERS] == 0:
                s[PHASE] = OVER_PHASE
                s[TO_ACT] = -1
                s[LOSER] = seat
                s[RESULT] = 1
                return
    out = s[OUT_MASK]
    skip = taken and s[TAKE_SKIP] != 0  # #52 (take.skip off): the taker attacks next
    if s[TEAMS] != 0:  # partnerships (#53-55): partners are never attacked
        attacker = next_team_bout(s, d, skip)
        if attacker < 0:
            return
    elif out == 0:
        attacker = (d + 1) % n if skip else d
        s[DEFENDER] = (attacker + 1) % n
    else:
        if n - popcount(out) <= 1:
            finish(s)
            return
        if skip or (out >> d) & 1:
            attacker = next_active(s, d)
        else:
            attacker = d
        s[DEFENDER] = next_active(s, attacker)
    s[ATTACKER] = attacker
    s[LEADER] = attacker
    s[TO_ACT] = attacker
    s[BOUT] += 1
    s[PHASE] = LEAD_PHASE
    s[SHOWN] = 0  # #96: each may show once per bout
    if s[REPETITION] != 0:
        if drew or not taken:
            # the stock only shrinks, and a bito takes cards out of the hands for good: no
            # earlier opening can come back
            s[N_SEEN] = 0
        else:
            check_repetition(s)


@njit(cache=True, inline="always")
def end_throw_round(s):  # type: ignore[no-untyped-def]
    if s[TAKING] != 0:
        end_bout(s, True)
    elif s[UNCOVERED] != 0:
        s[PHASE] = DEFEND_PHASE
        s[TO_ACT] = s[DEFENDER]
    else:
        end_bout(s, False)


@njit(cache=True)
def advance_thrower(s):  # type: ignore[no-untyped-def]
    """``DurakState.advance_thrower``: the next thrower holding cards, or the round ends."""
    if room(s) <= 0:
        end_throw_round(s)
        return
    n = s[N_THROWERS]
    passes = s[PASSES]
    t = s[T_IDX]
    while passes < n:
        t = (t + 1) % n
        seat = s[THROWERS + t]
        if s[HANDS + seat] != 0:
            s[T_IDX] = t
            s[PASSES] = passes
            s[TO_ACT] = seat
            s[PHASE] = THROW_PHASE
            return
        passes += 1
    s[T_IDX] = t
    s[PASSES] = passes
    end_throw_round(s)


@njit(cache=True)
def set_throwers(s):  # type: ignore[no-untyped-def]
    """``thrower_order``: the main attacker, then clockwise; never the defender or a player who
    is out; with ``throw_in.by=neighbours`` only the defender's neighbours in play."""
    n = s[PLAYERS]
    out = s[OUT_MASK]
    d = s[DEFENDER]
    a = s[ATTACKER]
    first = -1
    last = -1
    if s[NEIGHBOURS] != 0:
        for i in range(1, n):
            seat = (d + i) % n
            if not (out >> seat) & 1:
                if first < 0:
                    first = seat
                last = seat
    k = 0
    for i in range(n):
        seat = (a + i) % n
        if seat == d or (out >> seat) & 1:
            continue
        if first >= 0 and seat != first and seat != last:
            continue
        if s[TEAM_THROW] != 0 and s[TEAMS] != 0 and team_of(s, seat) == team_of(s, d):
            continue  # #53-55: only the defender's opponents throw in
        s[THROWERS + k] = seat
        k += 1
    s[N_THROWERS] = k


@njit(cache=True)
def start_throw_round(s):  # type: ignore[no-untyped-def]
    """``DurakState.start_throw_round``."""
    set_throwers(s)
    s[PASSES] = 0
    s[T_IDX] = 0
    if s[N_THROWERS] == 0 or (s[CLOSING] != 0 and s[CLOSED] != 0) or room(s) <= 0:
        end_throw_round(s)
        return
    s[PHASE] = THROW_PHASE
    first = s[THROWERS]
    if s[HANDS + first] == 0:
        s[T_IDX] = -1
        advance_thrower(s)
        return
    s[TO_ACT] = first


@njit(cache=True, inline="always")
def step(s, mask, meta):  # type: ignore[no-untyped-def]
    """``DurakState.step_unchecked``: apply a legal action in place."""
    kind = meta & 7
    if kind == ATTACK_KIND:
        seat = s[TO_ACT]
        hand = s[HANDS + seat] ^ mask
        s[HANDS + seat] = hand
        na = s[N_ATTACK]
        ranks = 0
        m = mask
        while m:
            c = low_card(m)
            m &= m - 1
            s[ATTACK + na] = c
            s[DEFENCE + na] = -1
            na += 1
            ranks |= rank_set(s, c)
        s[UNCOVERED] += na - s[N_ATTACK]
        s[N_ATTACK] = na
        s[TABLE_RANKS] |= ranks
        s[TABLE] |= mask
        if hand == 0 and s[N_STOCK] == 0:
            go_out(s, seat)
        if s[PHASE] == LEAD_PHASE:
            s[PHASE] = DEFEND_PHASE
            s[TO_ACT] = s[DEFENDER]
            if s[GIFTS] != 0 and mask & s[JOKERS]:
                joker_gift(s, mask, seat, s[DEFENDER])  # #24: a joker led gives
        else:
            s[PASSES] = 0
            if s[GIFTS] != 0 and mask & s[JOKERS]:
                # #24 A2: the gift comes first, while the thrower still holds the right
                joker_gift(s, mask, seat, s[DEFENDER])
                if s[PHASE] == GIVE_PHASE:
                    return
            if hand == 0 or room(s) <= 0:
                advance_thrower(s)
    elif kind == PASS_KIND:
        if s[PASS_LEAD] != 0 and s[PHASE] == LEAD_PHASE:
            pass_lead(s)  # #5: no allowed lead, the attack passes on
            return
        s[PASSES] += 1
        if s[PASSES] >= s[N_THROWERS]:
            end_throw_round(s)
        else:
            advance_thrower(s)
    elif kind == DEFEND_KIND:
        seat = s[DEFENDER]
        hand = s[HANDS + seat] ^ mask
        s[HANDS + seat] = hand
        c = low_card(mask)
        target = (meta >> 3) - 1
        for i in range(s[N_ATTACK]):
            if s[ATTACK + i] == target:
                s[DEFENCE + i] = c
                break
        if s[CLOSING] != 0 and ((s[CLOSES] >> c) & 1 or (s[TWIN_BLOCK] != 0
                                                       and twins(s, c, target))):
            s[CLOSED] = 1  # #28's wild card or joker, #22's twin: no more throw-ins this bout
        s[UNCOVERED] -= 1
        s[TABLE_RANKS] |= rank_set(s, c)
        s[TABLE] |= mask
        if hand == 0 and s[N_STOCK] == 0 and s[UNCOVERED] == 0:
            go_out(s, seat)  # (a gift, #24, can leave him fewer cards than he must cover)
        if s[GIFT_ON_COVER] != 0 and mask & s[JOKERS]:
            # #24 A1's option: a joker cover gives too, the defender against the attacker
            joker_gift(s, mask, seat, s[ATTACKER])
            if s[PHASE] == GIVE_PHASE:
                if s[UNCOVERED] == 0:
                    s[RESUME_PHASE] = -1
                return
        if s[UNCOVERED] == 0:
            if s[THROW_IN] != 0:
                start_throw_round(s)
            else:
                end_bout(s, False)
    elif kind == TAKE_KIND and meta != TAKE_KIND:
        # the moves that borrow the take's kind (``layout.GIVE_META``)
        if meta == SWAP_META:
            # ``trump_swap``'s step (#97): the trump card into the hand, the six under the
            # stock
            seat = s[TO_ACT]
            s[HANDS + seat] = (s[HANDS + seat] & ~mask) | (np.int64(1) << s[STOCK])
            s[STOCK] = low_card(mask)
        else:
            step_gift(s, mask, meta)  # #24, #84
    elif kind == TAKE_KIND:
        s[TAKING] = 1
        if s[THROW_IN] != 0:
            start_throw_round(s)
        else:
            end_bout(s, True)
    elif kind == TRY_KIND:
        # ``bout_extras._second_try``: the stuck card is marked and the stock's top card goes
        # to the defender, who goes on defending
        s[TRIED] |= np.int64(1) << stuck_card(s)
        ns = s[N_STOCK] - 1
        s[HANDS + s[DEFENDER]] |= np.int64(1) << s[STOCK + ns]
        s[N_STOCK] = ns
        if s[STOCK_SEEN] == s[STOCK + ns]:
            s[STOCK_SEEN] = -1
        stock_taken(s)
    elif kind == STOCK_KIND:
        # ``bout_extras._stock_play``: the stock's top card is the attack card; the player's
        # hand is untouched. A thrower's card of no rank on the table goes back on top, seen
        # by all, and he keeps his turn (#83)
        ns = s[N_STOCK] - 1
        c = s[STOCK + ns]
        lead = s[PHASE] == LEAD_PHASE
        if not lead and not (s[TABLE_RANKS] >> c) & 1:
            s[STOCK_SEEN] = c
            return
        s[N_STOCK] = ns
        if s[STOCK_SEEN] == c:
            s[STOCK_SEEN] = -1
        stock_taken(s)
        na = s[N_ATTACK]
        s[ATTACK + na] = c
        s[DEFENCE + na] = -1
        s[N_ATTACK] = na + 1
        s[UNCOVERED] += 1
        s[TABLE_RANKS] |= rank_set(s, c)
        s[TABLE] |= np.int64(1) << c
        s[STOCK_PLAYS] += 1
        if lead:
            s[PHASE] = DEFEND_PHASE
            s[TO_ACT] = s[DEFENDER]
        else:
            s[PASSES] = 0
            if room(s) <= 0:
                advance_thrower(s)
    elif kind == SHOW_KIND:
        # ``show_trump``'s step (#96): the card stays in the hand; the attack passes on as a
        # transfer passes it (``DurakState.pass_attack_on``)
        seat = s[DEFENDER]
        s[SHOWN] |= 1 << seat
        pass_attack_on(s)
    else:  # TRANSFER_KIND
        seat = s[DEFENDER]
        hand = s[HANDS + seat] ^ mask
        s[HANDS + seat] = hand
        na = s[N_ATTACK]
        if s[ONLY_NEW] != 0:
            # #11: the cards left uncovered are neutralised (``phases.NEUTRAL``, -2); the new
            # defender beats only the transfer card
            for i in range(na):
                if s[DEFENCE + i] == -1:
                    s[DEFENCE + i] = -2
            s[UNCOVERED] = 0
        s[ATTACK + na] = low_card(mask)
        s[DEFENCE + na] = -1
        s[N_ATTACK] = na + 1
        s[UNCOVERED] += 1
        s[TABLE] |= mask
        if hand == 0 and s[N_STOCK] == 0:
            go_out(s, seat)
        pass_attack_on(s)
        if s[GIFTS] != 0 and mask & s[JOKERS]:
            # #24 A3: passing a lone joker on with the other one costs five cards
            new = s[DEFENDER]
            if s[GIVER_TRANSFERRER] != 0:
                start_gift(s, seat, new, 5)
            else:
                start_gift(s, new, seat, 5)


# --- the deal ------------------------------------------------------------------------------


@njit(cache=True)
def _rejected(s, c):  # type: ignore[no-untyped-def]
    """``setup._rejected``: #74's aces or lowest rank, and special cards (§3.3), may not be
    the trump card (``layout.REJECTED``, as data)."""
    return (s[REJECTED] >> c) & 1 != 0


@njit(cache=True)
def _turn_trump(s, rest, length):  # type: ignore[no-untyped-def]
    """``setup._turn_trump`` on ``rest[:length]`` (top first): remove and return the trump
    card; a rejected card is buried at a random place inside the stock."""
    source = s[TRUMP_SOURCE]
    tried = np.int64(0)
    for _ in range(length):
        if source == 0:
            i = 0
        elif source == 1 or source == 2:
            i = length - 1
        else:  # any_card: a random place among the cards not tried yet
            free = 0
            for j in range(length):
                if not (tried >> rest[j]) & 1:
                    free += 1
            pick = np.random.randint(0, free)
            i = 0
            for j in range(length):
                if not (tried >> rest[j]) & 1:
                    if pick == 0:
                        i = j
                        break
                    pick -= 1
        cand = rest[i]
        if not _rejected(s, cand) or length == 1:
            for j in range(i, length - 1):
                rest[j] = rest[j + 1]
            return cand
        tried |= np.int64(1) << cand
        for j in range(i, length - 1):
            rest[j] = rest[j + 1]
        where = np.random.randint(1, length - 1) if length - 1 > 1 else 0
        for j in range(length - 1, where, -1):
            rest[j] = rest[j - 1]
        rest[where] = cand
        every = True
        for j in range(length):
            if not _rejected(s, rest[j]):
                every = False
                break
        if every:
            break
    i = 0 if source == 0 else length - 1
    cand = rest[i]
    for j in range(i, length - 1):
        rest[j] = rest[j + 1]
    return cand


@njit(cache=True)
def trump_row(s, card):  # type: ignore[no-untyped-def]
    """The row of ``layout.TRUMP_ROWS`` a turned ``card`` makes the deal's: its suit, or
    for a special card (§3.3) no trump or what its joker system makes of it
    (``setup.trump_context``: #25's colour, #27's wild jokers)."""
    row = s[SUIT_OF + card]
    if row >= 4:
        rank = s[RANK_OF + card]
        row = JOKER_ROWS + rank - 1 if rank == 1 or rank == 2 else NO_TRUMP_ROW
    return row


@njit(cache=True)
def set_trump_row(s, row):  # type: ignore[no-untyped-def]
    """What beats what and the trumps of one row of ``layout.TRUMP_ROWS``, from now on."""
    at = TRUMP_ROWS + 64 * row
    for j in range(64):
        s[BEATS + j] = s[at + j]
    trumps = s[ROW_TRUMPS + row]
    s[TRUMP_SET] = trumps
    # ``Deal.trump_suit``: the lowest trump suit (cards are numbered suit by suit), or -1
    s[TRUMP] = s[SUIT_OF + low_card(trumps)] if trumps != 0 else -1


@njit(cache=True)
def _lowest_holder(s, dealer, among):  # type: ignore[no-untyped-def]
    """``setup._lowest``: the seat holding the lowest-ranked card of ``among``, the first
    clockwise from the dealer's left on a tie; -1 if nobody holds one."""
    n = s[PLAYERS]
    best_rank = 99
    best = -1
    for i in range(1, n + 1):
        seat = (dealer + i) % n
        m = s[HANDS + seat] & among
        while m:
            c = low_card(m)
            m &= m - 1
            r = s[RANK_OF + c]
            if r < best_rank:
                best_rank = r
                best = seat
    return best


@njit(cache=True)
def deal(s, pack, work, rng):  # type: ignore[no-untyped-def]
    """``setup.deal`` for the first deal of a match: shuffle, draw the dealer by lot, deal one
    card at a time from the dealer's left, turn the trump, choose the first attacker. ``s``
    holds the rule facts and nothing else yet; ``work`` is room for the shuffled pack."""
    size = pack.size
    for j in range(size):
        work[j] = pack[j]
    shuffle(work, size, rng)
    if s[DESCENDING] != 0:
        # #23 Albanian: aces on top, then kings, ... each rank in its shuffled suit order
        # (special cards above the aces); a stable insertion sort
        for j in range(1, size):
            c = work[j]
            key = _order_rank(s, c)
            i = j - 1
            while i >= 0 and _order_rank(s, work[i]) < key:
                work[i + 1] = work[i]
                i -= 1
            work[i + 1] = c
    if s[SEARCH_INDICATOR] != 0:
        # #80: the first card of the agreed trump suit is laid aside to lie under the
        # stock, the rest shuffled again (``setup._search_indicator``)
        for i in range(size):
            c = work[i]
            if s[SUIT_OF + c] == s[FIXED_SUIT]:
                for j in range(i, size - 1):
                    work[j] = work[j + 1]
                shuffle(work, size - 1, rng)
                work[size - 1] = c
                break
    deal_shuffled(s, work[:size], next_below(rng, s[PLAYERS]))


@njit(cache=True, inline="always")
def shuffle(work, size, rng):  # type: ignore[no-untyped-def]
    """Fisher-Yates on ``work[:size]`` with the kernel's generator."""
    for j in range(size - 1, 0, -1):
        i = next_below(rng, j + 1)
        c = work[i]
        work[i] = work[j]
        work[j] = c


@njit(cache=True, inline="always")
def _order_rank(s, c):  # type: ignore[no-untyped-def]
    """``setup._order_rank``: the rank a descending pack is stacked by."""
    return s[RANK_OF + c] + (20 if s[SUIT_OF + c] >= 4 else 0)


@njit(cache=True)
def deal_shuffled(s, deck, dealer):  # type: ignore[no-untyped-def]
    """The deal from a shuffled pack (``deck[0]`` on top) and the dealer drawn by lot: the
    part of ``setup.deal`` after its shuffle. ``deck`` is used up as working space."""
    n = s[PLAYERS]
    if s[BOOKS] != 0:
        for seat in range(n):  # the books behind the head (a batch deals again)
            s[POINTS + seat] = 0
            s[FIGURES + seat] = 0
            s[SIXES + seat] = 0
            s[RESERVE + seat] = 0
    k = s[RESERVE_SIZE]
    if k != 0:
        # #37: the buy-in is dealt first, face down, one card at a time from the dealer's left
        for i in range(n * k):
            seat = (dealer + 1 + i % n) % n
            s[RESERVE + seat] |= np.int64(1) << deck[i]
        deck = deck[n * k:]
    pos = deck.size if s[WHOLE_PACK] != 0 else n * s[HAND_SIZE]
    indicator = -1
    if s[SEARCH_INDICATOR] != 0:
        # #80: the indicator lies last in ``deck``; it is dealt (last) only when the hands
        # would take more than every other card
        if pos >= deck.size:
            pos = deck.size
        else:
            indicator = deck[deck.size - 1]
    if pos > deck.size:
        pos = deck.size
    for k in range(n):
        got = 0
        for j in range(k, pos, n):
            got |= 1 << deck[j]
        s[HANDS + (dealer + 1 + k) % n] = got
    length = deck.size - pos
    source = s[TRUMP_SOURCE]
    if source >= FIXED_SOURCE:
        # fixed or none, the last sources: no card is turned (``setup.deal``), the trump is
        # agreed or there is none (#15)
        for j in range(length):
            s[STOCK + j] = deck[deck.size - 1 - j]
        s[N_STOCK] = length
        trump_card = indicator
    elif length == 0:
        # the whole pack is dealt: the dealer's last card fixes the trump, or, if it may not
        # be the trump card, the one dealt to him the round before, and so on
        trump_card = deck[pos - 1]
        for j in range(pos - 1, -1, -n):
            if not _rejected(s, deck[j]):
                trump_card = deck[j]
                break
        s[N_STOCK] = 0
    else:
        rest = deck[pos:]
        trump_card = _turn_trump(s, rest, length)
        s[STOCK] = trump_card
        for j in range(length - 1):
            s[STOCK + 1 + j] = rest[length - 2 - j]
        s[N_STOCK] = length
    if s[SECRET_SECOND] != 0 and source < FIXED_SOURCE and length > 1:
        # #18: the next card goes face down under the trump card, out of the stock
        s[N_STOCK] -= 1
        s[SECRET] = s[STOCK + s[N_STOCK]]
    if s[REMOVE_STOCK] != 0:
        s[N_STOCK] = 0  # #32: the trump is turned and seen, then the stock goes aside unseen
    s[TRUMP_CARD] = trump_card
    if source == FIXED_SOURCE:
        row = s[FIXED_SUIT]
    elif source == NONE_SOURCE:
        row = NO_TRUMP_ROW
    else:
        row = trump_row(s, trump_card)
    set_trump_row(s, row)
    if s[LEFT_OF_DEALER] != 0:
        attacker = (dealer + 1) % n
    else:
        trumps = s[TRUMP_SET]
        attacker = _lowest_holder(s, dealer, trumps)
        if attacker < 0:
            if s[LOT_FALLBACK] != 0:
                attacker = np.random.randint(0, n)
            else:
                # the lowest card with a suit (``setup._first_attacker``: never a joker)
                attacker = _lowest_holder(s, dealer, s[SUITED])
                if attacker < 0:
                    attacker = (dealer + 1) % n  # only special cards were dealt
    s[ATTACKER] = attacker
    s[LEADER] = attacker
    s[TO_ACT] = attacker
    s[DEFENDER] = (attacker + 1) % n
    s[PLAYED] = s[DEFENDER] if s[TEAM_PROXY] != 0 else -1
    s[PHASE] = LEAD_PHASE


# --- playouts ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def restore(s, start):  # type: ignore[no-untyped-def]
    """Copy position ``start`` over ``s`` (both arrays, ``s`` once a full copy of ``start``):
    its facts and the bout openings in use, not the trump rows, which no move changes. (Plain
    loops: numba's slice assignment is four times slower.)"""
    for j in range(HEAD):
        s[j] = start[j]
    for j in range(SEEN, SEEN + start[N_SEEN] * (start[PLAYERS] + 3)):
        s[j] = start[j]



@njit(cache=True)
def playout(s, masks, metas, max_steps, rng):  # type: ignore[no-untyped-def]
    """Uniformly random legal actions until the game ends; the number of actions, or -1 if
    ``max_steps`` passed first (a guard, never reached by a real game) or a running game had
    no legal action (where the reference engine fails too). A forced action draws no random
    number."""
    steps = 0
    while s[PHASE] != OVER_PHASE:
        if steps >= max_steps:
            return -1
        k = legal_actions(s, masks, metas)
        if k == 0:
            return -1
        r = next_below(rng, k) if k > 1 else 0
        step(s, masks[r], metas[r])
        steps += 1
    return steps


# --- entry points (arrays in, pointers inside) ------------------------------------------------


@njit(cache=True)
def legal_actions_of(state, masks, metas):  # type: ignore[no-untyped-def]
    """:func:`legal_actions` of a position array into two buffer arrays."""
    return legal_actions(ptr_of(state), ptr_of(masks), ptr_of(metas))


@njit(cache=True)
def step_of(state, mask, meta):  # type: ignore[no-untyped-def]
    """:func:`step` on a position array."""
    step(ptr_of(state), mask, meta)


@njit(cache=True)
def deal_of(template, deck, dealer, seed):  # type: ignore[no-untyped-def]
    """The position :func:`deal_shuffled` deals from ``deck`` (a shuffled pack, top first)
    with this dealer; ``seed`` feeds any random choice left (#74 burials, any_card, lot)."""
    np.random.seed(seed)
    s = template.copy()
    deal_shuffled(ptr_of(s), deck.copy(), dealer)
    return s


@njit(cache=True)
def seed_rng(seed):  # type: ignore[no-untyped-def]
    np.random.seed(seed)

