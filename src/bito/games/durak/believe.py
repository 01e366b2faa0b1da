"""Face-down defences and the believe / don't-believe call (VARIANTS.md §3.7 #59, S4:14-16).

With ``defense.face_down`` the defender lays one card of his hand face down on each attack
card; any card will do, so he may bluff. Once every attack card is covered the attacker who
led the bout says *believe* or *don't believe* (a phase of its own, ``call``), the covers are
turned up, and the table goes:

==================  =================  =====================================
call                every cover beats  a cover does not beat its attack card
==================  =================  =====================================
believe             bito (discarded)   the attacker takes the table
don't believe       the attacker takes the defender takes the table
==================  =================  =====================================

When the attacker takes, the bout counts as beaten off for the turn order (#59 A1): the
defender attacks next. The defender may also take openly instead of covering (A2); his
face-down cards then go back to his hand unseen.

The state keeps the covers as real cards in ``defence``; :func:`censor` hides them from every
seat but the defender's in views. The state machine calls in here only on branches a game
without face-down defences never takes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from bito.cards import MATCH_MASKS, cards_of
from bito.errors import IllegalActionError, Reason, RulesError
from bito.games.durak.actions import (
    BELIEVE,
    BELIEVE_ACTION,
    DEFEND,
    DOUBT,
    DOUBT_ACTION,
    TAKE_ACTION,
    Action,
)
from bito.games.durak.hooks import (
    Answer,
    Hook,
    Moment,
    PositionRequest,
    Question,
    Refusal,
    Turn,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.i18n import N_
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

#: A ``defence`` entry as seen by a seat that may not see it: a card lies there face down.
FACE_DOWN: Final = -3
#: The phase in which the attacker calls.
CALL_PHASE: Final = int(Phase.CALL)
_DEFEND: Final = int(Phase.DEFEND)
CALLS: Final = (BELIEVE_ACTION, DOUBT_ACTION)


class CallRefused(Reason):
    """The refusal of a call on face-down covers (#59)."""

    CALL = "call", N_("there is nothing to believe or doubt here: covers lie face up in this game")


def check_rules(rules: Rules) -> None:
    """Face-down covers only make sense where nothing is added after the lead: a throw-in of a
    cover's rank, or a transfer, would tell the table what lies face down.

    A counter-throw (#49) is refused for the same reason and one more: its added cards are of
    the cover's rank, so laying them shows what lies face down, and it turns the cover into an
    attack card the attacker must beat at once, before any call, while #59 keeps the covers
    hidden until the call. The catalogue gives the pair no meaning (S0:191, S4:14-16)."""
    if not rules.defense_face_down:
        return
    if rules.throw_in_enabled or rules.transfer_enabled:
        raise RulesError("defense.face_down", "face-down covers need a game without throw-ins "
                         "or transfers (throw_in.enabled=false): the ranks thrown in would "
                         "give the covers away")
    if rules.defense_counter:
        raise RulesError("defense.face_down", "face-down covers (#59) do not combine with "
                         "defense.counter (counter_throw, #49): the cards added to a cover "
                         "are of its rank and would give it away before the call")


def defend_actions(state: DurakState) -> list[Action]:
    """Any card of the defender's on any uncovered attack card (attack cards in play order,
    hand low to high), then take."""
    hand = cards_of(state.hands[state.defender])
    acts: list[Action] = []
    for a, c in zip(state.attack, state.defence, strict=True):
        if c == -1:
            row = _ANY_COVER.get(a)
            if row is None:
                row = _ANY_COVER[a] = {}
            for d in hand:
                act = row.get(d)
                if act is None:
                    act = row[d] = Action(DEFEND, (d,), a)
                acts.append(act)
    acts.append(TAKE_ACTION)
    return acts


#: ``_ANY_COVER[a][d]``: "lay ``d`` face down on ``a``", made once (move generation is most
#: of a #59 search's time, and building the action each time was a fifth of it).
_ANY_COVER: Final[dict[int, dict[int, Action]]] = {}


def start_call(state: DurakState) -> None:
    """Everything is covered: the attacker who led the bout must call (A3)."""
    state.set_turn(state.leader, CALL_PHASE)


def honest(state: DurakState) -> bool:
    """Does every cover beat the attack card it lies on (for this defender's trumps)?"""
    beats = state.beats
    return all(d >= 0 and beats[a] >> d & 1
               for a, d in zip(state.attack, state.defence, strict=True))


def _back_in(state: DurakState, seat: int) -> None:
    """A player who emptied his hand on this bout (and so was counted out) gets cards back."""
    if state.out_mask >> seat & 1:
        state.rejoin(seat)


def step_call(state: DurakState, action: Action) -> None:
    """Turn the covers up and settle the table as the call and the covers say."""
    believed = action.kind == BELIEVE
    fair = honest(state)
    defender = state.defender
    if believed and fair:
        state.end_bout(taken=False)
        return
    if not believed and not fair:
        _back_in(state, defender)
        state.end_bout(taken=True)
        return
    # The caller was wrong: he takes every card, face up; the defender has beaten it off.
    caller = state.leader
    _back_in(state, caller)
    state.end_bout(taken=False, receiver=caller)


def take(state: DurakState) -> None:
    """The defender takes openly (A2): the attack cards become known in his hand, his own
    face-down covers go back to it unseen."""
    defender = state.defender
    covers = 0
    for d in state.defence:
        if d >= 0:
            covers |= 1 << d
    state.end_bout(taken=True)
    state.unsee(defender, ~covers)


def censor(state: DurakState, seat: int) -> tuple[int, ...]:
    """The ``defence`` entries ``seat`` may see: the defender sees his own covers, everyone
    else sees that a card lies there, face down."""
    if seat == state.defender:
        return tuple(state.defence)
    return tuple(FACE_DOWN if d >= 0 else d for d in state.defence)


def open_ranks(state: DurakState, seat: int) -> int:
    """``state.table_ranks`` as ``seat`` may know it: without the ranks of covers lying face
    down, which only the defender has seen."""
    if seat == state.defender or not any(d >= 0 for d in state.defence):
        return state.table_ranks
    ranks = 0
    for c in state.attack:
        ranks |= MATCH_MASKS[c]
    return ranks


def explain(state: DurakState, action: Action) -> IllegalActionError | None:
    """Why a call, or anything but a call, is illegal here (None: not this module's rule)."""
    calling = state.phase == CALL_PHASE
    if action.kind in (BELIEVE, DOUBT):
        if not state.deal.rules.defense_face_down:
            return IllegalActionError(CallRefused.CALL,
                                      "nothing to believe or doubt: these rules lay "
                                      "covers face up (defense.face_down is off, #59)")
        if not calling:
            return IllegalActionError(CallRefused.CALL,
                                      "nothing to believe or doubt: the call comes "
                                      "when every attack card is covered face down (#59)")
        return None
    if calling:
        return IllegalActionError(CallRefused.CALL,
                                  "the attacker must say believe or don't believe "
                                  "before anything else happens (#59)")
    return None


class _FaceDown(Hook):
    """#59 at the core's points: face-down covers, the attacker's call, an open take."""

    name = "#59 face-down covers"
    kinds = frozenset({BELIEVE, DOUBT})
    phases = frozenset({_DEFEND, CALL_PHASE})
    moments = frozenset({Turn.ALL_COVERED, Turn.TAKE_DECLARED})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.defense_face_down

    def check(self, rules: Rules, players: int) -> None:
        check_rules(rules)

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        if state.phase == _DEFEND:
            return defend_actions(state)
        if state.phase == CALL_PHASE:
            return list(CALLS)
        return acts

    def step(self, state: DurakState, action: Action) -> None:
        step_call(state, action)

    def goes_on(self, state: DurakState, turn: Moment) -> bool:
        if turn == Turn.ALL_COVERED:  # the attacker calls the face-down covers
            start_call(state)
            return True
        if turn == Turn.TAKE_DECLARED:
            take(state)
            return True
        return False

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, explain)

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, blocks=self._blocks)

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        return [("call", CALLS)] if rules.defense_face_down else []

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        # the covers lying face down, and the ranks they add, only for the defender
        return replace(view, defence=censor(state, seat), table_ranks=open_ranks(state, seat))


HOOK: Final = _FaceDown()
