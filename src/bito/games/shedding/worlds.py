"""Possible worlds of the shedding games for a search bot (:mod:`bito.games.worlds`).

Everything played in these games goes face up onto the pile, so a seat knows the pile, its own
hand and every hand's size; the unseen cards (the pack less those) are in the other hands and
the stock, in an order nobody knows. A world deals them there at random.

What a view does not show is filled in with its most likely or a neutral value:

* Mau-Mau: **what a draw shows** (``MauMauSampler.watch``): a player may draw only when no
  card of his fits the pile (S1:23), and under ``draw_rule=until_playable`` every card he
  draws but the one that fits (which he must play, A4) did not fit either; so from his draw
  on, the cards he held then hold nothing that fitted. Cards that reach his hand later by a
  6, 7 or other penalty are free; a card he plays that fitted then must have been one of
  those. The next draw replaces the memory, a new round clears it.
* Mau-Mau: the match seed (later rounds of a world are shuffled afresh, as they are unknown),
  the count of actions of the round and of seats that could not play (0), who started the
  round (only the next round's starter after a blocked round depends on it), and the rounds
  won, remembered from the round results the seat saw. Not modelled: after the pile is turned
  over (no shuffle), a seat that watched the pile could know the stock's order.
* Adjacent ranks: passes in a row (0), whether the seat to act has already played in this
  turn (remembered: the seat's previous view was its own and it played or drew since).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bito.cards import build_deck, standard_deck
from bito.games.protocol import Move
from bito.games.shedding.adjacent import AdjacentState, AdjacentView
from bito.games.shedding.maumau import (
    DRAWN,
    FOLLOW,
    PLAY,
    MauMauState,
    MauMauView,
    fitting_cards,
)
from bito.games.worlds import deal_slots, mask


def _unseen(deck: tuple[int, ...] | list[int], seen: int) -> list[int]:
    return [c for c in deck if not seen >> c & 1]


def _hidden_hands(seat: int, counts: tuple[int, ...], pool: list[int], stock: int,
                  rng: random.Random) -> tuple[list[int], list[int]]:
    """Other hands (their full counts) and the stock, dealt from ``pool``."""
    sizes = [0 if s == seat else counts[s] for s in range(len(counts))] + [stock]
    dealt = deal_slots(pool, sizes, [0] * len(sizes), rng)
    return [mask(d) for d in dealt[:-1]], dealt[-1]


def fitting(view: MauMauView) -> int:
    """The cards of the pack that would fit the pile of ``view`` in the play phase
    (:func:`~bito.games.shedding.maumau.fitting_cards`): 0 on an empty pile, where nothing
    is learnt from a draw."""
    if not view.pile:
        return 0
    return fitting_cards(view.rules, view.top, view.called) & mask(
        standard_deck(view.rules.deck_size))


@dataclass
class MauMauSampler:
    """Worlds of a Mau-Mau match; remembers the round results it saw and, per other seat,
    what its last draw showed (see the module docstring): ``void[s]``, the cards that fitted
    when ``s`` drew, and ``bound[s]``, how many of his cards are known to be none of them
    (the rest came later and are free)."""

    rounds_won: dict[int, int | None] = field(default_factory=dict)
    void: dict[int, int] = field(default_factory=dict)
    bound: dict[int, int] = field(default_factory=dict)
    #: A draw seen, whose cards are counted at the next thing seen: seat -> cards that fitted.
    pending: dict[int, int] = field(default_factory=dict)
    round: int = -1

    def observe(self, view: MauMauView) -> None:
        last = view.last_round
        if view.round == 0 and last is None:
            self.rounds_won.clear()  # a new match
        if last is not None:
            self.rounds_won[last.number] = last.winner
        self._settle(view, None)

    def watch(self, view: MauMauView, seat: int, action: Move) -> None:
        """Another seat's move, with this seat's view just before it."""
        self._settle(view, seat)
        if seat == view.seat:
            return
        if action.kind == "draw" and view.phase == PLAY and view.rules.draw_rule in (
                "until_playable", "one"):
            fits = fitting(view)
            if fits:
                self.pending[seat] = fits
            return
        if action.kind == "play" and view.phase in (PLAY, FOLLOW) and seat in self.void:
            if self.void[seat] >> action.cards[0] & 1:  # it fitted then: one of the free cards
                if view.hand_counts[seat] - 1 < self.bound[seat]:  # no free card: forget
                    del self.void[seat], self.bound[seat]
            else:  # counted against the known cards, the cautious reading
                self.bound[seat] = max(0, self.bound[seat] - 1)

    def _settle(self, view: MauMauView, seat: int | None) -> None:
        """Start afresh in a new round; count the cards of a draw seen last time: all of the
        drawer's cards now, but the drawn card he is about to play or keep (DRAWN phase)."""
        if view.round != self.round:
            self.round = view.round
            self.void.clear()
            self.bound.clear()
            self.pending.clear()
            return
        for s, fits in list(self.pending.items()):
            count = view.hand_counts[s]
            if seat == s and view.phase == DRAWN:
                count -= 1
            del self.pending[s]
            self.void[s], self.bound[s] = fits, max(0, count)

    def _dealt(self, view: MauMauView, pool: list[int], rng: random.Random
               ) -> tuple[list[int], list[int]]:
        """The other hands and the stock: a seat with a draw remembered gets its known cards
        from outside ``void`` and the rest freely."""
        seat, counts = view.seat, view.hand_counts
        bound = {s: min(b, counts[s]) for s, b in self.bound.items() if s != seat and b > 0}
        if not bound:
            return _hidden_hands(seat, counts, pool, view.stock_count, rng)
        sizes: list[int] = []
        banned: list[int] = []
        for s in range(len(counts)):
            known = bound.get(s, 0)
            free = 0 if s == seat else counts[s] - known
            sizes += [known, free]
            banned += [self.void.get(s, 0) if known else 0, 0]
        dealt = deal_slots(pool, [*sizes, view.stock_count], [*banned, 0], rng)
        hands = [mask(dealt[2 * s]) | mask(dealt[2 * s + 1]) for s in range(len(counts))]
        return hands, dealt[-1]

    def sample(self, view: MauMauView, rng: random.Random) -> MauMauState:
        rules, n, seat = view.rules, view.players, view.seat
        pool = _unseen(standard_deck(rules.deck_size), view.hand | mask(view.pile))
        hands, stock = self._dealt(view, pool, rng)
        hands[seat] = view.hand
        s = object.__new__(MauMauState)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.round, s.scores, s.hands = view.round, list(view.scores), hands
        s.stock, s.pile = stock, list(view.pile)
        s.called, s.ace_open, s.to_act = view.called, view.ace_open, view.to_act
        s.phase, s.drawn, s.stuck, s.moves = view.phase, view.drawn, 0, 0
        s.seen, s.capped = (), 0  # the repetition count starts afresh in a guessed world
        s.starter = view.to_act
        s.last_round = view.last_round
        s.rounds_won = [0] * n
        blocked = 0
        for number, winner in self.rounds_won.items():
            if number < view.round:
                if winner is None:
                    blocked += 1
                else:
                    s.rounds_won[winner] += 1
        s.blocked, s.outcome, s._legal = blocked, None, None
        return s


@dataclass
class AdjacentSampler:
    """Worlds of the adjacent-rank game; remembers the seat's previous view to know whether
    it is in the middle of its own turn."""

    previous: AdjacentView | None = None
    mid_turn: bool = False

    def observe(self, view: AdjacentView) -> None:
        prev = self.previous
        self.mid_turn = False
        if prev is not None and prev.to_act == prev.seat == view.to_act:
            played = (view.pile_count == prev.pile_count + 1
                      and prev.hand & ~view.hand == 1 << view.top
                      and view.stock_count == prev.stock_count)
            drew = (view.pile_count == prev.pile_count
                    and view.stock_count == prev.stock_count - 1
                    and (view.hand & ~prev.hand).bit_count() == 1)
            self.mid_turn = played or drew
        self.previous = view

    def sample(self, view: AdjacentView, rng: random.Random) -> AdjacentState:
        rules, n, seat = view.rules, view.players, view.seat
        deck = build_deck(52, jokers=rules.jokers, copies=rules.packs(n))
        pool = _unseen(deck, view.hand | mask(view.pile))
        hands, stock = _hidden_hands(seat, view.hand_counts, pool, view.stock_count, rng)
        hands[seat] = view.hand
        s = object.__new__(AdjacentState)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.hands, s.stock, s.pile = hands, stock, list(view.pile)
        s.to_act, s.out, s.pending_out = view.to_act, list(view.out), view.pending_out
        s.passes, s.anti_rank, s.moves = 0, view.anti_rank, 0
        s.turn_start = not self.mid_turn
        s.outcome = None
        return s


SAMPLERS: dict[type[Any], Callable[[], Any]] = {MauMauView: MauMauSampler,
                                                AdjacentView: AdjacentSampler}
"""The sampler of each view type (read by :meth:`bito.games.family.Family.samplers`)."""

__all__ = ["SAMPLERS", "AdjacentSampler", "MauMauSampler", "fitting"]
