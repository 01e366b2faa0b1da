"""The Durak games with a different bout structure (VARIANTS.md §3.9, #65-#72).

Each engine here is its own state machine behind the shared protocol
(:mod:`bito.games.protocol`), reusing the Durak beat relation and action notation:

* :mod:`~bito.games.bouts.heap` -- heaped (#69), heaped top-N (#70), chain fool (#71);
* :mod:`~bito.games.bouts.chinese` -- China fool (#65) and its pass-on form (#66);
* :mod:`~bito.games.bouts.prelude` -- a hand-building prelude (#67, #68) whose end hands the
  hands to an ordinary Durak game (:func:`bito.games.durak.setup.deal_from_hands`);
* :mod:`~bito.games.bouts.polish` -- the deck-flipping Polish fool (#72).

Akulina (#73) is an ordinary Durak game with two options and lives in the Durak family.
"""

from __future__ import annotations

from bito.errors import RulesError
from bito.games.bouts.base import BoutsState
from bito.games.bouts.chinese import ChineseState
from bito.games.bouts.common import TURN, BoutsView, parse_action
from bito.games.bouts.heap import HeapState
from bito.games.bouts.polish import PolishState
from bito.games.bouts.prelude import PreludeState
from bito.games.bouts.rules import ChineseRules, HeapRules, PolishRules, PreludeRules
from bito.games.protocol import PlayRules, check_players, family_rules

BoutsRules = HeapRules | ChineseRules | PreludeRules | PolishRules

ENGINES: dict[str, type[BoutsRules]] = {"heap": HeapRules, "chinese": ChineseRules,
                                        "prelude": PreludeRules, "polish": PolishRules}

__all__ = ["TURN", "BoutsView", "ChineseRules", "ChineseState", "HeapRules", "HeapState",
           "PolishRules", "PolishState", "PreludeRules", "PreludeState", "new_game",
           "parse_action", "rules_for"]


def rules_for(spec: str | PlayRules) -> BoutsRules:
    """The rules of a bout-structure game spec (``heaped+heap.take=top``), or the rules."""
    if isinstance(spec, (HeapRules, ChineseRules, PreludeRules, PolishRules)):
        spec.check()
        return spec
    if not isinstance(spec, str):
        raise RulesError("family", f"{spec.family} rules are not rules of this game")
    return family_rules(spec, ENGINES)


def new_game(spec: str | PlayRules, players: int = 2, seed: int = 0) -> BoutsState:
    """Deal a bout-structure game."""
    rules = rules_for(spec)
    check_players(rules, players)
    if isinstance(rules, HeapRules):
        return HeapState.start(rules, players, seed)
    if isinstance(rules, ChineseRules):
        return ChineseState.start(rules, players, seed)
    if isinstance(rules, PreludeRules):
        return PreludeState.start(rules, players, seed)
    return PolishState.start(rules, players, seed)
