"""Why the core refuses a move, as types rather than message text.

Every refusal the core raises carries one of the members below (:class:`Refused`, or a
:class:`TransferBar` for a transfer), and every rule module declares its own
:class:`~bito.errors.Reason` subclass for its refusals. A rule that shares part of a core rule
(#96's show of a trump is a transfer with its own window and card limits) and a face that says
a refusal in a player's words decide on the *member*, never on the words, which are for people
and may change. Each member keeps the rule's short name (``reason.rule``) for records and the
rule's general sentence (``reason.words``, empty where the detail says it best).
"""

from __future__ import annotations

from dataclasses import dataclass

from bito.errors import Reason
from bito.i18n import N_


class Refused(Reason):
    """The base game's refusals (VARIANTS.md §1), one member per way a move breaks a rule."""

    GAME_OVER = "game over", N_("the game has ended")
    FOREIGN = "not a Durak move", N_("that is not a move of this game")
    NOT_THIS_GAME = "not a move of this game", N_("that is not a move of this game")
    NOT_IN_HAND = "not in hand", N_("you do not hold that card")
    TAKE_NOT_NOW = "take", N_("only the defender may take, while cards are uncovered")
    NOTHING_TO_TAKE = "take", N_("only the defender may take, while cards are uncovered")
    LEAD_NO_PASS = "lead", N_("the attacker must open the bout")
    DEFENDER_PASS = "pass", N_("the defender covers or takes; only the attackers pass")
    NOTHING_TO_COVER = "defend", N_("there is no such uncovered card to cover")
    TARGET_GONE = "defend", N_("there is no such uncovered card to cover")
    TARGET_COVERED = "defend", N_("there is no such uncovered card to cover")
    BEAT = "beat relation", N_("that card does not beat the card it covers")
    TRANSFER_NOT_NOW = "transfer", N_("no transfer with that card here")
    TRANSFER_NOT_HERE = "transfer", N_("no transfer with that card here")
    #: a joker, wild or mega card lies on the table or is offered: it never transfers (§3.3)
    TRANSFER_SPECIAL = "transfer rank", N_("a transfer card must be of the rank on the table")
    TRANSFER_RANK = "transfer rank", N_("a transfer card must be of the rank on the table")
    #: a kind of move nobody may make here (a rule's move in a game or moment without it)
    NO_SUCH_MOVE = "move", N_("that is not a move here")
    DEFENDER_FIRST = "turn", N_("it is not your turn")
    LEAD_SHAPE = "lead shape", N_("that lead is not allowed in this game")
    LEAD_TOO_MANY = "lead limit", N_("too many cards in the lead")
    LEAD_OVER_HAND = "lead limit", N_("too many cards in the lead")
    BOUT_LIMIT = "bout limit", N_("the bout holds no more cards")
    NO_THROW_IN = "no throw-in", N_("this game has no throw-ins")
    THROW_ONE = "throw-in", N_("throw in one card at a time")
    THROW_RANK = "throw-in rank", N_("you may throw in only a card of a rank already on the "
                                     "table")
    #: the defender has no card left to cover one more
    THROW_OVER_HAND = "throw-in limit", N_("no more cards may be thrown in this bout")
    #: the bout holds as many attack cards as it may
    THROW_BOUT_FULL = "throw-in limit", N_("no more cards may be thrown in this bout")


class TransferBar(Reason):
    """What stands in the way of a transfer (``DurakState.transfer_block``)."""

    NO_TRANSFERS = "transfer", N_("no transfer with that card here")  #: no transfers at all
    NOTHING_OPEN = "transfer window"  #: nothing on the table is left uncovered
    WINDOW = "transfer window"  #: a card is already covered
    RANK = "transfer rank", N_("a transfer card must be of the rank on the table")
    FIRST_BOUT = "no transfer in the first bout"  #: #78, the first bout of the first game
    UNDER_FOOL = "no transfer in the first bout"  #: #78, a deal led under the fool
    TRUMP_ON_TABLE = "transfer", N_("no transfer with that card here")  #: B12, literal
    NOBODY_LEFT = "transfer", N_("no transfer with that card here")  #: nobody else in play
    NEXT_HAND = "transfer limit"  #: the next defender holds too few cards
    CAP = "transfer limit"  #: the bout holds as many attack cards as it may

    @property
    def is_card_limit(self) -> bool:
        """A bar about where the cards lie or how many there are (the window, the next hand,
        the cap), not about whether the game allows passing the attack on at all."""
        return self in (TransferBar.NOTHING_OPEN, TransferBar.WINDOW, TransferBar.NEXT_HAND,
                        TransferBar.CAP)


@dataclass(frozen=True, slots=True)
class TransferRefusal:
    """Why the defender may not transfer now: the bar, and the words for the player."""

    bar: TransferBar
    detail: str

    @property
    def rule(self) -> str:
        """The rule's name, as an :class:`~bito.errors.IllegalActionError` gives it."""
        return self.bar.rule

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"
