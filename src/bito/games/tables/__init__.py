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


def table_of(view: SeatView) -> TableModel:
    """The table model of a seat's view of any game (its family's ``table_model``)."""
    from bito.games.family import family_for

    return family_for(view).table(view)


__all__ = ["Card", "Choice", "Pair", "Play", "Seat", "TableModel", "Vocabulary", "Zone",
           "table_of"]
