"""The heuristic bot's rules of thumb for the bout-structure games (#65-#72).

One policy reads the :class:`~bito.games.bouts.common.BoutsView` of any of those engines:

* lead (or open a chain) with the cheapest card: the lowest non-trump, trumps last; a lead of
  several cards takes the whole rank group of that card (China fool sheds them together);
* cover with the cheapest card that beats (lowest of the suit, then the lowest trump), and
  take only when nothing covers;
* throw in whenever allowed (China fool discards what is not covered, so every card thrown is
  a card shed), cheapest first;
* the deck-flipping turns have no choice, or (Polish fool) prefer a card from the hand that
  beats over turning the stock.
"""

from __future__ import annotations

from typing import Any

from bito.cards import rank_of, suit_of
from bito.games.durak.actions import ATTACK, DEFEND, PASS, TAKE


def _cost(card: int, trump: int) -> tuple[int, int]:
    return (int(suit_of(card) == trump), rank_of(card))


def bouts(view: Any) -> Any:
    legal = list(view.legal)
    trump = view.trump_suit
    kinds = {getattr(a, "kind", None) for a in legal}
    covers = [a for a in legal if getattr(a, "kind", None) == DEFEND]
    if covers:
        return min(covers, key=lambda a: _cost(a.cards[0], trump))
    attacks = [a for a in legal if getattr(a, "kind", None) == ATTACK]
    if attacks:
        def lead_key(a: Any) -> tuple[tuple[int, int], int]:
            return (max(_cost(c, trump) for c in a.cards), -len(a.cards))
        return min(attacks, key=lead_key)
    for kind in (PASS, TAKE):
        if kind in kinds:
            return next(a for a in legal if getattr(a, "kind", None) == kind)
    return legal[0]
