"""The shedding family: Mau-Mau games (#86-#93) and the adjacent-rank game (#94)."""

from __future__ import annotations

from bito.errors import RulesError
from bito.games.protocol import Move, PlayRules, check_players, family_rules, parse_move
from bito.games.shedding.adjacent import AdjacentState, AdjacentView
from bito.games.shedding.maumau import MauMauState, MauMauView
from bito.games.shedding.rules import AdjacentRules, MauMauRules

ENGINES: dict[str, type[MauMauRules | AdjacentRules]] = {"maumau": MauMauRules,
                                                        "adjacent": AdjacentRules}

__all__ = ["AdjacentRules", "AdjacentState", "AdjacentView", "MauMauRules", "MauMauState",
           "MauMauView", "new_game", "parse_action", "rules_for"]


def rules_for(spec: str | PlayRules) -> MauMauRules | AdjacentRules:
    """The rules of a shedding game spec (``czech_fool+shed.rounds=3``), or the rules."""
    if isinstance(spec, (MauMauRules, AdjacentRules)):
        spec.check()
        return spec
    if not isinstance(spec, str):
        raise RulesError("family", f"{spec.family} rules are not rules of this game")
    return family_rules(spec, ENGINES)


def new_game(spec: str | PlayRules, players: int = 2, seed: int = 0
             ) -> MauMauState | AdjacentState:
    """Deal a shedding game (a whole match of rounds, for the Mau-Mau games)."""
    rules = rules_for(spec)
    check_players(rules, players)
    if isinstance(rules, MauMauRules):
        return MauMauState.start(rules, players, seed)
    return AdjacentState.start(rules, players, seed)


def parse_action(text: str) -> Move:
    """Shedding actions: ``7h``, ``Qh=s`` (a wild card naming spades), ``draw``, ``pass``."""
    return parse_move(text)
