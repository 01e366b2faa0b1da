"""The deck-flipping Polish fool (#72, VARIANTS.md §3.9, S1:89 second half).

The seed keeps only the middle of this game; bito reconstructs the opening as the catalogue
does (A1): hands start empty, the trump card is turned face up in the centre and is the first
card to beat, and the rest of the pack is the stock. On his turn a player must beat the top
card of the centre (a higher card of its suit, or a trump on a non-trump):

* with a card from his hand (``9h>7h``; A3: his free choice), or by turning the top card of
  the stock (``turn``). A card that beats goes on the centre pile and the player turns the
  next stock card onto it: that is the card the next player must beat;
* a turned card that does not beat: he takes it and the card he failed to beat into his hand
  (A2), turns another card and puts it in the centre for the next player.

Once the stock is empty a player who cannot beat the top card takes the top three centre
cards (only then: the seed says "cannot", and a voluntary take would let the game go round
for ever) (``take``; ``polish.fail_take``), and the next player must beat the new top
card; if the centre is empty he leads any card from his hand (``7h``). With the stock empty, a
player whose hand is empty is out: the first out wins, the last holding cards is the fool.
"""

from __future__ import annotations

from bito.cards import bit, card_pretty, cards_of, standard_deck, suit_of
from bito.errors import IllegalActionError
from bito.games.bouts.base import BoutsState
from bito.games.bouts.common import TURN, beat_table, show
from bito.games.bouts.rules import PolishRules
from bito.games.durak.actions import ATTACK, DEFEND, TAKE, TAKE_ACTION, Action, attack, defend
from bito.games.protocol import Move

BEAT, LEAD = "beat", "lead"


class PolishState(BoutsState):
    """A position of the Polish fool; ``pile`` is the centre, its last card the one to beat."""

    LISTS = ("hands", "known", "stock", "out", "pile")
    PUBLIC = ("pile", "beats")
    __slots__ = ("pile", "beats")

    pile: list[int]
    beats: tuple[int, ...]

    @classmethod
    def start(cls, rules: PolishRules, players: int, seed: int) -> PolishState:
        s = object.__new__(cls)
        rng = s._init(rules, players, seed, "polish")
        deck = list(standard_deck(rules.deck_size))
        rng.shuffle(deck)
        s.trump_card = deck.pop()
        s.trump_suit = suit_of(s.trump_card)
        s.pile = [s.trump_card]  # face up in the centre: the first card to beat
        s.stock = deck
        s.beats = beat_table(rules.deck_size, s.trump_suit)
        s.phase = BEAT
        s.to_act = (s.dealer + 1) % players
        return s

    def centre(self) -> tuple[int, ...]:
        return tuple(self.pile)

    def legal_actions(self) -> list[Action | Move]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        if not self.pile:
            return [attack(c) for c in cards_of(hand)]
        top = self.pile[-1]
        acts: list[Action | Move] = [defend(d, top) for d in cards_of(hand & self.beats[top])]
        if self.stock:
            acts.append(TURN)  # always his choice while there is a stock (A3)
        elif not acts:
            acts.append(TAKE_ACTION)  # only a player who cannot beat takes (S1:89)
        return acts

    def _advance(self, action: Action | Move) -> None:
        seat = self.to_act
        if isinstance(action, Move):  # turn the top card of the stock
            card = self.stock.pop()
            top = self.pile[-1]
            if self.beats[top] >> card & 1:
                self.pile.append(card)
                self.note = f"seat {seat} turns {card_pretty(card)} and beats {card_pretty(top)}"
            else:
                self.pile.pop()
                self._take(seat, [top, card])
                self.note = (f"seat {seat} turns {card_pretty(card)}: no beat, he takes it and "
                             f"{card_pretty(top)}")
            self._next_card(seat)
            return
        if action.kind in (DEFEND, ATTACK):
            c = action.cards[0]
            self.hands[seat] &= ~bit(c)
            self.pile.append(c)
            self._next_card(seat)
            return
        assert action.kind == TAKE
        n = self.rules.fail_take
        taken, self.pile = self.pile[-n:], self.pile[:-n]
        self._take(seat, taken)
        self.note = f"seat {seat} takes {show(taken)}"
        self._pass_turn(seat)

    def _next_card(self, seat: int) -> None:
        """The next card to beat comes from the stock while there is one."""
        if self.stock:
            self.pile.append(self.stock.pop())
        self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        self._mark_outs(seat)
        if self._game_over():
            return
        self.to_act = self.next_active(seat)
        self.phase = BEAT if self.pile else LEAD

    def _explain(self, action: object) -> IllegalActionError:
        if isinstance(action, Action) and action.cards and \
                action.mask & ~self.hands[self.to_act]:
            return IllegalActionError("own cards", "you may only play cards from your hand")
        if not self.pile:
            return IllegalActionError("lead", "the centre is empty: lead any card")
        if isinstance(action, Action) and action.kind == TAKE:
            if self.stock:
                return IllegalActionError("take", "while there is a stock you turn a card instead")
            return IllegalActionError("take", "you can beat the top card, so you must")
        if isinstance(action, Move):
            return IllegalActionError("turn", "the stock is empty: beat the top card or take")
        return IllegalActionError("beat", f"beat {card_pretty(self.pile[-1])} with a higher "
                                  "card of its suit or a trump, turn a card, or take")

    def table_text(self) -> str:
        top = card_pretty(self.pile[-1]) if self.pile else "-"
        parts = [f"centre: {show(self.pile)}", f"to beat: {top} by seat {self.to_act}",
                 self.trump_text(), f"stock {len(self.stock)}"]
        if self.out:
            parts.append("out: " + " ".join(map(str, self.out)))
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)
