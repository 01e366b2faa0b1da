"""Two-player random playouts with the position held in local variables.

Two-player games are what search bots and training mostly play, so their playouts get a loop of
their own. :func:`duel_playout` plays exactly the game :func:`bito.kernel.core.playout` plays
from the same position and the same random stream (the same actions, in the same order, drawn
with the same numbers: ``tests/engine/test_kernel_duel.py`` checks this action by action), but it
reads the position into local variables once, keeps the hands, roles, table sets and stock
count in registers, and writes them back when the game ends or the step budget runs out. With
only two seats the thrower list, the refill order and the next attacker reduce to "the other
seat", which removes most of the bookkeeping of the general state machine.

Only the attack and cover cards themselves stay in the array (a bout rarely holds more than a
few), and a bout that could repeat an earlier opening (``end.repetition``, after a take
without drawing) is checked by the general :func:`~bito.kernel.core.check_repetition` on the
written-back position. Rozaliev's pair-plus-one leads (``lead.shape=rozaliev``) are not handled
here: :func:`supports_duel` says which positions this loop plays.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from bito.kernel.core import (
    _BIG,
    _GROUP_MAX,
    _SUIT_BITS,
    check_repetition,
    low_card,
    next_below,
    popcount,
    rank_set,
)
from bito.kernel.layout import (
    ATTACK,
    ATTACKER,
    BOUT,
    CAP,
    DEFENCE,
    DEFEND_PHASE,
    DEFENDER,
    DISCARD,
    DRAW_ALLOWED,
    DRAW_RULE,
    FIRST_CAP,
    HAND_SIZE,
    HANDS,
    IDLE,
    IDLE_LIMIT,
    LEAD_MAX,
    LEAD_MOST,
    LEAD_PHASE,
    LEADER,
    LOSER,
    N_ATTACK,
    N_OUT,
    N_SEEN,
    N_STOCK,
    N_THROWERS,
    NO_FIRST_TRANSFER,
    NO_TRUMP_TRANSFER,
    OUT,
    OUT_MASK,
    OVER_PHASE,
    PASSES,
    PHASE,
    PLAYERS,
    REPETITION,
    RESULT,
    ROZALIEV,
    STOCK,
    T_IDX,
    TABLE,
    TABLE_RANKS,
    TAKING,
    THROW_IN,
    THROW_PHASE,
    THROWERS,
    TO_ACT,
    TRANSFER,
    TRUMP,
    UNCAPPED,
    UNCOVERED,
)

_SUBSETS = np.zeros((_GROUP_MAX + 1, _GROUP_MAX + 1), np.int64)
"""``_SUBSETS[g, m]``: the non-empty subsets of at most ``m`` cards of a ``g``-card rank group
(the leads one rank group offers), so that a lead is drawn without listing them all."""
for _g in range(_GROUP_MAX + 1):
    for _m in range(_GROUP_MAX + 1):
        _SUBSETS[_g, _m] = sum(comb(_g, _j) for _j in range(1, min(_g, _m) + 1))


@njit(cache=True, inline="always")
def nth_bit(m, r):  # type: ignore[no-untyped-def]
    """The ``r``-th lowest card of the set ``m``, as a one-card set."""
    for _ in range(r):
        m &= m - 1
    return m & -m


@njit(cache=True)
def supports_duel(s):  # type: ignore[no-untyped-def]
    """Does :func:`duel_playout` play this position? Two seats, and no Rozaliev leads."""
    return s[PLAYERS] == 2 and s[ROZALIEV] == 0


@njit(cache=True)
def duel_playout(s, max_steps, rng):  # type: ignore[no-untyped-def]
    """:func:`bito.kernel.core.playout` for two seats: the same game from the same ``rng``.

    Returns the number of actions, or -1 if ``max_steps`` passed first or a running game had
    no legal action; the position is written back to ``s`` either way."""
    # --- the rule facts --------------------------------------------------------------------
    size = s[HAND_SIZE]
    cap = s[CAP]
    first_cap = s[FIRST_CAP]
    uncapped = s[UNCAPPED]
    lead_max = s[LEAD_MAX]
    lead_most = s[LEAD_MOST]
    throw_in = s[THROW_IN]
    transfer = s[TRANSFER]
    rule = s[DRAW_RULE]
    no_first = s[NO_FIRST_TRANSFER]
    no_trump = s[NO_TRUMP_TRANSFER]
    trump = s[TRUMP]
    repetition = s[REPETITION]
    idle_limit = s[IDLE_LIMIT]
    trumps = _SUIT_BITS << (trump * 16)
    # --- the position ----------------------------------------------------------------------
    ph = s[PHASE]
    to = s[TO_ACT]
    att = s[ATTACKER]
    lead = s[LEADER]
    d = s[DEFENDER]
    taking = s[TAKING]
    bout = s[BOUT]
    out = s[OUT_MASK]
    n_out = s[N_OUT]
    h0 = s[HANDS]
    h1 = s[HANDS + 1]
    table = s[TABLE]
    ranks = s[TABLE_RANKS]
    na = s[N_ATTACK]
    unc = s[UNCOVERED]
    ns = s[N_STOCK]
    discard = s[DISCARD]
    idle = s[IDLE]
    loser = s[LOSER]
    result = s[RESULT]
    steps = 0
    failed = False
    while ph != OVER_PHASE:
        if steps >= max_steps:
            failed = True
            break
        steps += 1
        hd = h1 if d else h0
        # the bout's cap now (#75, #76) and the room left under it (DurakState.room)
        cap_now = cap
        if first_cap != 0 and bout == 0 and taking == 0:
            cap_now = first_cap
        if uncapped != 0 and ns == 0:
            cap_now = _BIG
        room = cap_now - na
        if popcount(hd) - unc < room:
            room = popcount(hd) - unc
        # what the action does to the bout: 0 nothing more, 1 start a throw-in round,
        # 2 end the throw-in round, 3 end the bout taken, 4 end the bout beaten
        then = 0
        if ph == DEFEND_PHASE:
            k = 1
            for i in range(na):
                if s[DEFENCE + i] < 0:
                    a = s[ATTACK + i]
                    higher = (_SUIT_BITS << ((a >> 4) * 16)) & ~((2 << a) - 1)
                    if a >> 4 != trump:
                        higher |= trumps
                    k += popcount(hd & higher)
            passing = 0
            if transfer != 0 and unc == na:
                rank = s[ATTACK] & 15
                ok = not (bout == 0 and no_first != 0)
                for i in range(na):
                    c = s[ATTACK + i]
                    if c & 15 != rank or (no_trump != 0 and c >> 4 == trump):
                        ok = False
                o = 1 - d
                if ok and not (out >> o) & 1 and popcount(h1 if o else h0) >= na + 1 \
                        and na + 1 <= cap_now:
                    passing = hd & rank_set(s[ATTACK])
                    k += popcount(passing)
            r = next_below(rng, k) if k > 1 else 0
            covered = False
            for i in range(na):
                if s[DEFENCE + i] < 0:
                    a = s[ATTACK + i]
                    higher = (_SUIT_BITS << ((a >> 4) * 16)) & ~((2 << a) - 1)
                    if a >> 4 != trump:
                        higher |= trumps
                    m = hd & higher
                    c = popcount(m)
                    if r < c:
                        bit = nth_bit(m, r)
                        card = low_card(bit)
                        hd ^= bit
                        s[DEFENCE + i] = card
                        unc -= 1
                        ranks |= rank_set(card)
                        table |= bit
                        if hd == 0 and ns == 0 and not (out >> d) & 1:
                            out |= 1 << d
                            s[OUT + n_out] = d
                            n_out += 1
                        if unc == 0:
                            then = 1 if throw_in != 0 else 4
                        covered = True
                        break
                    r -= c
            if not covered:
                if r == popcount(passing):  # take (listed last)
                    taking = 1
                    then = 1 if throw_in != 0 else 3
                else:  # transfer: the other seat defends against one card more
                    bit = nth_bit(passing, r)
                    hd ^= bit
                    s[ATTACK + na] = low_card(bit)
                    s[DEFENCE + na] = -1
                    na += 1
                    unc += 1
                    table |= bit
                    if hd == 0 and ns == 0 and not (out >> d) & 1:
                        out |= 1 << d
                        s[OUT + n_out] = d
                        n_out += 1
                    if d:
                        h1 = hd
                    else:
                        h0 = hd
                    att = d
                    d = 1 - d
                    to = d
                    continue
            if d:
                h1 = hd
            else:
                h0 = hd
        elif ph == THROW_PHASE:
            hand = h1 if to else h0
            m = hand & ranks
            k = popcount(m) + 1 if m != 0 and room > 0 else 1
            r = next_below(rng, k) if k > 1 else 0
            if r == k - 1:  # pass (listed last): the only thrower has passed
                then = 2
            else:
                bit = nth_bit(m, r)
                card = low_card(bit)
                hand ^= bit
                s[ATTACK + na] = card
                s[DEFENCE + na] = -1
                na += 1
                unc += 1
                ranks |= rank_set(card)
                table |= bit
                if hand == 0 and ns == 0 and not (out >> to) & 1:
                    out |= 1 << to
                    s[OUT + n_out] = to
                    n_out += 1
                if to:
                    h1 = hand
                else:
                    h0 = hand
                if hand == 0 or room - 1 <= 0:
                    then = 2
        else:  # lead
            limit = room if room < lead_max else lead_max
            if limit <= 0:
                steps -= 1
                failed = True
                break
            most = lead_most
            if most == 0 or most > limit:
                most = limit if limit < _GROUP_MAX else _GROUP_MAX
            hand = h1 if to else h0
            if most == 1:
                k = popcount(hand)
                r = next_below(rng, k) if k > 1 else 0
                mask = nth_bit(hand, r)
            else:
                k = 0
                m = hand
                while m:
                    group = hand & rank_set(low_card(m))
                    m &= ~group
                    k += _SUBSETS[popcount(group), most]
                r = next_below(rng, k) if k > 1 else 0
                mask = 0
                m = hand
                while m:
                    group = hand & rank_set(low_card(m))
                    m &= ~group
                    c = _SUBSETS[popcount(group), most]
                    if r < c:
                        sub = group
                        while sub:
                            if popcount(sub) <= most:
                                if r == 0:
                                    mask = sub
                                    break
                                r -= 1
                            sub = (sub - 1) & group
                        break
                    r -= c
            hand ^= mask
            m = mask
            while m:
                card = low_card(m)
                m &= m - 1
                s[ATTACK + na] = card
                s[DEFENCE + na] = -1
                na += 1
                unc += 1
                ranks |= rank_set(card)
            table |= mask
            if hand == 0 and ns == 0 and not (out >> to) & 1:
                out |= 1 << to
                s[OUT + n_out] = to
                n_out += 1
            if to:
                h1 = hand
            else:
                h0 = hand
            ph = DEFEND_PHASE
            to = d
            continue
        # --- the rest of the bout ---------------------------------------------------------
        if then == 1:  # start_throw_round: the attacker alone throws in
            if (out >> att) & 1:
                then = 2
            else:
                hd = h1 if d else h0
                cap_now = cap
                if first_cap != 0 and bout == 0 and taking == 0:
                    cap_now = first_cap
                if uncapped != 0 and ns == 0:
                    cap_now = _BIG
                room = cap_now - na
                if popcount(hd) - unc < room:
                    room = popcount(hd) - unc
                if room <= 0 or (h1 if att else h0) == 0:
                    then = 2
                else:
                    ph = THROW_PHASE
                    to = att
                    continue
        if then == 2:  # end_throw_round
            if taking != 0:
                then = 3
            elif unc != 0:
                ph = DEFEND_PHASE
                to = d
                continue
            else:
                then = 4
        if then == 0:
            continue
        # end_bout: the table goes to the defender (3) or to the discard (4)
        taken = then == 3
        if taken:
            if d:
                h1 |= table
            else:
                h0 |= table
        else:
            discard |= table
        na = 0
        unc = 0
        ranks = 0
        taking = 0
        table = 0
        stock_before = ns
        # the refill order (DurakState.draw_order) for two seats
        o = 1 - d
        if rule == 3:
            first, second = d, o
        elif rule == 2:
            first, second = lead, 1 - lead
        else:
            first, second = o, d
        for j in range(2):
            seat = first if j == 0 else second
            if (out >> seat) & 1:
                continue
            if ns:
                hand = h1 if seat else h0
                need = size - popcount(hand)
                if need > 0:
                    if need > ns:
                        need = ns
                    for _ in range(need):
                        ns -= 1
                        hand |= 1 << s[STOCK + ns]
                    if seat:
                        h1 = hand
                    else:
                        h0 = hand
        if ns == 0:
            for j in range(2):
                seat = first if j == 0 else second
                if (out >> seat) & 1:
                    continue
                if (h1 if seat else h0) == 0:
                    out |= 1 << seat
                    s[OUT + n_out] = seat
                    n_out += 1
        drew = ns != stock_before
        if idle_limit != 0:
            count = idle & 0xFFFF
            if taken and not drew and idle >> 16 == n_out:
                count += 1
            else:
                count = 0
            idle = count | (n_out << 16)
            if count >= idle_limit and 2 - popcount(out) > 1:
                ph = OVER_PHASE
                to = -1
                loser = -1
                result = 2
                break
        if out != 0:  # finish: the one still holding cards is the fool
            ph = OVER_PHASE
            to = -1
            if not out & 1:
                loser = 0
                result = 1
            elif not out & 2:
                loser = 1
                result = 1
            elif s[DRAW_ALLOWED] != 0:
                loser = -1
                result = 2
            else:
                loser = s[OUT + n_out - 1]
                result = 1
            break
        att = o if taken else d
        d = 1 - att
        lead = att
        to = att
        bout += 1
        ph = LEAD_PHASE
        if repetition != 0:
            if drew or not taken:
                s[N_SEEN] = 0
            else:
                s[HANDS] = h0
                s[HANDS + 1] = h1
                s[ATTACKER] = att
                s[DEFENDER] = d
                s[N_STOCK] = ns
                check_repetition(s)
                if s[PHASE] == OVER_PHASE:
                    ph = OVER_PHASE
                    to = -1
                    loser = s[LOSER]
                    result = s[RESULT]
                    break
    # --- write the position back -------------------------------------------------------------
    s[PHASE] = ph
    s[TO_ACT] = to
    s[ATTACKER] = att
    s[LEADER] = lead
    s[DEFENDER] = d
    s[TAKING] = taking
    s[BOUT] = bout
    s[OUT_MASK] = out
    s[N_OUT] = n_out
    s[HANDS] = h0
    s[HANDS + 1] = h1
    s[TABLE] = table
    s[TABLE_RANKS] = ranks
    s[N_ATTACK] = na
    s[UNCOVERED] = unc
    s[N_STOCK] = ns
    s[DISCARD] = discard
    s[IDLE] = idle
    s[LOSER] = loser
    s[RESULT] = result
    if ph == THROW_PHASE:
        s[THROWERS] = att
        s[N_THROWERS] = 1
        s[T_IDX] = 0
        s[PASSES] = 0
    elif ph == LEAD_PHASE:
        s[N_THROWERS] = 0
    return -1 if failed else steps
