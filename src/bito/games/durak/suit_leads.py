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
    leads first; a card without a suit (joker, wild card, mega card) is led alone."""
    acts: list[Action] = []
    suited = 0
    for suit_mask in SUIT_MASKS:
        suited |= suit_mask
        cards = cards_of(hand & suit_mask)
        for k in range(1, min(limit, len(cards)) + 1):
            acts += [attack(*combo) for combo in combinations(cards, k)]
    # a joker, wild card or the mega card has no suit: it leads on its own
    return acts + [attack(c) for c in cards_of(hand & ~suited)]
