"""Game engines, one per family, behind one protocol (see ``docs/architecture.md`` and
:mod:`bito.games.protocol`).

:func:`new_game` deals any registered game: it looks up the variant's family object
(:mod:`bito.games.family`) and hands the spec to that family's engine (Durak, shedding, tricks,
social or bouts).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bito.games.family import (
    DURAK,
    FAMILIES,
    DurakFamily,
    Family,
    FamilySpec,
    SomeFamily,
    family_for,
    family_name,
    is_event,
)
from bito.games.game import Game
from bito.games.protocol import GameState, Move, Outcome, PlayAction, PlayRules, PlayState, SeatView

if TYPE_CHECKING:
    from bito.games.durak import MatchContext

__all__ = ["DURAK", "FAMILIES", "DurakFamily", "Family", "FamilySpec", "Game", "GameState",
           "Move", "Outcome", "PlayAction", "PlayRules", "PlayState", "SeatView", "SomeFamily",
           "family_for", "family_name", "family_of", "family_options", "family_rules_for",
           "is_event", "new_game", "parse_action_for", "resolve_family"]


def family_of(spec: object) -> str:
    """The family's name of a variant spec (``czech_fool+shed.rounds=3`` is ``shedding``), of
    a rules object or of a state."""
    return family_name(spec)


def family_rules_for(spec: str | PlayRules) -> PlayRules:
    """The rules object of a spec, in its family's own rules type."""
    return family_for(spec).rules_for(spec)


def new_game(variant: str | PlayRules = "podkidnoy", players: int = 2, seed: int | None = None,
             match: MatchContext | None = None) -> PlayState:
    """Deal a new game of any family. ``seed=None`` picks a fresh seed; ``match`` (the deal's
    place in a match) applies to the Durak family, whose matches are series of deals; the
    other families play their rounds inside one game.

    The seed decides the whole deal, so the same seed gives the same game:

    >>> game = new_game("podkidnoy", players=2, seed=7)
    >>> game.to_act, game.is_over
    (0, False)
    >>> [str(a) for a in game.legal_actions()] == [
    ...     str(a) for a in new_game("podkidnoy", players=2, seed=7).legal_actions()]
    True
    >>> type(new_game("czech_fool", players=3, seed=1)).__name__  # any family, one call
    'MauMauState'
    """
    return family_for(variant).new_game(variant, players, seed=seed, match=match)


def parse_action_for(spec: str | PlayRules, text: str) -> PlayAction:
    """Parse action text in the notation of the spec's family."""
    return family_for(spec).parse_action(text)


def resolve_family(spec: str) -> FamilySpec[PlayRules]:
    """Resolve ``game+prefix.key=value...`` of a non-Durak family (raises ``RulesError`` or
    ``UnknownVariantError`` naming the part at fault)."""
    family = family_for(spec)
    return FamilySpec(spec, family.name, family.rules_for(spec))


def family_options(spec: str | PlayRules) -> dict[str, object]:
    """Every option of a game by its dotted key (``shed.hand_size``), with the value the
    spec gives it."""
    return family_for(spec).options(spec)
