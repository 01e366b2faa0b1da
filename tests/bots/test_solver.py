"""The two-player endgame solver: exact values agree with an independent brute-force reference,
and the strong bot never throws away a proven win.

The reference (:func:`bito.bots.solver.brute_force`) builds the whole position graph and solves
it by retrograde analysis; the solver under test searches with alpha-beta, a transposition table
and move ordering. The full 1,000-position check is ``tools/solver_check.py verify`` (see
docs/bots.md); this test runs a smaller sample of the same generator."""

from __future__ import annotations

import pytest

from bito.bots.endgames import endgames
from bito.bots.levels import make_level
from bito.bots.search import SearchBot
from bito.bots.solver import LOSS, WIN, Solver, brute_force, solvable, solve
from bito.games.durak import new_game
from bito.notation import parse_position


@pytest.mark.parametrize(("variant", "count"), [("podkidnoy", 80), ("perevodnoy", 40)])
def test_solver_agrees_with_brute_force(variant: str, count: int) -> None:
    positions = endgames(count, variant, max_cards=5, seed=100, with_table=True)
    values = set()
    for s in positions:
        assert solvable(s)
        expected = brute_force(s, s.to_act)
        assert Solver().value(s, s.to_act) == expected, repr(s)
        # The value is the same seen from the other seat, negated.
        assert Solver().value(s, 1 - s.to_act) == -expected, repr(s)
        values.add(expected)
    assert {WIN, LOSS} <= values  # the sample is not one-sided


@pytest.mark.parametrize(("variant", "count"), [("podkidnoy", 60), ("perevodnoy", 40)])
def test_python_search_agrees_with_brute_force_too(variant: str, count: int) -> None:
    """The solver runs compiled (``bito.kernel.solver``) wherever the kernel plays the rules;
    its Python search, used for every other variant, is held to the same reference."""
    positions = endgames(count, variant, max_cards=5, seed=200, with_table=True)
    for s in positions:
        assert Solver(use_kernel=False).value(s, s.to_act) == brute_force(s, s.to_act), repr(s)


def test_compiled_and_python_search_agree_on_bigger_endgames() -> None:
    """Up to 10 cards in hands, beyond the brute force's reach: both searches give the same
    value (their node counts may differ: equal-cost moves come in each engine's own order)."""
    pytest.importorskip("numba")
    from bito.kernel import available, supports_state

    positions = endgames(25, "podkidnoy", max_cards=10, min_cards=7, seed=400)
    compiled = 0
    for s in positions:
        fast, slow = Solver(), Solver(use_kernel=False)
        assert fast.value(s, s.to_act) == slow.value(s, s.to_act), repr(s)
        if available() and supports_state(s):
            compiled += 1
    assert compiled == len(positions)


def test_solver_sees_a_forced_win() -> None:
    # Stock empty; seat 0 leads with the only trump (Ac beats everything) and a low card; the
    # defender holds one card. Leading 7h (which 8h covers) lets seat 1 out first: seat 0 is
    # the fool. Leading the trump first forces a take and wins.
    s = parse_position("podkidnoy players=2 trump=9c stock=- hands=Ac7h/8h table=- "
                       "attacker=0 phase=lead")
    values = dict(Solver().move_values(s))
    assert values[next(a for a in values if str(a) == "Ac")] == WIN
    assert values[next(a for a in values if str(a) == "7h")] == LOSS
    assert brute_force(s, 0) == WIN


def test_solve_refuses_positions_with_hidden_cards() -> None:
    s = new_game("podkidnoy", 2, seed=1)
    with pytest.raises(ValueError, match="stock empty"):
        solve(s, 0)


def test_node_budget_is_enforced() -> None:
    from bito.bots.solver import SolverBudgetExceeded

    s = endgames(1, "podkidnoy", max_cards=12, min_cards=11, seed=5)[0]
    with pytest.raises(SolverBudgetExceeded):
        Solver(max_nodes=3).value(s, 0)
    with pytest.raises(SolverBudgetExceeded):
        Solver(max_nodes=3, use_kernel=False).value(s, 0)


def test_strong_never_throws_away_a_proven_win() -> None:
    # The strong level's search, with a budget that does not depend on the machine's speed.
    strong = make_level("strong", 7)
    assert isinstance(strong, SearchBot)
    bot = SearchBot(7, think_ms=0, playouts=16, solver_nodes=0, rollout=strong.rollout)
    checked = 0
    for s in endgames(40, "podkidnoy", max_cards=8, seed=300):
        seat = s.to_act
        if len(s.legal_actions()) < 2 or Solver().value(s, seat) != WIN:
            continue
        action = bot.choose(s.view(seat))
        assert Solver().value(s.apply(action), seat) == WIN, (repr(s), str(action))
        checked += 1
    assert checked >= 5
