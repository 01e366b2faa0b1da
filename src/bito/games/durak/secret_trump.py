"""Secret fool (``trump.secret_second``, #18): the card after the trump card goes face down
under it, out of the stock; once the trump card has been drawn it is turned, and its suit
trumps from the next bout on (with ``trump.secret_drawable`` it then becomes the last card to
draw, face up).

The rule's deal record sets the card aside while the deal is dealt and hands the core the
deal's trumps with it (``Trumps.hidden`` and ``Trumps.turned``, built by
:func:`~bito.games.durak.relation.trumps_of`): the state machine turns it when the stock runs
out (``DurakState.reveal_secret``) and builds its beat table from the turned trumps. What a
seat sees of it once turned is its view record, :class:`SecretTurned`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import Hook
from bito.games.durak.relation import Trumps, trumps_of
from bito.games.durak.render import trump_words
from bito.games.durak.view import ViewExtension
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

__all__ = ["HOOK", "SecretCard", "SecretTurned"]


@dataclass(frozen=True, slots=True)
class SecretCard(DealFact):
    """The rule's deal record: it sets the secret card aside once the trump card is turned
    from the stock. The card itself is the deal's hidden card (``deal.trump.hidden``), where
    a position text's ``secret=`` field puts it too."""

    def trump_turned(self, rules: Rules, players: int, dealer: int, trump_card: int,
                     stock: tuple[int, ...], trump: Trumps
                     ) -> tuple[DealFact, tuple[int, ...], Trumps]:
        if (trump_card < 0 or rules.trump_source in ("fixed", "none") or len(stock) < 2
                or stock[0] != trump_card):
            return self, stock, trump  # no card was turned up from a stock that lasts
        # the next card goes face down under the trump card, out of the stock
        secret = stock[-1]
        return self, stock[:-1], trumps_of(rules, trump_card, hidden=secret)


@dataclass(frozen=True, slots=True)
class SecretTurned(ViewExtension):
    """What every seat sees of the rule once the secret card is turned: the card (whose suit
    is the view's trump now)."""

    card: int

    def trump_words(self, view: DurakView) -> str | None:
        return trump_words(view.trumps, view.trump_card, view.trump_card_in_stock, (),
                           self.card, view.rules.deal_remove_stock)


class _SecretFool(Hook):
    """#18 at the two points it needs: the deal (the card set aside) and the view (the card,
    once turned)."""

    name = "#18 secret fool"

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.trump_secret_second and not rules.trump_per_player

    def deal_facts(self, rules: Rules, players: int) -> SecretCard:
        return SecretCard()

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        hidden = state.deal.trump.hidden
        if hidden < 0 or not state.revealed:
            return view
        return view.extended(SecretTurned(hidden))


HOOK: Final = _SecretFool()
