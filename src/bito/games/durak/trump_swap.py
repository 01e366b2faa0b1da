"""Trump swap (``trump.swap_six``, bito's catalogue entry #97).

At many tables the player who holds the six of trumps may exchange it for the trump card
lying face up under the stock. Here that is the player about to lead, before his lead, while
the stock holds more than the trump card (the last card of the stock is nobody's to swap for).
The "six" is the deck's lowest rank: the two with 52 cards, the nine with 24. Both cards are
seen by everyone: the trump card goes into his hand, known, and the six lies face up under the
stock in its place, public until someone draws it (and known in his hand after that). With
the six lying there nobody can swap again.

The move is written ``%6h`` (typed also ``trump 6h``). The rule is this module, its option
and its catalogue entry: it changes the game through the core's operations only, keeps its
one fact (the card it laid under the stock) in its own memory, and weighs as a trade of
cards for the bots (``KindNotation.trade``).

Where the rule meets other options:

* no turned-up trump card (a fixed trump, no trump, personal trumps, a secret trump lying
  face down): nothing to swap for, so no swap is ever legal;
* a player who cannot see his hand (#58) cannot know he holds the six: the mix is refused;
* the six is face up while it lies at the bottom of the stock; a rule that shuffles a bito
  back in (#38) or puts swapped cards under it (#42) buries it face down like any other card.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from bito.cards import MAX_CARDS, card, card_str, is_special, rank_of, suit_of
from bito.errors import IllegalActionError, InvalidNotationError, Reason, RulesError
from bito.games.durak.actions import Action, register_kind
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    Memory,
    Placed,
    PositionRequest,
    Question,
    Refusal,
    Stage,
    StockFaceUp,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.games.durak.reasons import Refused
from bito.i18n import N_
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

__all__ = ["HOOK", "SWAP_SIX", "low_trumps", "swappable"]

_LEAD: Final = int(Phase.LEAD)


class SwapRefused(Reason):
    """The refusal of a trump swap (#97)."""

    TRUMP_SWAP = "trump swap", N_(
        "swapping the lowest trump for the trump card under the stock is not possible now")


def _trade(view: Any, action: Action) -> tuple[int, int]:
    """The swap as a trade of cards, as the mover sees it: the six for the trump card."""
    return action.mask, (1 << view.trump_card) if view.trump_card >= 0 else 0


#: The move: the six of trumps for the face-up trump card.
SWAP_SIX: Final = register_kind(name="trump swap", prefix="%", word="trump",
                                pretty="swap the trump card under the stock for",
                                trade=_trade).kind
@dataclass(frozen=True, slots=True)
class Swapped:
    """The rule's memory once a swap is made (the trump card is gone from under the stock for
    the rest of the deal): the card laid there, and whether it still lies face up."""

    card: int
    face_up: bool = True


LAID: Final[Memory[Swapped]] = Memory("trump_swap")


def low_trumps(state: DurakState) -> int:
    """The trump cards of the deck's lowest rank (both copies with two decks), as a mask."""
    trump = state.deal.trump_card
    suit = suit_of(trump)
    low = state.deal.rules.low_rank
    return sum(1 << c for c in (card(low, suit, k) for k in range(2)) if c < MAX_CARDS)


def _block(state: DurakState) -> str | None:
    """Why nobody may swap now (None: the player to act may, holding the six)."""
    deal = state.deal
    trump = deal.trump_card
    if trump < 0 or is_special(trump) or rank_of(trump) == deal.rules.low_rank:
        return "no trump card of a higher rank lies face up under the stock"
    stock = state.stock
    if not stock or stock[0] != trump or not deal.trump.face_up >> trump & 1:
        return "the trump card no longer lies under the stock"
    if len(stock) < 2:
        return "the stock holds nothing but the trump card"
    if state.phase != _LEAD or state.to_act != state.attacker or state.attack:
        return "only the player about to lead swaps, before his lead"
    return None


def swappable(state: DurakState) -> int:
    """The cards the player to act may swap for the trump card now (a mask; 0: none)."""
    if _block(state) is not None:
        return 0
    return state.hands[state.to_act] & low_trumps(state)


class _TrumpSwap(Hook):
    """``trump.swap_six`` at the core's points: one more lead-phase move, its step, what it
    shows, and its position field."""

    name = "#97 trump swap"
    kinds = frozenset({SWAP_SIX})
    position_keys = frozenset({"trump_swapped"})
    events = frozenset({Stage.REFILLED})
    questions = frozenset({StockFaceUp, Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.trump_swap_six

    def check(self, rules: Rules, players: int) -> None:
        if not rules.trump_swap_six:
            return
        if not rules.deal_owner_sees_hand:
            raise RulesError("trump.swap_six", "swapping the six needs a player who sees his "
                             "hand: it does not combine with hands held face out (#58)")

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        if state.phase != _LEAD:
            return acts
        sixes = swappable(state)
        if not sixes:
            return acts
        return [*acts, *(Action(SWAP_SIX, (c,)) for c in range(MAX_CARDS) if sixes >> c & 1)]

    def step(self, state: DurakState, action: Action) -> None:
        seat = state.to_act
        six = action.cards[0]
        trump = state.from_stock(0)
        state.from_hand(seat, action.mask)
        state.to_hand(seat, 1 << trump, public=1 << trump)  # everyone saw it lying there
        state.to_stock((six,), at=0)
        LAID.keep(state, Swapped(six))

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if not isinstance(question, StockFaceUp):
            return refused(state, question, answer, self._refusal)
        laid = LAID.of(state)
        if laid is not None and laid.face_up and state.stock and state.stock[0] == laid.card:
            # face up at the bottom, where the swap laid it
            return cast(Answer, cast(int, answer) | 1 << laid.card)
        return answer

    def on(self, state: DurakState, event: Event) -> None:
        laid = LAID.of(state)
        if event != Stage.REFILLED or laid is None or not laid.face_up:
            return
        six = laid.card
        if state.stock and state.stock[0] == six:
            return  # still face up under the stock
        if six not in state.stock:  # drawn from the bottom, face up: known in his hand
            for seat, hand in enumerate(state.hands):
                if hand >> six & 1:
                    state.show(seat, 1 << six)
        # drawn, or buried face down by a rule that put cards under it (#38, #42)
        LAID.keep(state, Swapped(six, face_up=False))

    def _refusal(self, state: DurakState, action: Action) -> IllegalActionError | None:
        if action.kind != SWAP_SIX:
            return None
        if not state.deal.rules.trump_swap_six:
            return IllegalActionError(SwapRefused.TRUMP_SWAP, "these rules have no trump "
                                      "swap (trump.swap_six is off, #97)")
        block = _block(state)
        if block is not None:
            return IllegalActionError(SwapRefused.TRUMP_SWAP, block)
        six = action.cards[0]
        if not low_trumps(state) >> six & 1:
            return IllegalActionError(SwapRefused.TRUMP_SWAP, f"only the lowest trump swaps, "
                                      f"not {card_str(six)} (#97)")
        return IllegalActionError(Refused.NOT_IN_HAND, f"seat {state.to_act} does not hold "
                                  f"{card_str(six)}")

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        if not rules.trump_swap_six:
            return []
        low = rules.low_rank
        return [("trump swap", [Action(SWAP_SIX, (c,)) for c in cards
                                if not is_special(c) and rank_of(c) == low])]

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, self._place, self._blocks)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        laid = LAID.of(state)
        if laid is None:
            return []
        return [f"trump_swapped={card_str(laid.card)}{'' if laid.face_up else '.down'}"]

    def _place(self, fields: dict[str, str], where: dict[str, int], text: str) -> Placed:
        # the turned trump card went to a hand: the six lies at the stock's bottom
        return Placed(trump_card_moved="trump_swapped" in fields)

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> None:
        raw = fields.get("trump_swapped")
        if raw is None:
            return
        at = where["trump_swapped"]
        if not state.deal.rules.trump_swap_six:
            raise InvalidNotationError("trump_swapped: these rules have no trump swap (#97)",
                                       text, at)
        from bito.cards import parse_card

        down = raw.endswith(".down")
        try:
            six = parse_card(raw.removesuffix(".down"))
        except InvalidNotationError as e:
            raise InvalidNotationError(f"trump_swapped: {e.reason}", text,
                                       at + e.position) from None
        if not low_trumps(state) >> six & 1:
            raise InvalidNotationError("trump_swapped: the swapped card is the lowest trump",
                                       text, at)
        LAID.keep(state, Swapped(six, face_up=not down))


HOOK: Final = _TrumpSwap()
