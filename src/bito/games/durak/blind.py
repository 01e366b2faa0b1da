"""Hands held face out (VARIANTS.md §3.7 #58, S1:76, S4:7-8): ``deal.owner_sees_hand=false``.

Every player holds his cards facing the others: he sees every other hand but never his own,
and a card he draws joins his hand unseen. So he cannot choose a card, only a *position* in
his hand, and the rules are checked when the card is turned up on the table:

* a lead is always fine (any single card may open a bout, #58 A3);
* a cover that does not beat its attack card, a transfer card of the wrong rank, a throw-in
  of a rank not on the table is an illegal play, and the engine penalises it at once (A1):
  the offender takes every card of the bout (the revealed card too) and the bout ends. A
  defender who covered or transferred wrongly has in effect taken; a thrower who threw wrongly
  takes instead of the defender, for whom the bout counts as beaten off. Either way the player
  on the offender's left attacks next (A2), and the refill goes as after a take by the
  offender: the others in the usual order, the offender last.

What a player can see without his cards (whether a transfer is allowed at all, whether the
bout has room for a throw-in) still limits what he may try: those rules are about the table,
not about his hand.

**Positions.** A hand is kept in arrival order, never sorted by value (the order must not tell
its owner anything): first the dealt cards in the order they were dealt; a card drawn from
the stock goes to the end (several drawn at once, the top card first); cards picked up from
the table go to the end in the order they lay there (attack cards in play order, then the
covers), before any card drawn in the same bout end. Positions are numbered from 1 in
notation (``#1`` is the oldest card) and from 0 in code. The state keeps the order it has
settled in ``order``; :func:`hand_order` adds the cards that arrived since, so the order is a
pure function of the position and every view, move list and position text agrees on it.

The state machine calls in here only behind ``Deal.blind``, a flag the base game never sets.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, cast

from bito.cards import card_pretty, card_str, cards_count, cards_of
from bito.errors import IllegalActionError, Reason, RulesError
from bito.games.durak.actions import (
    ATTACK,
    BLIND_COVER,
    BLIND_KINDS,
    BLIND_PLAY,
    BLIND_TRANSFER,
    DEFEND,
    EXTRA_KINDS,
    PASS_ACTION,
    TAKE_ACTION,
    TRANSFER,
    Action,
    Revealed,
    attack,
    blind_cover,
    blind_play,
    blind_transfer,
    defend,
    transfer,
)
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    Event,
    HandOrder,
    Hook,
    Memory,
    Moment,
    Question,
    Refusal,
    Shown,
    Stage,
    Stepping,
    refused,
)
from bito.games.durak.phases import Phase
from bito.games.durak.reasons import Refused
from bito.games.durak.render import in_order_text, positions_text
from bito.games.durak.view import ViewExtension
from bito.i18n import N_
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

_LEAD, _DEFEND, _THROW, _OVER = (int(p) for p in (Phase.LEAD, Phase.DEFEND, Phase.THROW,
                                                  Phase.OVER))


class BlindRefused(Reason):
    """The refusals of play from hands held face out (#58), one member per rule."""

    BLIND_PLAY = "blind play", N_("that blind play is not possible now")
    HAND_HELD_FACE_OUT = "hand held face out", N_(
        "your cards are held face out: play by position, like #3")
    POSITION = "position", N_("there is no card at that position")
    COVER = "cover", N_("cover with a higher card")
    TURN = "turn", N_("it is not your turn")
    THROW_IN_LIMIT = "throw-in limit", N_("no more cards may be thrown in this bout")


@dataclass(frozen=True, slots=True)
class FaceOut(ViewExtension):
    """What hands held face out add to a seat's view. The seat's own cards are withheld
    (the view's ``hand`` and ``known[seat]`` are 0; ``hand_counts[seat]`` says how many
    positions it has), while ``known`` holds every other hand in full and ``hand_order``
    each other hand by position (the seat's own entry is empty)."""

    hand_order: tuple[tuple[int, ...], ...]

    def hand_words(self, view: DurakView, seat: int) -> str | None:
        if seat == view.seat:
            return positions_text(view.hand_counts[seat]) + "   (face out: unseen by you)"
        return in_order_text(self.hand_order[seat], view.trump_suit)


def check_rules(rules: Rules) -> None:
    """Hands held face out combine with the bout's own rules (throw-ins, transfers, caps, draw
    orders, teams), not with the mechanisms that hide or move cards in other ways."""
    if rules.deal_owner_sees_hand:
        return
    clashes = {
        "defense.face_down": rules.defense_face_down,
        "dummy.mode": rules.dummy_mode != "none",
        "specials.joker_gifts": rules.specials_joker_gifts,
        "deal.reserve": rules.deal_reserve > 0,
        "deal.access": rules.deal_access != "all",
        "defense.second_try": rules.defense_second_try != "off",
        "lead.stock_top": rules.lead_stock_top != "off",
        "defense.exchange": bool(rules.defense_exchange),
        "defense.self_throw": rules.defense_self_throw,
        "throw_in.after_take_mode": rules.throw_in_after_take_mode != "normal",
        "defense.counter": rules.defense_counter,
        # Leads and transfers that must be built from several cards of the hand, or from
        # the right one, need a player who can see his cards: a blind lead is one card.
        "lead.shape": rules.lead_shape in ("rozaliev", "patterns"),
        "lead.strongest_only": rules.lead_strongest_only,
        "lead.must_include_all_of_rank": rules.lead_must_include_all_of_rank,
        "lead.pass_if_no_legal": rules.lead_pass_if_no_legal,
        "transfer.must_include_all_of_rank": rules.transfer_must_include_all_of_rank,
    }
    for key, clash in clashes.items():
        if clash:
            raise RulesError("deal.owner_sees_hand", f"hands held face out (#58) do not "
                             f"combine with {key}: only plays by position are supported")


def is_blind_kind(kind: int) -> bool:
    return BLIND_KINDS <= kind < EXTRA_KINDS


@dataclass(frozen=True, slots=True)
class DealtOrder(DealFact):
    """Each seat's cards in the order they were dealt, the first positions of the hands
    their owners hold face out: the deal holds it (``deal.fact(DealtOrder)``)."""

    order: tuple[tuple[int, ...], ...] = ()

    def dealt(self, order: tuple[tuple[int, ...], ...]) -> DealtOrder:
        return DealtOrder(order)


#: The rule's memory: each seat's cards by position as last settled (see :func:`hand_order`);
#: a tuple replaced whenever it changes.
ORDER: Final[Memory[tuple[tuple[int, ...], ...]]] = Memory("hand_order")


# --- the order of a hand ---------------------------------------------------------------------


def hand_order(state: DurakState, seat: int) -> tuple[int, ...]:
    """``seat``'s cards by position: the settled order, less the cards that left, then the
    cards that arrived since (see the module docstring for where they go)."""
    hand = state.hands[seat]
    order = ORDER.of(state) or ()
    settled = order[seat] if seat < len(order) else ()
    kept = tuple(c for c in settled if hand >> c & 1)
    have = 0
    for c in kept:
        have |= 1 << c
    new = hand & ~have
    if not new:
        return kept
    bout = state.last_bout
    stock = state.deal.stock
    seed = state.deal.seed

    def arrival(c: int) -> tuple[int, int]:
        if c in bout:
            return (0, bout.index(c))  # picked up from the table, as the cards lay
        if c in stock:
            return (1, -stock.index(c))  # drawn: the top card (the stock's end) first
        # Dealt without a recorded order (a position set up by hand): a fixed scramble, so
        # the order still says nothing about the cards.
        return (2, hash((seed, c * 7919 % 10007)))

    return kept + tuple(sorted(cards_of(new), key=arrival))


def sync(state: DurakState) -> None:
    """Settle every hand's order before a move (the state machine calls this first in a
    blind game): after it, the rule's memory holds exactly the hands in position order."""
    n = state.deal.players
    order = ORDER.of(state) or ()
    if len(order) == n and all(
            sum(1 << c for c in order[s]) == state.hands[s] for s in range(n)):
        return
    ORDER.keep(state, tuple(hand_order(state, s) for s in range(n)))


# --- moves -----------------------------------------------------------------------------------


def actions(state: DurakState) -> list[Action]:
    """What the seat to act may try: every position, for each play the table allows."""
    ph = state.phase
    if ph == _OVER:
        return []
    seat = state.to_act
    size = state.hands[seat].bit_count()
    if ph == _LEAD:
        if state.room() <= 0:  # no room for a lead at all (seen from the table)
            return []
        return [blind_play(p) for p in range(size)]
    if ph == _DEFEND:
        acts = [blind_cover(p, a) for a, d in zip(state.attack, state.defence, strict=True)
                if d == -1 for p in range(size)]
        deal = state.deal
        if (deal.transfer and (state.uncovered == len(state.attack) or deal.transfer_loose)
                and state.transfer_block() is None):
            acts += [blind_transfer(p) for p in range(size)]
        acts.append(TAKE_ACTION)
        return acts
    if ph == _THROW:
        if size and state.room() > 0:
            return [*(blind_play(p) for p in range(size)), PASS_ACTION]
        return [PASS_ACTION]
    return state.seeing_actions()


def turned_up(state: DurakState, action: Action) -> int:
    """The card a blind play takes (the seat to act holds it at that position)."""
    return hand_order(state, state.to_act)[action.position]


def as_played(state: DurakState, action: Action) -> Action:
    """The ordinary action a blind play turns out to be."""
    card = turned_up(state, action)
    if action.kind == BLIND_COVER:
        return defend(card, action.target)
    if action.kind == BLIND_TRANSFER:
        return transfer(card)
    return attack(card)


def fits(state: DurakState, action: Action) -> bool:
    """Whether the turned-up card is a legal play (what a seeing player could have done)."""
    return as_played(state, action) in state.seeing_actions()


def step(state: DurakState, action: Action) -> None:
    """Turn the card up; play it if it fits, else penalise the offender (A1, A2)."""
    real = as_played(state, action)
    if real in state.seeing_actions():
        state.step_unchecked(real)
        return
    seat = state.to_act
    card = real.cards[0]
    bit = 1 << card
    state.from_hand(seat, bit)
    # It leaves its position now: coming back with the bout's cards, it goes to the end.
    order = list(ORDER.of(state) or ())
    order[seat] = tuple(c for c in order[seat] if c != card)
    ORDER.keep(state, tuple(order))
    if action.kind == BLIND_COVER:  # the wrong card lies on the card it failed to beat
        state.cover(action.target, card)
    else:  # a wrong transfer or throw-in lies beside the attack cards
        state.lay((card,), 0)
    # The offender picks the table up as a taker would: the next attack comes from his left.
    state.end_bout(taken=True, taker=seat)


def revealed(state: DurakState, action: Action) -> Action | Revealed:
    """A blind play as every seat sees it once played: the position, the card turned up, and
    whether it was penalised."""
    if not is_blind_kind(action.kind) or not 0 <= action.position < state.hands[
            state.to_act].bit_count():
        return action
    return Revealed(action, turned_up(state, action), fits(state, action))


def verdict(before: DurakState, action: Action) -> str:
    """A sentence for the log when a blind play broke a rule (empty when it fitted)."""
    if not is_blind_kind(action.kind) or fits(before, action):
        return ""
    card = turned_up(before, action)
    if action.kind == BLIND_COVER:
        why = f"{card_pretty(card)} does not beat {card_pretty(action.target)}"
    elif action.kind == BLIND_TRANSFER:
        why = f"{card_pretty(card)} is not of the rank to transfer"
    elif before.phase == _THROW:
        why = f"no card of {card_pretty(card)}'s rank is on the table"
    else:
        why = f"{card_pretty(card)} may not lead here"
    return f"illegal play: {why}; the offender takes all the bout's cards (#58)"


def explain(state: DurakState, action: Action) -> IllegalActionError | None:
    """Why an action is illegal in a blind game, or a blind play in another (None: not
    this module's rule)."""
    kind = action.kind
    if state.deal.rules.deal_owner_sees_hand:
        if is_blind_kind(kind):
            return IllegalActionError(BlindRefused.BLIND_PLAY,
                                      "plays by position are for hands held "
                                      "face out (#58, deal.owner_sees_hand=false)")
        return None
    err = IllegalActionError
    if kind in (ATTACK, DEFEND, TRANSFER):
        return err(BlindRefused.HAND_HELD_FACE_OUT,
                   "you cannot see your own cards: play by position "
                   "(#3, #3>7d, =#3) (#58)")
    if not is_blind_kind(kind):
        return None
    size = state.hands[state.to_act].bit_count()
    if not 0 <= action.position < size:
        return err(BlindRefused.POSITION,
                   f"seat {state.to_act} holds {cards_count(size)}: positions "
                   f"#1 to #{size}")
    ph = state.phase
    if kind == BLIND_COVER:
        if ph != _DEFEND:
            return err(BlindRefused.COVER, "nothing is waiting to be covered")
        if action.target not in state.attack:
            return err(BlindRefused.COVER, f"{card_str(action.target)} is not on the table")
        return err(BlindRefused.COVER, f"{card_str(action.target)} is already covered")
    if kind == BLIND_TRANSFER:
        if ph != _DEFEND:
            return err(Refused.TRANSFER_NOT_HERE, "only the defender transfers, before covering")
        block = state.transfer_block()
        return err(Refused.TRANSFER_NOT_HERE,
                   str(block) if block is not None else "no transfer now")
    if kind == BLIND_PLAY and ph == _DEFEND:
        return err(BlindRefused.TURN, "the defender covers, transfers or takes")
    if kind == BLIND_PLAY and ph == _THROW:
        return err(BlindRefused.THROW_IN_LIMIT, "the bout has no room for another card")
    return err(BlindRefused.TURN, "not a move for this phase")


class _Blind(Hook):
    """#58 at the core's points: every move is a play by position from an unseen hand."""

    name = "#58 hands held face out"
    kinds = frozenset(range(BLIND_KINDS, BLIND_TRANSFER + 1))
    phases = frozenset(map(int, Phase))  # every move is a play by position
    moments = frozenset({Stepping})
    events = frozenset({Stage.DEALT})
    questions = frozenset({Shown, HandOrder, Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return not rules.deal_owner_sees_hand

    def check(self, rules: Rules, players: int) -> None:
        check_rules(rules)

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        return actions(state)

    def deal_facts(self, rules: Rules, players: int) -> DealtOrder:
        return DealtOrder()  # (the order: filled in as the deal is dealt)

    def on(self, state: DurakState, event: Event) -> None:
        dealt = state.deal.fact(DealtOrder)
        if event == Stage.DEALT and dealt is not None and dealt.order:
            ORDER.keep(state, dealt.order)  # the order they were dealt in

    def goes_on(self, state: DurakState, moment: Moment) -> bool:
        if isinstance(moment, Stepping):
            sync(state)  # settle the hands' order before any move, blind or not
        return False

    def step(self, state: DurakState, action: Action) -> None:
        step(state, action)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if isinstance(question, Shown):  # the card a play by position turned up
            return cast(Answer, revealed(state, question.action))
        if isinstance(question, HandOrder):  # the hands lie by position
            return cast(Answer, hand_order(state, question.seat))
        return refused(state, question, answer, explain)

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        # every hand but one's own, held face out, by position
        n = state.deal.players
        view = replace(view, hand=0,
                       known=tuple(0 if s == seat else state.hands[s] for s in range(n)))
        return view.extended(FaceOut(tuple(() if s == seat else hand_order(state, s)
                                           for s in range(n))))


HOOK: Final = _Blind()
