"""The table model (:mod:`bito.games.tables.model`) and each family's function from a
seat's view to it; :func:`table_of` finds the family's through the family seam."""

from __future__ import annotations

from bito.games.protocol import SeatView
from bito.games.tables.model import (
    Card,
    Choice,
    Pair,
    Play,
    Seat,
    TableModel,
    Vocabulary,
    Zone,
)


def move_cards(move: object) -> tuple[Card, ...]:
    """The cards a move puts down, named as the table model names them: a move of a family
    with its own deck (``Move.deck``, the *Fool!* deck) in that deck's names, any other in
    the French pack's. A move without cards gives none."""
    codes = tuple(c for c in getattr(move, "cards", ()) if isinstance(c, int) and c >= 0)
    if getattr(move, "deck", "standard") == "fool":
        from bito.games.tables.tricks import fool_card

        return tuple(fool_card(c) for c in codes)
    from bito.games.tables.faces import card

    return tuple(card(c) for c in codes)


def table_of(view: SeatView) -> TableModel:
    """The table model of a seat's view of any game (its family's ``table_model``)."""
    from bito.games.family import family_for

    return family_for(view).table(view)


__all__ = ["Card", "Choice", "Pair", "Play", "Seat", "TableModel", "Vocabulary", "Zone",
           "move_cards", "table_of"]
