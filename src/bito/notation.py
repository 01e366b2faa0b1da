"""Text forms a person can type: cards, actions and positions (see ``docs/notation.md``).

This module gathers them in one place; positions live with the engine whose state they
describe (:mod:`bito.games.durak.position`).
"""

from __future__ import annotations

from bito.cards import parse_card, split_cards
from bito.games.durak.actions import Action, parse_action
from bito.games.durak.position import (
    HIDDEN_CARD,
    CensoredPosition,
    parse_censored,
    parse_position,
    position_text,
    rules_spec,
)

__all__ = [
    "HIDDEN_CARD", "Action", "CensoredPosition", "parse_action", "parse_card", "parse_censored",
    "parse_position", "position_text", "rules_spec", "split_cards",
]
