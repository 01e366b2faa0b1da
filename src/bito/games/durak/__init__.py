"""The Durak family engine: bouts of attack, defence, throw-in and transfer."""

from __future__ import annotations

import random

from bito.games.durak.actions import (
    ATTACK,
    DEFEND,
    PASS,
    PASS_ACTION,
    TAKE,
    TAKE_ACTION,
    TRANSFER,
    Action,
    attack,
    defend,
    parse_action,
    transfer,
)
from bito.games.durak.setup import Deal, MatchContext, deal
from bito.games.durak.state import DEFEND_PHASE, LEAD, OVER, THROW, DurakState
from bito.games.durak.view import DurakView
from bito.games.protocol import Outcome
from bito.rules import Rules, rules_for

__all__ = [
    "ATTACK", "DEFEND", "DEFEND_PHASE", "LEAD", "OVER", "PASS", "PASS_ACTION", "TAKE",
    "TAKE_ACTION", "THROW", "TRANSFER", "Action", "Deal", "DurakState", "DurakView",
    "MatchContext", "Outcome", "attack", "defend", "new_game", "next_match_context",
    "parse_action", "transfer",
]


_FIRST_DEAL = MatchContext()
"""The context of a deal outside a match (immutable, so every such deal shares it)."""


def new_game(variant: str | Rules = "podkidnoy", players: int = 2, seed: int | None = None,
             match: MatchContext | None = None) -> DurakState:
    """Deal a new game. ``seed=None`` picks a fresh seed, which the state keeps.

    Raises :class:`RulesError` for rules or a seat count that cannot be played
    (:func:`bito.games.durak.setup.check_game`, which positions pass through too)."""
    rules = rules_for(variant)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    return DurakState.start(deal(rules, players, seed, match or _FIRST_DEAL))


def next_match_context(previous: DurakState) -> MatchContext:
    """The context of the next deal of a match: the fool deals; after a draw the same dealer
    deals again (VARIANTS.md §1.8)."""
    outcome = previous.outcome
    if outcome is None:
        raise ValueError("the previous deal is not over")
    d = previous.deal
    for fact in d.facts:  # a rule may choose the dealer when no person was the fool
        dealer = fact.deals_next(outcome)
        if dealer is not None:
            return MatchContext(game_number=d.match.game_number + 1, dealer=dealer,
                                previous_fool=None, previous_winner=outcome.winner)
    return MatchContext(
        game_number=d.match.game_number + 1,
        dealer=d.dealer if outcome.loser is None else outcome.loser,
        previous_fool=outcome.loser,
        previous_winner=outcome.winner,
    )
