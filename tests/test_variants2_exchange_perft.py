"""Perft for #31's chosen exchange (``exchange=choose``): golden file and a hand-counted tree.

``tests/golden/perft_v2_exchange_choose.txt`` is a regression guard written by
``tools/make_perft.py`` (its spec in the ``spec`` line); every line is recomputed here. The
hand-counted tree takes its numbers from the rule text alone.
"""

from __future__ import annotations

from math import comb
from pathlib import Path

from bito.games.durak import DurakState, new_game
from bito.notation import parse_position

GOLDEN = Path(__file__).parent / "golden" / "perft_v2_exchange_choose.txt"


def perft(state: DurakState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def test_golden_counts() -> None:
    spec = ""
    lines = 0
    for raw in GOLDEN.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("spec "):
            spec = raw.removeprefix("spec ").strip()
            continue
        start, _, numbers = raw.rpartition(" ; ")
        kind, _, rest = start.partition(" ")
        if kind == "seed":
            players, seed = map(int, rest.split())
            state = new_game(spec, players=players, seed=seed)
        else:
            state = parse_position(rest)
        want = [int(n) for n in numbers.split()]
        assert [perft(state, d) for d in range(1, len(want) + 1)] == want, raw
        lines += 1
    assert "exchange=choose" in spec and lines >= 6


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
