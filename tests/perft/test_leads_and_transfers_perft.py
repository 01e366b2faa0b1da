"""Perft goldens of the Variants II lead group (issue 4: #2-6, #9-12, #46, #47, #52).

The golden perft files ``tests/golden/perft_v2_lead_<id>.txt`` (written by
``tools/make_perft.py``) are recomputed line by line, and one tree is counted by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bito.notation import parse_position
from bito.rules.registry import all_variants
from perft_kit import GOLDEN, perft, read_golden

GROUP = frozenset((2, 3, 4, 5, 6, 9, 10, 11, 12, 46, 47, 52))


# --- perft goldens -----------------------------------------------------------------------------


def golden_files() -> list[Path]:
    return sorted(GOLDEN.glob("perft_v2_lead_*.txt"))


def test_a_golden_file_per_id() -> None:
    """Issue 4 "a perft-style golden file per variant": one per id of the group."""
    ids = {p.stem.removeprefix("perft_v2_lead_") for p in golden_files()}
    assert ids == {v.id for v in all_variants() if v.number in GROUP}


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden_perft(path: Path) -> None:
    """Regression guard: the leaf counts recorded when the rules were written."""
    _, lines = read_golden(path.stem)
    assert lines
    for start, state, counts in lines:
        assert [perft(state, d) for d in range(1, len(counts) + 1)] == counts, start


def test_hand_counted_perft_of_a_lead_pass() -> None:
    """#5 A1 counted by hand: P0 holds no pair, P1 holds 8c8h and P2's hand is full. Depth 1:
    only ``pass``. Depth 2: P1 leads his one pair at P2. Depth 3: P2 covers 8c with 9c or Qc
    ... and the 8h with nothing (hearts trump, he holds no heart), so he may only cover 8c
    (two ways) or take: 3 leaves."""
    s = parse_position("pairs_only players=3 trump=6h stock=6hAcAd hands=7c8d9s/8c8hJs/9cQcKs "
                       "attacker=0")
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 1, 3]
