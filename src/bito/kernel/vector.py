"""Many learning environments stepped in one compiled call: the kernel side of
:class:`bito.env.vector.DurakVectorEnv`.

The rules are the kernel's (:mod:`bito.kernel.core`, differential-tested against the reference
engine); this module adds only what a learner needs around them, in compiled code over arrays
of positions:

* **what the seats have seen** (:func:`first_shown`, :func:`step_seen`): the reference engine
  keeps, per seat, the cards publicly known to be in that hand (``DurakState.known``: the card
  shown for the first attack, the face-up trump card once drawn, the cards a defender picked
  up). The kernel plays without it, because no rule reads it; observations do.
* **the observation and the action numbering**: the same vector as
  :class:`bito.env.observation.ObservationEncoder` and the same integers as
  :class:`bito.env.codec.ActionCodec`, written from kernel positions. The plane offsets and the
  codec's tables come from those two classes (:func:`bito.env.vector.kernel_tables`), so the
  numbering is defined once; ``tests/env/test_vector_env.py`` compares the two encodings step
  by step.
* **the opponents** (uniformly random, or the compiled greedy policy of
  :mod:`bito.kernel.greedy`) and the **auto-reset** (Gymnasium's ``NEXT_STEP`` mode: the step
  after a deal ends deals again and ignores that env's action).

Positions are rows of one flat array (``width`` entries each: the layout's head and room for
:data:`layout.MAX_SEEN` bout openings of ``end.repetition`` at this seat count); every env has
its own random generator, so an env's games do not depend on how many envs run beside it.
(The rare random facts of a deal, a buried trump card or a first attacker by lot, come from
numba's global generator, as in :func:`bito.kernel.core.deal`.)
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.extending import intrinsic

from bito.kernel.core import deal, legal_actions, low_card, next_below, popcount, ptr_of, step
from bito.kernel.core import seed_state as _seed_one
from bito.kernel.greedy import EPSILON_SCALE, greedy_choice
from bito.kernel.layout import (
    ATTACK,
    ATTACK_KIND,
    ATTACKER,
    BOUT,
    DEFENCE,
    DEFENDER,
    DISCARD,
    HANDS,
    HEAD,
    LEADER,
    LEFT_OF_DEALER,
    LOSER,
    LOT_FALLBACK,
    MAX_ACTIONS,
    MAX_PLAYERS,
    N_ATTACK,
    N_OUT,
    N_STOCK,
    OUT,
    OVER_PHASE,
    PASS_KIND,
    PHASE,
    PLAYERS,
    RANK_SETS,
    RESULT,
    SEEN,
    STOCK,
    TABLE,
    TAKE_KIND,
    TAKING,
    TO_ACT,
    TRANSFER_KIND,
    TRUMP,
    TRUMP_CARD,
    TRUMP_ROWS,
)

# --- the observation's plane offsets, in the order of ``OFFSETS`` ---------------------------
P_HAND, P_ATTACK_OPEN, P_ATTACK_COVERED, P_DEFENCE, P_DISCARD, P_KNOWN = 0, 1, 2, 3, 4, 5
P_TRUMP_CARD, P_TRUMP_SUIT, P_UNSEEN, P_HAND_COUNTS, P_STOCK, P_DISCARD_COUNT = 6, 7, 8, 9, 10, 11
P_ROLE, P_PHASE, P_TO_ACT, P_ATTACKER, P_DEFENDER, P_OUT, P_BOUT = 12, 13, 14, 15, 16, 17, 18
PLANES = ("hand", "attack_open", "attack_covered", "defence", "discard", "known_1",
          "trump_card", "trump_suit", "unseen", "hand_counts", "stock", "discard_count", "role",
          "phase", "to_act", "attacker", "defender", "out", "bout")
"""The planes of the base games' observation, by their names in ``ObservationEncoder.planes``
(``known_k`` follow ``known_1`` back to back)."""

# --- codec tables: indices into the ``codes`` array ------------------------------------------
C_TAKE, C_PASS = 0, 1
C_ATTACK = 2  # 64 entries: the one-card attack of each card code (-1: none)
C_TRANSFER = C_ATTACK + 64  # 64 entries
C_DEFEND = C_TRANSFER + 64  # 64 * 64 entries: cover * 64 + target
C_SIZE = C_DEFEND + 64 * 64

UNCODED = -1
"""A legal kernel action the codec does not number (a bug: the tests hold it never happens)."""

FAILED_STEPS = 100_000
"""Opponent moves in a row past which a deal is abandoned as truncated (never in a real game)."""

RANDOM_OPPONENT, GREEDY_OPPONENT = 0, 1


@intrinsic
def ptr_add(typingctx, ptr, offset):  # type: ignore[no-untyped-def]
    """``ptr + offset`` for an int64 pointer: the row of one env in the flat position array."""
    sig = ptr(ptr, types.int64)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.gep(args[0], [args[1]])

    return sig, codegen


@intrinsic
def data_ptr(typingctx, arr):  # type: ignore[no-untyped-def]
    """The data pointer of an array of any number type (:func:`~bito.kernel.core.ptr_of`
    types int64 only): for the observations (float32), the masks (int8), the generators
    (uint64) and the returns (float64)."""
    sig = types.CPointer(arr.dtype)(arr)

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


# --- what the seats have seen ------------------------------------------------------------------


@njit(cache=True, inline="always")
def see_trump_card(s, known):  # type: ignore[no-untyped-def]
    """``known &= hands``, and the face-up trump card is known in whichever hand holds it (it
    was drawn face up, or shown when the whole pack was dealt)."""
    bit = np.int64(1) << s[TRUMP_CARD]
    for seat in range(s[PLAYERS]):
        h = s[HANDS + seat]
        known[seat] = (known[seat] | (h & bit)) & h


@njit(cache=True)
def first_shown(s, known):  # type: ignore[no-untyped-def]
    """``Deal.shown`` of a fresh kernel deal: the first attacker shows the lowest trump that
    made him first (or, when nobody was dealt a trump and no lot decides, his lowest card);
    nothing is shown when the first attacker sits left of the dealer."""
    n = s[PLAYERS]
    for seat in range(n):
        known[seat] = 0
    if s[LEFT_OF_DEALER] == 0:
        a = s[ATTACKER]
        trumps = np.int64(0xFFFF) << (s[TRUMP] * 16)
        held = np.int64(0)
        for seat in range(n):
            held |= s[HANDS + seat] & trumps
        if held:
            m = s[HANDS + a] & trumps
            if m:
                known[a] = m & -m
        elif s[LOT_FALLBACK] == 0:
            m = s[HANDS + a]
            best = -1
            while m:
                c = low_card(m)
                m &= m - 1
                if best < 0 or (c & 15) < (best & 15):
                    best = c
            if best >= 0:
                known[a] = np.int64(1) << best
    see_trump_card(s, known)


@njit(cache=True)
def step_seen(s, known, mask, meta):  # type: ignore[no-untyped-def]
    """:func:`~bito.kernel.core.step`, keeping ``known`` as ``DurakState.known`` is kept: a
    played card is no longer known in the hand, a defender who takes is known to hold the
    table, the face-up trump card is known once drawn."""
    d = s[DEFENDER]
    table = s[TABLE] | mask
    step(s, mask, meta)
    if s[TABLE] == 0 and (s[DISCARD] & table) != table:  # the bout ended, taken
        known[d] |= table
    see_trump_card(s, known)


# --- the action numbering ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def code_index(mask, meta, codes, multi_masks, multi_index,
               n_multi):  # type: ignore[no-untyped-def]
    """The codec integer of a kernel action (:data:`UNCODED` if it has none); several-card
    attacks by binary search in the sorted ``multi_masks``."""
    kind = meta & 7
    if kind == TAKE_KIND:
        return codes[C_TAKE]
    if kind == PASS_KIND:
        return codes[C_PASS]
    if mask & (mask - 1) == 0:  # one card
        c = low_card(mask)
        if kind == ATTACK_KIND:
            return codes[C_ATTACK + c]
        if kind == TRANSFER_KIND:
            return codes[C_TRANSFER + c]
        return codes[C_DEFEND + c * 64 + (meta >> 3) - 1]
    if kind != ATTACK_KIND:
        return UNCODED
    lo = 0
    hi = n_multi
    while lo < hi:
        mid = (lo + hi) >> 1
        if multi_masks[mid] < mask:
            lo = mid + 1
        else:
            hi = mid
    if lo < n_multi and multi_masks[lo] == mask:
        return multi_index[lo]
    return UNCODED


# --- the observation ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _cards(o, start, m, card_pos):  # type: ignore[no-untyped-def]
    while m:
        c = low_card(m)
        m &= m - 1
        o[start + card_pos[c]] = 1.0


@njit(cache=True)
def encode(s, known, me, o, width, off, card_pos, pack, all_cards):  # type: ignore[no-untyped-def]
    """``ObservationEncoder.encode(state.view(me))`` of a kernel position into the ``width``
    floats at ``o`` (one env's row)."""
    for j in range(width):
        o[j] = 0.0
    n = s[PLAYERS]
    d = popcount(all_cards)  # one card plane
    hand = s[HANDS + me]
    _cards(o, off[P_HAND], hand, card_pos)
    att_open = np.int64(0)
    att_cov = np.int64(0)
    cov = np.int64(0)
    for k in range(s[N_ATTACK]):
        a = s[ATTACK + k]
        c = s[DEFENCE + k]
        if c < 0:
            att_open |= np.int64(1) << a
        else:
            att_cov |= np.int64(1) << a
            cov |= np.int64(1) << c
    _cards(o, off[P_ATTACK_OPEN], att_open, card_pos)
    _cards(o, off[P_ATTACK_COVERED], att_cov, card_pos)
    _cards(o, off[P_DEFENCE], cov, card_pos)
    discard = s[DISCARD]
    _cards(o, off[P_DISCARD], discard, card_pos)
    seen = hand | att_open | att_cov | cov | discard
    for k in range(1, n):
        other = (me + k) % n
        kn = known[other] & s[HANDS + other]
        _cards(o, off[P_KNOWN] + (k - 1) * d, kn, card_pos)
        seen |= kn
    tc = s[TRUMP_CARD]
    o[off[P_TRUMP_CARD] + card_pos[tc]] = 1.0
    in_stock = s[N_STOCK] > 0 and s[STOCK] == tc
    if in_stock:
        seen |= np.int64(1) << tc
    _cards(o, off[P_TRUMP_SUIT], all_cards & (np.int64(0xFFFF) << (s[TRUMP] * 16)), card_pos)
    _cards(o, off[P_UNSEEN], all_cards & ~seen, card_pos)
    for k in range(n):
        o[off[P_HAND_COUNTS] + k] = popcount(s[HANDS + (me + k) % n]) / pack
    o[off[P_STOCK]] = s[N_STOCK] / pack
    o[off[P_STOCK] + 1] = 1.0 if in_stock else 0.0
    o[off[P_DISCARD_COUNT]] = popcount(discard) / pack
    r = off[P_ROLE]
    o[r] = 1.0 if s[ATTACKER] == me else 0.0
    o[r + 1] = 1.0 if s[DEFENDER] == me else 0.0
    o[r + 2] = 1.0 if s[LEADER] == me else 0.0
    o[r + 3] = 1.0 if s[TO_ACT] == me else 0.0
    o[r + 4] = 1.0 if s[TAKING] != 0 else 0.0
    ph = s[PHASE]
    o[off[P_PHASE] + (ph if ph < 3 else 3)] = 1.0
    for plane, seat in ((P_TO_ACT, s[TO_ACT]), (P_ATTACKER, s[ATTACKER]),
                        (P_DEFENDER, s[DEFENDER])):
        if 0 <= seat < n:
            o[off[plane] + (seat - me) % n] = 1.0
    for k in range(s[N_OUT]):
        o[off[P_OUT] + (s[OUT + k] - me) % n] = 1.0
    bout = s[BOUT]
    o[off[P_BOUT]] = (bout if bout < 100 else 100) / 100.0


# --- one env ------------------------------------------------------------------------------------


@njit(cache=True)
def play_opponents(s, known, learner, kinds, mp, tp, rng, worth, lim_stock, lim_empty,
                   eps):  # type: ignore[no-untyped-def]
    """The other seats move until ``learner`` is to act or the deal is over; False if the deal
    had to be abandoned (no legal move, or :data:`FAILED_STEPS` passed). ``worth`` holds 64
    card worths per trump suit."""
    moves = 0
    while s[PHASE] != OVER_PHASE and s[TO_ACT] != learner:
        k = legal_actions(s, mp, tp)
        if k == 0 or moves >= FAILED_STEPS:
            return False
        if k == 1:
            r = 0
        elif kinds[s[TO_ACT]] == RANDOM_OPPONENT or (
                eps > 0 and next_below(rng, EPSILON_SCALE) < eps):
            r = next_below(rng, k)
        else:
            t = s[TRUMP]
            r = greedy_choice(s, mp, tp, k, ptr_add(worth, t * 64), lim_stock[t],
                              lim_empty[t])
        step_seen(s, known, mp[r], tp[r])
        moves += 1
    return True


@njit(cache=True)
def write_mask(s, m, acts, mp, tp, codes, multi_masks, multi_index, n_multi, last, room,
               was):  # type: ignore[no-untyped-def]
    """The legal entries of ``s`` into the ``acts`` bytes at ``m`` (one env's mask row), which
    hold 1 at the ``was`` entries listed at ``last`` (or anything when ``was`` is -1).
    Returns the legal count (-1 when a legal action has no codec integer) and the new count
    listed at ``last`` (-1 when they did not fit in its ``room``)."""
    if was < 0:
        for j in range(acts):
            m[j] = 0
    else:
        for j in range(was):
            m[last[j]] = 0
    if s[PHASE] == OVER_PHASE:
        return 0, 0
    k = legal_actions(s, mp, tp)
    bad = False
    for r in range(k):
        idx = code_index(mp[r], tp[r], codes, multi_masks, multi_index, n_multi)
        if idx < 0:
            bad = True
            continue
        m[idx] = 1
        if r < room:
            last[r] = idx
    return (-1 if bad else k), (k if k <= room and not bad else -1)


@njit(cache=True)
def _outcome(s, seat, returns):  # type: ignore[no-untyped-def]
    """Every seat's return into ``returns`` (one env's row); ``seat``'s
    (``bito.env.payoff.seat_returns``)."""
    n = s[PLAYERS]
    for k in range(n):
        returns[k] = 0.0
    if s[RESULT] != 1:
        return 0.0
    loser = s[LOSER]
    share = 1.0 / (n - 1)
    for k in range(n):
        returns[k] = -1.0 if k == loser else share
    return returns[seat]


@njit(cache=True)
def begin_one(s, kn, rng, fresh, template, pack, work, learner, self_play, kinds, mp, tp,
              worth, lim_stock, lim_empty, eps):  # type: ignore[no-untyped-def]
    """Deal (``fresh``; else the loaded position stays) and let the opponents move until the
    learner is to act; a deal that ends first is dealt again. The seat observed."""
    while True:
        if fresh:
            for j in range(HANDS):
                s[j] = template[j]
            for j in range(RANK_SETS, HEAD):  # which cards match in rank: rule facts too
                s[j] = template[j]
            for j in range(TRUMP_ROWS, SEEN):  # the beat tables the deal picks from
                s[j] = template[j]
            deal(s, pack, work, rng)
            first_shown(s, kn)
        fresh = True
        if self_play:
            if s[PHASE] != OVER_PHASE:
                return s[TO_ACT]
            continue
        if not play_opponents(s, kn, learner, kinds, mp, tp, rng, worth, lim_stock,
                              lim_empty, eps):
            continue
        if s[PHASE] != OVER_PHASE:
            return learner


@njit(cache=True)
def vector_begin(states, width, known, template, pack, work, fresh, learner, self_play,
                 kinds, rngs, worth, lim_stock, lim_empty, eps, obs, masks, last, n_last,
                 seats, off, card_pos, pack_size, all_cards, codes, multi_masks,
                 multi_index):  # type: ignore[no-untyped-def]
    """Start every env whose ``fresh`` entry is 1 (0: its position is already loaded, with its
    known cards; -1: leave it): deal, let the opponents move, observe. Returns how many
    legal actions had no codec integer (0; the tests hold it)."""
    mb = np.empty(MAX_ACTIONS, np.int64)
    tb = np.empty(MAX_ACTIONS, np.int64)
    mp = ptr_of(mb)
    tp = ptr_of(tb)
    base = ptr_of(states)
    kb = ptr_of(known)
    rb = data_ptr(rngs)
    ob = data_ptr(obs)
    mkb = data_ptr(masks)
    lb = ptr_of(last)
    kw = known.shape[1]
    ow = obs.shape[1]
    acts = masks.shape[1]
    room = last.shape[1]
    bad = 0
    for i in range(fresh.size):
        if fresh[i] < 0:
            continue
        s = ptr_add(base, i * width)
        kn = ptr_add(kb, i * kw)
        me = begin_one(s, kn, ptr_add(rb, i), fresh[i] == 1, template, pack, work, learner,
                       self_play, ptr_of(kinds), mp, tp, ptr_of(worth), data_ptr(lim_stock),
                       data_ptr(lim_empty), eps)
        seats[i] = me
        encode(s, kn, me, ptr_add(ob, i * ow), ow, ptr_of(off), ptr_of(card_pos), pack_size,
               all_cards)
        k, now = write_mask(s, ptr_add(mkb, i * acts), acts, mp, tp, ptr_of(codes),
                            ptr_of(multi_masks), ptr_of(multi_index), multi_masks.size,
                            ptr_add(lb, i * room), room, -1)
        n_last[i] = now
        if k < 0:
            bad += 1
    return bad


@njit(cache=True)
def step_range(lo, hi, states, width, known, template, pack, actions, pending, learner,
               self_play, kinds, rngs, worth, lim_stock, lim_empty, eps, act_masks,
               act_metas, obs, masks, last, n_last, seats, rewards, terminated, truncated,
               illegal, returns, off, card_pos, pack_size, all_cards, codes, multi_masks,
               multi_index):  # type: ignore[no-untyped-def]
    """One learner step in envs ``lo..hi-1`` (see :func:`vector_step`), with move buffers of
    its own, so that ranges may run on several threads. Every per-env helper gets raw
    pointers (:func:`~bito.kernel.core.ptr_of`): an array argument would cost two atomic
    reference-count updates per call, and at a dozen calls per env that was a third of the
    observation's time."""
    mb = np.empty(MAX_ACTIONS, np.int64)
    tb = np.empty(MAX_ACTIONS, np.int64)
    work = np.empty(pack.size, np.int64)
    mp = ptr_of(mb)
    tp = ptr_of(tb)
    base = ptr_of(states)
    kb = ptr_of(known)
    rb = data_ptr(rngs)
    ob = data_ptr(obs)
    mkb = data_ptr(masks)
    lb = ptr_of(last)
    retb = data_ptr(returns)
    kindp = ptr_of(kinds)
    worthp = ptr_of(worth)
    lsp = data_ptr(lim_stock)
    lep = data_ptr(lim_empty)
    offp = ptr_of(off)
    cardp = ptr_of(card_pos)
    codesp = ptr_of(codes)
    mmp = ptr_of(multi_masks)
    mip = ptr_of(multi_index)
    n_multi = multi_masks.size
    kw = known.shape[1]
    ow = obs.shape[1]
    acts = masks.shape[1]
    room = last.shape[1]
    rw = returns.shape[1]
    bad = 0
    for i in range(lo, hi):
        rewards[i] = 0.0
        terminated[i] = False
        truncated[i] = False
        illegal[i] = False
        s = ptr_add(base, i * width)
        kn = ptr_add(kb, i * kw)
        rng = ptr_add(rb, i)
        m = ptr_add(mkb, i * acts)
        if pending[i]:
            pending[i] = False
            me = begin_one(s, kn, rng, True, template, pack, work, learner, self_play, kindp,
                           mp, tp, worthp, lsp, lep, eps)
        else:
            a = actions[i]
            me = seats[i]
            if a < 0 or a >= acts or m[a] == 0:
                # the deal ends and the observation stays that of the position it met
                illegal[i] = True
                terminated[i] = True
                rewards[i] = -1.0
                pending[i] = True
                continue
            step_seen(s, kn, act_masks[a], act_metas[a])
            ok = True
            if self_play:
                if s[PHASE] != OVER_PHASE:
                    me = s[TO_ACT]
            else:
                ok = play_opponents(s, kn, learner, kindp, mp, tp, rng, worthp, lsp, lep, eps)
            if not ok or s[RESULT] == 3:
                truncated[i] = True
                pending[i] = True
            elif s[PHASE] == OVER_PHASE:
                rewards[i] = _outcome(s, me, ptr_add(retb, i * rw))
                terminated[i] = True
                pending[i] = True
        seats[i] = me
        encode(s, kn, me, ptr_add(ob, i * ow), ow, offp, cardp, pack_size, all_cards)
        k, now = write_mask(s, m, acts, mp, tp, codesp, mmp, mip, n_multi,
                            ptr_add(lb, i * room), room, n_last[i])
        n_last[i] = now
        if k < 0:
            bad += 1
    return bad


@njit(cache=True)
def vector_step(states, width, known, template, pack, actions, pending, learner,
                self_play, kinds, rngs, worth, lim_stock, lim_empty, eps, act_masks,
                act_metas, obs, masks, last, n_last, seats, rewards, terminated, truncated,
                illegal, returns, off, card_pos, pack_size, all_cards, codes, multi_masks,
                multi_index):  # type: ignore[no-untyped-def]
    """One learner step in every env, on this thread. ``pending[i]`` marks an env whose deal
    ended on the previous step: it is dealt again, its action ignored, its reward 0
    (Gymnasium's ``NEXT_STEP`` auto-reset). Returns how many legal actions had no codec
    integer."""
    return step_range(0, actions.size, states, width, known, template, pack, actions,
                      pending, learner, self_play, kinds, rngs, worth, lim_stock, lim_empty,
                      eps, act_masks, act_metas, obs, masks, last, n_last, seats, rewards,
                      terminated, truncated, illegal, returns, off, card_pos, pack_size,
                      all_cards, codes, multi_masks, multi_index)


@njit(cache=True, parallel=True)
def vector_step_threads(chunks, states, width, known, template, pack, actions, pending,
                        learner, self_play, kinds, rngs, worth, lim_stock, lim_empty, eps,
                        act_masks, act_metas, obs, masks, last, n_last, seats, rewards,
                        terminated, truncated, illegal, returns, off, card_pos, pack_size,
                        all_cards, codes, multi_masks,
                        multi_index):  # type: ignore[no-untyped-def]
    """:func:`vector_step` with the envs split into ``chunks`` ranges run on numba's threads
    (every env owns its position, generator and output rows, so the ranges share nothing)."""
    n = actions.size
    bad = 0
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        bad += step_range(lo, hi, states, width, known, template, pack, actions, pending,
                          learner, self_play, kinds, rngs, worth, lim_stock, lim_empty, eps,
                          act_masks, act_metas, obs, masks, last, n_last, seats, rewards,
                          terminated, truncated, illegal, returns, off, card_pos, pack_size,
                          all_cards, codes, multi_masks, multi_index)
    return bad


@njit(cache=True)
def seed_envs(rngs, seeds):  # type: ignore[no-untyped-def]
    """Each env's generator from its own seed."""
    for i in range(rngs.size):
        _seed_one(rngs[i:i + 1], seeds[i])


@njit(cache=True)
def seed_deals(seed):  # type: ignore[no-untyped-def]
    """numba's global generator, for a deal's rare random facts."""
    np.random.seed(seed)


__all__ = ["FAILED_STEPS", "GREEDY_OPPONENT", "MAX_PLAYERS", "PLANES", "RANDOM_OPPONENT",
           "UNCODED", "code_index", "encode", "first_shown", "play_opponents", "seed_deals",
           "seed_envs", "step_range", "step_seen", "vector_begin", "vector_step",
           "vector_step_threads", "write_mask"]
