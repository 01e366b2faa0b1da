"""Every refusal in a Durak-family game carries a typed reason (issue 32 item 3).

The sweep plays every Durak-family entry of the catalogue (each game and each house rule on a
base, plus random stacks of options) with random moves and tries bad moves of every kind at
sampled positions; the explainer and the hooks' answers to ``Refusal`` name them. Each
:class:`~bito.errors.IllegalActionError` made meanwhile is caught as it is built: it must carry
an enum member (:class:`~bito.errors.Reason`), from which its rule name and words derive.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bito import sweep
from bito.errors import IllegalActionError, Reason
from bito.games import family_for
from bito.games.durak.reasons import Refused, TransferBar


def _durak_cases() -> tuple[sweep.Case, ...]:
    """One case per Durak-family spec, its seat counts taken in turn over the specs."""
    by_spec: dict[str, list[sweep.Case]] = {}
    for case in sweep.all_cases():
        if family_for(case.spec).name == sweep.OPTIONS_FAMILY:
            by_spec.setdefault(case.spec, []).append(case)
    return tuple(seats[i % len(seats)] for i, seats in enumerate(by_spec.values()))


def test_every_refusal_in_a_sweep_of_the_durak_family_is_typed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[IllegalActionError] = []
    build = IllegalActionError.__init__

    def spy(self: IllegalActionError, *args: object, **kwargs: object) -> None:
        build(self, *args, **kwargs)  # type: ignore[arg-type]
        made.append(self)

    monkeypatch.setattr(IllegalActionError, "__init__", spy)
    cases = _durak_cases()
    played = 0
    for index in range(sweep.games_for_every_case(cases)):
        case, _seed = sweep.case_for_game(7, index, cases)
        if family_for(case.spec).name != sweep.OPTIONS_FAMILY:
            continue  # a random stack of another family's options
        result = sweep.play_game(7, index, sample_every=3, cases=cases)
        assert result.violations == [], result.violations[0]
        played += 1
    assert played >= len(cases)
    untyped = Counter(e.rule for e in made if e.reason is None)
    assert not untyped, f"refusals with no typed reason: {dict(untyped)}"
    # the sweep met refusals of the core's rules, of transfers and of the rules' own moves
    kinds = {type(e.reason) for e in made}
    assert {Refused, TransferBar} <= kinds
    assert len(kinds) >= 5, kinds
    for error in made:
        reason = error.reason
        assert isinstance(reason, Reason)
        assert error.rule == reason.rule  # the record's name is the reason's, never apart
        assert str(error) == f"{reason.rule}: {error.detail}"


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
