"""Possible worlds of the bout-structure games for a search bot (:mod:`bito.games.worlds`).

A :class:`~bito.games.bouts.common.BoutsView` carries the seat's hand, every hand's size, the
cards known to be in each hand (taken from the centre in plain sight, the trump card drawn),
the centre and, in ``extra``, the engine's public slots (:meth:`BoutsState.public_extra`: the
rules, the face-up trump card, the table of the bout...). A world copies those and deals the
unseen cards into the hidden part of each hand, the stock (the heap games keep the face-up
trump card where the engine put it while nobody has drawn it) and the face-down discard.

The sampler remembers every card it saw in the centre during the deal: one that has left the
centre and is neither in its hand nor known in another is in the discard (a discarded chain,
China fool's covered cards), since a card taken from the centre is always known. The rest of
the discard is dealt from the unseen cards.

The prelude games (#67, #68) have no choice before their Durak phase (``turn`` only) and play
that phase with Durak views, which the Durak search bot handles; their phase-1 positions are
not sampled.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bito.cards import standard_deck
from bito.games.bouts.chinese import ChineseState
from bito.games.bouts.common import BoutsView
from bito.games.bouts.heap import HeapState
from bito.games.bouts.polish import PolishState
from bito.games.bouts.rules import ChineseRules, HeapRules, PolishRules
from bito.games.worlds import deal_slots, mask

STATES: dict[type[Any], type[Any]] = {HeapRules: HeapState, ChineseRules: ChineseState,
                                      PolishRules: PolishState}


class NotSampled(ValueError):
    """A bout-structure position the sampler does not rebuild (a prelude's phase 1)."""


@dataclass
class BoutsSampler:
    """Worlds of the heap, China and Polish fools; remembers the centre cards it saw."""

    seen_centre: int = 0
    moves: int = -1

    def observe(self, view: BoutsView) -> None:
        moves = view.extra.get("moves", 0)
        if moves < self.moves:
            self.seen_centre = 0  # the action count went back: another deal
        self.moves = moves
        self.seen_centre |= mask(view.centre)

    def sample(self, view: BoutsView, rng: random.Random) -> Any:
        extra = view.extra
        rules = extra.get("rules")
        cls = STATES.get(type(rules))
        if cls is None or rules is None:
            raise NotSampled(f"{view.variant}: no worlds for this phase of the game")
        n, seat = view.players, view.seat
        known = list(view.known)
        known[seat] = 0
        centre = mask(view.centre)
        known_all = view.hand | centre
        for k in known:
            known_all |= k
        trump_card = extra["trump_card"]
        # The heap games turn the trump card up under the stock; while it is in no hand and
        # not on the table it is still there, drawn last (the first entry of the engine's
        # stock list, which is drawn from its end).
        trump_in_stock = (cls is HeapState and view.stock_count > 0 and trump_card >= 0
                          and not known_all >> trump_card & 1
                          and not self.seen_centre >> trump_card & 1)
        if trump_in_stock:
            known_all |= 1 << trump_card
        gone = self.seen_centre & ~known_all  # seen in the centre, now face down out of play
        if gone.bit_count() > view.discard_count:
            gone = 0  # the memory does not fit this deal: use the view alone
        pool = [c for c in standard_deck(rules.deck_size) if not (known_all | gone) >> c & 1]
        stock_hidden = view.stock_count - (1 if trump_in_stock else 0)
        discard_hidden = view.discard_count - gone.bit_count()
        sizes = [0 if s == seat else view.hand_counts[s] - known[s].bit_count()
                 for s in range(n)] + [stock_hidden, discard_hidden]
        dealt = deal_slots(pool, sizes, [0] * len(sizes), rng)
        hands = [mask(dealt[s]) | known[s] for s in range(n)]
        hands[seat] = view.hand
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.dealer, s.hands, s.known = extra["dealer"], hands, list(view.known)
        s.stock = ([trump_card] if trump_in_stock else []) + list(dealt[n])
        s.discard = mask(dealt[n + 1]) | gone
        s.trump_card, s.trump_suit = trump_card, view.trump_suit
        s.phase, s.to_act, s.out = view.phase, view.to_act, list(view.out)
        s.moves, s.outcome, s.note = extra["moves"], None, extra["note"]
        # the repetition count starts afresh in a sampled world (the positions it counts
        # hold hidden hands, which a world only guesses)
        s.seen, s.mark, s.took = (), (-1, 0, 0), False
        s.forget_legal()
        for name in cls.PUBLIC:
            value = extra[name]
            setattr(s, name, list(value) if isinstance(value, list) else value)
        return s


SAMPLERS: dict[type[Any], Callable[[], Any]] = {BoutsView: BoutsSampler}
"""The sampler of each view type (read by :meth:`bito.games.family.Family.samplers`)."""

__all__ = ["SAMPLERS", "BoutsSampler", "NotSampled"]
