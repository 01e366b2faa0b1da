"""Leads of one suit (``lead.shape=same_suit``, Akulina #73, S4:13): the attacker opens with
one or several cards of a single suit, whatever their ranks, up to the lead limit.

A hook that settles the core's ``LeadShape`` question: the core asks it for the leads of a
hand in place of its one-rank groups, so the room, the lead limit and every lead rule stacked
on top (#46's strongest card, for one) apply to suit leads unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING, Final, cast

from bito.cards import SUIT_MASKS, cards_of, mask_of, suit_of
from bito.errors import IllegalActionError, Reason
from bito.games.durak.actions import ATTACK, Action, attack
from bito.games.durak.hooks import (
    Answer,
    Hook,
    LeadShape,
    PositionRequest,
    Question,
    Refusal,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.i18n import N_

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.rules import Rules

_LEAD: Final = int(Phase.LEAD)


class SuitLeadRefused(Reason):
    """The refusal of a lead of more than one suit (#73)."""

    LEAD_SHAPE = "lead shape", N_("that lead is not allowed in this game")


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


class _SuitLeads(Hook):
    """#73's leads at the core's points: the leads themselves, the rule an illegal lead
    breaks, and the codec's block of every lead the pack could make."""

    name = "#73 leads of one suit"
    questions = frozenset({LeadShape, Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.lead_shape == "same_suit"

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if isinstance(question, LeadShape):
            return cast(Answer, suit_leads(question.hand, question.limit))
        return refused(state, question, answer, self._refusal)

    def _refusal(self, state: DurakState, action: Action) -> IllegalActionError | None:
        if (state.phase == _LEAD and action.kind == ATTACK
                and len({suit_of(c) for c in action.cards}) > 1):
            return IllegalActionError(SuitLeadRefused.LEAD_SHAPE,
                                      "all cards of a lead must be of one suit (#73)")
        return None

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, blocks=self._blocks)

    def _blocks(self, rules: Rules, cards: tuple[int, ...]
                ) -> list[tuple[str, Iterable[Action]]]:
        if rules.lead_shape != "same_suit":
            return []
        pack = mask_of(cards)
        limit = max(1, min(rules.lead_max, rules.throw_in_cap, 8))
        return [("suit leads", suit_leads(pack, limit))]


HOOK: Final = _SuitLeads()
