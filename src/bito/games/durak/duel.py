"""Random playouts of two-seat games under the base rules, in one loop over local variables.

:func:`bito.games.durak.playout.random_playout` spends most of its time outside the rules:
building action lists, calling methods, reading and writing attributes. With two seats and
only the options of VARIANTS.md §1 and #74-#79 (what :func:`duel_applies` accepts) a bout is
simple enough to play in one function: the hands (held by role), the table and the stock size
live in local variables, the chosen action is found by counting the legal ones instead of
listing them, and the state is written back once, at a bout's end.

It plays exactly the game :func:`random_playout` plays: the same actions in the same order,
each chosen with one ``rng.random()`` like the general loop, and it ends in the same state
with the same outcome (``tests/test_duel.py`` compares every field). The rules themselves are
those of :class:`~bito.games.durak.state.DurakState`; where the two could drift apart (the
finish, a repetition, an idle draw) this loop hands the state back to the engine's own methods.

Python's per-call costs decide the speed here, so the loop avoids calls where it can:
``(rand() * k).__trunc__()`` is ``int(rand() * k)`` without calling the ``int`` type (the
same function of the float, at a third of the cost), and the r-th card of a set is found by
dropping the lowest card r times in a ``while`` loop rather than over a new ``range``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import accumulate
from math import comb

from bito.cards import MATCH_MASKS, suit_of
from bito.games.durak.setup import _BITS
from bito.games.durak.state import (
    _BIG,
    _GROUP_LEADS,
    _GROUP_MAX,
    _RANK_MASK_AT,
    DEFEND_PHASE,
    LEAD,
    THROW,
    DurakState,
    _group_leads,
)
from bito.rules import Rules
from bito.rules.options import last_rules_memo

_SUBSETS = tuple(tuple(sum(comb(g, j) for j in range(1, min(g, most) + 1))
                       for g in range(_GROUP_MAX * 2 + 1)) for most in range(_GROUP_MAX + 1))
"""``_SUBSETS[most][g]``: how many leads a rank group of ``g`` cards offers (its non-empty
subsets of at most ``most`` cards), so that a lead is drawn without listing them all."""

_WEIGHTS = tuple((c[2], c[3] - c[2] - 1, c[4]) for c in _SUBSETS)
"""The leads of a one-deck hand are ``|ones| + a|twos| + b|ones & twos| + c|fours|`` with
``(a, b, c) = _WEIGHTS[most]``, ``ones`` and ``twos`` the ranks held an odd number of times
and two or three times, ``fours`` those held four times: a rank held once counts 1, twice
``a`` (``_SUBSETS[most][2]``), three times ``1 + a + b`` and four times ``c``."""

_BIG_HAND = 160
"""More cards than any hand holds (the card codes run from 0 to 159)."""

_DRAW_RULES = {"attacker_first": 0, "right_of_defender_first": 1,
               "attacker_then_strict_clockwise": 2, "defender_first": 3}


@lru_cache(maxsize=256)
def _plain_options(rules: Rules) -> bool:
    from bito.kernel import supports

    return supports(rules, 2) and rules.lead_shape != "rozaliev"


_plain = last_rules_memo(_plain_options)
"""Rules whose every option is one that this loop plays (the last rule set by identity)."""


@lru_cache(maxsize=64)
def _lead_limits(lead_max: int, lead_most: int) -> tuple[int, tuple[int, ...]]:
    """For the lead: the highest limit worth telling apart (the rules' lead limit, or
    :data:`_GROUP_MAX` if lower), and ``most_at[limit]``, the most cards of one rank group a
    lead may hold when at most ``limit`` cards may be led (``lead_most`` when the shape sets
    one within the limit, else the limit itself, and never more than :data:`_GROUP_MAX`, as
    rank groups are counted and listed up to that size)."""
    top = min(lead_max, max(_GROUP_MAX, lead_most))
    most_at = tuple(lead_most if lead_most and lead_most <= limit else min(limit, _GROUP_MAX)
                    for limit in range(top + 1))
    return top, most_at


@lru_cache(maxsize=64)
def _most_by_count(lead_max: int, lead_most: int, cap: int) -> tuple[int, ...]:
    """Under a cap that does not change: indexed by the size of the defender's hand, the most
    cards of one rank group a lead may hold (:func:`_lead_limits`), 0 when none may be led."""
    top, most_at = _lead_limits(lead_max, lead_most)
    return tuple(most_at[min(n, cap, top)] if min(n, cap, top) > 0 else 0
                 for n in range(_BIG_HAND + 1))


def duel_applies(state: DurakState) -> bool:
    """Does :func:`duel_playout` play this position? Two seats, base rules, a plain deck, and a
    state with no pending extra (a gift, a call, a closed table) whose known cards are all in
    their holders' hands (as the engine keeps them, and position texts must give them), and no
    one out while the stock lasts (as play never leaves it). The loop also takes the engine's
    shape of a two-seat bout for granted: a lead starts on an empty table, and only the
    attacker leads and throws in."""
    d = state.deal
    phase = state.phase
    return (d.players == 2 and _plain(d.rules) and len(d.trumps) == 1 and d.high_joker < 0
            and not d.jokers_wild and not d.extras and not d.lead_rules and not d.suit_leads
            and not d.face_down and not d.team_of and state.books is None
            and phase in (LEAD, DEFEND_PHASE, THROW) and not state.closed
            and state.gift is None
            and not (state.known[0] & ~state.hands[0] or state.known[1] & ~state.hands[1])
            and not (state.out_mask and state.stock)
            and (phase == DEFEND_PHASE or state.to_act == state.attacker)
            and not (phase == LEAD and (state.attack or state.table_ranks)))


def duel_playout(s: DurakState, rng: random.Random) -> int:
    """Play ``s`` (the caller's own copy) to the end in place; the number of actions.

    The hands are held by role, not by seat: ``ha`` the attacker's, ``hd`` the defender's
    (and their known cards ``ka``, ``kd``), swapped when the roles change. Most steps touch one
    role's hand, so none has to pick it by seat.

    The known cards are only ever added to: the engine drops a card from its holder's known
    cards when he plays it, and a card leaves a hand only by being played and comes back only
    with a taken table, which makes it known again. So the known cards at the end are those
    added while in the hand and still in it, ``ka & ha`` and ``kd & hd`` (the start holds only
    cards in hand, :func:`duel_applies`), taken once at the end instead of clearing a bit at
    every play."""
    deal = s.deal
    rules = deal.rules
    beats = s._beats
    rand = rng.random
    size = deal.hand_size
    cap = deal.cap
    first_cap = deal.first_bout_cap
    uncapped = deal.uncapped_after_stock
    lead_top, most_at = _lead_limits(deal.lead_max, deal.lead_most)
    most_by_count = _most_by_count(deal.lead_max, deal.lead_most, cap)
    throw_in = deal.throw_in
    transfer = deal.transfer
    face_up = deal.face_up
    trumps = deal.trumps
    no_trump_transfer = rules.transfer_forbid_if_trump_on_table
    fb = rules.transfer_first_bout
    no_first = ((fb == "first_game" and deal.match.game_number == 0)
                or (fb == "under_fool" and deal.under_fool))
    rule = _DRAW_RULES[rules.draw_order]
    # who draws first at a bout's end: the attacker (the defender's other), the defender, or
    # (rule 2) the bout's leader; indexed by the defender, or by the leader
    by_lead = rule == 2
    att_first = rule != 3  # (under rule 2, when the attacker led the bout)
    orders = ((0, 1), (1, 0)) if rule >= 2 else ((1, 0), (0, 1))
    repetition = deal.repetition
    idle_limit = deal.idle_limit
    # the position
    att = s.attacker
    lead = s.leader
    d = s.defender
    taking = s.taking
    bout = s.bout
    out = s.out_mask
    outs = s.out
    ha, hd = s.hands[att], s.hands[d]
    ka, kd = s.known[att], s.known[d]
    attack = s.attack
    defence = s.defence
    unc = s.uncovered
    ranks = s.table_ranks
    table = 0
    for c in attack:
        table |= 1 << c
    for c in defence:
        if c >= 0:
            table |= 1 << c
    stock = s.stock
    ns = len(stock)
    # ``drawn[i]``: the first i cards of the stock (bottom first), so the top n of ns cards
    # are ``drawn[ns] - drawn[ns - n]`` (the cards are distinct, so a sum is a union)
    drawn = (0, *accumulate(map(_BITS.__getitem__, stock)))
    # cards above the four 16-bit suit rows of one plain deck (a second deck, special cards)
    wide = bool((ha | hd | table | drawn[-1]) >> 64)
    discard = s.discard
    idle = s.idle
    seen = s.seen
    cap_varies = bool(first_cap or uncapped)
    # The bout's cap. What moves it (the first bout, a take, an empty stock) changes only when
    # a bout starts (the stock is drawn between bouts) or when the defender takes, so it is
    # worked out here, at each lead and at a take.
    cap_now = cap
    if cap_varies:
        if first_cap and not bout and not taking:
            cap_now = first_cap
        if uncapped and not ns:
            cap_now = _BIG
    rank_at = _RANK_MASK_AT
    # Actions are counted a bout at a time: each card on the table at a bout's end was one
    # action (a multi-card lead corrects for its extra cards), and the takes and passes, which
    # lay no card, count where they happen. Cards already on the table were played before.
    steps = -table.bit_count()
    passing = 0  # the defender's cards that may transfer (only set under transfer rules)
    after = 1  # the actions listed after the covers: the transfers, then the take
    # where a bout's single uncovered card lies on the table (kept where ``unc`` becomes 1)
    open_at = defence.index(-1) if unc == 1 else 0
    resume = s.phase  # LEAD, or a bout under way (DEFEND_PHASE or THROW)
    room = 0
    if resume == THROW:
        room = cap_now - len(attack)
        if hd.bit_count() - unc < room:
            room = hd.bit_count() - unc
    while True:  # a bout
        if resume == LEAD:  # the lead: a bout starts, so the table is empty
            if cap_varies:
                cap_now = cap
                if first_cap and not bout and not taking:
                    cap_now = first_cap
                if uncapped and not ns:
                    cap_now = _BIG
                # the most cards the lead may hold: the room in the defender's hand and on
                # the table, and the rules' limit
                limit = hd.bit_count()
                if cap_now < limit:
                    limit = cap_now
                if limit > lead_top:
                    limit = lead_top
                most = most_at[limit] if limit > 0 else 0
            else:  # the same, worked out in advance for each size of the defender's hand
                most = most_by_count[hd.bit_count()]
            if not most:
                raise RuntimeError("a lead with no room: the bout cannot start")
            # ``at``: one more than the index of a card of the led rank
            if most == 1:
                r = (rand() * ha.bit_count()).__trunc__()
                m = ha
                while r:  # drop the r lowest cards
                    m &= m - 1
                    r -= 1
                mask = m & -m
                at = mask.bit_length()
                attack = [at - 1]
                defence = [-1]
                unc = 1
            else:
                counts = _SUBSETS[most]
                if wide:  # a second deck or special cards: count group by group
                    k = 0
                    m = ha
                    while m:
                        group = ha & rank_at[(m & -m).bit_length()]
                        m -= group
                        k += counts[group.bit_count()]
                else:
                    # One deck, suits in 16-bit rows: add the four rows bit by bit, rank by
                    # rank. A rank held s times has bit 0 of s in ``ones``, bit 1 in ``twos``,
                    # and is held four times where ``carry & carry2``.
                    w = ha & 0xFFFF
                    x = ha >> 16 & 0xFFFF
                    y = ha >> 32 & 0xFFFF
                    z = ha >> 48
                    lo = w ^ x
                    carry = w & x
                    hi = y ^ z
                    carry2 = y & z
                    ones = lo ^ hi
                    carry3 = lo & hi
                    if carry or carry2 or carry3:  # some rank is held more than once
                        twos = carry ^ carry2 ^ carry3
                        per_two, per_three, per_four = _WEIGHTS[most]
                        k = ones.bit_count() + per_two * twos.bit_count()
                        threes = ones & twos  # (threes and fours are rarer than pairs)
                        if threes:
                            k += per_three * threes.bit_count()
                        fours = carry & carry2
                        if fours:
                            k += per_four * fours.bit_count()
                    else:  # every rank once: a lead per card
                        k = ones.bit_count()
                r = (rand() * k).__trunc__()
                m = ha
                while True:  # the rank groups by their lowest card, as the engine lists them
                    at = (m & -m).bit_length()
                    group = ha & rank_at[at]
                    c = counts[group.bit_count()]
                    if r < c:
                        break
                    m -= group
                    r -= c
                if c == 1:  # a card of its own rank
                    mask = group
                    attack = [at - 1]
                    defence = [-1]
                    unc = 1
                else:  # the r-th lead of the group, its cards in increasing order
                    act = (_GROUP_LEADS[most].get(group) or _group_leads(group, most))[r]
                    mask = act.mask
                    attack = [*act.cards]
                    unc = len(attack)
                    defence = [-1] * unc
                    steps += 1 - unc  # one action, ``unc`` cards
            ha -= mask
            ranks = rank_at[at]  # the lead's cards all match one another
            table = mask
            open_at = 0  # (read only once one card is left uncovered)
            if not ha and not ns and not out >> att & 1:
                out |= 1 << att
                outs.append(att)
            turn = False
        else:  # a playout begun in the middle of a bout
            turn = resume == THROW
            resume = LEAD
        while True:  # the defender beats what is open; then the attacker may throw in more
            if not turn:
                while True:  # the defender's actions
                    if transfer:
                        passing = 0
                        after = 1
                        if unc == len(attack):
                            same = MATCH_MASKS[attack[0]]
                            ok = not (bout == 0 and no_first)
                            for a in attack:
                                if not same >> a & 1 or (no_trump_transfer
                                                         and suit_of(a) in trumps):
                                    ok = False
                            if (ok and not out >> att & 1 and ha.bit_count() >= unc + 1
                                    and unc + 1 <= cap_now):
                                passing = hd & same
                                after = passing.bit_count() + 1
                    # The actions in the general engine's order: the covers of each uncovered
                    # card (by place on the table, then by card), the transfers, the take.
                    # ``i`` is the place of the card the draw covers, -1 when it is a transfer
                    # or the take (then ``r`` counts from the first transfer).
                    if unc == 1:  # the usual case: one card to beat, no loop over the table
                        i = open_at
                        m = hd & beats[attack[i]]
                        c = m.bit_count()
                        # (with no cover the take is the only action: the draw is made all the
                        # same)
                        r = (rand() * (c + after)).__trunc__()
                        if r >= c:
                            i = -1
                            r -= c
                    else:
                        i = -1
                        k = after
                        for a, c in zip(attack, defence, strict=False):
                            if c == -1:
                                k += (hd & beats[a]).bit_count()
                        r = (rand() * k).__trunc__()
                        for j, a in enumerate(attack):
                            if defence[j] == -1:
                                m = hd & beats[a]
                                c = m.bit_count()
                                if r < c:
                                    i = j
                                    break
                                r -= c
                    if i >= 0:  # cover attack[i] with the r-th card of m
                        while r:  # drop the r lowest cards
                            m &= m - 1
                            r -= 1
                        bit = m & -m
                        at = bit.bit_length()
                        hd -= bit  # (a card taken from a set, a card added to it: - and + are
                        # ^ and |)
                        defence[i] = at - 1
                        unc -= 1
                        ranks |= rank_at[at]
                        table += bit
                        if not hd and not ns and not out >> d & 1:
                            out |= 1 << d
                            outs.append(d)
                        if unc:
                            if unc == 1:
                                open_at = defence.index(-1)
                            continue
                        if throw_in:  # all beaten: the attacker alone throws in, if he can
                            # he has a turn while he holds cards and there is room: a place on
                            # the table and a card in the defender's hand to beat one more
                            if (not ha or not hd or len(attack) >= cap_now
                                    or (out and out >> att & 1)):
                                pass  # no turn: the bout ends
                            elif ha & ranks:
                                room = cap_now - len(attack)
                                if hd.bit_count() < room:
                                    room = hd.bit_count()
                                turn = True
                            else:  # nothing to throw: the pass is his only action (the draw
                                # is made)
                                steps += 1
                                rand()
                    elif r == after - 1:  # take (listed last)
                        taking = True
                        steps += 1
                        if throw_in:  # the attacker alone throws in more for the taker
                            if cap_varies:  # (a first bout's own cap no longer holds once taken)
                                cap_now = _BIG if uncapped and not ns else cap
                            room = cap_now - len(attack)
                            if hd.bit_count() - unc < room:
                                room = hd.bit_count() - unc
                            if room <= 0 or not ha or (out and out >> att & 1):
                                pass  # no turn: the taker takes the table
                            elif ha & ranks:
                                turn = True
                            else:  # nothing to throw: the pass is his only action (the draw
                                # is made)
                                steps += 1
                                rand()
                    else:  # transfer: the other seat now defends against one card more
                        m = passing
                        while r:  # drop the r lowest cards
                            m &= m - 1
                            r -= 1
                        bit = m & -m
                        hd -= bit
                        attack.append(bit.bit_length() - 1)
                        defence.append(-1)
                        unc += 1
                        table += bit
                        if not hd and not ns and not out >> d & 1:
                            out |= 1 << d
                            outs.append(d)
                        att = d
                        d = 1 - d
                        ha, hd = hd, ha
                        ka, kd = kd, ka
                        continue
                    break
                if not turn:
                    break  # the bout ends
            # the attacker's turns, until he passes or the bout is full
            if room > 0:
                while True:
                    m = ha & ranks
                    if not m:
                        steps += 1
                        rand()  # the pass is the only action: the draw is made all the same
                        break
                    k = m.bit_count()
                    r = (rand() * (k + 1)).__trunc__()
                    if r == k:  # pass (listed last)
                        steps += 1
                        break
                    while r:  # drop the r lowest cards
                        m &= m - 1
                        r -= 1
                    bit = m & -m
                    ha -= bit
                    attack.append(bit.bit_length() - 1)
                    defence.append(-1)
                    unc += 1
                    # (``ranks`` already holds the card's rank: it was thrown because it did)
                    table += bit
                    if not ha and not ns and not out >> att & 1:
                        out |= 1 << att
                        outs.append(att)
                    if not ha or room <= 1:
                        break
                    room -= 1  # one card more on the table, one uncovered card more
            else:  # (a playout begun in the throw phase) no room: the pass is the only action
                steps += 1
                rand()
            if unc and not taking:  # cards thrown in: the defender beats them next
                if unc == 1:
                    open_at = len(attack) - 1  # (the earlier cards are beaten)
                turn = False
                continue
            break
        # the bout ends: taken by the defender or beaten; the table is not cleared here (the
        # next lead sets it up afresh), only for a state handed back
        steps += table.bit_count()
        if taking:
            hd += table  # (a card on the table is in no hand, so + is |)
            kd |= table
        else:
            discard += table
        stock_before = ns
        if ns:  # (no one is out while the stock lasts)
            # each draws up to the hand size in turn: ``na`` cards for the attacker from
            # ``a_top`` down, ``nd`` for the defender from ``d_top`` down
            na = size - ha.bit_count()
            if na < 0:
                na = 0
            nd = size - hd.bit_count()
            if nd < 0:
                nd = 0
            if (lead == att) if by_lead else att_first:
                if na > ns:
                    na = ns
                if nd > ns - na:
                    nd = ns - na
                a_top = ns
                d_top = ns - na
            else:
                if nd > ns:
                    nd = ns
                if na > ns - nd:
                    na = ns - nd
                d_top = ns
                a_top = ns - nd
            if na:
                got = drawn[a_top] - drawn[a_top - na]  # (a sum of distinct cards is a union)
                ha += got
                ka |= got & face_up
            if nd:
                got = drawn[d_top] - drawn[d_top - nd]
                hd += got
                kd |= got & face_up
            ns -= na + nd
        if not ns and not (ha and hd):  # an empty hand with no stock left is out
            for seat in orders[lead if by_lead else d]:
                if not out >> seat & 1 and not (ha if seat == att else hd):
                    out |= 1 << seat
                    outs.append(seat)
        # ``idle`` counts the idle bouts in a row (taken, and no one drew); the engine packs
        # into it, above bit 16, the players out when the count began, which with two seats
        # only happens as the game ends
        if out:  # the game is over
            if idle_limit:
                if taking and ns == stock_before and idle >> 16 == len(outs):
                    idle = ((idle & 0xFFFF) + 1) | len(outs) << 16
                else:
                    idle = len(outs) << 16
            _write_back(s, att, lead, d, bout, out, ha, hd, ka, kd, ns, discard, idle, seen,
                        attack, defence)
            s._finish([seat for seat in (0, 1) if not out >> seat & 1])
            return steps
        if not taking:  # beaten: the defender attacks next (with two seats, the other seat)
            att = d
            d = 1 - att
            ha, hd = hd, ha
            ka, kd = kd, ka
            if idle_limit:
                idle = 0
            if repetition:
                seen = ()
        elif ns != stock_before:  # taken, and the stock was drawn from
            taking = False
            if idle_limit:
                idle = 0
            if repetition:
                seen = ()
        else:  # taken, and no one drew: an idle bout
            taking = False
            if idle_limit:
                if idle < 0x10000:
                    idle += 1
                    if idle >= idle_limit:
                        _write_back(s, att, lead, d, bout, out, ha, hd, ka, kd, ns, discard,
                                    idle, seen, attack, defence)
                        s._declare_draw("idle")
                        return steps
                else:
                    idle = 0
            if repetition:  # the next bout's opening, by seat
                key = (ha, hd, att, d, ns) if att == 0 else (hd, ha, att, d, ns)
                if seen.count(key) + 1 >= repetition:
                    _write_back(s, att, att, d, bout + 1, out, ha, hd, ka, kd, ns, discard,
                                idle, seen, attack, defence)
                    s._check_repetition()
                    return steps
                seen = (*seen, key)
        lead = att
        bout += 1


def _write_back(s: DurakState, att: int, lead: int, d: int, bout: int, out: int, ha: int,
                hd: int, ka: int, kd: int, ns: int, discard: int, idle: int,
                seen: tuple[tuple[int, ...], ...], attack: list[int], defence: list[int]) -> None:
    """Hand the position at a bout's end back to the state object, for the engine's own
    methods to end the game (its ``out`` list was extended in place; the table is empty, no
    one is taking, and the phase and the seat to act are the next bout's, which ending the
    game overwrites); the hands and known cards come by role, the attacker's first.
    ``attack`` and ``defence`` still hold the bout that just ended, its ``last_bout``."""
    s._legal = None
    s.phase = LEAD
    s.to_act = att
    s.attacker = att
    s.leader = lead
    s.defender = d
    s.taking = False
    s.bout = bout
    s.out_mask = out
    s.hands[att] = ha
    s.hands[d] = hd
    s.known[att] = ka & ha  # the loop only adds to the known cards: see duel_playout
    s.known[d] = kd & hd
    s.attack = []
    s.defence = []
    s.uncovered = 0
    s.table_ranks = 0
    del s.stock[ns:]
    s.discard = discard
    s.idle = idle
    s.seen = seen
    s.last_bout = (*attack, *(c for c in defence if c != -1))  # its attack cards, then covers
    s.throwers = ()
    s._table = 0
