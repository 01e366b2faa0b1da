"""The social family: animal sounds (#60) and Cheat, bito's rules for "believe it or not (2)"
(#85). Their social moves (a sound, laughter, doubt) are ordinary actions, so bots play them."""

from __future__ import annotations

from bito.errors import RulesError
from bito.games.protocol import Move, PlayRules, check_players, family_rules, parse_move
from bito.games.social.animal import AnimalState, AnimalView
from bito.games.social.cheat import CheatState, CheatView
from bito.games.social.rules import AnimalRules, CheatRules

ENGINES: dict[str, type[AnimalRules | CheatRules]] = {"animal": AnimalRules, "cheat": CheatRules}

__all__ = ["AnimalRules", "AnimalState", "AnimalView", "CheatRules", "CheatState", "CheatView",
           "new_game", "parse_action", "rules_for"]


def rules_for(spec: str | PlayRules) -> AnimalRules | CheatRules:
    """The rules of a social game spec (``animal_sounds+animal.takes_pile=laugher``)."""
    if isinstance(spec, (AnimalRules, CheatRules)):
        spec.check()
        return spec
    if not isinstance(spec, str):
        raise RulesError("family", f"{spec.family} rules are not rules of this game")
    return family_rules(spec, ENGINES)


def new_game(spec: str | PlayRules, players: int = 2, seed: int = 0
             ) -> AnimalState | CheatState:
    rules = rules_for(spec)
    check_players(rules, players)
    if isinstance(rules, AnimalRules):
        return AnimalState.start(rules, players, seed)
    return CheatState.start(rules, players, seed)


def parse_action(text: str) -> Move:
    """``7h``, ``sound``, ``laugh``, ``pass``, ``claim``, ``doubt``."""
    return parse_move(text)
