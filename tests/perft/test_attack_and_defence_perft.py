"""Perft for the attack-and-defence ids of Variants II (#39-45, #48-51, #83): golden files and
hand-counted trees.

``tests/golden/perft_v2_<id>.txt`` are a regression guard written by ``tools/make_perft.py``
(the spec in each file's ``spec`` line; positions that reach the id's rule); this module
recomputes every line. Because the goldens only record what the engine computed, each rule
also gets a tiny tree counted by hand from the rule text in the docstring.
"""

from __future__ import annotations

import pytest

from bito.games.durak import DurakState
from bito.rules.registry import all_variants
from perft_kit import GOLDEN, perft, read_golden, tree

GROUP = frozenset((*range(39, 46), 48, 49, 50, 51, 83))


def golden(vid: str) -> tuple[str, list[tuple[str, DurakState, list[int]]]]:
    """The spec and the (start, state, counts) lines of one golden file of this group."""
    return read_golden(f"perft_v2_{vid}")


IDS = sorted(v.id for v in all_variants() if v.number in GROUP)


@pytest.mark.parametrize("vid", IDS)
def test_v2_attack_golden_matches(vid: str) -> None:
    """Issue 4 "a perft-style golden file per variant": one per id, naming the id's rules,
    with 2- and 3-player deals and at least one position that reaches the rule."""
    text = (GOLDEN / f"perft_v2_{vid}.txt").read_text()
    assert "REGRESSION GUARD" in text
    spec, lines = golden(vid)
    assert vid in spec
    assert sum(1 for s, _, _ in lines if s.startswith("seed 2 ")) >= 2
    assert any(s.startswith("seed 3 ") for s, _, _ in lines)
    assert any(s.startswith("position ") for s, _, _ in lines)
    for start, state, expected in lines:
        found = [perft(state, d) for d in range(1, len(expected) + 1)]
        assert found == expected, start


def test_by_hand_second_try() -> None:
    """#39 (S0:29): P1 cannot beat the queen of clubs: 'try' or take (2). After the try he holds
    the king of clubs: cover or take (2); after the take P0 has no queen to throw: pass (1).
    Depth 2: 3. Without the rule only the take is there: [1, 1]."""
    text = ("podkidnoy+second_try players=2 trump=6h stock=6hKc hands=7c8c9c/7d8s9d table=Qc "
            "attacker=0 defender=1")
    assert tree(text, 2) == [2, 3]
    assert tree(text.replace("+second_try", ""), 2) == [1, 1]


def test_by_hand_armenian() -> None:
    """#40 (S0:32): P0 holds 7c alone against P1's 8c: lead 7c, or lead the stock top (2).
    Under 7c P1 covers with 8c or takes; under the stock card (the queen of hearts, a trump)
    only the take: depth 2 = 2 + 1 = 3."""
    text = "podkidnoy+armenian players=2 trump=6h stock=6hQh hands=7c/8c attacker=0"
    assert tree(text, 2) == [2, 3]


def test_by_hand_poker() -> None:
    """#42 (S0:65): P1 with three cards facing the queen of clubs: take, or swap any two of his
    three cards (3 ways): 4."""
    text = ("podkidnoy+poker players=2 trump=6h stock=6h7h8hKcAc hands=8c9cTc/7d8s9d table=Qc "
            "attacker=0 defender=1")
    assert tree(text, 1) == [4]


def test_by_hand_self_throw() -> None:
    """#48 (S0:116): everything covered, P0 may throw his seven of clubs or pass (2). After the
    seven P0 has nothing more to throw: pass (1); after his pass P1 is asked: lay 7d covered
    by 9d, or pass (2). Depth 2: 3."""
    text = ("podkidnoy+self_throw players=2 trump=6h stock=- hands=7cJs/8c7d9d table=7s<Ks "
            "attacker=0 defender=1")
    assert tree(text, 2) == [2, 3]


def test_by_hand_counter_throw() -> None:
    """#49 (S0:191): P1 may cover 9c with Tc, cover and counter with Ts, or take (3). Under the
    counter P0 must answer two tens: Js covers Ts, or he takes (2); under the plain cover P0
    may pass only (no ten in hand) (1); under the take P0 may not throw (no nine) (1). Depth
    2: 4."""
    text = ("podkidnoy+counter_throw players=2 trump=6d stock=- hands=6c7cJsQh/TcTsAh table=9c "
            "attacker=0 defender=1 owned=9c/-")
    assert tree(text, 2) == [3, 4]


def test_by_hand_cunning_and_impudent() -> None:
    """#50 (S0:150): after the take P0 may cover his ten with the queen or the king of clubs, or
    pass; he has no ten to throw (3). #51 (S0:153): with QcTsAs, the take leaves P0 the cover
    @Qc>Tc, the covered throw Ts<As, or pass (3), and never the plain Ts."""
    cunning = ("podkidnoy+cunning players=2 trump=6d stock=- hands=QcKcJh8h/7s7h9d table=Tc "
               "attacker=0 defender=1 owned=Tc/- taking=1")
    assert tree(cunning, 1) == [3]
    impudent = cunning.replace("cunning", "impudent").replace("QcKcJh8h", "QcTsAs8h")
    assert tree(impudent, 1) == [3]
