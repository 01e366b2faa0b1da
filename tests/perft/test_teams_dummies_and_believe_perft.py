"""Perft for the Variants II ids of teams, dummies and hidden cards (#53-56, #59): golden
files, and hand-counted trees.

``tests/golden/perft_v2t_<id>.txt`` are a regression guard written by ``tools/make_perft.py``
(the spec in the file's ``spec`` line, seeded deals at every seat count the id allows); this
module recomputes every line with its own tree walk. Each special rule also gets a tiny
position whose tree is counted by hand in the docstring: a count that only the rule under test
makes come out right.
"""

from __future__ import annotations

import pytest

from perft_kit import GOLDEN, perft, read_golden, tree

IDS = ("pair_fool", "double_fool", "team_fool", "tossing_dummy", "believe_not_believe",
       "playing_dummy")
#: The spec each golden file is counted with (a modifier on its default base).
SPECS = {"tossing_dummy": "podkidnoy+tossing_dummy", "playing_dummy": "podkidnoy+playing_dummy"}


@pytest.mark.parametrize("vid", IDS)
def test_v2_teams_golden_matches(vid: str) -> None:
    """Regression guard: move generation and transitions of this id unchanged since the file
    was written; the file names the id's rules and deals every seat count it allows."""
    assert "REGRESSION GUARD" in (GOLDEN / f"perft_v2t_{vid}.txt").read_text()
    spec, lines = read_golden(f"perft_v2t_{vid}")
    assert spec == SPECS.get(vid, vid)
    for start, state, expected in lines:
        assert [perft(state, d) for d in range(1, len(expected) + 1)] == expected, start
    assert len(lines) >= 3


# Seat 1 is out; seat 3 led 7s at seat 0 (8s 7c Ac Kc), whose partner seat 2 holds 7d 9c.
PAIRS = ("{spec} players=4 trump=6h stock=- hands=8s7cAcKc/-/7d9c/QhQs table=7s attacker=3 "
         "defender=0 out=1")


def test_by_hand_only_opponents_throw_in() -> None:
    """#53 (S0:194) / #54 (S0:266): depth 1: cover 8s or take (2). Depth 2: the only thrower is
    seat 3 (QhQs: no 7 or 8), who passes (1 + 1). Depth 3: after the cover the bout is bito and
    seat 0 leads one of 7c Ac Kc at seat 3 (3); after the take seat 2 attacks seat 3 with 7d or
    9c (2): 5. Under ``team.throw_in=all`` seat 2 (the defender's partner, holding 7d) is asked
    after seat 3's pass: 7d or pass, in both lines: 4."""
    assert tree(PAIRS.format(spec="pair_fool"), 3) == [2, 2, 5]
    assert tree(PAIRS.format(spec="double_fool"), 3) == [2, 2, 5]
    assert tree(PAIRS.format(spec="pair_fool+team.throw_in=all"), 3) == [2, 2, 4]


# V (2) led 7s at Yu (3), who holds only 8s; Z (0) holds Jc, S (1) Tc Qc Ks.
PROXY = ("{spec} players=4 trump=6h stock=- hands=Jc/TcQcKs/AdKd/8s table=7s attacker=2 "
         "defender=3")


def test_by_hand_the_partner_attacks_for_the_vacated_seat() -> None:
    """#55 (S1:66): depth 1: Yu covers (and is out, the stock being empty) or takes (2); no one
    can throw in (Yu has no card left to face them, or the throwers no 7 or 8). Depth 2: after
    the cover Yu's seat attacks Z, played by S: one of his three cards (3); after the take Z
    attacks S with Jc (1): 4. Under double fool (no proxy) Z attacks after the cover too: 2."""
    assert tree(PROXY.format(spec="team_fool"), 2) == [2, 4]
    assert tree(PROXY.format(spec="double_fool"), 2) == [2, 2]


def test_by_hand_face_down_covers_and_the_call() -> None:
    """#59 (S4:16): P0 led 10h at P1 (7c Kh), diamonds trump, stock empty. Depth 1: either card
    face down on it, or take (3; plain simple fool: only Kh or take, 2). Depth 2: after each
    cover the two calls (2 + 2), after the take P0 leads his 9h (1): 5. Depth 3: every call
    settles the bout and one single-card lead follows (believed 7c: P0 takes, P1 leads Kh;
    doubted 7c: P1 takes, P0 leads... nothing but 9h; believed or doubted Kh: P1 leads 7c):
    4; after the take and 9h P1 may lay any of his three cards or take: 4. Total 8."""
    text = "{spec} players=2 trump=6d stock=- hands=9h/7cKh table=Th attacker=0"
    assert tree(text.format(spec="believe_not_believe"), 3) == [3, 5, 8]
    assert tree(text.format(spec="believe_not_believe+defense.face_down=false"), 1) == [2]


def test_by_hand_throwing_in_from_the_dummy() -> None:
    """#56 (S0:137): seat 0 controls the dummy (7c 9d) and led 7s at seat 1 (8s Kc Ac, hearts
    trump). Depth 1: 8s covers, or take (2). Depth 2, seat 0 to throw: after the cover his 8c,
    the dummy's 7c, or pass (3); after the take only sevens may follow the lone 7s: the
    dummy's 7c, or pass (2): 5. Without the dummy (its cards in the discard): 2 + 1 = 3."""
    hands = "hands=Qd8c/8sKcAc/7hTd"
    assert tree(f"podkidnoy+tossing_dummy players=3 trump=6h stock=- {hands} dummy=7c9d "
                "controller=0 table=7s attacker=0", 2) == [2, 5]
    assert tree(f"podkidnoy players=3 trump=6h stock=- {hands} table=7s attacker=0", 2) == [2, 3]
