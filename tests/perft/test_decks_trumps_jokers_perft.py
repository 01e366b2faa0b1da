"""Perft for the Variants I ids (issue 3): golden files, and hand-counted trees per special rule.

``tests/golden/perft_v1_<id>.txt`` are a regression guard written by ``tools/make_perft.py``
(one per catalogue id the engine plays, the spec in its ``spec`` line); this module recomputes
every line with its own tree walk. Because the goldens only record what the engine computed,
each special rule also gets a tiny position whose tree is counted by hand from the rule text in
the docstring: a count that only the rule under test makes come out right.
"""

from __future__ import annotations

import pytest

from bito.games.durak import DurakState
from bito.rules import resolve
from bito.rules.options import pending_options
from bito.rules.registry import all_variants
from perft_kit import GOLDEN, perft, read_golden, tree

ISSUE3 = frozenset((*range(13, 31), 80, 81, 82, 84))


def golden(vid: str) -> tuple[str, list[tuple[str, DurakState, list[int]]]]:
    """The spec and the (start, state, counts) lines of one golden file of this group."""
    return read_golden(f"perft_v1_{vid}")


def issue3_ids() -> list[str]:
    return [v.id for v in all_variants() if v.number in ISSUE3]


def playable_spec(vid: str) -> str | None:
    """The spec a golden file of ``vid`` is counted with, if the engine plays it today."""
    v = next(x for x in all_variants() if x.id == vid)
    spec = vid if v.kind == "game" else f"podkidnoy+{vid}"
    return None if pending_options(resolve(spec).rules) else spec


GOLDEN_IDS = sorted(p.stem.removeprefix("perft_v1_") for p in GOLDEN.glob("perft_v1_*.txt"))


def test_every_playable_issue3_id_has_a_golden_file() -> None:
    """Issue 3 "A perft-style golden file for each variant": every id the engine plays has one
    (an id still held back gets its file when it is released: tools/make_perft.py --only ID)."""
    missing = [vid for vid in issue3_ids()
               if playable_spec(vid) is not None and vid not in GOLDEN_IDS]
    assert not missing, f"run tools/make_perft.py --only {','.join(missing)}"


@pytest.mark.parametrize("vid", GOLDEN_IDS)
def test_v1_golden_matches(vid: str) -> None:
    """Regression guard: move generation and transitions of this variant unchanged since the
    file was written; the file names the id's own rules and covers 2- and 3-player deals."""
    text = (GOLDEN / f"perft_v1_{vid}.txt").read_text()
    assert "REGRESSION GUARD" in text and vid in text
    spec, lines = golden(vid)
    assert vid in spec
    assert sum(1 for s, _, _ in lines if s.startswith("seed 2 ")) >= 2
    assert any(s.startswith("seed 3 ") for s, _, _ in lines)
    for start, state, expected in lines:
        found = [perft(state, d) for d in range(1, len(expected) + 1)]
        assert found == expected, start


# --- hand-counted trees, one per special rule --------------------------------------------------
# Positions: two players unless said, stock empty, so a player who plays his last card is out
# and the game ends when one player is left (perft adds nothing below a finished game).


def test_by_hand_japanese_spade() -> None:
    """#13 (S0:263): P0 leads his only card 7s; P1 holds 8s and the trump Ad. Depth 2: 8s>7s or
    take (the Ad may not cover a spade): 2, where podkidnoy with diamond trumps has 3. Depth 3:
    P0 is out, so both lines end the game: 0."""
    assert tree("japanese players=2 stock=- hands=7s/8sAd attacker=0", 3) == [1, 2, 0]
    assert tree("podkidnoy players=2 trump=6d stock=- hands=7s/8sAd attacker=0", 2) == [1, 3]


def test_by_hand_no_trump() -> None:
    """#15 (S0:7): lead 7s at 8d As: only the As covers (same suit), or take: [1, 2, 0]."""
    assert tree("podkidnoy+no_trump players=2 stock=- hands=7s/8dAs attacker=0", 3) == [1, 2, 0]


def test_by_hand_suitless() -> None:
    """#17 (S0:15): lead 7s at 8d 6d Ah (hearts trump): 8d (higher, any suit) and Ah (trump)
    cover, 6d does not; or take: [1, 3, 0]."""
    assert tree("podkidnoy+suitless players=2 trump=6h stock=- hands=7s/8d6dAh attacker=0",
                3) == [1, 3, 0]


def test_by_hand_royal() -> None:
    """#19 (S0:59): lead 6s at Ks As Ad 7d (diamond trumps): only As and the trump ace cover the
    low card, not Ks nor the 7d trump; or take: [1, 3, 0]."""
    assert tree("podkidnoy+royal players=2 trump=6d stock=- hands=6s/KsAsAd7d attacker=0",
                3) == [1, 3, 0]


def test_by_hand_ace_only_by_trump() -> None:
    """#20 on #19 (S0:180): lead As at 6s Ks 7d: the 6s may no longer take it, the 7d trump may;
    or take: [1, 2, 0]."""
    assert tree("podkidnoy+royal+ace_only_by_trump players=2 trump=6d stock=- "
                "hands=As/6sKs7d attacker=0", 3) == [1, 2, 0]


TWIN = "players=2 trump=6h stock=- hands=7c9d/7s'8sTc table=7s attacker=0"


def test_by_hand_twin_block_closes_the_bout() -> None:
    """#22 (S0:56) against #21 (S0:53). P1 faces 7s holding 7s' 8s Tc; P0 holds 7c 9d.
    #22: depth 1: 7s'>7s, 8s>7s, take (3). Depth 2: after the twin cover the bout is closed and
    over, P1 leads 8s or Tc (2); after 8s>7s P0 may throw 7c or pass (2); after take likewise
    (2): 6. Depth 3: P0 can only take 8s or Tc (1 + 1); after 8s>7s, 7c: P0 (9d left) passes
    (1), after the pass P1 leads 7s' or Tc (2); after take, 7c: pass (1), after the pass P0
    leads 7c or 9d (2): 2 + 3 + 3 = 8.
    #21: the twin cannot cover, so depth 1 is 2, depth 2 is 4, depth 3 is 3 + 3 = 6."""
    assert tree(f"big_fool_twin_block {TWIN}", 3) == [3, 6, 8]
    assert tree(f"big_fool {TWIN}", 3) == [2, 4, 6]


def test_by_hand_twin_ban() -> None:
    """#21 (S0:53): lead 7s at 7s' 8s: the twin does not cover, 8s does; or take: [1, 2, 0]."""
    assert tree("big_fool players=2 trump=6h stock=- hands=7s/7s'8s attacker=0", 3) == [1, 2, 0]


def test_by_hand_wild_cover_closes_the_bout() -> None:
    """#28 (S0:113): as the twin block tree with W1 in place of the twin: the wild cover ends the
    bout at once (P1 leads 8s or Tc), a plain cover or a take opens the throw-ins: [3, 6, 8]."""
    assert tree("podkidnoy+wild_58 players=2 trump=2h stock=- hands=7c9d/W1Tc8s table=7s "
                "attacker=0", 3) == [3, 6, 8]


def test_by_hand_double_joker() -> None:
    """#25 (S0:103), hearts trump: lead the black (low) joker at RJ 3h As: the red joker and any
    trump cover it, the As does not; or take: [1, 3, 0]."""
    assert tree("podkidnoy+double_joker players=2 trump=2h stock=- hands=BJ/RJ3hAs attacker=0",
                3) == [1, 3, 0]


def test_by_hand_double_joker_colour_only() -> None:
    """#81 (S0:103), hearts trump: nothing beats the red joker (only a trump of the other colour
    could): take only, [1, 1, 0]."""
    assert tree("podkidnoy+double_joker_color_only players=2 trump=2h stock=- "
                "hands=RJ/BJ3hAs attacker=0", 3) == [1, 1, 0]


def test_by_hand_single_joker() -> None:
    """#26 (S0:106, A1): a led joker must be taken ([1, 1, 0]); a joker covers the trump ace
    (lead Ah at RJ 2s: RJ or take, [1, 2, 0])."""
    assert tree("podkidnoy+single_joker players=2 trump=2h stock=- hands=RJ/Ah2s attacker=0",
                3) == [1, 1, 0]
    assert tree("podkidnoy+single_joker players=2 trump=2h stock=- hands=Ah/RJ2s attacker=0",
                3) == [1, 2, 0]


def test_by_hand_novosibirsk() -> None:
    """#27 (S0:110): lead RJ at BJ As 2c: any card but an ace or the other joker covers it, so
    only 2c; or take: [1, 2, 0]."""
    assert tree("podkidnoy+novosibirsk_two_joker players=2 trump=2h stock=- hands=RJ/BJAs2c "
                "attacker=0", 3) == [1, 2, 0]


def test_by_hand_estonian_transfer() -> None:
    """#29 (S0:119, transfer_2 and transfer_3). Three players, hearts trump; on the table 7c<8c
    and the open 7d; P1 holds 7s 8s, P2 holds Qh Kc Kd, P0 9h. Depth 1: P1 cannot cover 7d;
    transfer =7s (after a cover: transfer_2) or take: 2. Depth 2: P2 beats only the 7s: Qh or
    take (2); after P1's take P0 can throw nothing and passes (1): 3. Depth 3: after Qh>7s or
    P2's take the throw round starts with P1, who may throw 8s or pass (2 + 2); after P0's
    pass, P2 passes (1): 5."""
    assert tree("estonian players=3 trump=5h stock=- hands=9h/7s8s/QhKcKd table=7c<8c,7d "
                "attacker=0", 3) == [2, 3, 5]


def test_by_hand_capital_mega() -> None:
    """#30 (S0:122): lead MC at 4c 4h Ah: only the fours cover it; or take: [1, 3, 0]."""
    assert tree("capital players=2 trump=5h stock=- hands=MC/4c4hAh attacker=0", 3) == [1, 3, 0]


def test_by_hand_joker_gift() -> None:
    """#24 (S0:92, S0:94-98): P0 holds BJ 5c 6c, P1 8s 9s, hearts trump, stock empty. Depth 1:
    lead 5c, 6c or BJ (3). Depth 2: P1 cannot cover a club, takes (1 + 1); after BJ P0 gives
    one of his two cards (2): 4. Depth 3: after a take P0 may only pass (a joker is thrown in
    only on a joker) (1 + 1); after the first gift the other card is given (1 + 1): 4. Depth 4:
    after the take P0 leads again, his other card or the joker (2 + 2); after both gifts P1
    (four cards) covers the joker with any of them or takes (5 + 5): 14."""
    assert tree("podkidnoy+joker_gift players=2 trump=2h stock=- hands=BJ5c6c/8s9s attacker=0",
                4) == [3, 4, 4, 14]


def test_by_hand_block_combo() -> None:
    """#84 (S0:99): P0 holds BJ 7c 7d 7h Jd 9s, P1 8s 9h (hearts trump), stock empty. Depth 1:
    BJ, Jd, 9s, each seven, each pair of sevens (P1 holds two): 9. Depth 2: a single seven,
    Jd or 9s: 9h covers or take (5 x 2); a pair: 9h on either seven or take (3 x 3); the BJ:
    P0 gives one of his five cards, or with #84 shows the sevens (5 + 1): 25, and 24 with the
    plain joker gifts."""
    hands = "hands=BJ7c7d7hJd9s/8s9h attacker=0"
    assert tree(f"podkidnoy+joker_gift_block_combo players=2 trump=2h stock=- {hands}",
                2) == [9, 25]
    assert tree(f"podkidnoy+joker_gift players=2 trump=2h stock=- {hands}", 2) == [9, 24]


def test_by_hand_own_trumps() -> None:
    """#16 (S0:10) and #82 (S0:12): P0 (hearts) leads 7h at P1 (spades) holding 8h 6h 7s. Own
    trumps: 8h or his trump 7s covers, or take: [1, 3, 0]. Binding: only 8h, or take:
    [1, 2, 0]."""
    base = "players=2 stock=- hands=7h/8h6h7s attacker=0 own=hs"
    assert tree(f"podkidnoy+own_trumps {base}", 3) == [1, 3, 0]
    assert tree(f"podkidnoy+own_trumps_binding {base}", 3) == [1, 2, 0]


def test_by_hand_secret_trump_switch() -> None:
    """#18 (S0:147): trump Jc is the last stock card, the secret card 7h. P0 leads 7d (1); P1
    covers with 9d or the trump 8c, or takes (3). P0 then draws the Jc, the 7h is turned and
    hearts are trump: P1 leads 8c or 6h, or 9d or 6h, and after the take P0 leads Jc (5). Depth
    4: on 8c, Jc covers or take (2), on 6h (now trump) take (1); on 9d or 6h take (1 + 1); on
    P0's Jc P1's 6h, a trump now, covers, or take (2): 7."""
    assert tree("podkidnoy+secret_trump players=2 trump=Jc stock=Jc hands=7d/9d8c6h attacker=0 "
                "secret=7h", 4) == [1, 3, 5, 7]
