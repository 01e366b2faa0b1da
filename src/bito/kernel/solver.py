"""The endgame solver's search, compiled: :class:`bito.bots.solver.Solver` on kernel arrays.

Same algorithm, same definitions, one to one: negamax alpha-beta with two null windows, a
transposition table keyed on (both hands, covered cards, uncovered attack cards, the bout's
flags), the table's move first and then the weakest cards, a position repeated on the current
line scored as a draw and never stored. Only the representation changes: a position is the
kernel's ``int64`` array (:mod:`bito.kernel.layout`), a move the kernel's ``(mask, meta)``
pair, and a node costs about a microsecond instead of the tens of microseconds of copying and
stepping a Python state. ``Solver`` uses this whenever the kernel plays the rules (the base
games with their §1 options) and its own Python search otherwise; the tests hold both to the
brute-force reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.typed import Dict

from bito.kernel.core import legal_actions, popcount, ptr_of, step, transfer_rank_card
from bito.kernel.layout import (
    ANY_TIME,
    ATTACK,
    ATTACKER,
    BOUT,
    DEFENCE,
    DEFENDER,
    HANDS,
    HEAD,
    LOSER,
    N_ATTACK,
    OUT_MASK,
    OVER_PHASE,
    PASS_KIND,
    PASSES,
    PHASE,
    RESULT,
    SHOWN,
    T_IDX,
    TAKE_KIND,
    TAKING,
    TO_ACT,
)

WIN, DRAW, LOSS = 1, 0, -1
_EXACT, _LOWER, _UPPER = 0, 1, 2
_MOVES = 1024  # room for one node's moves: a two-player endgame has far fewer
# info slots: nodes searched, repetitions met, node budget (0: none), 1 once over budget
_NODES, _REPEATS, _BUDGET, _ABORTED = 0, 1, 2, 3

KEY = types.UniTuple(types.int64, 5)
ENTRY = types.UniTuple(types.int64, 4)  # value, bound kind, best move's mask and meta


def new_table() -> Any:
    """An empty transposition table (kept by the caller between searches of one endgame)."""
    return Dict.empty(key_type=KEY, value_type=ENTRY)


def new_path() -> Any:
    return Dict.empty(key_type=KEY, value_type=types.int64)


@njit(cache=True)
def position_key(s):  # type: ignore[no-untyped-def]
    """``bito.bots.solver._key``: both hands, the table as covered and uncovered card sets,
    and the bout's flags (the kernel never holds a closed table, so that flag is 0), with the
    card a transfer must match under ``transfer.window=any_time`` and the seats that have
    shown a trump this bout (#96)."""
    covered = 0
    uncovered = 0
    for i in range(s[N_ATTACK]):
        a = s[ATTACK + i]
        d = s[DEFENCE + i]
        if d < 0:
            uncovered |= 1 << a
        else:
            covered |= (1 << a) | (1 << d)
    first = 1 if s[BOUT] == 0 else 0
    flags = (s[PHASE] | s[TO_ACT] << 2 | s[ATTACKER] << 3 | s[DEFENDER] << 4
             | s[TAKING] << 5 | s[OUT_MASK] << 7 | s[PASSES] << 9 | s[T_IDX] << 12
             | first << 15)
    if uncovered != 0 and s[ANY_TIME] != 0:
        flags |= (transfer_rank_card(s) + 1) << 16  # #10: the order of the uncovered cards
    # #96: who has shown a trump in this bout (may not show again); 0 in every other game
    flags |= s[SHOWN] << 24
    return (s[HANDS], s[HANDS + 1], covered, uncovered, flags)


@njit(cache=True, inline="always")
def _outcome(s, me):  # type: ignore[no-untyped-def]
    if s[RESULT] != 1:
        return DRAW
    return LOSS if s[LOSER] == me else WIN


@njit(cache=True)
def _ordered(s, strength, tt_mask, tt_meta, masks, metas):  # type: ignore[no-untyped-def]
    """Generate the moves into ``masks``/``metas`` and sort them as ``Solver._ordered``:
    the table's move, then by cost (a stable insertion sort: few moves)."""
    k = legal_actions(ptr_of(s), ptr_of(masks), ptr_of(metas))
    cost = np.empty(k, np.int64)
    for i in range(k):
        kind = metas[i] & 7
        if kind == TAKE_KIND:
            c = 10_000
        elif kind == PASS_KIND:
            c = 5_000
        else:
            m = masks[i]
            c = -100 * (popcount(m) - 1)
            while m:
                low = m & -m
                c += strength[popcount(low - 1)]
                m ^= low
        if masks[i] == tt_mask and metas[i] == tt_meta:
            c = -(1 << 40)
        cost[i] = c
    for i in range(1, k):
        c, mk, mt = cost[i], masks[i], metas[i]
        j = i - 1
        while j >= 0 and cost[j] > c:
            cost[j + 1], masks[j + 1], metas[j + 1] = cost[j], masks[j], metas[j]
            j -= 1
        cost[j + 1], masks[j + 1], metas[j + 1] = c, mk, mt
    return k


@njit(cache=True)
def _grow2(a):  # type: ignore[no-untyped-def]
    b = np.empty((a.shape[0] * 2, a.shape[1]), a.dtype)
    b[: a.shape[0]] = a
    return b


@njit(cache=True)
def _grow1(a):  # type: ignore[no-untyped-def]
    b = np.empty(a.shape[0] * 2, a.dtype)
    b[: a.shape[0]] = a
    return b


_ENTER, _NEXT, _RETURN, _PROCESS = 0, 1, 2, 3


@njit(cache=True)
def search(root, alpha, beta, strength, table, path, info):  # type: ignore[no-untyped-def]
    """``Solver._search``: the negamax value of ``root`` for the seat to act, fail-soft in
    (alpha, beta). Sets ``info[_ABORTED]`` (and returns 0) once the node budget is spent.

    Written as a loop over an explicit stack of frames rather than by recursion: numba
    cannot keep a recursive function in its on-disk cache, and the lines of play can be
    deep. Frame ``d`` holds its position, its ordered moves, the next move to try, its
    window, its best value and move so far, and whether its value is negated for its parent.
    """
    cap = 64
    states = np.empty((cap, HEAD), np.int64)
    masks = np.empty((cap, _MOVES), np.int64)
    metas = np.empty((cap, _MOVES), np.int64)
    keys = np.empty((cap, 5), np.int64)
    nums = np.empty((cap, 11), np.int64)  # see the slot names below
    # frame slots
    n_moves, nxt, lo, hi, lo0, best, best_mask, best_meta, reps, me, flip = range(11)
    for j in range(HEAD):
        states[0, j] = root[j]
    nums[0, lo] = alpha
    nums[0, hi] = beta
    nums[0, flip] = 0
    d = 0
    mode = _ENTER
    ret = 0
    v = 0
    while True:
        if mode == _ENTER:
            info[_NODES] += 1
            if info[_BUDGET] and info[_NODES] > info[_BUDGET]:
                info[_ABORTED] = 1
                return 0
            s = states[d]
            key = position_key(s)
            if key in path:
                info[_REPEATS] += 1
                ret = DRAW
                mode = _RETURN
                continue
            tt_mask = -1
            tt_meta = -1
            a_ = nums[d, lo]
            b_ = nums[d, hi]
            if key in table:
                tv, flag, tt_mask, tt_meta = table[key]
                if (flag == _EXACT or (flag == _LOWER and tv >= b_)
                        or (flag == _UPPER and tv <= a_)):
                    ret = tv
                    mode = _RETURN
                    continue
                if flag == _LOWER and tv > a_:
                    nums[d, lo] = tv
                elif flag == _UPPER and tv < b_:
                    nums[d, hi] = tv
            keys[d, 0], keys[d, 1], keys[d, 2], keys[d, 3], keys[d, 4] = key
            nums[d, me] = s[TO_ACT]
            nums[d, lo0] = nums[d, lo]
            nums[d, best] = LOSS - 1
            nums[d, best_mask] = -1
            nums[d, best_meta] = -1
            nums[d, reps] = info[_REPEATS]
            path[key] = 1
            nums[d, n_moves] = _ordered(s, strength, tt_mask, tt_meta, masks[d], metas[d])
            nums[d, nxt] = 0
            mode = _NEXT
        elif mode == _NEXT:
            i = nums[d, nxt]
            if i >= nums[d, n_moves] or nums[d, lo] >= nums[d, hi]:
                # every move tried, or a cut-off: the node's value is its best
                key = (keys[d, 0], keys[d, 1], keys[d, 2], keys[d, 3], keys[d, 4])
                del path[key]
                ret = nums[d, best]
                if info[_REPEATS] == nums[d, reps]:  # not leaning on a repetition: store
                    flag = _EXACT
                    if ret <= nums[d, lo0]:
                        flag = _UPPER
                    elif ret >= nums[d, hi]:
                        flag = _LOWER
                    table[key] = (ret, flag, nums[d, best_mask], nums[d, best_meta])
                mode = _RETURN
                continue
            nums[d, nxt] = i + 1
            if d + 1 >= cap:
                cap *= 2
                states = _grow2(states)
                masks = _grow2(masks)
                metas = _grow2(metas)
                keys = _grow2(keys)
                nums = _grow2(nums)
            child = states[d + 1]
            for j in range(HEAD):
                child[j] = states[d, j]
            step(ptr_of(child), masks[d, i], metas[d, i])
            if child[PHASE] == OVER_PHASE:
                v = _outcome(child, nums[d, me])
                mode = _PROCESS
                continue
            if child[TO_ACT] == nums[d, me]:
                nums[d + 1, flip] = 0
                nums[d + 1, lo] = nums[d, lo]
                nums[d + 1, hi] = nums[d, hi]
            else:
                nums[d + 1, flip] = 1
                nums[d + 1, lo] = -nums[d, hi]
                nums[d + 1, hi] = -nums[d, lo]
            d += 1
            mode = _ENTER
        elif mode == _RETURN:
            if d == 0:
                return ret
            v = -ret if nums[d, flip] else ret
            d -= 1
            mode = _PROCESS
        else:  # _PROCESS: the value v of the move just tried at frame d
            if v > nums[d, best]:
                i = nums[d, nxt] - 1
                nums[d, best] = v
                nums[d, best_mask] = masks[d, i]
                nums[d, best_meta] = metas[d, i]
                if v > nums[d, lo]:
                    nums[d, lo] = v
            mode = _NEXT


@njit(cache=True)
def value_to_act(s, strength, table, path, info):  # type: ignore[no-untyped-def]
    """``Solver.value`` for the seat to act: "does it win?", then "does it draw?"."""
    # the windows as int64 values, not the constants: numba would compile the search once
    # per constant window (a literal type each)
    loss, draw, win = np.int64(LOSS), np.int64(DRAW), np.int64(WIN)
    if search(s, draw, win, strength, table, path, info) >= WIN:
        return WIN
    if info[_ABORTED]:
        return 0
    if search(s, loss, draw, strength, table, path, info) >= DRAW:
        return DRAW
    return LOSS


def solve_array(s: np.ndarray, strength: np.ndarray, table: Any, budget: int
                ) -> tuple[int | None, int]:
    """The value of the kernel position ``s`` for the seat to act (None if ``budget`` nodes,
    0 for no limit, were not enough) and the nodes searched. ``s`` must have the engine's
    game-length rules switched off (``REPETITION`` and ``IDLE_LIMIT`` 0)."""
    info = np.zeros(4, np.int64)
    info[_BUDGET] = budget
    v = value_to_act(s[:HEAD].copy(), strength, table, new_path(), info)
    return (None if info[_ABORTED] else int(v)), int(info[_NODES])
