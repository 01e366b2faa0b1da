"""Partial defence (#3, ``defense.partial``): a defender who takes keeps his covers' work.

In the simple fool with partial defence a defender who cannot beat every card still sends the
pairs he did cover to the discard, and picks up only the open cards (VARIANTS.md #3,
S1:56). The core asks this hook which table cards the taker
picks up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from bito.games.durak.hooks import Answer, Hook, PickedUp, Question

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.rules import Rules

__all__ = ["HOOK", "covered_cards"]


def covered_cards(state: DurakState) -> int:
    """The cards of the covered pairs on the table (a neutralised card, #11, counts as
    covered), which go to the discard when the defender takes the rest."""
    out = 0
    for a, d in zip(state.attack, state.defence, strict=True):
        if d != -1:
            out |= 1 << a
            if d >= 0:
                out |= 1 << d
    return out


class _PartialDefence(Hook):
    """#3 at the core's points: the covered pairs go to the discard on a take."""

    name = "#3 partial defence"
    questions = frozenset({PickedUp})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.defense_partial

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if not isinstance(question, PickedUp):
            return answer
        done = covered_cards(state)
        state.to_discard(done)
        return cast(Answer, cast(int, answer) & ~done)


HOOK: Final = _PartialDefence()
