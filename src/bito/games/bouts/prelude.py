"""Hand-building preludes before an ordinary Durak game (#67, #68; VARIANTS.md §3.9).

Both games start with empty hands and the whole shuffled pack as the stock. Phase 1 builds the
hands by turning cards; nobody chooses anything in it (the catalogue's reading, #67 A1), so its
only action is ``turn``, made by the player whose card comes next. When the stock is used up,
the built hands go to the Durak engine through its hand-off hook
(:func:`bito.games.durak.handoff.start_from_hands`) and phase 2 is that Durak game, played
through this state with the Durak actions and views. A seat left without cards is out (#67
A2); if fewer than two seats hold cards there is no phase 2 and the seat holding cards, if
any, is the fool.

**Card contest** (#67, S0:131-133, ``prelude.kind=contest``): in each round every player, from
the round's first drawer clockwise, turns one card. The highest card (rank only) is laid in
the centre, tied highest cards on top of it (every card is turned face up, so every hand
built this way is known to all); then the next player clockwise from its owner
must lay a higher card, which he cannot (the highest is already down), so he takes the centre
pile with his own card into his hand; every other player keeps the card he turned. The taker
draws first in the next round (the seed: "then it is the loser"); the first round's first
drawer is chosen by lot. A round where every card ties leaves its pile in the centre for the
next round's taker; a pile left when the stock is gone is put out of play. Phase 2: Japanese
fool with diamonds trump and **clubs** as the closed suit (``beats.restricted_suit=c``).

**Deck flip** (#68, S0:174, ``prelude.kind=flip``): the first player (by lot) turns a card into
the centre: the card to beat. On his turn a player turns a card: if it is of the suit of the
card to beat and higher, he takes every centre card and his card into his hand
(``prelude.keep=discard``: out of play, A3); otherwise his card goes beside them. Either way
he then turns the next card into the centre as the card the next player must beat. Centre
cards left at the end are put out of play (A4). Phase 2: throw-in fool (``prelude.main=
perevodnoy``: transfer fool) with the suit of the last card turned as trump (A1).
"""

from __future__ import annotations

from typing import Any

from bito.cards import bit, card_pretty, rank_of, standard_deck, suit_of
from bito.errors import IllegalActionError
from bito.games.bouts.base import BoutsState
from bito.games.bouts.common import SUITS, TURN, finish, show
from bito.games.bouts.rules import PreludeRules
from bito.games.durak.actions import Action
from bito.games.durak.handoff import start_from_hands
from bito.games.durak.state import DurakState
from bito.rules import Rules, rules_for

PRELUDE, MAIN = "prelude", "main"


class PreludeState(BoutsState):
    """Phase 1 state, and the Durak state of phase 2 (``main``) once the prelude is over.

    ``pile``: the centre (contest: the round's pile; flip: the cards on the table, the card
    to beat last). ``round``: the cards turned so far in this contest round, (seat, card).
    ``last``: the card last turned from the stock (-1 before any), which the centre cannot
    tell: a card that wins the centre leaves it empty, and one that does not beat goes
    beside the card to beat, not on top. A flip prelude makes its suit trump (#68 A1)."""

    LISTS = ("hands", "known", "stock", "out", "pile", "round")
    __slots__ = ("pile", "round", "first", "last", "main", "main_rules")

    pile: list[int]
    round: list[tuple[int, int]]
    first: int
    last: int
    main: DurakState | None
    main_rules: Rules | None

    @classmethod
    def start(cls, rules: PreludeRules, players: int, seed: int) -> PreludeState:
        s = object.__new__(cls)
        rng = s._init(rules, players, seed, "prelude")
        s.stock = list(reversed(s._deal(rng, -1)))
        s.pile, s.round, s.main, s.main_rules = [], [], None, None
        s.phase, s.last = PRELUDE, -1
        s.first = s.to_act = rng.randrange(players)  # the first drawer, by lot
        if rules.kind == "flip":  # he turns the first card to beat
            s.pile.append(s._turn_top())
        return s

    def _turn_top(self) -> int:
        """Turn the top card of the stock, remembering it as the last card turned."""
        self.last = card = self.stock.pop()
        return card

    def _deal(self, rng: Any, hand_size: int, *, trump_to_receiver: bool = False
              ) -> list[int]:
        if hand_size >= 0:
            return super()._deal(rng, hand_size, trump_to_receiver=trump_to_receiver)
        deck = list(standard_deck(self.rules.deck_size))
        rng.shuffle(deck)
        return deck

    # --- the protocol, delegated to the Durak game in phase 2 -----------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_actions(self) -> list[Any]:
        if self.outcome is not None:
            return []
        if self.main is not None:
            return self.main.legal_actions()
        return [TURN]

    def apply(self, action: Any) -> PreludeState:
        if self.main is None:
            result: PreludeState = super().apply(action)
            return result
        if self.outcome is not None:
            raise IllegalActionError("game over", "the game has ended")
        if not isinstance(action, Action):
            # the prelude's own word (``turn``) is no Durak move: refused here, by the
            # prelude's rule, before the Durak explainer (which knows only Durak moves)
            raise IllegalActionError("prelude", "phase 1 is over: turning cards ended with "
                                     "the stock, phase 2 is played with Durak moves")
        s: PreludeState = self.copy()
        s.main = self.main.apply(action)
        s.moves += 1
        s._sync()
        return s

    def _sync(self) -> None:
        main = self.main
        assert main is not None
        self.hands, self.known, self.to_act = list(main.hands), list(main.known), main.to_act
        self.discard = main.discard
        self.outcome = main.outcome

    def view(self, seat: int) -> Any:
        if self.main is not None:
            return self.main.view(seat)
        return super().view(seat)

    def centre(self) -> tuple[int, ...]:
        if self.main is not None:
            return tuple(self.main.attack) + tuple(d for d in self.main.defence if d >= 0)
        return tuple(self.pile) + tuple(c for _, c in self.round)

    # --- phase 1 ------------------------------------------------------------------------------

    def _advance(self, action: Any) -> None:
        seat = self.to_act
        card = self._turn_top()
        if self.rules.kind == "contest":
            self.round.append((seat, card))
            if len(self.round) == self.players or not self.stock:
                self._resolve_round()
            else:
                self.to_act = (seat + 1) % self.players
        else:
            self._flip(seat, card)
        if not self.stock and self.main is None:
            self._hand_off()

    def _resolve_round(self) -> None:
        cards = self.round
        high = max(rank_of(c) for _, c in cards)
        tied = [(s, c) for s, c in cards if rank_of(c) == high]
        self.pile += [c for _, c in tied]
        owner = tied[0][0]
        rest = {s: c for s, c in cards if rank_of(c) != high}
        taker = next((o for o in ((owner + k) % self.players for k in range(1, self.players))
                      if o in rest), -1)
        for s, c in rest.items():  # every card was turned face up: all of them are public
            self.hands[s] |= bit(c)
            self.known[s] |= bit(c)
        if taker >= 0:
            own = card_pretty(rest[taker])
            self.note = f"seat {taker} takes {show(self.pile)} with his {own}"
            self._take(taker, self.pile)
            self.pile = []
            self.first = taker
        else:
            self.note = "every card tied: the pile stays in the centre"
        self.round = []
        self.to_act = self.first

    def _flip(self, seat: int, card: int) -> None:
        target = self.pile[-1]
        if suit_of(card) == suit_of(target) and rank_of(card) > rank_of(target):
            won = [*self.pile, card]
            self.pile = []
            self.note = f"seat {seat} beats {card_pretty(target)} and wins {show(won)}"
            if self.rules.keep == "hand":
                self._take(seat, won)
            else:
                for c in won:
                    self.discard |= bit(c)
        else:
            self.pile.insert(max(0, len(self.pile) - 1), card)  # beside the card to beat
            self.note = f"seat {seat} turns {card_pretty(card)}: no beat"
        if self.stock:
            self.pile.append(self._turn_top())  # the next card to beat
        self.to_act = (seat + 1) % self.players

    def _hand_off(self) -> None:
        """The stock is gone: the centre goes out of play and the Durak game begins."""
        for c in self.pile + [c for _, c in self.round]:
            self.discard |= bit(c)
        self.pile, self.round = [], []
        # A1 (a flip prelude): the suit of the last card turned in phase 1 is trump, wherever
        # that card went (won with the centre, beside the card to beat, or the card to beat)
        spec = self.rules.main_spec(SUITS[suit_of(self.last)])
        holding = [s for s in range(self.players) if self.hands[s]]
        if len(holding) < 2:
            self.out = [s for s in range(self.players) if not self.hands[s]]
            self.outcome = finish(self.players, self.hands, self.out, "no second phase")
            return
        self.main_rules = rules_for(spec)
        self.main = start_from_hands(self.main_rules, list(self.hands), self.dealer, self.seed,
                                     shown=list(self.known), discard=self.discard)
        self.phase = MAIN
        self.out = [s for s in range(self.players) if not self.hands[s]]
        self._sync()

    def _explain(self, action: Any) -> IllegalActionError:
        return IllegalActionError("prelude", "phase 1 has one move: turn the top card (turn)")

    def table_text(self) -> str:
        if self.main is not None:
            return "phase 2: " + str(self.main).split("\n", 1)[0]
        turned = " ".join(f"{s}:{card_pretty(c)}" for s, c in self.round)
        if self.rules.kind == "contest":
            parts = [f"phase 1 (card contest): centre {show(self.pile)}",
                     f"turned this round: {turned or '-'}"]
        else:
            beat = card_pretty(self.pile[-1]) if self.pile else "-"
            parts = [f"phase 1 (deck flip): centre {show(self.pile)}, to beat {beat}"]
        parts += [f"stock {len(self.stock)}", f"seat {self.to_act} turns next"]
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)

    def __str__(self) -> str:
        if self.main is not None:
            return "phase 2\n" + str(self.main)
        return super().__str__()
