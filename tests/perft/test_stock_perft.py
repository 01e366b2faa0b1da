"""Perft for the Variants II stock group (#31-38, #61-63): golden files and hand-counted trees.

``tests/golden/perft_v2_<id>.txt`` are regression guards written by ``tools/make_perft.py``
(spec in the ``spec`` line); every line is recomputed here. The hand-counted trees below get
their numbers from the rule text, so only the rule under test makes them come out right.
"""

from __future__ import annotations

import pytest

from bito.notation import parse_position
from perft_kit import GOLDEN, perft, read_golden

IDS = ("exchange", "no_stock", "piled_up", "draw_when_empty", "gradual_access",
       "arithmetic_progression", "buy_in", "recycle_discard", "points_fool", "figure_count",
       "epaulettes")


def test_every_id_has_a_golden_file() -> None:
    assert {p.name for p in GOLDEN.glob("perft_v2_*.txt")} >= {f"perft_v2_{i}.txt"
                                                                for i in IDS}


@pytest.mark.parametrize("vid", IDS)
def test_golden_counts(vid: str) -> None:
    spec, lines = read_golden(f"perft_v2_{vid}")
    for start, state, want in lines:
        assert [perft(state, d) for d in range(1, len(want) + 1)] == want, start
    assert spec.endswith(vid) and len(lines) >= 4


def test_buy_in_tree_by_hand() -> None:
    """#37; S0:188: seat 0 leads his last card 7d (1 move) and takes up his buy-in AcKc; seat 1
    covers with 8d or 9d or takes (3); in each case seat 0, holding Ac Kc and no 7, 8 or 9,
    may only pass (3). Without the buy-in he would be out after the lead, nobody could throw,
    and every line would end the game at depth 2 (0 positions at depth 3)."""
    text = ("podkidnoy+buy_in players=2 trump=6h stock=- hands=7d/8d9d reserve=AcKc/- "
            "table=- attacker=0 defender=1")
    s = parse_position(text)
    assert [perft(s, d) for d in (1, 2, 3)] == [1, 3, 3]
    plain = parse_position(text.replace("+buy_in", "").replace(" reserve=AcKc/-", ""))
    assert [perft(plain, d) for d in (1, 2, 3)] == [1, 3, 0]
