"""Perft for #31's chosen exchange (``exchange=choose``): golden file and a hand-counted tree.

``tests/golden/perft_v2_exchange_choose.txt`` is a regression guard written by
``tools/make_perft.py`` (its spec in the ``spec`` line); every line is recomputed here. The
hand-counted tree takes its numbers from the rule text alone.
"""

from __future__ import annotations

from math import comb

from bito.notation import parse_position
from perft_kit import perft, read_golden


def test_golden_counts() -> None:
    spec, lines = read_golden("perft_v2_exchange_choose")
    for start, state, want in lines:
        assert [perft(state, d) for d in range(1, len(want) + 1)] == want, start
    assert "exchange=choose" in spec and len(lines) >= 6


def test_round_tree_by_hand() -> None:
    """#31 A1 (k = 2, S0:18): seat 2 still to choose from 4 cards, then seat 0 from 3: the
    round alone is C(4,2) then C(4,2) x C(3,2) lines; after it seat 1, the attacker, leads
    with the two cards seat 0 passed him."""
    s = parse_position("podkidnoy+exchange=choose+exchange.cards=2 players=3 trump=6h stock=- "
                       "hands=9cKdAd/9dQc/JcJdAs7c phase=exchange attacker=1 defender=2 "
                       "to_act=2 choosing=2.0 chosen=-/9dQc/-")
    assert perft(s, 1) == comb(4, 2)
    assert perft(s, 2) == comb(4, 2) * comb(3, 2)
    # Seat 1 passed both his cards and receives two of 9c Kd Ad, no two of one rank: two
    # single-card leads each.
    assert perft(s, 3) == comb(4, 2) * comb(3, 2) * 2
