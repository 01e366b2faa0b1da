"""Joker gifts (``specials.joker_gifts``, #24, S0:92-95) and the gift block (#84).

A joker laid as an attack card makes players hand cards over: both jokers at once, the player
gives five to his opponent; the black joker, he gives two; the red joker, the opponent gives
him two (S0:92-95). Under ``specials.gift_trigger=any_play`` a joker cover sets a gift off too
(#24 A1). Facing a lone led joker, the defender may lay the other joker beside it and pass the
attack on, at the price of five cards (#24 A3), in any base game. With the stock gone, a
player left with nothing but jokers is the fool (#24 A4). Under ``specials.gift_block_combo``
the giver may instead show three of a kind and two more cards, and give nothing (#84).

A gift interrupts the bout: the state enters the ``give`` phase, the giver hands the cards
over one at a time (``^7c``), and the bout resumes where it stopped. What happens when a gift
empties a hand is decided in docs/variants.md ("Joker gifts that empty a hand"): the core's
:meth:`~bito.games.durak.state.DurakState.out_if_done` is the one place that decides who is
out, gifts included.

The gift in progress is the state's ``gift`` field, kept by the core for this hook:
(giver, receiver, cards still to give, the phase and seat to resume, block still allowed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Final

from bito.cards import MATCH_MASKS, RANK_MASKS, cards_of, is_joker, special
from bito.errors import IllegalActionError, InvalidNotationError, Reason
from bito.games.durak.actions import (
    ATTACK,
    BLOCK,
    DEFEND,
    GIVE,
    TRANSFER,
    Action,
    block,
    give,
    transfer,
)
from bito.games.durak.hooks import (
    Answer,
    Hook,
    Memory,
    Moment,
    Played,
    PositionRequest,
    Question,
    Refusal,
    Turn,
    answered,
    refused,
)
from bito.games.durak.phases import PHASE_NAMES, Phase
from bito.games.durak.reasons import Refused
from bito.games.durak.view import PUBLIC, ViewExtension, private_to
from bito.i18n import N_

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView
    from bito.rules import Rules

_DEFEND: Final = int(Phase.DEFEND)
_THROW: Final = int(Phase.THROW)
_GIVE: Final = int(Phase.GIVE)

#: Every joker code (both copies): the cards that set off joker gifts.
JOKERS: Final = MATCH_MASKS[special("RJ")]
_RED_JOKERS: Final = (1 << special("RJ")) | (1 << special("RJ", 1))
#: The phase a gift returns to when a joker cover left nothing uncovered: the bout then goes
#: on as after the last cover (a throw-in round, or bito).
RESUME_COVERED: Final = -1
#: A gift in progress, the rule's memory: (giver, receiver, cards still to give, the phase
#: and seat to return to afterwards, whether a block (#84) is still possible).
Gift = tuple[int, int, int, int, int, bool]
GIFT: Final[Memory[Gift]] = Memory("gift")


class GiftRefused(Reason):
    """The refusals of joker gifts and their blocks (#24, #84)."""

    JOKER_GIFT = "joker gift", N_("the joker's gift is not possible now")
    GIFT_BLOCK = "gift block", N_("no such block is possible now")


@dataclass(frozen=True, slots=True)
class GiftUnderWay(ViewExtension):
    """What a joker gift under way adds to every seat's view (it is public): the rule's
    memory as it stands, which a search world rebuilds with :func:`rebuild`."""

    gift: Gift


def gift_field(raw: str, text: str, at: int, n: int
                ) -> tuple[int, int, int, int, int, bool]:
    """A ``gift=`` field: giver.receiver.cards_left.resume_phase.resume_to_act.block."""
    parts = raw.split(".")
    phases = {name: i for i, name in enumerate(PHASE_NAMES)} | {"covered": -1}
    ok = (len(parts) == 6 and parts[3] in phases
          and all(p.lstrip("-").isdigit() for i, p in enumerate(parts) if i != 3))
    if ok:
        giver, receiver, left, to_act, blk = (int(parts[i]) for i in (0, 1, 2, 4, 5))
        ok = (0 <= giver < n and 0 <= receiver < n and giver != receiver and left > 0
              and -1 <= to_act < n and blk in (0, 1))
    if not ok:
        raise InvalidNotationError("gift: expected giver.receiver.cards_left.resume_phase."
                                   "resume_to_act.block (e.g. 0.1.2.defend.1.0)", text, at)
    return giver, receiver, left, phases[parts[3]], to_act, bool(blk)


def gift_text(gift: Gift) -> str:
    """The ``gift=`` field of a position (:func:`gift_field` reads it back)."""
    resume = PHASE_NAMES[gift[3]] if gift[3] >= 0 else "covered"
    return f"gift={gift[0]}.{gift[1]}.{gift[2]}.{resume}.{gift[4]}.{int(gift[5])}"


def rebuild(state: DurakState, view: DurakView) -> None:
    """Give ``state``, a world built from ``view``, the gift under way that ``view`` shows."""
    shown = view.extension(GiftUnderWay)
    GIFT.keep(state, shown.gift if shown is not None else None)


def joker_transfer_card(state: DurakState) -> int:
    """#24 A3: facing a lone joker, nothing covered, the defender may lay the other joker
    beside it to pass the attack on (whatever the base game). The joker he would use, or -1."""
    if len(state.attack) != 1 or state.defence[0] != -1:
        return -1
    if not JOKERS >> state.attack[0] & 1:
        return -1
    other = state.hands[state.defender] & JOKERS
    if not other:
        return -1
    nxt = state.next_active(state.defender)
    if nxt == state.defender or state.hands[nxt].bit_count() < 2:
        return -1
    return (other & -other).bit_length() - 1


def joker_gift(state: DurakState, jokers: int, player: int, opponent: int) -> None:
    """Start the gift the jokers in ``jokers`` set off for ``player`` against ``opponent``."""
    jokers &= JOKERS
    if jokers.bit_count() >= 2:
        start_gift(state, player, opponent, 5)
    elif jokers & _RED_JOKERS:
        start_gift(state, opponent, player, 2)
    else:
        start_gift(state, player, opponent, 2)


def start_gift(state: DurakState, giver: int, receiver: int, count: int) -> None:
    """Begin a gift of ``count`` cards, or drop it: a giver short of cards first draws the
    shortfall from the stock, and when the stock cannot make it up the joker does nothing
    (S0:95); nor does it when either player has gone out."""
    if state.out_mask >> receiver & 1 or state.out_mask >> giver & 1 or giver == receiver:
        return
    short = count - state.hands[giver].bit_count()
    if short > 0:
        stock = state.stock
        if len(stock) < short:
            return
        state.draw(giver, short)
        state.reveal_secret()
    GIFT.keep(state, (giver, receiver, count, state.phase, state.to_act,
                      state.deal.rules.specials_gift_block_combo))
    state.set_turn(giver, _GIVE)


def give_actions(state: DurakState) -> list[Action]:
    """One card at a time, any card of the giver's; or, first, a block (#84)."""
    gift = GIFT.of(state)
    assert gift is not None
    hand = state.hands[gift[0]]
    acts = [give(c) for c in cards_of(hand)]
    if gift[5] and hand.bit_count() >= 5:
        for rank_mask in RANK_MASKS:
            group = hand & rank_mask
            if group.bit_count() >= 3:
                cards = cards_of(group)
                n = len(cards)
                for i in range(n):
                    for j in range(i + 1, n):
                        for k in range(j + 1, n):
                            acts.append(block(cards[i], cards[j], cards[k]))
    return acts


def step_gift(state: DurakState, action: Action) -> None:
    """Hand one card over (or block the gift), and resume the bout once the gift is made."""
    gift = GIFT.of(state)
    assert gift is not None
    giver, receiver, left, phase, to_act, _ = gift
    if action.kind == BLOCK:
        # #84: three of a kind (and two more cards) shown: everyone has seen them.
        state.show(giver, action.mask)
        left = 0
    else:
        m = action.mask
        state.from_hand(giver, m)
        state.to_hand(receiver, m)
        if private_to(state, action) == PUBLIC:  # a gift is handed over openly
            state.show(receiver, m)
        left -= 1
    if left and state.hands[giver]:
        GIFT.keep(state, (giver, receiver, left, phase, to_act, False))
        return
    GIFT.keep(state, None)
    if phase == RESUME_COVERED:
        if state.deal.throw_in:
            state.start_throw_round()
        else:
            state.end_bout(taken=False)
    else:
        state.set_turn(to_act, phase)
    state.out_if_done(giver)
    if state.phase == _THROW and (not state.hands[state.to_act] or state.room() <= 0):
        # The caps are judged on the hands the gift left (#24 A2): a thrower who gave his
        # last card, or whose gift left the defender no room, hands the right on.
        state.advance_thrower()


class _JokerGifts(Hook):
    """#24 and #84 at the core's points: the give phase's moves and steps, the joker pass
    among the defender's moves, the gifts a play sets off, and #24 A4's loss."""

    name = "#24 joker gifts, #84 gift block"
    position_keys = frozenset({"gift"})
    kinds = frozenset({GIVE, BLOCK})
    phases = frozenset({_GIVE})
    moments = frozenset({Played, Turn.GAME_END})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.specials_joker_gifts

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        if state.phase == _GIVE:
            return give_actions(state)
        if state.phase != _DEFEND:
            return acts
        card = joker_transfer_card(state)
        if card < 0:
            return acts
        at = 0  # after the covers, before the transfers and the take
        while at < len(acts) and acts[at].kind == DEFEND:
            at += 1
        return [*acts[:at], transfer(card), *acts[at:]]

    def step(self, state: DurakState, action: Action) -> None:
        step_gift(state, action)

    def goes_on(self, state: DurakState, moment: Moment) -> bool:
        if isinstance(moment, Played):
            return self._played(state, moment.seat, moment.action)
        if moment != Turn.GAME_END or state.stock:
            return False
        # #24 A4: with the stock gone, a player left with nothing but jokers is the fool.
        n = state.deal.players
        for seat in range(n):
            hand = state.hands[seat]
            if hand and not hand & ~JOKERS and n - state.out_mask.bit_count() >= 2:
                state.finish([seat], "instant loss")
                return True
        return False

    def _played(self, state: DurakState, seat: int, action: Action) -> bool:
        jokers = action.mask & JOKERS
        if not jokers:
            return False
        kind = action.kind
        if kind == ATTACK:
            # A lead or a throw-in (#24 A2: the gift comes first, while the thrower still
            # holds the right; whether he keeps it is judged on the hands it leaves).
            joker_gift(state, jokers, seat, state.defender)
            return state.phase == _GIVE
        if kind == DEFEND:
            if state.deal.rules.specials_gift_trigger != "any_play":
                return False
            # #24 A1 option: a joker cover sets off its gift too, the defender being the
            # player and the main attacker the opponent (before the bout goes on).
            joker_gift(state, jokers, seat, state.attacker)
            gift = GIFT.of(state)
            if state.phase != _GIVE or gift is None:
                return False
            if not state.uncovered:
                # Resume by ending the covering as usual once the gift is made.
                GIFT.keep(state, (*gift[:3], RESUME_COVERED, gift[4], gift[5]))
            return True
        if kind == TRANSFER:
            # #24 A3: passing a lone joker on with the other one costs five cards (a joker
            # transfers in no other way, §3.3). ``seat`` has just passed it to the defender.
            new = state.defender
            giver, receiver = ((seat, new) if state.deal.rules.specials_joker_transfer_giver
                               == "transferrer" else (new, seat))
            start_gift(state, giver, receiver, 5)
            return state.phase == _GIVE
        return False

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, self._refusal)

    def _refusal(self, state: DurakState, action: Action) -> IllegalActionError | None:
        err = IllegalActionError
        if action.mask & ~state.hands[state.to_act]:
            return None  # the core names that first: a card not in hand
        kind = action.kind
        if state.phase == _GIVE and kind not in (GIVE, BLOCK):
            return err(GiftRefused.JOKER_GIFT,
                       "a joker was played: the gift cards must be handed over "
                       "first (#24)")
        if kind == GIVE:
            return err(GiftRefused.JOKER_GIFT, "no joker gift is being made now (#24)")
        if kind == BLOCK:
            if state.phase != _GIVE:
                return err(GiftRefused.JOKER_GIFT, "there is no gift to block now (#84)")
            if not state.deal.rules.specials_gift_block_combo:
                return err(GiftRefused.GIFT_BLOCK, "these rules have no blocking combination (#84)")
            return err(GiftRefused.GIFT_BLOCK,
                       "a block shows three cards of one rank, with at least two "
                       "more cards in hand, before the first gift card (#84)")
        if (kind == TRANSFER and state.phase == _DEFEND and state.transfer_block() is None
                and is_joker(state.transfer_rank_card())):
            return err(Refused.TRANSFER_RANK, "a lone joker is passed on only with the other joker "
                       "(#24 A3)")
        return None

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        if not rules.specials_joker_gifts:
            return []
        blocks: list[tuple[str, Iterable[Action]]] = [
            ("give", [Action(GIVE, (c,)) for c in cards])]
        if rules.specials_gift_block_combo:
            # #84: three cards of one rank shown to cancel a gift.
            ranks = [tuple(c for c in cards if m >> c & 1) for m in RANK_MASKS if m]
            blocks.append(("block", [Action(BLOCK, combo) for group in ranks
                                     for combo in combinations(group, 3)]))
        return blocks

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, blocks=self._blocks)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        gift = GIFT.of(state)
        return [] if gift is None else [gift_text(gift)]

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> int | None:
        # the gift under way; its giver is the one to act
        raw = fields.get("gift")
        if raw is None:
            if state.phase == _GIVE:
                raise InvalidNotationError("phase=give needs gift=...", text,
                                           where.get("phase", 0))
            return None
        gift = gift_field(raw, text, where["gift"], state.deal.players)
        if state.phase != _GIVE:
            raise InvalidNotationError("gift: only in phase=give", text, where["gift"])
        GIFT.keep(state, gift)
        return gift[0]

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        gift = GIFT.of(state)
        return view if gift is None else view.extended(GiftUnderWay(gift))


HOOK: Final = _JokerGifts()
