"""Game engines, one per family, behind one protocol (see ``docs/architecture.md`` and
:mod:`bito.games.protocol`).

:func:`new_game` deals any registered game: it looks up the variant's family and hands the
spec to that family's engine (Durak, shedding, tricks, social or bouts).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, NamedTuple

from bito.games.durak import new_game as _durak_new_game
from bito.games.game import Game
from bito.games.protocol import GameState, Move, Outcome

__all__ = ["FAMILIES", "FamilySpec", "Game", "GameState", "Move", "Outcome", "family_of",
           "family_options", "family_rules_for", "new_game", "parse_action_for",
           "resolve_family"]

#: The engine package of each family (the Durak family is imported eagerly).
FAMILIES = {"shedding": "bito.games.shedding", "tricks": "bito.games.tricks",
            "social": "bito.games.social", "bouts": "bito.games.bouts"}


def family_of(spec: Any) -> str:
    """The family of a variant spec (``czech_fool+shed.rounds=3`` is ``shedding``) or of a
    rules object."""
    if isinstance(spec, str):
        from bito.rules import lookup

        return lookup(spec.split("+", 1)[0]).family
    return str(getattr(spec, "family", "durak"))


def _family(name: str) -> Any:
    if name not in FAMILIES:
        from bito.errors import RulesError

        # #64's tournament (family "meta") is an event over many games, not one game.
        raise RulesError("family", f"{name!r} games are not dealt as one game (a tournament "
                         "runs with `bito tournament`)")
    return import_module(FAMILIES[name])


def family_rules_for(spec: Any) -> Any:
    """The rules object of a non-Durak spec (each family has its own frozen rules)."""
    return _family(family_of(spec)).rules_for(spec)


def new_game(variant: Any = "podkidnoy", players: int = 2, seed: int | None = None,
             match: Any = None) -> Any:
    """Deal a new game of any family. ``seed=None`` picks a fresh seed; ``match`` (the deal's
    place in a match) applies to the Durak family, whose matches are series of deals; the
    other families play their rounds inside one game."""
    family = family_of(variant)
    if family == "durak":
        return _durak_new_game(variant, players, seed=seed, match=match)
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(1 << 63)
    return _family(family).new_game(variant, players, seed)


def parse_action_for(spec: Any, text: str) -> Any:
    """Parse action text in the notation of the spec's family."""
    family = family_of(spec)
    if family == "durak":
        from bito.games.durak import parse_action

        return parse_action(text)
    return _family(family).parse_action(text)


class FamilySpec(NamedTuple):
    """A resolved spec of a non-Durak game: the spec text, its family and its rules."""

    spec: str
    family: str
    rules: Any


def resolve_family(spec: str) -> FamilySpec:
    """Resolve ``game+prefix.key=value...`` of a non-Durak family (raises ``RulesError`` or
    ``UnknownVariantError`` naming the part at fault)."""
    return FamilySpec(spec, family_of(spec), family_rules_for(spec))


def family_options(spec: Any) -> dict[str, Any]:
    """Every option of a non-Durak game by its dotted key (``shed.hand_size``), with the value
    the spec gives it."""
    import dataclasses

    rules = family_rules_for(spec)
    return {f"{rules.PREFIX}.{f.name}": getattr(rules, f.name)
            for f in dataclasses.fields(rules) if f.name not in ("variant", "family")}
