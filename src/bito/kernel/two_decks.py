"""Two decks (#21 Big fool, 72 cards) on the kernel from the deal.

A kernel card set is one ``int64`` word, so it numbers at most 63 cards; a two-deck position
fits once 9 cards are in the discard (:func:`bito.kernel.convert.in_play_index`), which takes
the first two or three bouts. Before that, the search's playouts ran in Python, at a tenth of
the kernel's speed, and their positions took three quarters of a big_fool decision.

Why the kernel can start earlier without a second, two-word build: the bottom cards of the
stock are drawn last. A start numbers every card in play but the bottom ``u`` of the stock
(``u`` = cards in play - 63), in reference code order as ``in_play_index`` does; the kernel
plays with a stock ``u`` cards short. While that stock keeps more cards than the next action
can draw (:func:`stock_needed`, checked before every action), nothing it reads can tell: every
rule asks only whether the stock is empty (the repetition rule compares stock sizes, all ``u``
short alike), and a refill never reaches the hidden cards. As
soon as ``u`` cards are in the discard (after a bito), :func:`renumber` numbers the cards in
play afresh (the hidden ones back at the bottom of the stock), so the position is exactly
what ``in_play_index`` and :func:`~bito.kernel.convert.converted` make of it, and the playout
goes on as a one-deck one. If the stock runs down first (a run of takes), the playout is
given back and the caller plays it in Python: rare in greedy play.

The card facts of a numbering (what beats what, the rank sets, suits, trumps) are read out of
tables over the 72 cards (:class:`DeckTables`), made once per beat table from the reference
engine's own (``DurakState.beats``, ``cards.MATCH_MASKS``), by compiled code: a renumbering
costs a few microseconds, where building a :class:`~bito.kernel.convert.CardIndex` and its
rule facts in Python cost milliseconds (the hand-over tried and dropped in the thirteenth
session, 0.3x). No rule is written twice: the compiled state machine is the one-deck one.

The playouts' per-card data follow the numbering the same way: the greedy's worths and the
heuristic's card values and flags (the search's default models of the opponents, issue 20)
are kept by deck position and re-indexed at the start and at the renumbering
(:func:`number_values`). The heuristic's defence is the one rule of either model that counts
the stock instead of asking whether it is empty (it may rather take while a quarter of a
deck is left), so before the renumbering its threshold is lowered by the hidden cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from bito.cards import MATCH_MASKS, is_special, rank_of, suit_of
from bito.games.durak.actions import Action
from bito.games.durak.state import DurakState
from bito.kernel import layout as L
from bito.kernel.convert import (
    CARD_SETS,
    action_code,
    card_in_sets,
    facts_without_cards,
    rejected_trump_card,
    write_position,
)
from bito.kernel.core import popcount, ptr_of, restore, seed_state, step
from bito.kernel.greedy import (
    FLAGS_AT,
    LARGE_STOCK_AT,
    SCRATCH_SIZE,
    greedy_playout,
    greedy_step,
    playout_score,
)
from bito.rules import Rules

KERNEL_CARDS = 63
"""Cards a kernel card set numbers (the sign bit stays unused)."""
RANK_ROW, SUIT_ROW, SUITED_ROW, REJECTED_ROW, TRUMP_ROW, SETS_ROW = range(6)
"""Rows of :attr:`DeckTables.facts` (from ``SETS_ROW`` on, one row per set of
``convert.CARD_SETS``)."""
GIVEN_BACK = -3
"""What a two-deck playout returns when its stock ran down to :func:`stock_needed` before
``u`` cards were discarded: the caller plays it in Python."""


@dataclass(frozen=True, eq=False)
class DeckTables:
    """The card facts of a whole two-deck pack by deck position (the pack's codes in
    ascending order), for one beat table: what a numbering's facts are read out of."""

    codes: tuple[int, ...]
    """The reference code of each deck position."""
    cover: np.ndarray
    """``cover[a, b]``: card ``b`` covers card ``a`` (the reference beat table)."""
    match: np.ndarray
    """``match[a, b]``: ``b`` counts as ``a``'s rank for leads, throw-ins, transfers."""
    facts: np.ndarray
    """Per position: rank, suit, has a suit, may not be the turned-up trump, is a trump."""

    @property
    def identity(self) -> bool:
        return False

    def values(self, by_code: list[int] | tuple[int, ...]) -> np.ndarray:
        """A per-card list indexed by reference code (the greedy's card worths) by deck
        position (``CardWorth.kernel_worth`` caches it per table)."""
        return np.array([by_code[c] if c < len(by_code) else 0 for c in self.codes], np.int64)


@lru_cache(maxsize=32)
def deck_tables(rules: Rules, beats: tuple[int, ...], trumps: frozenset[int]) -> DeckTables:
    """:class:`DeckTables` for ``rules``' pack under one beat table and trump suit."""
    codes = tuple(sorted(rules.deck()))
    n = len(codes)
    cover = np.zeros((n, n), np.bool_)
    match = np.zeros((n, n), np.bool_)
    facts = np.zeros((SETS_ROW + len(CARD_SETS), n), np.int64)
    for a, ca in enumerate(codes):
        covers = beats[ca] if ca < len(beats) else 0
        ranks = MATCH_MASKS[ca]
        for b, cb in enumerate(codes):
            cover[a, b] = covers >> cb & 1
            match[a, b] = ranks >> cb & 1
        facts[RANK_ROW, a] = rank_of(ca)
        facts[SUIT_ROW, a] = suit_of(ca)
        facts[SUITED_ROW, a] = not is_special(ca)
        facts[REJECTED_ROW, a] = rejected_trump_card(rules, ca)
        facts[TRUMP_ROW, a] = not is_special(ca) and suit_of(ca) in trumps
        for j, inside in enumerate(card_in_sets(rules, ca)):
            facts[SETS_ROW + j, a] = inside
    for arr in (cover, match, facts):
        arr.setflags(write=False)
    return DeckTables(codes, cover, match, facts)


class StartNumbering:
    """The numbering of a two-deck start: ``codes`` (ascending) get kernel indices 0, 1, ...;
    made per sampled world, so a dictionary rather than :class:`CardIndex`'s byte tables."""

    __slots__ = ("codes", "_index")

    def __init__(self, codes: tuple[int, ...]) -> None:
        self.codes = codes
        self._index = {c: k for k, c in enumerate(codes)}

    @property
    def identity(self) -> bool:
        return False

    def holds(self, code: int) -> bool:
        return code in self._index

    def kernel_card(self, code: int) -> int:
        return code if code < 0 else self._index[code]

    def kernel_mask(self, mask: int) -> int:
        """A reference card set in kernel indices (cards not numbered are dropped)."""
        index = self._index
        out = 0
        while mask:
            low = mask & -mask
            k = index.get(low.bit_length() - 1)
            if k is not None:
                out |= 1 << k
            mask ^= low
        return out


@dataclass(frozen=True, eq=False)
class TwoDeckStart:
    """A two-deck position with more than 63 cards in play, as the kernel starts it."""

    array: np.ndarray
    """The kernel position (the stock without its hidden bottom cards)."""
    numbering: StartNumbering
    order: np.ndarray
    """``order[k]``: the deck position of kernel card ``k`` (64 entries, the numbered first)."""
    hidden: np.ndarray
    """The deck positions of the stock's bottom cards left unnumbered, bottom first."""
    trump_position: int
    """The turned-up trump card's deck position (-1: none)."""
    tables: DeckTables


def two_deck_start(state: DurakState) -> TwoDeckStart | None:
    """The kernel start of a two-deck position with more than 63 cards in play; None when
    at most 63 are (``convert.converted`` takes it whole) or when the stock is too short to
    hide the surplus and keep :func:`stock_needed` (the position stays in Python)."""
    rules = state.rules
    tables = deck_tables(rules, state.beats, state.deal.trump.suits)
    codes = tables.codes
    discard = state.discard
    in_play = [p for p, c in enumerate(codes) if not discard >> c & 1]
    hidden_count = len(in_play) - KERNEL_CARDS
    if hidden_count <= 0 or len(state.stock) <= hidden_count:
        return None
    hidden_codes = set(state.stock[:hidden_count])
    numbered = [p for p in in_play if codes[p] not in hidden_codes]
    numbering = StartNumbering(tuple(codes[p] for p in numbered))
    order = np.full(64, -1, np.int64)
    order[:len(numbered)] = numbered
    position = {c: p for p, c in enumerate(codes)}
    hidden = np.array([position[c] for c in state.stock[:hidden_count]], np.int64)
    s = facts_without_cards(rules, state.players).copy()
    number_cards(s, order, len(numbered), tables.cover, tables.match, tables.facts)
    write_position(s, state, numbering, hidden_count)
    if not state.is_over and s[L.N_STOCK] <= stock_needed(s):
        return None
    trump = state.deal.trump_card
    return TwoDeckStart(s, numbering, order, hidden, position.get(trump, -1) if trump >= 0
                        else -1, tables)


def greedy_values(start: TwoDeckStart, moves: list[Action], seat: int, seed: int,
                  worth_by_position: Any, lim_stock: float, lim_empty: float,
                  eps: int, max_steps: int, defence_by_position: Any = None,
                  careful: int = 0, shrewd: int = 0,
                  margin: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """``greedy.greedy_move_values`` from ``start``: each move played and finished greedily
    (``eps`` scaled by ``greedy.EPSILON_SCALE``; worths by deck position, ``DeckTables``
    order), every move from the same random stream. The score of each move for ``seat``, and
    which playouts were given back (scored 0 here: the caller plays them in Python).
    ``worth_by_position``: an ``int64`` array (``CardWorth.kernel_worth(start.tables)``).
    The seats in ``careful`` defend, those in ``shrewd`` attack, as the heuristic does,
    reading ``defence_by_position`` (``CardWorth.two_deck_defence(start.tables, ...)``: the
    heuristic's card values and flags by deck position, then its constants; None: the plain
    policy only); ``margin`` as in ``greedy.greedy_move_values``."""
    if defence_by_position is None:
        if careful or shrewd:
            raise ValueError("careful and shrewd seats need defence_by_position (the "
                             "heuristic's card values by deck position)")
        defence_by_position = np.zeros(2 * len(start.tables.codes) + 8, np.int64)
    codes = [action_code(a, start.numbering) for a in moves]
    totals = np.zeros(len(moves), np.float64)
    given_back = np.zeros(len(moves), np.bool_)
    t = start.tables
    two_deck_move_values(start.array, start.order, len(start.numbering.codes), start.hidden,
                         start.trump_position, t.cover, t.match, t.facts, worth_by_position,
                         defence_by_position,
                         np.array([c[0] for c in codes], np.int64),
                         np.array([c[1] for c in codes], np.int64), seed & ((1 << 63) - 1),
                         lim_stock, lim_empty, eps, seat, max_steps, totals, given_back,
                         careful, shrewd, margin)
    return totals, given_back


# --- compiled ----------------------------------------------------------------------------

@njit(cache=True)
def stock_needed(s):  # type: ignore[no-untyped-def]
    """The most cards the next action can take from the stock: the refill of a bout it ends
    (every hand's shortfall, the actor's counted as if he played every card he holds) and one
    more (a second try or a lead from the stock draws one). A two-deck start's short stock
    keeps more than this before every action, so a refill never reaches the hidden cards and
    the stock is never wrongly empty: no rule can tell it is short."""
    size = s[L.HAND_SIZE]
    actor = s[L.TO_ACT]
    need = 1 + size
    for seat in range(s[L.PLAYERS]):
        short = size - popcount(s[L.HANDS + seat])  # type: ignore[call-arg]
        if seat != actor and short > 0:
            need += short
    return need


@njit(cache=True)
def number_cards(s, order, n, cover, match, facts):  # type: ignore[no-untyped-def]
    """Write the card facts of the numbering ``order[:n]`` (deck positions, ascending) into
    ``s``: each card's beaters and rank set, its rank and suit, and the sets of suited cards,
    trumps and cards not to be turned up; nothing for indices past ``n``."""
    suited = 0
    rejected = 0
    trumps = 0
    for j in range(len(CARD_SETS)):
        s[CARD_SETS[j]] = 0
    for k in range(64):
        if k >= n:
            s[L.BEATS + k] = 0
            s[L.RANK_SETS + k] = 0
            s[L.RANK_OF + k] = 0
            s[L.SUIT_OF + k] = 0
            continue
        a = order[k]
        beaters = 0
        ranks = 0
        for j in range(n):
            b = order[j]
            if cover[a, b]:
                beaters |= 1 << j
            if match[a, b]:
                ranks |= 1 << j
        s[L.BEATS + k] = beaters
        s[L.RANK_SETS + k] = ranks
        s[L.RANK_OF + k] = facts[RANK_ROW, a]
        s[L.SUIT_OF + k] = facts[SUIT_ROW, a]
        if facts[SUITED_ROW, a]:
            suited |= 1 << k
        if facts[REJECTED_ROW, a]:
            rejected |= 1 << k
        if facts[TRUMP_ROW, a]:
            trumps |= 1 << k
        for j in range(len(CARD_SETS)):
            if facts[SETS_ROW + j, a]:
                s[CARD_SETS[j]] |= 1 << k
    s[L.SUITED] = suited
    s[L.REJECTED] = rejected
    s[L.TRUMP_SET] = trumps


@njit(cache=True, inline="always")
def _moved(mask, new_index):  # type: ignore[no-untyped-def]
    """A card set in the new numbering (cards without a new index are dropped)."""
    out = 0
    while mask:
        low = mask & -mask
        k = popcount(low - 1)  # type: ignore[call-arg,var-annotated]
        mask ^= low
        if new_index[k] >= 0:
            out |= 1 << new_index[k]
    return out


@njit(cache=True)
def renumber(s, order, n, hidden, trump_position, cover, match, facts):  # type: ignore[no-untyped-def]
    """Number the cards in play afresh once the discard holds ``len(hidden)`` cards: the
    numbered cards not discarded and the hidden bottom of the stock, ascending by deck
    position, which is what ``convert.in_play_index`` numbers. Every card set and card list
    of ``s`` moves to the new indices, the hidden cards go back under the stock (and into the
    stock sizes of the remembered openings), the discard leaves the numbering, and the card
    facts are read anew. ``order`` is updated; returns the number of cards numbered."""
    size = cover.shape[0]
    keep = np.zeros(size, np.bool_)
    discard = s[L.DISCARD]
    for k in range(n):
        if not (discard >> k) & 1:
            keep[order[k]] = True
    u = hidden.size
    for i in range(u):
        keep[hidden[i]] = True
    new_of = np.full(size, -1, np.int64)
    m = 0
    for p in range(size):
        if keep[p]:
            new_of[p] = m
            m += 1
    new_index = np.full(64, -1, np.int64)
    for k in range(n):
        new_index[k] = new_of[order[k]]
    # the rank sets on the table gain the hidden cards of those ranks
    ranks = s[L.TABLE_RANKS]
    gained = 0
    for i in range(u):
        q = hidden[i]
        for k in range(n):
            if (ranks >> k) & 1 and match[order[k], q]:
                gained |= 1 << new_of[q]
                break
    players = s[L.PLAYERS]
    for seat in range(players):
        s[L.HANDS + seat] = _moved(s[L.HANDS + seat], new_index)
    s[L.TABLE] = _moved(s[L.TABLE], new_index)
    s[L.TABLE_RANKS] = _moved(ranks, new_index) | gained
    s[L.TRIED] = _moved(s[L.TRIED], new_index)
    s[L.DISCARD] = 0
    for i in range(s[L.N_ATTACK]):
        if s[L.ATTACK + i] >= 0:
            s[L.ATTACK + i] = new_index[s[L.ATTACK + i]]
        if s[L.DEFENCE + i] >= 0:
            s[L.DEFENCE + i] = new_index[s[L.DEFENCE + i]]
    ns = s[L.N_STOCK]
    for i in range(ns - 1, -1, -1):
        s[L.STOCK + u + i] = new_index[s[L.STOCK + i]]
    for i in range(u):
        s[L.STOCK + i] = new_of[hidden[i]]
    s[L.N_STOCK] = ns + u
    s[L.TRUMP_CARD] = new_of[trump_position] if trump_position >= 0 else -1
    width = players + 3
    for i in range(s[L.N_SEEN]):
        base = L.SEEN + i * width
        for seat in range(players):
            s[base + seat] = _moved(s[base + seat], new_index)
        s[base + players + 2] += u
    for p in range(size):
        if keep[p]:
            order[new_of[p]] = p
    for k in range(m, 64):
        order[k] = -1
    number_cards(s, order, m, cover, match, facts)
    return m


@njit(cache=True)
def number_values(worth, dv, order, m, worth_by_position, defence_by_position, short):  # type: ignore[no-untyped-def]
    """The greedy's card worths and the heuristic's card values and flags (``dv``) over the
    numbering ``order[:m]``, read by deck position as ``number_cards`` reads the card facts;
    ``dv``'s constants copied after them. ``short``: the cards the kernel's stock lacks
    (the hidden bottom before the renumbering, 0 after it): the stock size from which the
    heuristic may rather take is lowered by as many, since it is the one rule of the
    heuristic's that reads how many cards the stock holds, not only whether it is empty."""
    size = worth_by_position.size
    for k in range(64):
        if k < m:
            p = order[k]
            worth[k] = worth_by_position[p]
            dv[k] = defence_by_position[p]
            dv[FLAGS_AT + k] = defence_by_position[size + p]
        else:
            worth[k] = 0
            dv[k] = 0
            dv[FLAGS_AT + k] = 0
    for j in range(2 * FLAGS_AT, dv.size):
        dv[j] = defence_by_position[2 * size + j - 2 * FLAGS_AT]
    dv[LARGE_STOCK_AT] -= short


@njit(cache=True)
def two_deck_greedy_playout(  # type: ignore[no-untyped-def]
        s, order, n, hidden, trump_position, cover, match, facts, worth_by_position,
        defence_by_position, worth, dv, masks, metas, max_steps, rng, lim_stock, lim_empty,
        eps, careful, shrewd, scratch):
    """``greedy.greedy_playout`` from a :class:`TwoDeckStart` (its ``order``, ``worth`` and
    ``dv`` updated in place when it renumbers, from the by-position tables): the actions
    played, -1 a failed playout, or :data:`GIVEN_BACK`. The seats in ``careful`` defend,
    those in ``shrewd`` attack, as the heuristic does, before and after the renumbering."""
    p = ptr_of(s)  # type: ignore[call-arg,var-annotated]
    mp = ptr_of(masks)
    tp = ptr_of(metas)
    u = hidden.size
    steps = 0
    while s[L.PHASE] != L.OVER_PHASE:
        if popcount(s[L.DISCARD]) >= u:
            m = renumber(s, order, n, hidden, trump_position, cover, match, facts)
            number_values(worth, dv, order, m, worth_by_position, defence_by_position, 0)
            rest = greedy_playout(p, mp, tp, max_steps - steps, rng, worth, lim_stock,
                                  lim_empty, eps, dv, careful, shrewd, scratch)
            return -1 if rest < 0 else steps + rest
        if s[L.N_STOCK] <= stock_needed(s):
            return GIVEN_BACK
        if steps >= max_steps:
            return -1
        if not greedy_step(p, mp, tp, rng, worth, lim_stock, lim_empty, eps, dv, careful,
                           shrewd, scratch):
            return -1
        steps += 1
    return steps


@njit(cache=True)
def two_deck_move_values(  # type: ignore[no-untyped-def]
        world, start_order, n, hidden, trump_position, cover, match, facts, worth_by_position,
        defence_by_position, move_masks, move_metas, seed, lim_stock, lim_empty, eps, seat,
        max_steps, totals, given_back, careful, shrewd, margin):
    """``greedy.greedy_move_values`` from a :class:`TwoDeckStart`: each move's score for
    ``seat`` added to ``totals``, every move from the same random stream; a playout given
    back sets ``given_back[i]`` and scores nothing. ``careful``, ``shrewd`` and ``margin``
    as there, the heuristic's data by deck position (:func:`number_values`). Returns the
    actions played in all."""
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    rng = np.empty(1, np.uint64)
    s = world.copy()
    order = np.empty(64, np.int64)
    worth = np.zeros(64, np.int64)
    dv = np.zeros(defence_by_position.size - 2 * worth_by_position.size + 2 * FLAGS_AT,
                  np.int64)  # (rollouts.DEFENCE_SIZE entries)
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    total = 0
    for i in range(move_masks.size):
        restore(s, world)
        for j in range(L.TRUMP_ROWS, L.SEEN):  # (a renumbering rewrote the card facts)
            s[j] = world[j]
        for k in range(64):
            order[k] = start_order[k]
        number_values(worth, dv, order, n, worth_by_position, defence_by_position,
                      hidden.size)
        seed_state(rng, seed)
        step(ptr_of(s), move_masks[i], move_metas[i])  # type: ignore[call-arg]
        steps = two_deck_greedy_playout(s, order, n, hidden, trump_position, cover, match,
                                        facts, worth_by_position, defence_by_position, worth,
                                        dv, masks, metas, max_steps, rng, lim_stock,
                                        lim_empty, eps, careful, shrewd, scratch)
        if steps == GIVEN_BACK:
            given_back[i] = True
            continue
        if steps >= 0 and s[L.RESULT] != L.FAILED:
            total += steps
        totals[i] += playout_score(s, steps, seat, margin)
    return total
