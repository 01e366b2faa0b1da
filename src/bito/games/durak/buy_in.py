"""The size of the buy-in (#37): how many face-down cards each seat is dealt before the hands.

A function of the rules, the seat count and the pack alone, kept apart so that the stock
rule's record (:class:`~bito.games.durak.stock.FaceDown`), which deals the buy-in, and the
deal's module, from which the kernel's converter sizes it, share one reckoning without the
rule's module importing the deal's (which lists the hooks: a cycle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bito.rules import Rules

__all__ = ["reserve_size"]


def reserve_size(rules: Rules, players: int, cards: int) -> int:
    """#37 A1: the buy-in per player, lowered until players x (hand + reserve) + 1 cards fit
    the pack, so at least one card is left to turn up as the trump."""
    room = (cards - 1) // players - rules.deal_hand_size
    return max(0, min(rules.deal_reserve, room))
