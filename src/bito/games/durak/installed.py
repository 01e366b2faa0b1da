"""The variant hooks this engine plays, in the order they run at each point.

The one place that knows every variant module: the deal selects from this list
(:func:`bito.games.durak.hooks.select`), the explainer and the position text walk it, and the
core never imports it. Adding a rule with its own moves is a new module exporting ``HOOK``
and one line here (docs/architecture.md, "Adding a rule").

Order matters where two hooks meet one point: the dummy refills before the bout extras
forget the bout; the rule-mix checks refuse in this order.
"""

from __future__ import annotations

from typing import Final

from bito.games.durak import (
    believe,
    blind,
    bout_extras,
    dummy,
    dummy_seat,
    exchange,
    joker_gifts,
    leads,
    neutralised_discard,
    partial_defense,
    show_trump,
    stock,
    suit_leads,
    teams,
    transfer_refusal,
)
from bito.games.durak.hooks import Hook

__all__ = ["HOOKS"]

HOOKS: Final[tuple[Hook, ...]] = (
    joker_gifts.HOOK,
    suit_leads.HOOK,
    transfer_refusal.HOOK,
    neutralised_discard.HOOK,
    teams.HOOK,
    believe.HOOK,
    blind.HOOK,
    leads.HOOK,
    partial_defense.HOOK,
    exchange.HOOK,
    dummy.HOOK,
    bout_extras.HOOK,
    dummy_seat.HOOK,
    show_trump.HOOK,
    stock.HOOK,
)
