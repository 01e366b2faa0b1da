"""Possible worlds of the shedding games for a search bot (:mod:`bito.games.worlds`).

Everything played in these games goes face up onto the pile, so a seat knows the pile, its own
hand and every hand's size; the unseen cards (the pack less those) are in the other hands and
the stock, in an order nobody knows. A world deals them there at random.

What a view does not show is filled in with its most likely or a neutral value:

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
from bito.games.shedding.adjacent import AdjacentState, AdjacentView
from bito.games.shedding.maumau import MauMauState, MauMauView
from bito.games.worlds import deal_slots, mask


def _unseen(deck: tuple[int, ...] | list[int], seen: int) -> list[int]:
    return [c for c in deck if not seen >> c & 1]


def _hidden_hands(seat: int, counts: tuple[int, ...], pool: list[int], stock: int,
                  rng: random.Random) -> tuple[list[int], list[int]]:
    """Other hands (their full counts) and the stock, dealt from ``pool``."""
    sizes = [0 if s == seat else counts[s] for s in range(len(counts))] + [stock]
    dealt = deal_slots(pool, sizes, [0] * len(sizes), rng)
    return [mask(d) for d in dealt[:-1]], dealt[-1]


@dataclass
class MauMauSampler:
    """Worlds of a Mau-Mau match; remembers the round results it saw."""

    rounds_won: dict[int, int | None] = field(default_factory=dict)

    def observe(self, view: MauMauView) -> None:
        last = view.last_round
        if view.round == 0 and last is None:
            self.rounds_won.clear()  # a new match
        if last is not None:
            self.rounds_won[last.number] = last.winner

    def sample(self, view: MauMauView, rng: random.Random) -> MauMauState:
        rules, n, seat = view.rules, view.players, view.seat
        pool = _unseen(standard_deck(rules.deck_size), view.hand | mask(view.pile))
        hands, stock = _hidden_hands(seat, view.hand_counts, pool, view.stock_count, rng)
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

__all__ = ["SAMPLERS", "AdjacentSampler", "MauMauSampler"]
