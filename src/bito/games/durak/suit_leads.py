"""Leads of one suit (``lead.shape=same_suit``, Akulina #73, S4:13): the attacker opens with
one or several cards of a single suit, whatever their ranks, up to the lead limit.

Kept out of the state machine: :meth:`DurakState._lead_actions` calls :func:`suit_leads` from
one branch that only this lead shape takes.
"""

from __future__ import annotations

from itertools import combinations

from bito.cards import SUIT_MASKS, cards_of
from bito.games.durak.actions import Action, attack


def suit_leads(hand: int, limit: int) -> list[Action]:
    """Every lead of 1 to ``limit`` cards of one suit from ``hand``, suit by suit, smaller
    leads first."""
    acts: list[Action] = []
    for suit_mask in SUIT_MASKS:
        cards = cards_of(hand & suit_mask)
        for k in range(1, min(limit, len(cards)) + 1):
            acts += [attack(*combo) for combo in combinations(cards, k)]
    return acts
