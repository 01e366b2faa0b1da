"""A stock set aside unseen (``deal.remove_stock``, #32): once the hands are dealt and the
trump turned and announced, the whole stock, trump card included, goes aside face down and
nobody draws; the game is played out of the hands alone.

The rule's deal record takes the stock while the deal is dealt and keeps the cards
(:class:`SetAside`); when the game starts the hook lays them aside through the core's
operation (``DurakState.set_aside``), out of play for the rest of the deal. The position
text writes them as ``removed=`` (``??*n`` for a seat, who never saw them).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from bito.cards import card_str, cards_of, mask_of, split_cards
from bito.errors import InvalidNotationError
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    Placed,
    PositionRequest,
    Stage,
    answered,
)
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.relation import Trumps
    from bito.games.durak.state import DurakState

__all__ = ["HOOK", "SetAside"]


@dataclass(frozen=True, slots=True)
class SetAside(DealFact):
    """The rule's deal record: the cards of the stock it set aside (empty in a deal read from
    a position, whose ``removed=`` field says which cards lie aside)."""

    cards: int = 0

    def trump_turned(self, rules: Rules, players: int, dealer: int, trump_card: int,
                     stock: tuple[int, ...], trump: Trumps
                     ) -> tuple[DealFact, tuple[int, ...], Trumps]:
        return replace(self, cards=mask_of(stock)), (), trump


def _aside(state: DurakState) -> int:
    """The cards the rule laid aside that still lie there (a hidden card is another rule's)."""
    hidden = state.deal.trump.hidden
    return state.aside & ~(1 << hidden if hidden >= 0 else 0)


class _SetAside(Hook):
    """#32 at the points it needs: the deal (the stock taken), the game's start (the cards laid
    aside) and its position field."""

    name = "#32 stock set aside"
    position_keys = frozenset({"removed"})
    events = frozenset({Stage.DEALT})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.deal_remove_stock

    def deal_facts(self, rules: Rules, players: int) -> SetAside:
        return SetAside()

    def on(self, state: DurakState, event: Event) -> None:
        record = state.deal.fact(SetAside)
        if event == Stage.DEALT and record is not None and record.cards:
            state.set_aside(record.cards)

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, self._place)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        removed = _aside(state)
        if not removed:
            return []
        if seat is None:
            return ["removed=" + "".join(card_str(c) for c in cards_of(removed))]
        return [f"removed=??*{removed.bit_count()}"]

    def _cards(self, fields: dict[str, str], where: dict[str, int], text: str) -> list[int]:
        try:
            return split_cards(fields.get("removed", "-"))
        except InvalidNotationError as e:
            raise InvalidNotationError(f"removed: {e.reason}", text,
                                       where["removed"] + e.position) from None

    def _place(self, fields: dict[str, str], where: dict[str, int], text: str) -> Placed:
        if "removed" not in fields:
            return Placed()
        at = where["removed"]
        return Placed(tuple(("removed", c, at) for c in self._cards(fields, where, text)))

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> None:
        if "removed" not in fields:
            return
        if not state.deal.rules.deal_remove_stock:
            raise InvalidNotationError("removed: these rules keep the stock (#32)", text,
                                       where["removed"])
        state.set_aside(mask_of(self._cards(fields, where, text)))


HOOK: Final = _SetAside()
