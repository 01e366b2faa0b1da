"""Golden move counts of the Durak games with a different bout structure (issue 4,
VARIANTS.md §3.9: #65-#73): a regression guard, rewritten by running this module.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from bito.games import new_game

GOLDEN = Path(__file__).parents[1] / "golden"
BOUT_IDS = ("heaped", "heaped_top_n", "chain_fool", "chinese", "chinese_pass_on",
            "two_phase_japanese", "deck_duel_prelude", "polish_fool")


# --- golden move counts ------------------------------------------------------------------------

DEPTH = 4
AFTER = 40
SEEDS = ((2, 3), (3, 1), (4, 3))
#: China fool's two-player opening tree is wide (every lead of a whole-pack hand): a deal
#: whose depth-4 count stays small keeps the test fast.
SEEDS_FOR = {"chinese": ((2, 1), (3, 1), (4, 3)), "chinese_pass_on": ((2, 1), (3, 1), (4, 3))}


def perft(s: Any, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(s.apply(a), depth - 1) for a in s.legal_actions())


def golden_lines(vid: str) -> list[str]:
    out = []
    for players, seed in SEEDS_FOR.get(vid, SEEDS):
        s = new_game(vid, players, seed=seed)
        counts = " ".join(str(perft(s, d)) for d in range(1, DEPTH + 1))
        out.append(f"seed {players} {seed} ; {counts}")
        for _ in range(AFTER):  # deeper in: the first Durak position of a prelude game, or
            if s.is_over or getattr(s, "phase", "") == "main":  # 40 actions into the others
                break
            s = s.apply(s.legal_actions()[0])
        counts = " ".join(str(perft(s, d)) for d in range(1, DEPTH + 1))
        out.append(f"later (first-listed actions) seed {players} {seed} ; {counts}")
    return out


@pytest.mark.parametrize("vid", (*BOUT_IDS, "akulina"))
def test_perft_golden(vid: str) -> None:
    """REGRESSION GUARD: the move-tree sizes recorded in tests/golden/perft_v2_<id>.txt."""
    path = GOLDEN / f"perft_v2_{vid}.txt"
    want = [ln for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    assert golden_lines(vid) == want


if __name__ == "__main__":  # python tests/perft/test_bouts_perft.py: rewrite the golden files
    for vid in sys.argv[1:] or (*BOUT_IDS, "akulina"):
        header = (f"# perft of {vid} (issue 4, bouts group): leaves at depths 1..{DEPTH}\n"
                  "# REGRESSION GUARD written by python tests/perft/test_bouts_perft.py; the "
                  "counts are engine output, checked only for change\n")
        (GOLDEN / f"perft_v2_{vid}.txt").write_text(header + "\n".join(golden_lines(vid))
                                                    + "\n")
