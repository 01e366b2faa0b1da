"""The trick-taking family: Friedemann Friese's *Fool!* (#95)."""

from __future__ import annotations

from bito.errors import RulesError
from bito.games.protocol import PlayRules, check_players, family_rules
from bito.games.tricks.fool import FoolState, FoolView, parse_action
from bito.games.tricks.rules import FoolRules

__all__ = ["FoolRules", "FoolState", "FoolView", "new_game", "parse_action", "rules_for"]


def rules_for(spec: str | PlayRules) -> FoolRules:
    """The rules of a *Fool!* spec (``friese_fool+fool.end_score=-40``), or the rules."""
    if isinstance(spec, FoolRules):
        spec.check()
        return spec
    if not isinstance(spec, str):
        raise RulesError("family", f"{spec.family} rules are not rules of this game")
    rules: FoolRules = family_rules(spec, {"fool": FoolRules})
    return rules


def new_game(spec: str | PlayRules, players: int = 4, seed: int = 0) -> FoolState:
    """Deal a game of *Fool!* (all its rounds, to -80 or six +10 rounds)."""
    rules = rules_for(spec)
    check_players(rules, players)
    return FoolState.start(rules, players, seed)


