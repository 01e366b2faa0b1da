"""A refusal's typed reason (issue 32 item 3): members of one rule stay apart.

Every refusal the sweep's CI sample meets in a Durak-family game is checked to be typed in
tests/cli/test_sweep.py, where the sample is played.
"""

from __future__ import annotations

from bito.errors import IllegalActionError
from bito.games.durak.reasons import Refused


def test_members_sharing_a_rule_name_stay_apart() -> None:
    """Two ways of breaking one rule (a covered card, a card not on the table) are two members
    with one rule name; a reader tells them apart by the member."""
    assert Refused.TARGET_GONE.rule == Refused.TARGET_COVERED.rule == "defend"
    assert Refused.TARGET_GONE is not Refused.TARGET_COVERED
    assert len({m.value for m in Refused}) == len(Refused)
    error = IllegalActionError(Refused.TARGET_COVERED, "7d is already covered", {"target": 5})
    assert error.reason is Refused.TARGET_COVERED
    assert error.rule == "defend"
    assert error.facts == {"target": 5}
