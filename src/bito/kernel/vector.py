"""Many learning environments stepped in one compiled call: the kernel side of
:class:`bito.env.vector.DurakVectorEnv`.

The rules are the kernel's (:mod:`bito.kernel.core`, differential-tested against the reference
engine); this module adds only what a learner needs around them, in compiled code over arrays
of positions:

* **what the seats have seen** (:func:`first_shown`, :func:`step_seen`): the reference engine
  keeps, per seat, the cards publicly known to be in that hand (``DurakState.known``: the card
  shown for the first attack, the face-up trump card once drawn, the cards a defender picked
  up, a stock card turned and put back, #31's hands with what was known of them), and after
  #31's exchange each seat also knows the hand it passed on (:data:`PASSED`, its own
  knowledge). The kernel plays without them, because no rule reads them; observations do.
* **the observation and the action numbering**: the same vector as
  :class:`bito.env.observation.ObservationEncoder` and the same integers as
  :class:`bito.env.codec.ActionCodec`, written from kernel positions. The plane offsets and the
  codec's tables come from those two classes (:func:`bito.env.vector.kernel_tables`), so the
  numbering is defined once. A row is updated in place (:func:`observe`: only the cards a move
  changes are written; a mask row clears only the entries it set);
  ``tests/env/test_vector_env.py`` and ``tests/env/test_vector_observation.py`` compare the
  rows with the reference encodings step by step.
* **the opponents** (uniformly random, or the compiled greedy policy of
  :mod:`bito.kernel.greedy`) and the **auto-reset** (Gymnasium's ``NEXT_STEP`` mode: the step
  after a deal ends deals again and ignores that env's action).

Positions are rows of one flat array (``width`` entries each: the layout's head and room for
:data:`layout.MAX_SEEN` bout openings of ``end.repetition`` at this seat count); every env has
its own random generator, so an env's games do not depend on how many envs run beside it.
(The rare random facts of a deal, a buried trump card or a first attacker by lot, come from
numba's global generator, as in :func:`bito.kernel.core.deal`.) The loops prefetch the
positions a few envs ahead (:func:`prefetch_position`): with thousands of envs the rules' own
cache misses are most of a step's cost. :func:`bare_step` plays the same steps without
anything a learner sees, the benchmark's yardstick (:mod:`bito.env.vector_bench`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from bito.kernel.core import (
    deal,
    legal_actions,
    low_card,
    next_below,
    popcount,
    ptr_of,
    step,
    team_of,
)
from bito.kernel.core import seed_state as _seed_one
from bito.kernel.core import trump_row as deal_trump_row
from bito.kernel.greedy import EPSILON_SCALE, greedy_choice
from bito.kernel.layout import (
    ATTACK,
    ATTACK_KIND,
    ATTACKER,
    BEATS,
    BLOCK_META,
    BOUT,
    DEFENCE,
    DEFEND_KIND,
    DEFENDER,
    DISCARD,
    EXCHANGE,
    FIXED_SOURCE,
    FIXED_SUIT,
    GIVE_META,
    GIVER,
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
    NO_TRUMP_ROW,
    NONE_SOURCE,
    OUT,
    OUT_MASK,
    OVER_PHASE,
    PASS_KIND,
    PHASE,
    PLAYERS,
    RANK_OF,
    RANK_SETS,
    RECEIVER,
    RESULT,
    REVEALED,
    SECRET,
    SECRET_SECOND,
    SEEN,
    SEQ,
    SHOW_KIND,
    STOCK,
    STOCK_KIND,
    STOCK_SEEN,
    SUITED,
    SWAP_SIX,
    TABLE,
    TAKE_KIND,
    TAKING,
    TEAMS,
    TO_ACT,
    TRANSFER_KIND,
    TRUMP_CARD,
    TRUMP_ROWS,
    TRUMP_SET,
    TRUMP_SOURCE,
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
C_SHOW = C_DEFEND + 64 * 64  # 64 entries: the trump shown to pass the attack on (#96)
C_SIZE = C_SHOW + 64

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


def _prefetch_intrinsic(write: int):  # type: ignore[no-untyped-def]
    """LLVM's ``prefetch`` of the cache line holding ``ptr[offset]``, kept close, for reading
    (``write`` 0) or for writing (1: the line is fetched ready to be written)."""

    @intrinsic
    def hint(typingctx, ptr, offset):  # type: ignore[no-untyped-def]
        sig = types.void(ptr, types.int64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            addr = builder.bitcast(builder.gep(args[0], [args[1]]), ir.IntType(8).as_pointer())
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [addr.type, i32, i32, i32])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            builder.call(fn, [addr, ir.Constant(i32, write), ir.Constant(i32, 3),
                              ir.Constant(i32, 1)])
            return context.get_dummy_value()

        return sig, codegen

    return hint


prefetch = _prefetch_intrinsic(0)
"""Ask the CPU to bring the cache line holding ``ptr[offset]`` in ahead of its use: a hint,
with no effect on what the code computes."""
prefetch_write = _prefetch_intrinsic(1)
""":data:`prefetch` for a line about to be written (an output row)."""


AHEAD = 4
"""How many envs ahead the loops prefetch a position (:func:`prefetch_position`)."""


@njit(cache=True, inline="always")
def prefetch_position(s, span):  # type: ignore[no-untyped-def]
    """The cache lines of a position's facts that a move reads, scattered: with thousands of
    envs a row is out of the caches by the time its turn comes again, and fetched line by
    line as the rules reach it, its misses would cost more than the rules. The rule and
    changing facts, the hands, the order out and the throwers, the first eight attack cards
    and covers, the refill's scratch, and of the stock, the beat table and the rank sets the
    entries of the ``span`` card indices the deck uses; not the table's room past eight
    cards nor the books of the stock group's games, which few moves read (each line fetched
    and not read would take memory bandwidth from the lines that are)."""
    for j in range(0, HANDS + 3 * MAX_PLAYERS, 8):
        prefetch(s, j)
    prefetch(s, ATTACK)
    prefetch(s, DEFENCE)
    prefetch(s, SEQ)
    for j in range(0, span, 8):
        prefetch(s, STOCK + j)
        prefetch(s, BEATS + j)
        prefetch(s, RANK_SETS + j)


@njit(cache=True)
def card_span(pack):  # type: ignore[no-untyped-def]
    """One past the highest card index of the deck (``pack``): the per-card tables' entries
    in use."""
    top = 0
    for c in pack:
        if c + 1 > top:
            top = c + 1
    return top


# --- what the seats have seen ------------------------------------------------------------------


PASSED = MAX_PLAYERS
"""Where an env's ``known`` row keeps, after the seats' own known cards, the hand each seat
last passed on in #31's exchange (one entry per seat): a knowledge of his own, unlike the
public known cards before it."""

KNOWN_WIDTH = 2 * MAX_PLAYERS
"""Entries per env of the ``known`` rows: the public known cards per seat, then
:data:`PASSED`'s."""

SEEING = np.bool_(True)
"""``seeing`` for the learner's env (the known cards kept), :data:`BLIND` for the bare
yardstick. A numpy value, not ``True``: numba compiles a callee once more for every Python
constant passed to it (a literal type), and :func:`play_opponents` with what it inlines is a
twenty-second compilation; a well-predicted branch costs the games nothing measurable."""

BLIND = np.bool_(False)
"""``seeing`` for :func:`bare_step` (see :data:`SEEING`)."""


@njit(cache=True, inline="always")
def see_trump_card(s, known):  # type: ignore[no-untyped-def]
    """``known &= hands``, and the face-up trump card is known in whichever hand holds it (it
    was drawn face up, or shown when the whole pack was dealt; none is turned under
    ``trump.source`` fixed or none)."""
    tc = s[TRUMP_CARD]
    bit = np.int64(1) << tc if tc >= 0 else np.int64(0)
    for seat in range(s[PLAYERS]):
        h = s[HANDS + seat]
        known[seat] = (known[seat] | (h & bit)) & h


@njit(cache=True)
def first_shown(s, known):  # type: ignore[no-untyped-def]
    """``Deal.shown`` of a fresh kernel deal: the first attacker shows the lowest trump that
    made him first (or, when nobody was dealt a trump and no lot decides, his lowest card
    with a suit), as the kernel's deal chose him (ranks from the deck's ``RANK_OF`` table,
    so a deck numbered past its codes, with jokers, reads the same); nothing is shown when
    the first attacker sits left of the dealer."""
    n = s[PLAYERS]
    for seat in range(n):
        known[seat] = 0
        known[PASSED + seat] = 0
    if s[LEFT_OF_DEALER] == 0:
        a = s[ATTACKER]
        trumps = s[TRUMP_SET]
        held = np.int64(0)
        for seat in range(n):
            held |= s[HANDS + seat] & trumps
        among = trumps if held else s[SUITED]
        if held or s[LOT_FALLBACK] == 0:
            m = s[HANDS + a] & among
            best = -1
            while m:
                c = low_card(m)
                m &= m - 1
                if best < 0 or s[RANK_OF + c] < s[RANK_OF + best]:
                    best = c
            if best >= 0:
                known[a] = np.int64(1) << best
    see_trump_card(s, known)


@njit(cache=True, inline="always")
def laid_card(s):  # type: ignore[no-untyped-def]
    """#97: the lowest trump a swap laid face up under the stock, while it lies there (-1:
    none). Nothing else puts a card other than the trump card at the stock's bottom."""
    if s[SWAP_SIX] != 0 and s[N_STOCK] > 0 and s[STOCK] != s[TRUMP_CARD]:
        return s[STOCK]
    return -1


@njit(cache=True, inline="always")
def face_up(s):  # type: ignore[no-untyped-def]
    """The cards lying face up besides the trump card (``DurakView.stock_face_up`` and
    ``secret_card``): #97's swapped six under the stock, #18's secret card once turned."""
    up = np.int64(0)
    laid = laid_card(s)
    if laid >= 0:
        up |= np.int64(1) << laid
    if s[SECRET_SECOND] != 0 and s[REVEALED] != 0 and s[SECRET] >= 0:
        up |= np.int64(1) << s[SECRET]
    return up


@njit(cache=True)
def step_seen(s, known, mask, meta):  # type: ignore[no-untyped-def]
    """:func:`~bito.kernel.core.step`, keeping ``known`` as ``DurakState.known`` is kept: a
    played card is no longer known in the hand, a defender who takes is known to hold the
    table, a trump shown to pass the attack on (#96) is known in the hand that keeps it, the
    face-up trump card is known once drawn, and so is #97's six drawn face up from under the
    stock; a joker's gift is handed over openly (#24) and #84's three of a kind are shown; the
    stock's top card turned and put back (#83) is known in the hand that takes it from the
    stock, by a second try (#39) or a refill."""
    d = s[DEFENDER]
    bout = s[BOUT]
    table = s[TABLE] | mask
    if meta & 7 == STOCK_KIND and s[N_STOCK] > 0:  # the stock's top may join a taken table
        table |= np.int64(1) << s[STOCK + s[N_STOCK] - 1]
    laid = laid_card(s)
    seen = s[STOCK_SEEN]
    if meta == GIVE_META:
        d = s[RECEIVER]
    elif meta == BLOCK_META:
        d = s[GIVER]
    step(s, mask, meta)
    if meta & 7 == SHOW_KIND or meta in (GIVE_META, BLOCK_META):
        known[d] |= mask
    elif s[TABLE] == 0 and (s[DISCARD] & table) != table:  # the bout ended, taken
        known[d] |= table
    if s[EXCHANGE] != 0 and s[BOUT] != bout:
        hands_passed(s, known)
    if laid >= 0 and laid_card(s) != laid:  # drawn from the bottom, face up
        bit = np.int64(1) << laid
        for seat in range(s[PLAYERS]):
            known[seat] |= s[HANDS + seat] & bit
    if seen >= 0 and s[STOCK_SEEN] != seen:  # off the top: led, or into a hand, still seen
        bit = np.int64(1) << seen
        for seat in range(s[PLAYERS]):
            known[seat] |= s[HANDS + seat] & bit
    see_trump_card(s, known)


@njit(cache=True)
def hands_passed(s, known):  # type: ignore[no-untyped-def]
    """After #31's exchange (:func:`~bito.kernel.core.exchange`, at the end of a bout): what
    was known of each hand goes with it to the next seat still in on the left, and each seat
    remembers the hand it passed (``stock.seen_by``: he knows those cards where he sent them,
    in ``known[PASSED + seat]``). The seats that took part are those still in with cards: the
    exchange leaves none of them empty-handed."""
    n = s[PLAYERS]
    out = s[OUT_MASK]
    first = -1
    prev = -1
    carry = np.int64(0)
    for seat in range(n):
        if (out >> seat) & 1 or s[HANDS + seat] == 0:
            continue
        if first < 0:
            first = seat
            carry = known[seat]
        else:
            was = known[seat]
            known[seat] = carry
            carry = was
            known[PASSED + prev] = s[HANDS + seat]
        prev = seat
    if first >= 0 and prev != first:  # two or more took part: the last passed to the first
        known[first] = carry
        known[PASSED + prev] = s[HANDS + first]


# --- the action numbering ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def code_index(mask, meta, codes, multi_masks, multi_index,
               n_multi):  # type: ignore[no-untyped-def]
    """The codec integer of a kernel action (:data:`UNCODED` if it has none). The common
    moves by table (the take, the pass, a one-card attack, transfer, show or cover); every
    other move (several cards at once, and the moves that borrow the take's kind with a
    target no card has: #24's and #84's gifts, #97's swap) by binary search in
    ``multi_masks``, whose entries are ``(meta, mask)`` pairs sorted, two numbers each."""
    kind = meta & 7
    if meta == TAKE_KIND:  # (a take has no target)
        return codes[C_TAKE]
    if kind == PASS_KIND:
        return codes[C_PASS]
    if mask & (mask - 1) == 0 and mask != 0:  # one card
        c = low_card(mask)
        if kind == ATTACK_KIND:
            return codes[C_ATTACK + c]
        if kind == TRANSFER_KIND:
            return codes[C_TRANSFER + c]
        if kind == SHOW_KIND:
            return codes[C_SHOW + c]
        if kind == DEFEND_KIND:
            return codes[C_DEFEND + c * 64 + (meta >> 3) - 1]
    lo = 0
    hi = n_multi
    while lo < hi:
        mid = (lo + hi) >> 1
        m_meta = multi_masks[2 * mid]
        if m_meta < meta or (m_meta == meta and multi_masks[2 * mid + 1] < mask):
            lo = mid + 1
        else:
            hi = mid
    if lo < n_multi and multi_masks[2 * lo] == meta and multi_masks[2 * lo + 1] == mask:
        return multi_index[lo]
    return UNCODED


# --- the observation ---------------------------------------------------------------------------


DRAWN = MAX_PLAYERS + 8
"""Room per env for the card sets its observation row shows (:func:`observe`): one per card
plane, in the planes' order."""


@njit(cache=True, inline="always")
def _redraw(o, start, drawn, j, m, card_pos):  # type: ignore[no-untyped-def]
    """Card plane ``j`` (at ``start`` in the row ``o``) shows ``drawn[j]``: make it show ``m``,
    writing only the cards that changed."""
    d = drawn[j] ^ m
    if d:
        drawn[j] = m
        while d:
            c = low_card(d)
            d &= d - 1
            o[start + card_pos[c]] = np.float32((m >> c) & 1)


@njit(cache=True)
def observe(s, known, me, o, width, off, card_pos, pack, all_cards,
            drawn):  # type: ignore[no-untyped-def]
    """``ObservationEncoder.encode(state.view(me))`` of a kernel position into the ``width``
    floats at ``o`` (one env's row), incrementally: ``drawn`` holds the card set each card
    plane of the row shows now, and only the cards whose entry changes are written (a move
    changes a handful). The scalars behind the card planes are written whole. A row is
    started by zeroing it and ``drawn`` together (:func:`clear_row`); nothing else may write
    to it."""
    n = s[PLAYERS]
    d = popcount(all_cards)  # one card plane
    hand = s[HANDS + me]
    _redraw(o, off[P_HAND], drawn, 0, hand, card_pos)
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
    _redraw(o, off[P_ATTACK_OPEN], drawn, 1, att_open, card_pos)
    _redraw(o, off[P_ATTACK_COVERED], drawn, 2, att_cov, card_pos)
    _redraw(o, off[P_DEFENCE], drawn, 3, cov, card_pos)
    discard = s[DISCARD]
    _redraw(o, off[P_DISCARD], drawn, 4, discard, card_pos)
    seen = hand | att_open | att_cov | cov | discard
    for k in range(1, n):
        other = (me + k) % n
        kn = (known[other] | known[PASSED + me]) & s[HANDS + other]
        _redraw(o, off[P_KNOWN] + (k - 1) * d, drawn, 4 + k, kn, card_pos)
        seen |= kn
    tc = s[TRUMP_CARD]  # (-1: no card was turned for trump)
    up = face_up(s)
    seen |= up
    _redraw(o, off[P_TRUMP_CARD], drawn, 4 + n,
            up | (np.int64(1) << tc if tc >= 0 else np.int64(0)), card_pos)
    in_stock = tc >= 0 and s[N_STOCK] > 0 and s[STOCK] == tc
    if in_stock:
        seen |= np.int64(1) << tc
    _redraw(o, off[P_TRUMP_SUIT], drawn, 5 + n, all_cards & s[TRUMP_SET], card_pos)
    _redraw(o, off[P_UNSEEN], drawn, 6 + n, all_cards & ~seen, card_pos)
    for j in range(off[P_HAND_COUNTS], width):
        o[j] = 0.0
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
    last = off[P_TO_ACT] - off[P_PHASE] - 1  # over (3), or give (4) with joker gifts
    o[off[P_PHASE] + (ph if ph < last else last)] = 1.0
    for plane, seat in ((P_TO_ACT, s[TO_ACT]), (P_ATTACKER, s[ATTACKER]),
                        (P_DEFENDER, s[DEFENDER])):
        if 0 <= seat < n:
            o[off[plane] + (seat - me) % n] = 1.0
    for k in range(s[N_OUT]):
        o[off[P_OUT] + (s[OUT + k] - me) % n] = 1.0
    bout = s[BOUT]
    o[off[P_BOUT]] = (bout if bout < 100 else 100) / 100.0


@njit(cache=True, inline="always")
def clear_row(o, width, drawn):  # type: ignore[no-untyped-def]
    """An observation row and its ``drawn`` sets back to all zeros (a row whose contents are
    not known to match ``drawn``: the first observation after a reset)."""
    for j in range(width):
        o[j] = 0.0
    for j in range(DRAWN):
        drawn[j] = 0


# --- one env ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def trump_row(s):  # type: ignore[no-untyped-def]
    """Which of the rule facts' beat tables (``layout.TRUMP_ROWS``) the deal chose, as
    :func:`~bito.kernel.core.deal_shuffled` chooses it: the agreed suit's (``trump.source``
    fixed), no trump's (none), else the turned card's: its suit, or for a joker what its
    joker system makes of it; the greedy opponents' card worths are kept per row."""
    source = s[TRUMP_SOURCE]
    if source == FIXED_SOURCE:
        return s[FIXED_SUIT]
    if source == NONE_SOURCE:
        return NO_TRUMP_ROW
    return deal_trump_row(s, s[TRUMP_CARD])


@njit(cache=True)
def play_opponents(s, known, learner, kinds, mp, tp, rng, worth, lim_stock, lim_empty,
                   eps, seeing, row):  # type: ignore[no-untyped-def]
    """The other seats move until ``learner`` is to act or the deal is over; the moves made,
    or -1 if the deal had to be abandoned (no legal move, or :data:`FAILED_STEPS` passed).
    ``worth`` holds 64 card worths per row of the deal's beat tables; ``row`` is this deal's
    (:func:`trump_row`, kept per env from the deal on: reading it from the position costs a
    cache line of the rule tables every step).
    ``seeing`` False plays the bare rules (:func:`~bito.kernel.core.step`, ``known`` left
    alone: :func:`bare_step`)."""
    moves = 0
    while s[PHASE] != OVER_PHASE and s[TO_ACT] != learner:
        k = legal_actions(s, mp, tp)
        if k == 0 or moves >= FAILED_STEPS:
            return -1
        if k == 1:
            r = 0
        elif kinds[s[TO_ACT]] == RANDOM_OPPONENT or (
                eps > 0 and next_below(rng, EPSILON_SCALE) < eps):
            r = next_below(rng, k)
        else:
            r = greedy_choice(s, mp, tp, k, ptr_add(worth, row * 64), lim_stock[row],
                              lim_empty[row])
        if seeing:
            step_seen(s, known, mp[r], tp[r])
        else:
            step(s, mp[r], tp[r])
        moves += 1
    return moves


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
    (``bito.env.payoff.seat_returns``): the fool's side loses 1 and the other sides share
    1/(T-1) each, T the number of sides, a side being a seat or, in partnerships (#53-55),
    a team: the fool's partners lose with him."""
    n = s[PLAYERS]
    for k in range(n):
        returns[k] = 0.0
    if s[RESULT] != 1:
        return 0.0
    loser = s[LOSER]
    if s[TEAMS] != 0:
        sides = 0
        for k in range(n):
            sides |= 1 << team_of(s, k)
        share = 1.0 / (popcount(sides) - 1)
        fools = team_of(s, loser)
        for k in range(n):
            returns[k] = -1.0 if team_of(s, k) == fools else share
        return returns[seat]
    share = 1.0 / (n - 1)
    for k in range(n):
        returns[k] = -1.0 if k == loser else share
    return returns[seat]


@njit(cache=True, inline="always")
def copy_facts(s, template):  # type: ignore[no-untyped-def]
    """Every rule fact of ``template`` into a position row: the head, which cards match in
    rank, and the beat tables the deal picks from (the last two are never written by play, so
    a row keeps them from deal to deal: :func:`begin_one` copies only the head)."""
    for j in range(HANDS):
        s[j] = template[j]
    for j in range(RANK_SETS, HEAD):
        s[j] = template[j]
    for j in range(TRUMP_ROWS, SEEN):
        s[j] = template[j]


@njit(cache=True)
def begin_one(s, kn, rng, fresh, template, pack, work, learner, self_play, kinds, mp, tp,
              worth, lim_stock, lim_empty, eps, seeing, rowp):  # type: ignore[no-untyped-def]
    """Deal (``fresh``; else the loaded position stays) and let the opponents move until the
    learner is to act; a deal that ends first is dealt again. Returns the seat observed and
    the opponents' moves made; the deal's :func:`trump_row` goes to ``rowp[0]``."""
    moves = 0
    while True:
        if fresh:
            for j in range(HANDS):  # the rule tables behind the head stay (copy_facts)
                s[j] = template[j]
            deal(s, pack, work, rng)
            if seeing:
                first_shown(s, kn)
        fresh = True
        row = trump_row(s)
        rowp[0] = row
        if self_play:
            if s[PHASE] != OVER_PHASE:
                return s[TO_ACT], moves
            continue
        made = play_opponents(s, kn, learner, kinds, mp, tp, rng, worth, lim_stock,
                              lim_empty, eps, seeing, row)
        if made < 0:
            continue
        moves += made
        if s[PHASE] != OVER_PHASE:
            return learner, moves


@njit(cache=True)
def vector_begin(states, width, known, template, pack, work, fresh, learner, self_play,
                 kinds, rngs, worth, lim_stock, lim_empty, eps, obs, drawn, masks, last,
                 n_last, seats, rows, off, card_pos, pack_size, all_cards, codes, multi_masks,
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
    db = ptr_of(drawn)
    mkb = data_ptr(masks)
    lb = data_ptr(last)
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
        if fresh[i] == 1:
            copy_facts(s, template)
        me, _ = begin_one(s, kn, ptr_add(rb, i), fresh[i] == 1, template, pack, work,
                          learner, self_play, ptr_of(kinds), mp, tp, ptr_of(worth),
                          data_ptr(lim_stock), data_ptr(lim_empty), eps, SEEING,
                          ptr_add(ptr_of(rows), i))
        seats[i] = me
        o = ptr_add(ob, i * ow)
        dr = ptr_add(db, i * DRAWN)
        clear_row(o, ow, dr)
        observe(s, kn, me, o, ow, ptr_of(off), ptr_of(card_pos), pack_size, all_cards, dr)
        k, now = write_mask(s, ptr_add(mkb, i * acts), acts, mp, tp, ptr_of(codes),
                            ptr_of(multi_masks), ptr_of(multi_index), multi_index.size,
                            ptr_add(lb, i * room), room, np.int64(-1))
        n_last[i] = now
        if k < 0:
            bad += 1
    return bad


@njit(cache=True)
def step_range(lo, hi, states, width, known, template, pack, actions, pending, learner,
               self_play, kinds, rngs, worth, lim_stock, lim_empty, eps, act_masks,
               act_metas, obs, drawn, masks, last, n_last, seats, rows, rewards, terminated,
               truncated, illegal, returns, off, card_pos, pack_size, all_cards, codes, multi_masks,
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
    rowb = ptr_of(rows)
    kb = ptr_of(known)
    rb = data_ptr(rngs)
    ob = data_ptr(obs)
    db = ptr_of(drawn)
    mkb = data_ptr(masks)
    lb = data_ptr(last)
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
    n_multi = multi_index.size
    kw = known.shape[1]
    ow = obs.shape[1]
    acts = masks.shape[1]
    room = last.shape[1]
    rw = returns.shape[1]
    tail = offp[P_HAND_COUNTS]
    span = card_span(pack)
    bad = 0
    for i in range(lo, hi):
        if i + AHEAD < hi:
            ahead = i + AHEAD
            prefetch_position(ptr_add(base, ahead * width), span)
            prefetch(kb, ahead * kw)
            prefetch(db, ahead * DRAWN)
            prefetch(db, ahead * DRAWN + 8)
            prefetch(lb, ahead * room)
            # the observation's scalars, written whole every step (16 floats a line); its
            # card planes change a few entries, in lines no prefetch could guess
            for j in range(tail, ow + 15, 16):
                prefetch_write(ob, ahead * ow + (j if j < ow else ow - 1))
        if i + 2 < hi:  # the mask entries env i + 2 will clear (its list, fetched before)
            nxt = n_last[i + 2]
            for j in range(nxt if nxt > 0 else 0):
                prefetch_write(mkb, (i + 2) * acts + last[i + 2, j])
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
            me, _ = begin_one(s, kn, rng, np.bool_(True), template, pack, work, learner,
                              self_play, kindp, mp, tp, worthp, lsp, lep, eps, SEEING,
                              ptr_add(rowb, i))
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
                ok = play_opponents(s, kn, learner, kindp, mp, tp, rng, worthp, lsp, lep, eps,
                                    SEEING, rows[i]) >= 0
            if not ok or s[RESULT] == 3:
                truncated[i] = True
                pending[i] = True
            elif s[PHASE] == OVER_PHASE:
                rewards[i] = _outcome(s, me, ptr_add(retb, i * rw))
                terminated[i] = True
                pending[i] = True
        seats[i] = me
        observe(s, kn, me, ptr_add(ob, i * ow), ow, offp, cardp, pack_size, all_cards,
                ptr_add(db, i * DRAWN))
        k, now = write_mask(s, m, acts, mp, tp, codesp, mmp, mip, n_multi,
                            ptr_add(lb, i * room), room, n_last[i])
        n_last[i] = now
        if k < 0:
            bad += 1
    return bad


@njit(cache=True)
def vector_step(states, width, known, template, pack, actions,
                *rest):  # type: ignore[no-untyped-def]
    """One learner step in every env, on this thread (the arguments are
    :func:`step_range`'s after its range). ``pending[i]`` marks an env whose deal ended on the
    previous step: it is dealt again, its action ignored, its reward 0 (Gymnasium's
    ``NEXT_STEP`` auto-reset). Returns how many legal actions had no codec integer."""
    return step_range(0, actions.size, states, width, known, template, pack, actions, *rest)


@njit(cache=True, parallel=True)
def vector_step_threads(chunks, states, width, known, template, pack, actions,
                        *rest):  # type: ignore[no-untyped-def]
    """:func:`vector_step` with the envs split into ``chunks`` ranges run on numba's threads
    (every env owns its position, generator and output rows, so the ranges share nothing)."""
    n = actions.size
    bad = 0
    for c in prange(chunks):
        lo = n * c // chunks
        hi = n * (c + 1) // chunks
        bad += step_range(lo, hi, states, width, known, template, pack, actions, *rest)
    return bad


@njit(cache=True)
def bare_step(states, width, template, pack, pending, learner, self_play, kinds, rngs,
              worth, lim_stock, lim_empty, eps, rows, codes, multi_masks, multi_index,
              counts):  # type: ignore[no-untyped-def]
    """The rules' share of :func:`vector_step`, for the benchmark's yardstick: one learner
    step in every env with the same deals, the same opponents and the auto-reset, but no
    known cards, observation, legal mask or reward. The learner plays the legal action with
    the lowest codec integer (what ``mask.argmax`` picks), so from the same seeds these are
    the very games the benchmark's vector env plays. Adds the moves made to ``counts[0]`` and
    the deals ended to ``counts[1]``."""
    mb = np.empty(MAX_ACTIONS, np.int64)
    tb = np.empty(MAX_ACTIONS, np.int64)
    work = np.empty(pack.size, np.int64)
    unseen = np.zeros(KNOWN_WIDTH, np.int64)
    kn = ptr_of(unseen)
    mp = ptr_of(mb)
    tp = ptr_of(tb)
    base = ptr_of(states)
    rowb = ptr_of(rows)
    rb = data_ptr(rngs)
    kindp = ptr_of(kinds)
    worthp = ptr_of(worth)
    lsp = data_ptr(lim_stock)
    lep = data_ptr(lim_empty)
    codesp = ptr_of(codes)
    mmp = ptr_of(multi_masks)
    mip = ptr_of(multi_index)
    n_multi = multi_index.size
    moves = 0
    ended = 0
    span = card_span(pack)
    for i in range(pending.size):
        if i + AHEAD < pending.size:  # (as step_range does)
            prefetch_position(ptr_add(base, (i + AHEAD) * width), span)
        s = ptr_add(base, i * width)
        rng = ptr_add(rb, i)
        if pending[i]:
            pending[i] = False
            _, made = begin_one(s, kn, rng, np.bool_(True), template, pack, work, learner,
                                self_play, kindp, mp, tp, worthp, lsp, lep, eps, BLIND,
                                ptr_add(rowb, i))
            moves += made
            continue
        k = legal_actions(s, mp, tp)
        best = 0
        lowest = -1
        for r in range(k):
            idx = code_index(mp[r], tp[r], codesp, mmp, mip, n_multi)
            if lowest < 0 or 0 <= idx < lowest:
                best = r
                lowest = idx
        step(s, mp[best], tp[best])
        moves += 1
        if not self_play:
            made = play_opponents(s, kn, learner, kindp, mp, tp, rng, worthp, lsp, lep, eps,
                                  BLIND, rows[i])
            if made < 0:
                pending[i] = True
                ended += 1
                continue
            moves += made
        if s[PHASE] == OVER_PHASE:
            pending[i] = True
            ended += 1
    counts[0] += moves
    counts[1] += ended


@njit(cache=True)
def seed_envs(rngs, seeds):  # type: ignore[no-untyped-def]
    """Each env's generator from its own seed."""
    for i in range(rngs.size):
        _seed_one(rngs[i:i + 1], seeds[i])


@njit(cache=True)
def seed_deals(seed):  # type: ignore[no-untyped-def]
    """numba's global generator, for a deal's rare random facts."""
    np.random.seed(seed)


__all__ = ["DRAWN", "FAILED_STEPS", "GREEDY_OPPONENT", "KNOWN_WIDTH", "MAX_PLAYERS", "PASSED",
           "PLANES", "RANDOM_OPPONENT", "UNCODED", "bare_step", "clear_row", "code_index",
           "copy_facts", "first_shown", "hands_passed", "observe", "play_opponents",
           "seed_deals", "seed_envs", "step_range", "step_seen", "trump_row", "vector_begin",
           "vector_step", "vector_step_threads", "write_mask"]
