"""Perft: leaf counts of the full legal-action tree, against the golden files.

``tests/golden/perft_<variant>.txt`` are a regression guard written once by
``tools/make_perft.py`` (see their header); this module recomputes every line with its own
tree walk. Two tiny positions are also counted by hand from the rules, so the walk itself is
checked against something that is not engine output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bito.games.durak import DurakState
from bito.notation import parse_position
from perft_kit import read_golden

GOLDEN = Path(__file__).parents[1] / "golden"
VARIANTS = ("simple", "podkidnoy", "perevodnoy")


def perft(state: DurakState, depth: int) -> int:
    """Leaves exactly ``depth`` actions below ``state`` (a finished game has no actions)."""
    if depth == 0:
        return 1
    total = 0
    for action in state.legal_actions():
        total += perft(state.apply(action), depth - 1)
    return total


def golden_lines(variant: str) -> list[tuple[str, DurakState, list[int]]]:
    return read_golden(f"perft_{variant}", variant)[1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_file_is_marked_as_regression_guard(variant):
    text = (GOLDEN / f"perft_{variant}.txt").read_text()
    assert "REGRESSION GUARD" in text and "tools/make_perft.py" in text
    lines = golden_lines(variant)
    assert sum(1 for s, _, _ in lines if s.startswith("seed 2 ")) >= 2
    assert sum(1 for s, _, _ in lines if s.startswith("seed 3 ")) >= 2
    assert sum(1 for s, _, _ in lines if s.startswith("position ")) >= 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_matches_golden(variant):
    """Regression guard: move generation and transitions unchanged since the files were
    written (tools/make_perft.py)."""
    for start, state, expected in golden_lines(variant):
        assert len(expected) == 4, start
        found = [perft(state, d) for d in range(1, len(expected) + 1)]
        assert found == expected, start


def test_perft_by_hand_draw_position():
    """Counted by hand (VARIANTS §1.2-§1.8): P0 holds Ks, P1 holds As, stock empty. Depth 1:
    lead Ks. Depth 2: As covers, or take. Depth 3: both end the game (a draw; or P0 is out and
    P1 the fool), so no leaves."""
    s = parse_position("simple players=2 trump=6h stock=- hands=Ks/As attacker=0")
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 2, 0]


def test_perft_by_hand_lead_limit_position():
    """Counted by hand (VARIANTS §1.4 lead <= D's hand, §1.5 cap): P0 holds 7c 7d, P1 holds
    only 8c (trump hearts), stock empty. Depth 1: lead 7c or 7d (not both: D holds 1).
    Depth 2: 7c -> 8c covers or take; 7d -> take only: 3. Depth 3: after 8c covers P1 is out
    and P0 the fool (0); after a take nothing can be thrown (D holds 1 card, 1 uncovered), P1
    picks up and P0 must lead his last seven: 1 + 1 = 2."""
    s = parse_position("podkidnoy players=2 trump=6h stock=- hands=7c7d/8c attacker=0")
    assert [perft(s, d) for d in (1, 2, 3)] == [2, 3, 2]
