"""The table model (:mod:`bito.games.tables.model`) and each family's function from a
seat's view to it; :func:`table_of` finds the family's through the family seam, and
:func:`facts_of` builds the learner's build of the same model (the facts without the
words)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Protocol

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


if TYPE_CHECKING:
    from bito.games.family import SomeFamily


def table_of(view: SeatView) -> TableModel:
    """The table model of a seat's view of any game (its family's ``table_model``)."""
    from bito.games.family import family_for

    return family_for(view).table(view)


class TableBuilder(Protocol):
    """A family's function from a seat's view to its table model; ``words=False`` builds the
    learner's build (:mod:`bito.games.tables.model`)."""

    def __call__(self, view: SeatView, words: bool = True) -> TableModel: ...


def table_builder(family: SomeFamily) -> TableBuilder:
    """The table-model function of a family (its ``table_module``'s ``table_model``): an
    encoder that knows its family finds it once, not at every step."""
    return _builder(family.table_module)


@cache
def _builder(module: str) -> TableBuilder:
    build: TableBuilder = import_module(module).table_model
    return build


def facts_of(view: SeatView) -> TableModel:
    """The learner's build of a seat's table model, of any game: the facts every observation
    encoder reads (cards, counts, seats, the facts of play), without the moves, notes and
    words a person reads; one model type, built by the family's one function."""
    from bito.games.family import family_for

    return table_builder(family_for(view))(view, False)


__all__ = ["Card", "Choice", "Pair", "Play", "Seat", "TableBuilder", "TableModel",
           "Vocabulary", "Zone", "facts_of", "move_cards", "table_builder", "table_of"]
