"""Chosen exchanges after every bout (VARIANTS.md §3 #31 A1 option, ``exchange.mode=choose``).

The catalogue's #31 passes whole hands round (``exchange.mode=whole_hand``, in :mod:`.stock`).
Its stated alternative lets each player pick what he passes: after the draw that ends every
bout, each player still in chooses ``exchange.cards`` cards of his hand (all of them if he holds
fewer) for his left neighbour, and the passes happen together, so nobody's choice can depend on
what another chose.

The engine asks one seat at a time, as it asks for every other move: an ``exchange`` phase
(``state.PHASE_NAMES``) in which the seats still in choose in turn, starting with the attacker
of the coming bout and going clockwise. A choice is one action of kind :data:`EXCHANGE`
(``&7c+8d``). The chosen cards stay in the chooser's hand, recorded in the stock group's
:class:`~bito.games.durak.stock.Books` (``chosen``, private to the chooser; ``choosing``, the
seats still to choose, public), until the last seat has chosen; then every pass is made at once
and the bout that was due starts. The action is hidden from everyone but the chooser in logs
and records (``&?+?``, by :func:`bito.games.durak.view.private_to`). After the passes each
player knows where his own passed cards went (``Books.passed``, as after a whole-hand
exchange); a card that everyone knew in his hand and that he passed is no longer public
anywhere, since nobody else saw it go.

The phase is entered from one line at the end of ``DurakState.end_bout`` when the deal's
precomputed ``Deal.exchange_choice`` is set; base games never come here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Final

from bito.cards import card_str, cards_count, cards_of
from bito.errors import IllegalActionError, Reason, RulesError
from bito.games.durak.actions import EXCHANGE, Action, exchange
from bito.games.durak.hooks import Answer, Event, Hook, Question, Refusal, Stage, refused
from bito.games.durak.phases import Phase
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.reasons import Refused
from bito.games.durak.view import ViewExtension
from bito.i18n import N_

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.stock import Books
    from bito.games.durak.view import DurakView
    from bito.rules import Rules

#: The phase in which players choose the cards they pass.
EXCHANGE_PHASE: Final = int(Phase.EXCHANGE)
_LEAD: Final = int(Phase.LEAD)


class ExchangeRefused(Reason):
    """The refusal of a chosen exchange (#31)."""

    EXCHANGE = "exchange", N_("that exchange is not possible now")


@dataclass(frozen=True, slots=True)
class Chosen(ViewExtension):
    """What ``exchange.mode=choose`` adds to a seat's view: the cards this seat has chosen
    to pass in the round under way (never another seat's choice; 0 outside the round or
    before he chose)."""

    cards: int


def check_rules(rules: Rules) -> None:
    """A chosen exchange names the cards passed, so it needs players who see their hands."""
    if rules.exchange_mode == "choose" and not rules.deal_owner_sees_hand:
        raise RulesError("exchange.mode", "choose needs players who see their own cards; with "
                         "hands held face out (deal.owner_sees_hand=false, #58) use whole_hand")


def passes(hand: int, k: int) -> int:
    """How many cards a player holding ``hand`` passes: ``k``, or all he has if fewer."""
    return min(k, hand.bit_count())


def begin(state: DurakState) -> None:
    """The bout has ended and hands are refilled: open the choice round, unless fewer than two
    players hold cards (nobody to pass to). Called with the next bout already set up."""
    if state.phase != _LEAD:
        return  # the deal ended with this bout
    books: Books | None = BOOKS.of(state)
    assert books is not None
    n = state.deal.players
    start = state.attacker
    seats = tuple(s for s in ((start + i) % n for i in range(n))
                  if not state.out_mask >> s & 1 and state.hands[s])
    if len(seats) < 2:
        return
    BOOKS.keep(state, replace(books, choosing=seats, chosen=(0,) * n))
    state.set_turn(seats[0], EXCHANGE_PHASE)


def actions(state: DurakState) -> list[Action]:
    """Every set of cards the chooser may pass: exactly ``exchange.cards`` of his hand (his
    whole hand if it is smaller), in card order."""
    hand = state.hands[state.to_act]
    k = passes(hand, state.deal.rules.exchange_cards)
    return [exchange(*combo) for combo in combinations(cards_of(hand), k)]


def step(state: DurakState, action: Action) -> None:
    """Record the chooser's cards; once the last seat has chosen, make every pass."""
    books: Books | None = BOOKS.of(state)
    assert books is not None
    seat = state.to_act
    n = state.deal.players
    chosen = list(books.chosen or (0,) * n)
    chosen[seat] = action.mask
    choosing = books.choosing or _ring_from(state, seat)
    rest = tuple(s for s in choosing if s != seat)
    BOOKS.keep(state, replace(books, chosen=tuple(chosen), choosing=rest))
    if rest:
        state.set_turn(rest[0])
        return
    _pass_all(state)


def _ring_from(state: DurakState, seat: int) -> tuple[int, ...]:
    """The seats still to choose when a state was rebuilt without the round's record (a search
    bot's world): ``seat`` and those after him up to the attacker."""
    n = state.deal.players
    out: list[int] = []
    for i in range(n):
        s = (seat + i) % n
        if i and s == state.attacker:
            break
        if not state.out_mask >> s & 1 and state.hands[s]:
            out.append(s)
    return tuple(out)


def _pass_all(state: DurakState) -> None:
    """Every player still in hands his chosen cards to the next player still in on his left, all
    at once. A seat with no recorded choice (only in a rebuilt world, see :func:`_ring_from`)
    passes his lowest cards."""
    books: Books | None = BOOKS.of(state)
    assert books is not None
    n = state.deal.players
    k = state.deal.rules.exchange_cards
    hands = state.hands
    seats = [s for s in range(n) if not state.out_mask >> s & 1 and hands[s]]
    chosen = list(books.chosen or (0,) * n)
    for s in seats:
        if not chosen[s]:
            low = cards_of(hands[s])[:passes(hands[s], k)]
            chosen[s] = sum(1 << c for c in low)
    passed = list(books.passed)
    for s in seats:
        state.from_hand(s, chosen[s])  # nobody else saw which cards went
    for i, s in enumerate(seats):
        to = seats[(i + 1) % len(seats)]
        state.to_hand(to, chosen[s])
        passed[s] = chosen[s]
    BOOKS.keep(state, replace(books, passed=tuple(passed), choosing=(), chosen=()))
    state.set_turn(state.attacker, _LEAD)


def pending(state: DurakState, seat: int) -> int:
    """The cards ``seat`` has chosen in the round under way and not yet passed (0: none)."""
    books: Books | None = BOOKS.of(state)
    if books is None or not books.chosen:
        return 0
    return books.chosen[seat]


def explain(state: DurakState, action: Action) -> IllegalActionError | None:
    """Why a choice, or any other move during the choice round, is illegal (None: not this
    module's rule)."""
    choosing = state.phase == EXCHANGE_PHASE
    if action.kind != EXCHANGE:
        if choosing:
            return IllegalActionError(ExchangeRefused.EXCHANGE,
                                      "the bout is over: every player still in "
                                      "first chooses the cards he passes left (#31)")
        return None
    if state.deal.rules.exchange_mode != "choose":
        return IllegalActionError(ExchangeRefused.EXCHANGE, "these rules have no chosen exchange "
                                  "(exchange.mode=choose, #31)")
    if not choosing:
        return IllegalActionError(ExchangeRefused.EXCHANGE,
                                  "cards are passed only after a bout, once "
                                  "hands are refilled (#31)")
    hand = state.hands[state.to_act]
    for c in action.cards:
        if not hand >> c & 1:
            return IllegalActionError(Refused.NOT_IN_HAND,
                                      f"seat {state.to_act} does not hold {card_str(c)}")
    k = passes(hand, state.deal.rules.exchange_cards)
    return IllegalActionError(ExchangeRefused.EXCHANGE,
                              f"pass exactly {cards_count(k)} of your hand "
                              f"(exchange.cards={state.deal.rules.exchange_cards}; all of it "
                              "if you hold fewer) (#31)")


class _Exchange(Hook):
    """#31 ``exchange.mode=choose`` at the core's points: a round of chosen passes after
    every bout."""

    name = "#31 chosen exchange"
    kinds = frozenset({EXCHANGE})
    phases = frozenset({EXCHANGE_PHASE})
    events = frozenset({Stage.BOUT_OPENED})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.exchange_mode == "choose"

    def check(self, rules: Rules, players: int) -> None:
        check_rules(rules)

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        return actions(state) if state.phase == EXCHANGE_PHASE else acts

    def step(self, state: DurakState, action: Action) -> None:
        step(state, action)

    def on(self, state: DurakState, event: Event) -> None:
        if event == Stage.BOUT_OPENED:
            begin(state)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, explain)

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        # his own choice in the round under way, never another seat's
        return view.extended(Chosen(pending(state, seat)))


HOOK: Final = _Exchange()
