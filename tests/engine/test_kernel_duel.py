"""The playouts' fast paths (issue 6) against the kernel's general state machine.

Two-seat games run their random playouts in a loop of their own, with the position in local
variables and the chosen action built without listing the others (``bito.kernel.duel``). It
must play exactly the games of the general state machine, which the reference engine checks
(``tests/engine/test_kernel.py``): the same actions, drawn with the same random numbers, from the
same positions. Deals use random §1 option sets (``verify.random_rules``).
"""

from __future__ import annotations

import random

import pytest

from bito.games.durak import new_game

numba = pytest.importorskip("numba", reason="the kernel needs the fast extra")


from bito.kernel import layout as L  # noqa: E402
from bito.kernel.convert import from_state, rule_facts  # noqa: E402
from bito.kernel.duel import supports_duel  # noqa: E402
from bito.kernel.verify import (  # noqa: E402
    BASES,
    compare_loops,
    duel_disagreement,
    random_rules,
)


@pytest.mark.parametrize("base", BASES)
def test_two_seat_playouts_play_the_general_games(base: str) -> None:
    """From the same position and random stream, ``duel_playout`` and the general ``playout``
    make the same moves: cut after 1, 2, 3, 5, 8, ... actions and at the end, they leave the
    same position (every array slot that carries meaning) and report the same count."""
    rng = random.Random(f"duel-{base}")
    games = 0
    for _ in range(40):
        rules = random_rules(base, rng)
        state = new_game(rules, 2, seed=rng.getrandbits(62))
        start = from_state(state)
        if not supports_duel(start):
            assert start[L.ROZALIEV] == 1
            continue
        seed = rng.getrandbits(62)
        cuts = [1, 2]
        while cuts[-1] < 400:
            cuts.append(cuts[-1] + cuts[-2])
        for cut in [*cuts, 100_000]:
            assert duel_disagreement(start, seed, cut) == -1, (rules.changed_options(), seed,
                                                               cut)
        games += 1
    assert games >= 25


def test_the_comparison_is_not_blind() -> None:
    """Started from positions that differ in one card of the stock, the two loops are
    reported as different (and the same position agrees)."""
    start = from_state(new_game("podkidnoy", 2, seed=3))
    assert compare_loops(start, start, 1, 100_000) == -1
    swapped = start.copy()
    top = L.STOCK + int(start[L.N_STOCK]) - 1
    swapped[top], swapped[top - 1] = start[top - 1], start[top]
    assert compare_loops(start, swapped, 1, 100_000) >= 0


def test_three_seats_and_rozaliev_leads_use_the_general_loop() -> None:
    from bito.rules import rules_for

    assert supports_duel(rule_facts(rules_for("podkidnoy"), 2))
    assert not supports_duel(rule_facts(rules_for("podkidnoy"), 3))
    rozaliev = rules_for("podkidnoy").with_options(**{"lead.shape": "rozaliev"})
    assert not supports_duel(rule_facts(rozaliev, 2))
