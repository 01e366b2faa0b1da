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

from typing import Any

from bito.games.bouts.chinese import ChineseState
from bito.games.bouts.common import TURN, BoutsView, parse_action
from bito.games.bouts.heap import HeapState
from bito.games.bouts.polish import PolishState
from bito.games.bouts.prelude import PreludeState
from bito.games.bouts.rules import ChineseRules, HeapRules, PolishRules, PreludeRules
from bito.games.protocol import check_players, family_rules

ENGINES: dict[str, type[Any]] = {"heap": HeapRules, "chinese": ChineseRules,
                                 "prelude": PreludeRules, "polish": PolishRules}
_STATES: dict[type[Any], Any] = {HeapRules: HeapState, ChineseRules: ChineseState,
                                 PreludeRules: PreludeState, PolishRules: PolishState}

BoutsRules = HeapRules | ChineseRules | PreludeRules | PolishRules

__all__ = ["TURN", "BoutsView", "ChineseRules", "ChineseState", "HeapRules", "HeapState",
           "PolishRules", "PolishState", "PreludeRules", "PreludeState", "new_game",
           "parse_action", "rules_for"]


def rules_for(spec: Any) -> Any:
    """The rules of a bout-structure game spec (``heaped+heap.take=top``), or the rules."""
    if isinstance(spec, (HeapRules, ChineseRules, PreludeRules, PolishRules)):
        spec.check()
        return spec
    return family_rules(spec, ENGINES)


def new_game(spec: Any, players: int = 2, seed: int = 0) -> Any:
    """Deal a bout-structure game."""
    rules = rules_for(spec)
    check_players(rules, players)
    return _STATES[type(rules)].start(rules, players, seed)
