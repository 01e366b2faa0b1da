"""The variant hooks this engine plays, in the order they run at each point.

The one place that knows every variant module: the deal selects from this list
(:func:`bito.games.durak.hooks.select`), the explainer and the position text walk it, and the
core never imports it.

Order matters where two hooks meet one point (the dummy refills before the bout extras
forget the bout; the rule-mix checks refuse in this order), so the hooks that meet others
are listed here by hand. Any other module of this package that defines a ``HOOK`` at its top
level joins after them, in the order of the modules' names: adding a rule with its own moves
is a new module and nothing here (docs/architecture.md, "Adding a rule").
"""

from __future__ import annotations

import importlib
from pathlib import Path
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

ORDERED: Final[tuple[Hook, ...]] = (
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


def _found() -> tuple[Hook, ...]:
    """The hooks of the package's other modules: each ``*.py`` here whose text defines
    ``HOOK`` at the start of a line and is not in :data:`ORDERED`, imported by name."""
    listed = {type(h).__module__ for h in ORDERED}
    found = []
    for path in sorted(Path(__file__).parent.glob("*.py")):
        name = f"{__package__}.{path.stem}"
        if name in listed or path.stem == "installed":
            continue
        text = path.read_text(encoding="utf-8")
        if "\nHOOK: Final" in text or "\nHOOK = " in text:
            module = importlib.import_module(name)
            hook = getattr(module, "HOOK", None)
            if isinstance(hook, Hook):
                found.append(hook)
    return tuple(found)


HOOKS: Final[tuple[Hook, ...]] = (*ORDERED, *_found())
"""Every installed hook: :data:`ORDERED`, then the hooks found in the package."""
