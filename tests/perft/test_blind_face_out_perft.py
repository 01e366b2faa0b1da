"""Perft for #58 ``blind_face_out``: the golden file, and a tree counted by hand.

``tests/golden/perft_v2t_blind_face_out.txt`` is a regression guard written by
``tools/make_perft.py`` (spec ``podkidnoy+blind_face_out``, seeded deals for 2 and 3 players,
and positions on both bases); this module recomputes every line with its own tree walk.
"""

from __future__ import annotations

from bito.notation import parse_position
from perft_kit import GOLDEN, perft, read_golden

NAME = "perft_v2t_blind_face_out"
SPEC = "podkidnoy+blind_face_out"


def test_blind_golden_matches() -> None:
    """Regression guard: move generation and transitions of #58 unchanged since the file was
    written."""
    assert "REGRESSION GUARD" in (GOLDEN / f"{NAME}.txt").read_text()
    spec, lines = read_golden(NAME)
    assert spec == SPEC
    for start, state, expected in lines:
        assert [perft(state, d) for d in range(1, len(expected) + 1)] == expected, start
    assert len(lines) >= 5


def test_hand_counted_tree_with_penalties() -> None:
    """#58 (S1:76, S4:8), counted by hand. Seat 0 holds 7h 9c (positions 1, 2), seat 1 holds
    8s Ks and defends against 7s; no stock.

    depth 1: #1>7s, #2>7s (both beat the seven: 8s, Ks), take = 3.
    depth 2: after either cover, and after the take, seat 0 may throw #1, #2 or pass = 9.
    depth 3: after a cover: #1 (7h fits) leaves the defender one card facing one: cover or
    take (2); #2 (9c is no rank on the table) makes seat 0 take the bout and seat 1 lead his
    one card (1); pass is bito and seat 1 leads his one card (1): 4, twice. After the take:
    #1 (7h) fills the bout, seat 1 picks up and seat 0 leads his 9c (1); #2 (9c) makes seat 0
    take instead and seat 1, who keeps 8s Ks, leads (2); pass: seat 1 picks up the seven and
    seat 0 leads from two cards (2): 5. Total 13. In plain podkidnoy the wrong throw-ins are
    not moves at all, so only the penalty rule gives these counts."""
    s = parse_position("podkidnoy+blind_face_out players=2 trump=6h stock=- hands=7h9c/8sKs "
                       "table=7s attacker=0")
    assert [perft(s, d) for d in (1, 2, 3)] == [3, 9, 13]
