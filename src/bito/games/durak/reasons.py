"""Why the core refuses a move, as types rather than message text.

A rule that shares part of a core rule (#96's show of a trump is a transfer with its own window
and card limits) asks the core why a move is refused and decides on the *kind* of reason, an
enum member, never on the words, which are for people and may change.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TransferBar(Enum):
    """What stands in the way of a transfer; the value is the rule's name in errors."""

    NO_TRANSFERS = "transfer"  #: the game has no transfers
    WINDOW = "transfer window"  #: a card is already covered, or nothing is left open
    RANK = "transfer rank"  #: the attack cards are not all of one rank
    FIRST_BOUT = "no transfer in the first bout"  #: #78
    TRUMP_ON_TABLE = "transfer while a trump lies on the table"  #: B12, literal
    NOBODY_LEFT = "transfer to nobody"  #: nobody else is in play to take the attack
    NEXT_HAND = "transfer limit"  #: the next defender holds too few cards
    CAP = "the bout's cap"  #: the bout holds as many attack cards as it may

    @property
    def is_card_limit(self) -> bool:
        """A bar about where the cards lie or how many there are (the window, the next hand,
        the cap), not about whether the game allows passing the attack on at all."""
        return self in (TransferBar.WINDOW, TransferBar.NEXT_HAND, TransferBar.CAP)


#: The rule name each bar is reported under (the explainer's first word).
_RULE: dict[TransferBar, str] = {
    TransferBar.NO_TRANSFERS: "transfer",
    TransferBar.WINDOW: "transfer window",
    TransferBar.RANK: "transfer rank",
    TransferBar.FIRST_BOUT: "no transfer in the first bout",
    TransferBar.TRUMP_ON_TABLE: "transfer",
    TransferBar.NOBODY_LEFT: "transfer",
    TransferBar.NEXT_HAND: "transfer limit",
    TransferBar.CAP: "transfer limit",
}


@dataclass(frozen=True, slots=True)
class TransferRefusal:
    """Why the defender may not transfer now: the bar, and the words for the player."""

    bar: TransferBar
    detail: str

    @property
    def rule(self) -> str:
        """The rule's name, as an :class:`~bito.errors.IllegalActionError` gives it."""
        return _RULE[self.bar]

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"
