"""Between the reference engine and the kernel: rules to rule facts, positions to arrays,
actions to integer pairs, and both kinds of position to one comparable snapshot.

The snapshots are what the differential tests compare after every transition, so they hold
every fact the rules read: hands, stock, discard, table, roles, phase, throw-round bookkeeping,
the order players went out and the outcome. (What seats have seen, ``known``, only feeds views;
the kernel does not track it.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import numpy as np

from bito.cards import (
    ACE,
    MATCH_MASKS,
    SPADES,
    is_joker,
    is_mega,
    is_special,
    rank_of,
    special,
    suit_of,
)
from bito.games.durak.actions import BLOCK, GIVE, STOCK, TRY, Action
from bito.games.durak.beats import beat_table_of
from bito.games.durak.bout_extras import EXTRAS, extras_of
from bito.games.durak.joker_gifts import GIFT
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.setup import reserve_size, trump_context
from bito.games.durak.show_trump import SHOW, shown_this_bout
from bito.games.durak.state import THROW, DurakState
from bito.games.durak.stock import FIGURE_LOW, SIX, plays_stock_rules
from bito.games.durak.teams import played_seat, team_of_seats
from bito.games.durak.trump_swap import SWAP_SIX
from bito.kernel import layout as L
from bito.rules import Rules

_CARD_BITS = (1 << 63) - 1  # the single-deck part of a reference card set
_KERNEL_CARDS = 63  # card indices a kernel card set holds (the sign bit stays unused)


class CardNumbering(Protocol):
    """What writing a position into a kernel array asks of a card numbering: a
    :class:`CardIndex`, or a two-deck start's own (:mod:`bito.kernel.two_decks`)."""

    @property
    def identity(self) -> bool: ...

    def holds(self, code: int) -> bool: ...

    def kernel_card(self, code: int) -> int: ...

    def kernel_mask(self, mask: int) -> int: ...


@dataclass(frozen=True)
class CardIndex:
    """Reference card code ↔ kernel card index, for one deck.

    The kernel's card sets are ``int64`` bitmasks, so it numbers at most 63 cards. A single
    deck without jokers keeps the reference codes (all below 63: :attr:`identity`, nothing is
    converted). A deck with codes past 62 but at most 63 cards (#29's two jokers, codes 65 and
    66) is numbered 0, 1, 2, ... in the reference code order: the kernel's move generators walk
    cards low to high and its greedy playouts break ties on the lower set of cards, so keeping
    the order keeps every such choice the reference engine's. Rank and suit then come from
    tables (``layout.RANK_SETS``, ``RANK_OF``, ``SUIT_OF``), never from the index's bits."""

    codes: tuple[int, ...]
    """The reference code of each kernel index."""
    identity: bool
    _index: dict[int, int] = field(init=False, repr=False, compare=False)
    _by_byte: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Per byte of a reference mask: the kernel mask of each of its 256 values."""

    def __post_init__(self) -> None:
        index = {c: k for k, c in enumerate(self.codes)}
        top = max(self.codes, default=0) // 8 + 1
        tables = tuple(tuple(sum(1 << index[8 * j + b] for b in range(8)
                                 if v >> b & 1 and 8 * j + b in index) for v in range(256))
                       for j in range(top))
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_by_byte", tables)

    def holds(self, code: int) -> bool:
        """Whether the numbering has an index for this reference card code."""
        return code in self._index

    def kernel_card(self, code: int) -> int:
        """The kernel index of a reference card code (-1 stays -1, as do other negatives)."""
        return code if self.identity or code < 0 else self._index[code]

    def reference_card(self, k: int) -> int:
        return k if self.identity or k < 0 else self.codes[k]

    def kernel_mask(self, mask: int) -> int:
        """A reference card set in kernel indices (cards outside the deck are dropped)."""
        if self.identity:
            return mask & _CARD_BITS
        out = 0
        for table in self._by_byte:
            if not mask:
                break
            out |= table[mask & 255]
            mask >>= 8
        return out

    def reference_mask(self, mask: int) -> int:
        if self.identity:
            return mask
        out = 0
        while mask:
            low = mask & -mask
            out |= 1 << self.codes[low.bit_length() - 1]
            mask ^= low
        return out

    def values(self, by_code: Sequence[int]) -> np.ndarray:
        """A per-card list indexed by reference code (card worths, strengths) as the
        64-entry array over kernel indices the compiled code reads."""
        arr = np.zeros(64, np.int64)
        for k, c in enumerate(self.codes):
            if c < len(by_code):
                arr[k] = by_code[c]
        return arr


@lru_cache(maxsize=64)
def card_index(rules: Rules) -> CardIndex | None:
    """The kernel's numbering of the cards of ``rules``' deck; None when the deck holds more
    cards than an ``int64`` card set (two decks, #21)."""
    deck = sorted(set(rules.deck()))
    if len(deck) != len(rules.deck()) or len(deck) > _KERNEL_CARDS:
        return None
    if deck[-1] < _KERNEL_CARDS:
        return CardIndex(tuple(range(_KERNEL_CARDS)), True)
    return CardIndex(tuple(deck), False)


def in_play_index(state: DurakState) -> CardIndex | None:
    """The numbering of a two-deck position (#21 Big fool, 72 cards): the cards not yet in
    the discard, in reference code order; None while more than an ``int64`` set holds.

    Why this fits the kernel without a second build: a discarded card never comes back, and
    nothing the rules read looks at the discard, so a position with at most 63 cards in play
    is a one-deck position over those cards. Rank sets, suits and the beat table (the twin
    ban included) are data over the index, and the order of the codes is kept, so move lists
    and the greedy tie-break stay the reference's. The discard of the position taken over is
    left out of the kernel's set (:func:`outside_cards` gives it back)."""
    codes = tuple(c for c in sorted(state.rules.deck()) if not state.discard >> c & 1)
    return _index_over(codes) if len(codes) <= _KERNEL_CARDS else None


@lru_cache(maxsize=64)
def _index_over(codes: tuple[int, ...]) -> CardIndex:
    return CardIndex(codes, False)


def outside_cards(rules: Rules, index: CardIndex) -> int:
    """The cards of the deck ``index`` does not number (the discard a two-deck position had
    when the kernel took it over): the kernel's discard lacks them."""
    return sum(1 << c for c in rules.deck() if not index.holds(c)) if not index.identity else 0


def _index_of(rules: Rules) -> CardIndex:
    index = card_index(rules)
    if index is None:
        raise ValueError("a deck of more cards than the kernel's 64-bit card sets hold")
    return index


def _rejected_set(rules: Rules, index: CardIndex) -> int:
    """The cards that may not be the turned-up trump card, as ``setup``'s rejection reads
    them for the rules the kernel plays: #74's aces and low cards, and special cards (§3.3:
    buried unless their joker system gives them a meaning, #25's and #27's jokers, which
    ``trump.reject_indicator=joker`` buries all the same)."""
    out = 0
    for c in rules.deck():
        if (index.identity or index.holds(c)) and rejected_trump_card(rules, c):
            out |= 1 << index.kernel_card(c)
    return out


def rejected_trump_card(rules: Rules, code: int) -> bool:
    """Whether the card may not be the turned-up trump card (:func:`_rejected_set`'s test,
    card by card)."""
    reject = rules.trump_reject_indicator
    if is_special(code):
        # §3.3: a special card is buried unless its joker system gives a turned joker a
        # meaning (#25's colour, #27's wild jokers), and then only if the rules say so
        if is_joker(code) and rules.specials_joker in ("double", "novosibirsk"):
            return "joker" in reject
        return True
    r = rank_of(code)
    return ((r == ACE and "A" in reject) or (r == rules.low_rank and "L" in reject)
            or (suit_of(code) == SPADES and "spades" in reject))  # #14


CARD_SETS = (L.FIGURE_CARDS, L.SIX_CARDS, L.JOKERS, L.RED_JOKERS, L.CLOSES)
"""The rule facts that are sets of cards beyond the beat tables, in the order
:func:`card_in_sets` answers for one card (a deck's numbering and a two-deck renumbering
write them alike)."""


def card_in_sets(rules: Rules, code: int) -> tuple[bool, bool, bool, bool, bool]:
    """Whether the card belongs to each of :data:`CARD_SETS`: #62's figures, #63's plain
    sixes, the jokers and the red ones (#24's gifts), and the covers that close a bout to
    throw-ins (#28: a wild card or a joker, ``state.closes``; #22's twin block aside)."""
    special_card = is_special(code)
    return (not special_card and rank_of(code) >= FIGURE_LOW,
            not special_card and rank_of(code) == SIX,
            is_joker(code),
            is_joker(code) and rank_of(code) == rank_of(special("RJ")),
            rules.specials_cover_ends_throw_in and special_card and not is_mega(code))


@lru_cache(maxsize=256)
def _rule_facts(rules: Rules, players: int) -> np.ndarray:
    return _rule_facts_over(rules, players, _index_of(rules))


@lru_cache(maxsize=256)
def _rule_facts_over(rules: Rules, players: int, index: CardIndex) -> np.ndarray:
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
    s[L.STOCK_LEAD] = rules.lead_stock_top != "off"
    s[L.STOCK_ONCE] = rules.lead_stock_top == "once"
    s[L.STOCK_THROW] = rules.lead_stock_top_throw_in and rules.lead_stock_top != "off"
    s[L.STOCK_SEEN] = -1
    s[L.SECRET_SECOND] = rules.trump_secret_second
    s[L.SECRET_DRAWABLE] = rules.trump_secret_drawable
    s[L.SECRET] = -1
    s[L.STOCK_REFILL] = plays_stock_rules(rules)
    s[L.SWAP_SIX] = rules.trump_swap_six
    s[L.SUIT_LEADS] = rules.lead_shape == "same_suit"
    s[L.CLOSING] = (rules.specials_cover_ends_throw_in
                    or rules.beats_identical == "allowed_blocks")  # (``Deal.cover_closes``)
    s[L.BOOKS] = (rules.score_points != "off" or rules.score_figures or rules.end_epaulettes
                  or rules.deal_reserve > 0)
    s[L.SECOND_TRY] = L.SECOND_TRIES.index(rules.defense_second_try)
    team_of = team_of_seats(rules.team_layout, players)
    s[L.TEAMS] = bool(team_of)
    s[L.TEAM_OF] = sum(team << 4 * seat for seat, team in enumerate(team_of))
    s[L.TEAM_THROW] = rules.team_throw_in == "opponents"
    s[L.TEAM_ATTACK] = rules.team_attack == "opponent"
    s[L.TEAM_PROXY] = rules.team_proxy and bool(team_of)
    s[L.PLAYED] = -1
    s[L.ONLY_NEW] = rules.transfer_new_defender_beats == "transfer_cards_only"
    s[L.THROW_GROUPS] = rules.throw_in_groups
    s[L.INSTANT_LOSS] = rules.end_instant_loss_cards
    s[L.SHOW_TRUMP] = rules.transfer_show_trump
    s[L.TAKE_SKIP] = rules.take_skip
    s[L.WHOLE_RANK] = rules.lead_must_include_all_of_rank
    s[L.STRONGEST] = rules.lead_strongest_only
    s[L.WHOLE_PACK] = rules.deal_whole_pack
    s[L.REMOVE_STOCK] = rules.deal_remove_stock
    s[L.DESCENDING] = rules.deck_order == "descending"
    s[L.SEARCH_INDICATOR] = rules.trump_search_indicator and rules.trump_source == "fixed"
    s[L.REFUSAL] = rules.transfer_refusal
    s[L.DRAW_EMPTY] = rules.draw_when == "hand_empty"
    s[L.PROGRESSIVE] = rules.draw_progressive
    s[L.PROGRESSIVE_CAP] = rules.draw_target_cap
    s[L.EXCHANGE] = rules.exchange_mode == "whole_hand"
    s[L.GIFTS] = rules.specials_joker_gifts
    s[L.GIFT_BLOCK] = rules.specials_gift_block_combo
    s[L.GIFT_ON_COVER] = rules.specials_gift_trigger == "any_play"
    s[L.GIVER_TRANSFERRER] = rules.specials_joker_transfer_giver == "transferrer"
    s[L.GIVER] = s[L.RECEIVER] = -1
    s[L.SCORE_POINTS] = ("off", "covered", "discarded").index(rules.score_points)
    s[L.SCORE_FIGURES] = rules.score_figures
    if rules.lead_shape == "patterns":  # #4-6, #47: the shapes a lead may take
        s[L.PATTERN_LEADS] = L.PATTERNS_ON | sum(L.PATTERN_BITS[p]
                                                 for p in set(rules.lead_patterns))
    s[L.PASS_LEAD] = rules.lead_pass_if_no_legal
    s[L.PARTIAL] = rules.defense_partial
    s[L.TWIN_BLOCK] = rules.beats_identical == "allowed_blocks"
    s[L.EPAULETTES] = rules.end_epaulettes
    s[L.RESERVE_SIZE] = (reserve_size(rules, players, len(rules.deck()))
                         if rules.deal_reserve else 0)
    deck = [c for c in rules.deck() if index.holds(c) or index.identity]
    for j, slot in enumerate(CARD_SETS):  # figures, sixes, jokers, #28's closing covers
        s[slot] = index.kernel_mask(sum(1 << c for c in deck if card_in_sets(rules, c)[j]))
    s[L.SUITED] = index.kernel_mask(sum(1 << c for c in deck if not is_special(c)))
    for c in deck:
        k = index.kernel_card(c)
        s[L.RANK_SETS + k] = index.kernel_mask(MATCH_MASKS[c])
        s[L.RANK_OF + k] = rank_of(c)
        s[L.SUIT_OF + k] = suit_of(c)
    s[L.REJECTED] = _rejected_set(rules, index)
    # What beats what under each card the deal may turn up, and with no trump: the reference
    # engine's own tables and trump contexts, so every rule of the relation reaches the
    # kernel as data.
    for row, (trumps, table) in enumerate(_trump_rows(rules)):
        _put_table(s, L.TRUMP_ROWS + 64 * row, table, index)
        s[L.ROW_TRUMPS + row] = index.kernel_mask(sum(
            1 << c for c in deck if not is_special(c) and suit_of(c) in trumps))
    s[L.LOSER] = -1
    s.setflags(write=False)
    return s


@lru_cache(maxsize=64)
def _trump_rows(rules: Rules) -> list[tuple[frozenset[int], tuple[int, ...]]]:
    """The trump suits and beat table of each row of ``layout.TRUMP_ROWS``: a card of each
    suit turned up, no trump, the red and the black joker turned up (``setup.trump_context``
    says what each means under these rules)."""
    rows = []
    for card in (*(suit * 16 + rules.low_rank for suit in range(4)), None,
                 special("RJ"), special("BJ")):
        if card is None:
            context: tuple[frozenset[int], int, bool] = (frozenset(), -1, False)
        else:
            context = trump_context(rules, card)
        rows.append((context[0], beat_table_of(rules, *context)))
    return rows


def facts_without_cards(rules: Rules, players: int) -> np.ndarray:
    """The rule facts with no card numbered (no beat table, rank sets, suits or trump rows):
    the template of a two-deck position the kernel starts before 63 cards are in play, whose
    card facts :func:`bito.kernel.two_decks.number_cards` writes for its own numbering."""
    return _rule_facts_over(rules, players, _index_over(()))


def _put_table(s: np.ndarray, at: int, table: tuple[int, ...], index: CardIndex) -> None:
    """A reference beat table as 64 entries from ``at``, in kernel indices (cards the deck
    lacks: 0)."""
    s[at:at + 64] = 0
    if index.identity:
        if len(table) > 64:
            raise ValueError("a beat table over more than one deck's card codes")
        s[at:at + len(table)] = [m & _CARD_BITS for m in table]
        return
    for k, c in enumerate(index.codes):
        if c < len(table):
            s[at + k] = index.kernel_mask(table[c])


def rule_facts(rules: Rules, players: int) -> np.ndarray:
    """A blank position holding only the rule facts (the template the kernel deals into)."""
    return _rule_facts(rules, players).copy()


@lru_cache(maxsize=256)
def _prepared(rules: Rules, players: int) -> tuple[np.ndarray, CardIndex, tuple[int, ...]]:
    """What :func:`from_state` needs of the rules, found once (one cache lookup a call: the
    search converts a position per world it samples): the rule facts, the deck's numbering,
    and the trump cards of each suit in kernel indices."""
    index = _index_of(rules)
    suits = tuple(index.kernel_mask(sum(1 << c for c in rules.deck()
                                        if suit_of(c) == suit and not is_special(c)))
                  for suit in range(4))
    return _rule_facts(rules, players), index, suits


@lru_cache(maxsize=256)
def _prepared_over(rules: Rules, players: int, index: CardIndex
                   ) -> tuple[np.ndarray, CardIndex, tuple[int, ...]]:
    """:func:`_prepared` for a two-deck position's own numbering (:func:`in_play_index`):
    the worlds a search samples from one view share the discard, so one entry serves them."""
    suits = tuple(index.kernel_mask(sum(1 << c for c in rules.deck()
                                        if suit_of(c) == suit and not is_special(c)))
                  for suit in range(4))
    return _rule_facts_over(rules, players, index), index, suits


@lru_cache(maxsize=16)
def pack_of(rules: Rules) -> np.ndarray:
    """The unshuffled pack in the reference engine's order (``Rules.deck``), as kernel
    indices."""
    index = _index_of(rules)
    return np.array([index.kernel_card(c) for c in rules.deck()], np.int64)


def from_state(state: DurakState) -> np.ndarray:
    """The kernel array of a reference position (whose rules :func:`bito.kernel.supports`)."""
    return converted(state)[0]


def converted(state: DurakState) -> tuple[np.ndarray, CardIndex]:
    """:func:`from_state` and the deck's :func:`card_index`, found in one cache lookup (the
    search converts a position and its moves once per world it samples)."""
    rules = state.rules
    if rules.deck_copies > 1:
        own = in_play_index(state)
        if own is None:
            raise ValueError("a deck of more cards than the kernel's 64-bit card sets hold")
        facts, index, suit_sets = _prepared_over(rules, state.players, own)
    else:
        facts, index, suit_sets = _prepared(rules, state.players)
    s = facts.copy()
    for suit in state.trumps:  # (two under #25's turned joker; #18's once turned)
        s[L.TRUMP_SET] |= suit_sets[suit]
    _put_table(s, L.BEATS, state.beats, index)
    write_position(s, state, index)
    return s, index


def write_position(s: np.ndarray, state: DurakState, index: CardNumbering,
                   hidden: int = 0) -> None:
    """Write what changes during a deal (roles, phase, hands, table, stock, discard, bout
    openings) into ``s``, which already holds the rule facts of ``index``'s numbering.

    ``hidden``: the bottom cards of the stock ``index`` leaves unnumbered (a two-deck position
    started before 63 cards are in play, :mod:`bito.kernel.two_decks`): the kernel's stock and
    the stock sizes of the remembered openings leave them out, until the kernel numbers them."""
    rules = state.rules
    d = state.deal
    s[L.TRUMP] = d.trump_suit
    # (two decks: a discarded trump card has no index; only the kernel's own deal reads it)
    s[L.TRUMP_CARD] = index.kernel_card(d.trump_card) if index.identity or index.holds(
        d.trump_card) or d.trump_card < 0 else -1
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
    km = index.kernel_mask
    table = 0
    for c in (*state.attack, *state.defence):
        if c >= 0:
            table |= 1 << c
    s[L.UNCOVERED] = state.uncovered
    s[L.N_ATTACK] = len(state.attack)
    s[L.N_STOCK] = len(state.stock)
    if index.identity:  # a plain deck: the reference codes are the kernel's
        s[L.DISCARD] = state.discard
        s[L.HANDS:L.HANDS + state.players] = state.hands
        s[L.TABLE] = table
        s[L.TABLE_RANKS] = state.table_ranks & _CARD_BITS
        s[L.ATTACK:L.ATTACK + len(state.attack)] = state.attack
        s[L.DEFENCE:L.DEFENCE + len(state.defence)] = state.defence
        s[L.STOCK:L.STOCK + len(state.stock)] = state.stock
    else:
        kc = index.kernel_card
        s[L.DISCARD] = km(state.discard)
        s[L.HANDS:L.HANDS + state.players] = [km(h) for h in state.hands]
        s[L.TABLE] = km(table)
        s[L.TABLE_RANKS] = km(state.table_ranks)
        s[L.ATTACK:L.ATTACK + len(state.attack)] = [kc(c) for c in state.attack]
        s[L.DEFENCE:L.DEFENCE + len(state.defence)] = [kc(c) for c in state.defence]
        s[L.STOCK:L.STOCK + len(state.stock) - hidden] = [kc(c) for c in state.stock[hidden:]]
        s[L.N_STOCK] = len(state.stock) - hidden
    s[L.N_THROWERS] = len(state.throwers)
    s[L.THROWERS:L.THROWERS + len(state.throwers)] = state.throwers
    seen = getattr(state, "seen", ())
    width = state.players + 3
    if len(seen) > L.MAX_SEEN or any(len(key) != width for key in seen):
        raise ValueError("bout openings the kernel cannot hold (too many, or another shape)")
    s[L.IDLE] = getattr(state, "idle", 0)
    tried = _tried(state)
    s[L.TRIED] = km(tried) if tried else 0
    extras = extras_of(state)
    s[L.STOCK_PLAYS] = extras.stock_plays if extras is not None else 0
    s[L.STOCK_SEEN] = index.kernel_card(extras.shown) if extras is not None else -1
    s[L.PLAYED] = played_seat(state)
    s[L.SHOWN] = shown_this_bout(state)
    s[L.CLOSED] = state.closed
    secret = d.trump.hidden
    s[L.SECRET] = index.kernel_card(secret) if secret >= 0 else -1
    s[L.REVEALED] = state.revealed
    books = BOOKS.of(state)
    if books is not None:  # the stock group's tallies (#61-63) and buy-ins (#37)
        n = state.players
        s[L.POINTS:L.POINTS + n] = books.points[:n]
        s[L.FIGURES:L.FIGURES + n] = books.figures[:n]
        s[L.SIXES:L.SIXES + n] = books.sixes[:n]
        s[L.RESERVE:L.RESERVE + n] = [km(r) for r in books.reserve[:n]]
    gift = GIFT.of(state)
    if gift is not None:  # #24: a gift being handed over
        giver, receiver, left, phase, to_act, block_ok = gift
        s[L.GIVER], s[L.RECEIVER], s[L.GIFT_LEFT] = giver, receiver, left
        s[L.RESUME_PHASE], s[L.RESUME_TO_ACT], s[L.BLOCK_OK] = phase, to_act, block_ok
    s[L.N_SEEN] = len(seen)
    n = state.players
    for i, key in enumerate(seen):
        # an opening: every hand (card sets, in kernel indices), attacker, defender, stock
        s[L.SEEN + i * width:L.SEEN + (i + 1) * width] = key if index.identity else [
            km(x) if j < n else x - hidden if j == n + 2 else x for j, x in enumerate(key)]


_KERNEL_KINDS: dict[int, int] = {STOCK: L.STOCK_KIND, TRY: L.TRY_KIND, SHOW: L.SHOW_KIND}
_REFERENCE_KINDS: dict[int, int] = {v: k for k, v in _KERNEL_KINDS.items()}


_BORROWED: dict[int, int] = {GIVE: L.GIVE_META, BLOCK: L.BLOCK_META, SWAP_SIX: L.SWAP_META}
"""The reference kinds the kernel writes as a take with a target no card has."""
_LENT: dict[int, int] = {v: k for k, v in _BORROWED.items()}


def kernel_kind(kind: int) -> int:
    """The kernel's number for a reference action kind (they agree but for #40's stock lead,
    #39's second try and #96's show of a trump)."""
    return _KERNEL_KINDS.get(kind, kind)


def _reference_kind(kind: int) -> int:
    return _REFERENCE_KINDS.get(kind, kind)


def _stock_plays(state: DurakState) -> dict[str, int]:
    """#40, #83: the stock cards played this bout and the one turned and put back (-1)."""
    extras = extras_of(state)
    if extras is None:
        return {"stock_plays": 0, "stock_seen": -1}
    return {"stock_plays": extras.stock_plays, "stock_seen": extras.shown}


def _books(state: DurakState) -> tuple[tuple[int, ...], ...]:
    """The stock group's books the kernel keeps: points, figures, epaulettes, buy-ins."""
    n = state.players
    books = BOOKS.of(state)
    if books is None:
        return ((0,) * n,) * 4
    return (tuple(books.points[:n]), tuple(books.figures[:n]), tuple(books.sixes[:n]),
            tuple(books.reserve[:n]))


def _gift(state: DurakState) -> tuple[int, ...] | None:
    """#24: the gift being handed over, as the kernel keeps it (None when none is)."""
    gift = GIFT.of(state)
    return None if gift is None else tuple(int(x) for x in gift)


def _tried(state: DurakState) -> int:
    """#39: the attack cards of this bout the defender has made a second try against."""
    extra = EXTRAS.of(state)
    return extra.tried if extra is not None else 0


_IDENTITY: CardIndex = CardIndex(tuple(range(_KERNEL_CARDS)), True)


def action_code(action: Action, index: CardNumbering | None = None) -> tuple[int, int]:
    """``(mask, meta)`` of a reference action, as the kernel writes them (``index``: the
    deck's :func:`card_index`; None for a deck whose codes are the kernel's)."""
    meta = _BORROWED.get(action.kind)
    if meta is not None:  # (#24, #84, #97: see layout.GIVE_META)
        mask = action.mask if index is None or index.identity else index.kernel_mask(
            action.mask)
        return mask, meta
    if index is None or index.identity:
        return action.mask, kernel_kind(action.kind) | (action.target + 1) << 3
    return (index.kernel_mask(action.mask),
            kernel_kind(action.kind) | (index.kernel_card(action.target) + 1) << 3)


def action_of(mask: int, meta: int, index: CardIndex | None = None) -> Action:
    """The reference action for a kernel ``(mask, meta)`` pair."""
    index = index or _IDENTITY
    mask = int(mask)
    meta = int(meta)
    kind = _LENT.get(meta, -1)
    cards = []
    while mask:
        low = mask & -mask
        cards.append(index.reference_card(low.bit_length() - 1))
        mask ^= low
    if kind >= 0:
        return Action(kind, tuple(cards))
    return Action(_reference_kind(meta & 7), tuple(cards), index.reference_card((meta >> 3) - 1))


def kernel_snapshot(s: np.ndarray, index: CardIndex | None = None) -> dict[str, Any]:
    """The facts of a kernel position, in the same form as :func:`reference_snapshot` (cards
    as reference codes: ``index`` is the deck's :func:`card_index`, None for plain codes)."""
    index = index or _IDENTITY
    rm = index.reference_mask
    rc = index.reference_card
    n = int(s[L.PLAYERS])
    na = int(s[L.N_ATTACK])
    out = [int(x) for x in s[L.OUT:L.OUT + s[L.N_OUT]]]
    snap: dict[str, Any] = {
        "phase": int(s[L.PHASE]), "to_act": int(s[L.TO_ACT]),
        "attacker": int(s[L.ATTACKER]), "leader": int(s[L.LEADER]),
        "defender": int(s[L.DEFENDER]), "taking": bool(s[L.TAKING]), "bout": int(s[L.BOUT]),
        "hands": [rm(int(h)) for h in s[L.HANDS:L.HANDS + n]],
        "discard": rm(int(s[L.DISCARD])),
        "attack": [rc(int(c)) for c in s[L.ATTACK:L.ATTACK + na]],
        "defence": [rc(int(c)) for c in s[L.DEFENCE:L.DEFENCE + na]],
        "stock": [rc(int(c)) for c in s[L.STOCK:L.STOCK + s[L.N_STOCK]]],
        "out": out, "uncovered": int(s[L.UNCOVERED]),
        "table_ranks": rm(int(s[L.TABLE_RANKS])),
        "outcome": None, "idle": int(s[L.IDLE]), "tried": rm(int(s[L.TRIED])),
        "played": int(s[L.PLAYED]), "shown": int(s[L.SHOWN]), "closed": bool(s[L.CLOSED]),
        "revealed": bool(s[L.REVEALED]),
        "stock_plays": int(s[L.STOCK_PLAYS]), "stock_seen": rc(int(s[L.STOCK_SEEN])),
        "gift": None if s[L.PHASE] != L.GIVE_PHASE else tuple(
            int(x) for x in s[L.GIVER:L.BLOCK_OK + 1]),
        "books": (*(tuple(int(x) for x in s[at:at + n])
                    for at in (L.POINTS, L.FIGURES, L.SIXES)),
                  tuple(rm(int(x)) for x in s[L.RESERVE:L.RESERVE + n])),
    }
    width = n + 3
    # every position seen this deal, each as n hands and three numbers: the list grows with
    # the game, so it is read in one piece (and, with the plain numbering, not renumbered)
    seen = s[L.SEEN:L.SEEN + int(s[L.N_SEEN]) * width].reshape(-1, width).tolist()
    snap["seen"] = [tuple(row) for row in seen] if index.identity else [
        tuple(rm(x) if j < n else x for j, x in enumerate(row)) for row in seen]
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


def reference_snapshot(state: DurakState, index: CardIndex | None = None) -> dict[str, Any]:
    """The facts of a reference position that :func:`kernel_snapshot` also reports (``index``:
    the numbering the kernel took the game over with, for two decks; the discard then holds
    only the cards it numbers, as the kernel's does)."""
    index = index or _index_of(state.rules)
    discard = state.discard if index.identity else index.reference_mask(
        index.kernel_mask(state.discard))
    snap: dict[str, Any] = {
        "phase": state.phase, "to_act": state.to_act, "attacker": state.attacker,
        "leader": state.leader, "defender": state.defender, "taking": state.taking,
        "bout": state.bout, "hands": list(state.hands), "discard": discard,
        "attack": list(state.attack), "defence": list(state.defence),
        "stock": list(state.stock), "out": list(state.out), "uncovered": state.uncovered,
        "table_ranks": index.reference_mask(index.kernel_mask(state.table_ranks)),
        "outcome": None,
        "idle": getattr(state, "idle", 0), "tried": _tried(state), "played": played_seat(state),
        "shown": shown_this_bout(state), "closed": state.closed, "revealed": bool(state.revealed),
        **_stock_plays(state),
        "gift": _gift(state),
        "books": _books(state),
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
