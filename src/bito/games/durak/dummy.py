"""The tossing dummy (VARIANTS.md §3.6 #56, S0:135-137): a phantom hand one player throws in
from.

The dummy is dealt a hand like a player, after the players, and (``dummy.draws``) refills last
after every bout. It never attacks, defends, is attacked or loses. Its *controller*, the player
who wins a lot at the start of the deal and attacks first, may throw cards from it against
whoever is defending, under the usual throw-in rules, whenever it is his own turn to throw in
(never while he defends himself, A2).

The dummy's cards are kept as one more hand at the end of ``state.hands`` (index
``players``), so the state machine copies them with the other hands at no extra cost, and
the cards-are-conserved checks see them. A throw from the dummy is its own action kind,
:data:`~bito.games.durak.actions.TOSS` (text ``~7c``): the seat acting is the controller, the
action says which hand the card comes from. Views show the dummy's hand to the controller
only (``dummy.visible_to=controller``, A4) or to everyone (``all``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bito.cards import card_str, cards_count, cards_of
from bito.errors import IllegalActionError, Reason, RulesError
from bito.games.durak.actions import PASS_ACTION, TOSS, Action
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    PositionRequest,
    Question,
    Refusal,
    Stage,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.games.durak.render import hand_text
from bito.games.durak.view import ViewExtension
from bito.i18n import N_
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.setup import Deal
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

_THROW: Final = int(Phase.THROW)


class DummyRefused(Reason):
    """The refusals of the tossing dummy's moves (#56)."""

    DUMMY = "dummy", N_("that move with the dummy is not possible now")
    THROW_IN = "throw-in", N_("throw in a card of a rank on the table, within the limit")


@dataclass(frozen=True, slots=True)
class TossingDummy(ViewExtension):
    """What the tossing dummy adds to a seat's view: who throws in from it, how many cards
    it holds, and those this seat may see (all for the controller, or for everyone under
    ``dummy.visible_to=all``; else 0)."""

    controller: int
    count: int
    hand: int

    def lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        seen = hand_text(self.hand, view.trump_suit) if self.hand else cards_count(self.count)
        return [f"  dummy ({names[self.controller]} throws from it): {seen}"]


@dataclass(frozen=True, slots=True)
class DummyController(DealFact):
    """Who throws in from the dummy, chosen by lot for the deal (A3): the deal holds it
    (``deal.fact(DummyController)``) when it deals a dummy. The dummy's hand is the last
    entry of the deal's ``hands``, after the players'."""

    #: The seat that throws in from the dummy (-1 before the lot).
    controller: int = -1

    def played_by(self, controller: int) -> DummyController:
        return DummyController(controller)

    def first_bout(self, rules: Rules, players: int, rng: random.Random, attacker: int,
                   defender: int) -> tuple[int, int, int]:
        # A3: a lot, not the lowest trump, chooses the dummy's controller, who also attacks
        # first; nothing is shown for the first attack.
        controller = rng.randrange(players)
        return controller, (controller + 1) % players, controller

    def position_fields(self, state: DurakState, seat: int | None) -> list[str]:
        cards = state.hands[state.deal.players]
        if seat is None or seat == self.controller or state.rules.dummy_visible_to == "all":
            hand = "".join(card_str(c) for c in cards_of(cards)) or "-"
        else:
            hand = f"??*{cards.bit_count()}" if cards else "-"
        return [f"dummy={hand}", f"controller={self.controller}"]

    def lines(self, state: DurakState) -> list[str]:
        cards = state.hands[state.deal.players]
        return [f"  dummy (seat {self.controller} throws from it): "
                f"{hand_text(cards, state.trump_suit)}"]


def dummy_controller(deal: Deal) -> int:
    """The seat that throws in from this deal's dummy (-1: it deals none)."""
    fact = deal.fact(DummyController)
    return -1 if fact is None else fact.controller


def check_players(rules: Rules, players: int) -> None:
    """The dummy's hand is dealt from the same pack: one hand more than the players."""
    if rules.dummy_mode == "tossing" and (players + 1) * rules.deal_hand_size > rules.card_count:
        most = rules.card_count // rules.deal_hand_size - 1
        raise RulesError("players", f"with a dummy hand a {rules.card_count}-card pack seats at "
                         f"most {most} players, not {players}")


def throw_actions(state: DurakState, own: list[Action]) -> list[Action]:
    """The controller's throw-in choices: his own (``own``, ending with pass), then each card
    of the dummy of a rank on the table, while the bout has room."""
    n = state.deal.players
    m = state.hands[n] & state.table_ranks
    if not m or state.room() <= 0:
        return own
    return own[:-1] + [Action(TOSS, (c,)) for c in cards_of(m)] + [PASS_ACTION]


def step_toss(state: DurakState, action: Action) -> None:
    """A card thrown in from the dummy: as a throw-in, the controller keeping his turn."""
    n = state.deal.players
    m = action.mask
    state.from_hand(n, m)
    state.lay(action.cards, action.ranks)
    state.set_passes(0)
    if state.room() <= 0:
        state.advance_thrower()


def draw(state: DurakState) -> None:
    """``dummy.draws``: after the players, the dummy refills from the stock (A1)."""
    stock = state.stock
    n = state.deal.players
    need = state.deal.hand_size - state.hands[n].bit_count()
    if need <= 0 or not stock:
        return
    state.to_hand(n, state.take_from_stock(need))


def visible(state: DurakState, seat: int) -> int:
    """The dummy's cards as ``seat`` sees them: all of them for the controller (or for
    everyone under ``dummy.visible_to=all``), otherwise none."""
    deal = state.deal
    if seat == dummy_controller(deal) or deal.rules.dummy_visible_to == "all":
        return state.hands[deal.players]
    return 0


def explain(state: DurakState, action: Action) -> IllegalActionError | None:
    """Why a throw from the dummy is illegal here (None for other kinds)."""
    if action.kind != TOSS:
        return None
    deal = state.deal
    controller = dummy_controller(deal)
    if controller < 0:
        return IllegalActionError(DummyRefused.DUMMY, "this game has no dummy (#56)")
    if state.to_act != controller:
        return IllegalActionError(DummyRefused.DUMMY,
                                  f"only seat {controller}, the dummy's "
                                  "controller, throws in from it (#56)")
    if not state.hands[deal.players] >> action.card & 1:
        return IllegalActionError(DummyRefused.DUMMY, "the dummy does not hold that card (#56)")
    if state.phase != 2:
        return IllegalActionError(DummyRefused.DUMMY, "the dummy only throws in, when it is the "
                                  "controller's turn to throw in (#56)")
    return IllegalActionError(DummyRefused.THROW_IN,
                              "no card of that rank on the table, or no room "
                              "left in the bout")


class _TossingDummy(Hook):
    """#56 at the core's points: the controller also throws in from the dummy's hand, which
    may refill last."""

    name = "#56 tossing dummy"
    kinds = frozenset({TOSS})
    events = frozenset({Stage.REFILLED})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.dummy_mode == "tossing"

    def check(self, rules: Rules, players: int) -> None:
        check_players(rules, players)

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        if state.phase == _THROW and state.to_act == dummy_controller(state.deal):
            return throw_actions(state, acts)
        return acts

    def step(self, state: DurakState, action: Action) -> None:
        step_toss(state, action)

    def deal_facts(self, rules: Rules, players: int) -> DummyController:
        return DummyController()

    def on(self, state: DurakState, event: Event) -> None:
        if event == Stage.REFILLED and state.deal.rules.dummy_draws:
            draw(state)  # the dummy refills last

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, explain)

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, blocks=self._blocks)

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        if rules.dummy_mode != "tossing":
            return []
        return [("toss", [Action(TOSS, (c,)) for c in cards])]

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        # how many cards the dummy holds, and those this seat may see
        return view.extended(TossingDummy(dummy_controller(state.deal),
                                          state.hands[state.deal.players].bit_count(),
                                          visible(state, seat)))


HOOK: Final = _TossingDummy()
