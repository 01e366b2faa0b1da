"""The heap games: heaped fool (#69), heaped top-N (#70) and the chain fool (#71)
(VARIANTS.md §3.9, S1:82-89).

Heaped (``heap.mode=heap``): three cards each, the trump turned up under the stock. The holder
of the lowest trump leads one card to his left neighbour, who must cover it and then, at once,
lead one card of his own to *his* left neighbour, and so on round the table. Covered cards are
never discarded: they pile up in the centre. A player who cannot (or will not) cover takes the
whole heap (#70: only its top 3 cards, top 5 when the card he failed on is a trump) and the
player on his left leads next. After every action everyone below the hand size refills from
the stock, the player who acted first (#69 A1). A player with no cards once the stock is empty
is out; the last one holding cards is the fool.

Chain fool (``heap.mode=chain``): the whole pack is dealt, the last card shown as trump and
kept by the dealer; the player on the dealer's left leads one card and each next player must
cover the current top card. When the chain holds as many cards as players still in, it is
discarded and the player left of the one who covered last starts the next chain (#71 A4). A
player who fails takes the chain's bottom card, and the next player must cover the top card
(or lead afresh, if the chain is now empty, A2). The first out wins; the last holding cards is
the fool (A5).
"""

from __future__ import annotations

from bito.cards import bit, card_pretty, cards_count, cards_of, suit_of
from bito.errors import IllegalActionError
from bito.games.bouts.base import BoutsState
from bito.games.bouts.common import beat_table, show
from bito.games.bouts.rules import HeapRules
from bito.games.durak.actions import ATTACK, DEFEND, TAKE_ACTION, Action, attack, defend

LEAD, COVER = "lead", "cover"


class HeapState(BoutsState):
    """A position of a heap game; ``pile`` is the centre, bottom card first."""

    LISTS = ("hands", "known", "stock", "out", "pile")
    PUBLIC = ("pile", "beats")
    __slots__ = ("pile", "beats")

    pile: list[int]
    beats: tuple[int, ...]

    @classmethod
    def start(cls, rules: HeapRules, players: int, seed: int) -> HeapState:
        s = object.__new__(cls)
        rng = s._init(rules, players, seed, "heap")
        rest = s._deal(rng, rules.hand_size)
        if rest:  # the next card is turned up and lies under the stock, drawn last
            s.trump_card = rest[0]
            s.trump_suit = suit_of(rest[0])
            # the stock list is drawn from its end: the rest of the pack, top card last in
            # the list, and the trump card first in the list
            s.stock = [rest[0], *reversed(rest[1:])]
        s.beats = beat_table(rules.deck_size, s.trump_suit)
        s.pile = []
        s.phase = LEAD
        s.to_act = (s._lowest_trump_holder() if rules.mode == "heap"
                    else (s.dealer + 1) % players)
        return s

    def centre(self) -> tuple[int, ...]:
        return tuple(self.pile)

    def legal_actions(self) -> list[Action]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        if self.phase == LEAD:
            return [attack(c) for c in cards_of(hand)]
        top = self.pile[-1]
        return [defend(d, top) for d in cards_of(hand & self.beats[top])] + [TAKE_ACTION]

    def _advance(self, action: Action) -> None:
        seat = self.to_act
        chain = self.rules.mode == "chain"
        if action.kind == ATTACK:
            c = action.cards[0]
            self.hands[seat] &= ~bit(c)
            self.pile.append(c)
            self._after(seat)
            self._mark_outs(seat)
            if not self._game_over():
                self.phase, self.to_act = COVER, self.next_active(seat)
            return
        if action.kind == DEFEND:
            d = action.cards[0]
            self.hands[seat] &= ~bit(d)
            self.pile.append(d)
            self._after(seat)
            self._mark_outs(seat)
            if self._game_over():
                return
            if not chain:  # he leads next, unless he is out (#69 A4)
                self.phase = LEAD
                self.to_act = seat if seat not in self.out else self.next_active(seat)
                return
            if len(self.pile) >= max(2, len(self.active())):
                self.note = f"the chain of {len(self.pile)} cards is discarded"
                for c in self.pile:
                    self.discard |= bit(c)
                self.pile = []
                self.phase = LEAD
                last = self.rules.restart == "last_coverer" and seat not in self.out
                self.to_act = seat if last else self.next_active(seat)
                return
            self.to_act = self.next_active(seat)
            return
        taken = self._taken()
        self.note = f"seat {seat} takes {show(taken)}"
        self._take(seat, taken)
        self._after(seat)
        self.to_act = self.next_active(seat)
        # heaped: the player on his left leads a fresh card; chain: he covers the top card
        self.phase = COVER if chain and self.pile else LEAD

    def _taken(self) -> list[int]:
        """The cards a failed player takes off the centre (#69, #70, #71)."""
        rule = self.rules.take
        if rule == "all":
            taken, self.pile = self.pile, []
        elif rule == "bottom":
            taken, self.pile = self.pile[:1], self.pile[1:]
        else:
            top = self.pile[-1]
            n = self.rules.take_top_trump if suit_of(top) == self.trump_suit else \
                self.rules.take_top
            taken, self.pile = self.pile[-n:], self.pile[:-n]
        return taken

    def _after(self, seat: int) -> None:
        if self.rules.hand_size:
            self._refill(seat, self.rules.hand_size)

    def _explain(self, action: object) -> IllegalActionError:
        if not isinstance(action, Action):
            return IllegalActionError("notation", "play a card, cover the top card, or take")
        if action.cards and not action.mask & self.hands[self.to_act]:
            return IllegalActionError("own cards", "you may only play cards from your hand")
        if self.phase == LEAD:
            return IllegalActionError("lead", "lead exactly one card from your hand")
        return IllegalActionError("cover", f"cover the top card {card_pretty(self.pile[-1])} "
                                  "with a higher card of its suit or a trump, or take")

    def table_text(self) -> str:
        chain = self.rules.mode == "chain"
        what = "chain" if chain else "heap"
        top = (f"{card_pretty(self.pile[-1])} to cover by seat {self.to_act}"
               if self.phase == COVER else f"seat {self.to_act} leads")
        parts = [f"{what}: {show(self.pile)} ({cards_count(len(self.pile))}); {top}",
                 self.trump_text(), f"stock {len(self.stock)}"]
        if chain:
            parts.append(f"discarded {self.discard.bit_count()}")
        if self.out:
            parts.append("out: " + " ".join(map(str, self.out)))
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)
