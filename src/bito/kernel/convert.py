"""Between the reference engine and the kernel: rules to rule facts, positions to arrays,
actions to integer pairs, and both kinds of position to one comparable snapshot.

The snapshots are what the differential tests compare after every transition, so they hold
every fact the rules read: hands, stock, discard, table, roles, phase, throw-round bookkeeping,
the order players went out and the outcome. (What seats have seen, ``known``, only feeds views;
the kernel does not track it.)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from bito.games.durak.actions import STOCK, TRY, Action
from bito.games.durak.beats import beat_table
from bito.games.durak.state import THROW, DurakState
from bito.games.durak.teams import team_of_seats
from bito.kernel import layout as L
from bito.rules import Rules

_CARD_BITS = (1 << 63) - 1  # the single-deck part of a reference card set


@lru_cache(maxsize=256)
def _rule_facts(rules: Rules, players: int) -> np.ndarray:
    s = np.zeros(L.SIZE, np.int64)
    s[L.PLAYERS] = players
    s[L.HAND_SIZE] = rules.deal_hand_size
    s[L.CAP] = rules.throw_in_cap
    s[L.FIRST_CAP] = rules.first_bout_cap
    s[L.UNCAPPED] = rules.throw_in_uncapped_after_stock
    s[L.LEAD_MAX] = rules.lead_max
    s[L.LEAD_MOST] = rules.lead_most
    s[L.ROZALIEV] = rules.lead_shape == "rozaliev"
    s[L.THROW_IN] = rules.throw_in_enabled
    s[L.TRANSFER] = rules.transfer_enabled
    s[L.NEIGHBOURS] = rules.throw_in_by == "neighbours"
    s[L.DRAW_RULE] = L.DRAW_RULES.index(rules.draw_order)
    # The kernel's own deals are first deals of a match, where first_game bans bout-0 transfers.
    s[L.NO_FIRST_TRANSFER] = rules.transfer_first_bout == "first_game"
    s[L.NO_TRUMP_TRANSFER] = rules.transfer_forbid_if_trump_on_table
    s[L.DRAW_ALLOWED] = rules.end_draw_allowed
    s[L.TRUMP_SOURCE] = L.TRUMP_SOURCES.index(rules.trump_source)
    s[L.REJECT_ACE] = "A" in rules.trump_reject_indicator
    s[L.REJECT_LOW] = "L" in rules.trump_reject_indicator
    s[L.LOW_RANK] = rules.low_rank
    s[L.LEFT_OF_DEALER] = rules.first_attacker_rule == "left_of_dealer"
    s[L.LOT_FALLBACK] = rules.first_attacker_no_trump_fallback == "lot"
    s[L.REPETITION] = rules.end_repetition
    s[L.IDLE_LIMIT] = rules.end_idle_bouts
    s[L.FIXED_SUIT] = "cdhs".index(rules.trump_fixed_suit)
    s[L.ANY_TIME] = rules.transfer_window == "any_time"
    s[L.MATCH_ALL] = rules.transfer_match == "all_uncovered"
    s[L.STOCK_LEAD] = rules.lead_stock_top == "once"
    s[L.SECOND_TRY] = L.SECOND_TRIES.index(rules.defense_second_try)
    team_of = team_of_seats(rules.team_layout, players)
    s[L.TEAMS] = bool(team_of)
    s[L.TEAM_OF] = sum(team << 4 * seat for seat, team in enumerate(team_of))
    s[L.TEAM_THROW] = rules.team_throw_in == "opponents"
    s[L.TEAM_ATTACK] = rules.team_attack == "opponent"
    s[L.TEAM_PROXY] = rules.team_proxy and bool(team_of)
    s[L.PLAYED] = -1
    # What beats what under each trump the deal may turn, and with none: the reference
    # engine's own tables, so every rule of the relation reaches the kernel as data.
    for row, suit in enumerate((0, 1, 2, 3, -1)):
        _put_table(s, L.TRUMP_ROWS + 64 * row, beat_table(rules, suit))
    s[L.LOSER] = -1
    s.setflags(write=False)
    return s


def _put_table(s: np.ndarray, at: int, table: tuple[int, ...]) -> None:
    """A reference beat table as 64 entries from ``at`` (cards the deck lacks: 0)."""
    if len(table) > 64:
        raise ValueError("a beat table over more than one deck's card codes")
    s[at:at + 64] = 0
    s[at:at + len(table)] = [m & _CARD_BITS for m in table]


def rule_facts(rules: Rules, players: int) -> np.ndarray:
    """A blank position holding only the rule facts (the template the kernel deals into)."""
    return _rule_facts(rules, players).copy()


@lru_cache(maxsize=16)
def pack_of(rules: Rules) -> np.ndarray:
    """The unshuffled pack in the reference engine's order (``Rules.deck``)."""
    return np.array(rules.deck(), np.int64)


def from_state(state: DurakState) -> np.ndarray:
    """The kernel array of a reference position (whose rules :func:`bito.kernel.supports`)."""
    rules = state.rules
    d = state.deal
    s = rule_facts(rules, state.players)
    s[L.TRUMP] = d.trump_suit
    s[L.TRUMP_CARD] = d.trump_card
    _put_table(s, L.BEATS, state.beats)
    fb = rules.transfer_first_bout
    s[L.NO_FIRST_TRANSFER] = ((fb == "first_game" and d.match.game_number == 0)
                              or (fb == "under_fool" and d.under_fool))
    s[L.PHASE] = state.phase
    s[L.TO_ACT] = state.to_act
    s[L.ATTACKER] = state.attacker
    s[L.LEADER] = state.leader
    s[L.DEFENDER] = state.defender
    s[L.TAKING] = state.taking
    s[L.T_IDX] = state.t_idx
    s[L.PASSES] = state.passes
    s[L.BOUT] = state.bout
    s[L.OUT_MASK] = state.out_mask
    s[L.N_OUT] = len(state.out)
    s[L.OUT:L.OUT + len(state.out)] = state.out
    if state.outcome is not None:
        s[L.LOSER] = -1 if state.outcome.loser is None else state.outcome.loser
        s[L.RESULT] = 2 if state.outcome.draw else 1
    s[L.DISCARD] = state.discard
    s[L.HANDS:L.HANDS + state.players] = state.hands
    table = 0
    for c in (*state.attack, *state.defence):
        if c >= 0:
            table |= 1 << c
    s[L.TABLE] = table
    s[L.TABLE_RANKS] = state.table_ranks & _CARD_BITS
    s[L.UNCOVERED] = state.uncovered
    s[L.N_ATTACK] = len(state.attack)
    s[L.ATTACK:L.ATTACK + len(state.attack)] = state.attack
    s[L.DEFENCE:L.DEFENCE + len(state.defence)] = state.defence
    s[L.N_STOCK] = len(state.stock)
    s[L.STOCK:L.STOCK + len(state.stock)] = state.stock
    s[L.N_THROWERS] = len(state.throwers)
    s[L.THROWERS:L.THROWERS + len(state.throwers)] = state.throwers
    seen = getattr(state, "seen", ())
    width = state.players + 3
    if len(seen) > L.MAX_SEEN or any(len(key) != width for key in seen):
        raise ValueError("bout openings the kernel cannot hold (too many, or another shape)")
    s[L.IDLE] = getattr(state, "idle", 0)
    s[L.TRIED] = _tried(state)
    s[L.PLAYED] = state.played
    s[L.N_SEEN] = len(seen)
    for i, key in enumerate(seen):
        s[L.SEEN + i * width:L.SEEN + (i + 1) * width] = key
    return s


def kernel_kind(kind: int) -> int:
    """The kernel's number for a reference action kind (they agree but for #40's stock lead
    and #39's second try)."""
    return L.STOCK_KIND if kind == STOCK else L.TRY_KIND if kind == TRY else kind


def _reference_kind(kind: int) -> int:
    return STOCK if kind == L.STOCK_KIND else TRY if kind == L.TRY_KIND else kind


def _tried(state: DurakState) -> int:
    """#39: the attack cards of this bout the defender has made a second try against."""
    extra = getattr(state, "extra", None)
    return int(getattr(extra, "tried", 0)) if extra is not None else 0


def action_code(action: Action) -> tuple[int, int]:
    """``(mask, meta)`` of a reference action, as the kernel writes them."""
    return action.mask, kernel_kind(action.kind) | (action.target + 1) << 3


def action_of(mask: int, meta: int) -> Action:
    """The reference action for a kernel ``(mask, meta)`` pair."""
    mask = int(mask)
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return Action(_reference_kind(int(meta) & 7), tuple(cards), (int(meta) >> 3) - 1)


def kernel_snapshot(s: np.ndarray) -> dict[str, Any]:
    """The facts of a kernel position, in the same form as :func:`reference_snapshot`."""
    n = int(s[L.PLAYERS])
    na = int(s[L.N_ATTACK])
    out = [int(x) for x in s[L.OUT:L.OUT + s[L.N_OUT]]]
    snap: dict[str, Any] = {
        "phase": int(s[L.PHASE]), "to_act": int(s[L.TO_ACT]),
        "attacker": int(s[L.ATTACKER]), "leader": int(s[L.LEADER]),
        "defender": int(s[L.DEFENDER]), "taking": bool(s[L.TAKING]), "bout": int(s[L.BOUT]),
        "hands": [int(h) for h in s[L.HANDS:L.HANDS + n]], "discard": int(s[L.DISCARD]),
        "attack": [int(c) for c in s[L.ATTACK:L.ATTACK + na]],
        "defence": [int(c) for c in s[L.DEFENCE:L.DEFENCE + na]],
        "stock": [int(c) for c in s[L.STOCK:L.STOCK + s[L.N_STOCK]]],
        "out": out, "uncovered": int(s[L.UNCOVERED]), "table_ranks": int(s[L.TABLE_RANKS]),
        "outcome": None, "idle": int(s[L.IDLE]), "tried": int(s[L.TRIED]),
        "played": int(s[L.PLAYED]),
    }
    width = n + 3
    snap["seen"] = [tuple(int(x) for x in s[L.SEEN + i * width:L.SEEN + (i + 1) * width])
                    for i in range(int(s[L.N_SEEN]))]
    if s[L.RESULT]:
        loser = None if s[L.RESULT] == 2 else int(s[L.LOSER])
        # those still holding cards: fewest cards first, then by seat (``_still_in``)
        rest = sorted((bin(int(s[L.HANDS + seat])).count("1"), seat) for seat in range(n)
                      if not int(s[L.OUT_MASK]) >> seat & 1 and seat != loser)
        order = [*out, *(seat for _, seat in rest)]
        if loser is not None and loser not in out:
            order.append(loser)
        snap["outcome"] = (loser, tuple(order), loser is None)
    if s[L.PHASE] == THROW:
        snap["throwers"] = [int(x) for x in s[L.THROWERS:L.THROWERS + s[L.N_THROWERS]]]
        snap["t_idx"] = int(s[L.T_IDX])
        snap["passes"] = int(s[L.PASSES])
    return snap


def reference_snapshot(state: DurakState) -> dict[str, Any]:
    """The facts of a reference position that :func:`kernel_snapshot` also reports."""
    snap: dict[str, Any] = {
        "phase": state.phase, "to_act": state.to_act, "attacker": state.attacker,
        "leader": state.leader, "defender": state.defender, "taking": state.taking,
        "bout": state.bout, "hands": list(state.hands), "discard": state.discard,
        "attack": list(state.attack), "defence": list(state.defence),
        "stock": list(state.stock), "out": list(state.out), "uncovered": state.uncovered,
        "table_ranks": state.table_ranks & _CARD_BITS, "outcome": None,
        "idle": getattr(state, "idle", 0), "tried": _tried(state), "played": state.played,
    }
    snap["seen"] = [tuple(key) for key in getattr(state, "seen", ())]
    if state.outcome is not None:
        o = state.outcome
        snap["outcome"] = (o.loser, tuple(o.order), o.draw)
    if state.phase == THROW:
        snap["throwers"] = list(state.throwers)
        snap["t_idx"] = state.t_idx
        snap["passes"] = state.passes
    return snap
