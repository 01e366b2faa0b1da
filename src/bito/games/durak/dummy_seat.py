"""The playing dummy (VARIANTS.md §3.6 #57, S0:139-141): a phantom seat in the rotation whose
every move one player makes.

Unlike #56's tossing dummy (:mod:`bito.games.durak.dummy`), which is a spare hand, the playing
dummy is an ordinary seat of the deal: it is dealt and refills like anyone, leads, throws in,
is attacked, covers or takes (A3), goes out, and can be the fool. So the state machine needs
nothing new to play it; what is new is *who decides*. A lot among the people chooses the
*controller*, who also attacks first; whenever the dummy's seat is to act, the state names
him as the one who decides (:func:`decider`, the protocol's ``decider`` hook), and he acts
through the dummy's own view: its hand, plus his own cards, which he knows
(:func:`known`, the ``OpenHands`` question).
Every other seat sees the dummy's hand as it sees any opponent's, unless
``dummy.visible_to=all`` lays it face up.

Three rules hang off that:

* ``dummy.seat``: where the dummy sits; by default the last seat, the one dealt to last.
* ``dummy.defends=false`` (A3's alternative): an attack that would go to the dummy goes to
  the next seat in play instead; when only the dummy and one player are left the dummy leads
  every bout (:func:`pass_over`). It still loses if it is the last holding cards.
* A1: when the dummy is the fool no person loses (``Outcome.human_loser`` is None) and the
  controller deals the next game (``next_match_context``).

The seat count given to ``new_game`` counts the dummy's seat: ``players=3`` is two people
and the dummy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, cast

from bito.errors import RulesError
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    Decider,
    Hook,
    NextAttacker,
    OpenHands,
    PositionDefender,
    Question,
)
from bito.games.durak.view import ViewExtension
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.setup import Deal
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView
    from bito.games.protocol import Outcome


@dataclass(frozen=True, slots=True)
class DummySeat(DealFact):
    """The playing dummy's seat, a fact of the rules and the seat count, and its controller,
    chosen by lot for the deal: the deal holds it (``deal.fact(DummySeat)``) when it plays
    the dummy."""

    seat: int
    #: The person who makes every decision for the dummy's seat (-1 before the lot).
    controller: int = -1

    def played_by(self, controller: int) -> DummySeat:
        return DummySeat(self.seat, controller)

    def first_bout(self, rules: Rules, players: int, rng: random.Random, attacker: int,
                   defender: int) -> tuple[int, int, int]:
        # (and #56 A3) a lot among the people chooses who plays the dummy's seat; he
        # attacks first, and under dummy.defends=false the dummy is passed over (A3)
        controller = lot_controller(rules, players, rng)
        defender = (controller + 1) % players
        if not rules.dummy_defends and defender == self.seat:
            defender = (defender + 1) % players
        return controller, defender, controller

    def deals_next(self, outcome: Outcome) -> int | None:
        # A1: the dummy was the fool, so no person was: its controller deals
        return self.controller if outcome.loser == self.seat else None

    def position_fields(self, state: DurakState, seat: int | None) -> list[str]:
        return [f"controller={self.controller}"]

    def seat_words(self, deal: Deal, seat: int) -> str:
        return f" [dummy, played by seat {self.controller}]" if seat == self.seat else ""

    def settle(self, outcome: Outcome) -> Outcome:
        """The outcome names the dummy's seat, which may be the fool (A1)."""
        return replace(outcome, dummy=self.seat)


def dummy_seat_of(deal: Deal) -> int:
    """The playing dummy's seat in this deal (-1: it plays none)."""
    fact = deal.fact(DummySeat)
    return -1 if fact is None else fact.seat


def seat_controller(deal: Deal) -> int:
    """Who plays the dummy's seat in this deal (-1: it plays no dummy)."""
    fact = deal.fact(DummySeat)
    return -1 if fact is None else fact.controller


@dataclass(frozen=True, slots=True)
class PlayingDummy(ViewExtension):
    """What the playing dummy adds to a seat's view, public: its seat and who plays it."""

    seat: int
    controller: int

    def seat_words(self, view: DurakView, seat: int, names: Sequence[str]) -> str:
        return f" [dummy, played by {names[self.controller]}]" if seat == self.seat else ""


def playing_seat(rules: Rules, players: int) -> int:
    """The dummy's seat (-1: these rules have no playing dummy)."""
    if rules.dummy_mode != "playing":
        return -1
    return players - 1 if rules.dummy_seat < 0 else rules.dummy_seat


def check_seat(rules: Rules, players: int) -> None:
    """Refuse a table or a rule mix the playing dummy cannot be part of, naming the key."""
    if rules.dummy_mode != "playing":
        return
    if players < 3:
        raise RulesError("players", "a playing dummy takes one of the seats: two people and "
                         f"the dummy make at least 3 seats, not {players}")
    if not -1 <= rules.dummy_seat < players:
        raise RulesError("dummy.seat", f"seat {rules.dummy_seat} is not at a {players}-seat "
                         "table (-1: the last seat)")
    if rules.team_layout != "none":
        raise RulesError("dummy.mode", "a playing dummy has no partner: partnerships "
                         "(team.layout) and the dummy are not played together")
    if not rules.dummy_draws:
        raise RulesError("dummy.draws", "the playing dummy is a full seat and refills like "
                         "everyone; dummy.draws=false is the tossing dummy's option (#56 A1)")
    if not rules.dummy_defends and rules.transfer_enabled:
        raise RulesError("dummy.defends", "with transfers an attack passes to the next seat, "
                         "which may be the dummy: dummy.defends=false is played without them")


def lot_controller(rules: Rules, players: int, rng: random.Random) -> int:
    """The lot among the people (never the dummy's seat) for who plays the dummy."""
    dummy = playing_seat(rules, players)
    people = [s for s in range(players) if s != dummy]
    return people[rng.randrange(len(people))]


def decider(state: DurakState) -> int:
    """Who decides the move now: the controller on the dummy's turn, else the seat to act
    (-1 once the game is over)."""
    fact = state.deal.fact(DummySeat)
    if fact is not None and state.to_act == fact.seat:
        return fact.controller
    return state.to_act


def known(state: DurakState, seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The known cards of a view of ``seat``, with what the dummy adds: the controller (and
    everyone under ``dummy.visible_to=all``) sees the dummy's whole hand; the dummy's own
    view, which is the controller's when he acts for it, holds the controller's hand."""
    deal = state.deal
    dummy, boss = dummy_seat_of(deal), seat_controller(deal)
    out = list(cards)
    if seat == boss or deal.rules.dummy_visible_to == "all":
        out[dummy] = state.hands[dummy]
    if seat == dummy and boss >= 0:
        out[boss] = state.hands[boss]
    return tuple(out)


def pass_over(state: DurakState, attacker: int) -> int:
    """``dummy.defends=false``: an attack is never made at the dummy. When the next bout's
    defender would be the dummy it goes to the next seat in play; if that is the attacker
    himself (only he and the dummy are left) the dummy leads at him instead. Returns the
    attacker; sets ``state.defender``."""
    dummy = dummy_seat_of(state.deal)
    if state.defender != dummy:
        return attacker
    target = state.next_active(dummy)
    if target == attacker:
        state.defend_as(attacker)
        return dummy
    state.defend_as(target)
    return attacker


class _PlayingDummy(Hook):
    """#57 at the core's points: the controller decides for the dummy's seat, which
    ``dummy.defends=false`` passes over as a defender."""

    name = "#57 playing dummy"
    questions = frozenset({NextAttacker, OpenHands, Decider, PositionDefender})

    def applies(self, rules: Rules, players: int) -> bool:
        return playing_seat(rules, players) >= 0

    def check(self, rules: Rules, players: int) -> None:
        check_seat(rules, players)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if isinstance(question, NextAttacker) and not state.deal.rules.dummy_defends:
            return cast(Answer, pass_over(state, cast(int, answer)))
        if isinstance(question, OpenHands):
            return cast(Answer, known(state, question.seat, cast("tuple[int, ...]", answer)))
        if isinstance(question, Decider):  # the controller plays the dummy's seat
            return cast(Answer, decider(state))
        if isinstance(question, PositionDefender):
            return cast(Answer, self._defender(state, question.attacker, cast(int, answer)))
        return answer

    def deal_facts(self, rules: Rules, players: int) -> DummySeat:  # (it draws the lot)
        return DummySeat(playing_seat(rules, players))

    def _defender(self, state: DurakState, attacker: int, defender: int) -> int:
        deal = state.deal
        if not deal.rules.dummy_defends and defender == dummy_seat_of(deal):
            state.defend_as(defender)
            if pass_over(state, attacker) == attacker:
                defender = state.defender
        return defender

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        deal = state.deal
        return view.extended(PlayingDummy(dummy_seat_of(deal), seat_controller(deal)))


HOOK: Final = _PlayingDummy()
