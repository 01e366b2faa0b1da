"""Issue 35 item 2 on the kernel: #3's partial defence, #4-6's lead patterns, #5's passed
lead and #22's twin that blocks throw-ins, against the reference engine.

The strict differential check over whole random games of these variants is
``test_kernel.py::test_every_position_and_legal_set_agrees`` (``verify.NAMED`` holds them);
here each rule is shown to be met, in positions the catalogue describes, and the lead
generator is checked against the reference's on arbitrary hands.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba", reason="the kernel needs the fast extra")

import numpy as np

from bito import kernel
from bito.cards import parse_card
from bito.games.durak import new_game
from bito.games.durak.actions import PASS, TAKE, Action
from bito.games.durak.leads import pattern_leads
from bito.games.durak.position import parse_position
from bito.kernel import layout as L
from bito.kernel.convert import action_of, rule_facts
from bito.kernel.core import legal_actions_of
from bito.kernel.state import KernelState
from bito.kernel.verify import compare_game, compare_two_deck_start
from bito.notation import parse_action
from bito.rules import rules_for

PLAIN = rules_for("simple").with_options(**{"lead.shape": "patterns"})
PATTERNS = ("single", "pair", "pair_plus_one", "two_pairs_plus_one", "trips", "quads",
            "quads_plus_one", "three_any")


def _cards(text: str) -> int:
    mask = 0
    for i in range(0, len(text), 2):
        mask |= 1 << parse_card(text[i:i + 2])
    return mask


def _kernel_leads(patterns: tuple[str, ...], hand: int, limit: int) -> list[Action]:
    """The kernel's leads for a lone attacker holding ``hand`` against a defender of
    ``limit`` cards (the bout's room), under ``lead.patterns``."""
    rules = PLAIN.with_options(**{"lead.patterns": patterns})
    s = rule_facts(rules, 2)
    s[L.PHASE] = L.LEAD_PHASE
    s[L.TO_ACT] = s[L.ATTACKER] = s[L.LEADER] = 0
    s[L.DEFENDER] = 1
    s[L.BOUT] = 1
    s[L.HANDS] = hand
    spare = [c for c in rules.deck() if not hand >> c & 1][:limit]
    s[L.HANDS + 1] = sum(1 << c for c in spare)
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    n = legal_actions_of(s, masks, metas)
    return [action_of(masks[i], metas[i]) for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(st.sets(st.sampled_from(PATTERNS)),
       st.sets(st.sampled_from(PLAIN.deck()), min_size=1, max_size=14), st.integers(1, 6))
def test_the_kernel_leads_the_patterns_the_reference_lists(
        patterns: set[str], cards: set[int], limit: int) -> None:
    """VARIANTS.md §4.7, #4-6, #47: for any hand, listed shapes and room, the kernel lists
    each lead once, and the same set as ``leads.pattern_leads`` (single cards when no lead
    takes an allowed shape and no rule passes the lead)."""
    listed = tuple(sorted(patterns))
    hand = sum(1 << c for c in cards)
    mine = _kernel_leads(listed, hand, limit)
    want = set(pattern_leads(hand, limit, listed)) or set(pattern_leads(hand, limit,
                                                                         ("single",)))
    assert len(set(mine)) == len(mine)
    assert set(mine) == want


def test_a_pair_plus_one_and_two_pairs_plus_one_are_listed_once() -> None:
    """#6 A1-A3 on a hand of three sevens, two nines and a king (room for five): three of a
    kind go alone, a pair with any card (a third seven included, once), two pairs and any
    fifth card; no bare pair, no quads."""
    hand = _cards("7c7d7h9c9sKh")
    leads = set(_kernel_leads(("single", "pair_plus_one", "two_pairs_plus_one", "trips",
                               "quads", "quads_plus_one"), hand, 5))
    sizes = sorted(len(a.cards) for a in leads)
    assert sizes.count(2) == 0 and sizes.count(4) == 0
    # pair+1: 3 seven pairs x the 3 other ranks' cards, the three sevens once, 9c9s x the
    # 4 others
    assert sizes.count(3) == 3 * 3 + 1 + 4
    # two pairs + 1: 3 seven pairs x 9c9s x (KH or the third seven, once each)
    assert sizes.count(5) == 3 * 1 + 1
    assert sizes.count(1) == 6


def test_pairs_only_passes_the_lead_to_a_seat_that_can_lead() -> None:
    """#5 A1: the attacker without a pair may only pass; the right to attack goes clockwise
    to the first seat holding one (seat 2), who attacks his own left neighbour."""
    s = parse_position("pairs_only players=3 trump=6h stock=6hAs hands=7c8d9h/TcJdQh/KcKdAh "
                       "attacker=0 bout=1")
    k = KernelState.from_state(s)
    assert k.legal_actions() == s.legal_actions() == [Action(PASS, ())]
    s, k = s.apply(Action(PASS, ())), k.apply(Action(PASS, ()))
    assert (s.attacker, s.defender, s.to_act) == (2, 0, 2)
    assert k.snapshot()["attacker"] == 2 and k.snapshot()["defender"] == 0
    assert set(k.legal_actions()) == set(s.legal_actions())


def test_pairs_only_draws_a_card_each_then_leads_singles_once_the_stock_is_gone() -> None:
    """#5 A1: nobody holds a pair, so everyone draws one card, the attacker first; with the
    stock empty and the lead gone round again, single cards may be led."""
    s = parse_position("pairs_only players=2 trump=6h stock=6hAs hands=7c8d9h/TcJdQh "
                       "attacker=0 bout=1")
    k = KernelState.from_state(s)
    s, k = s.apply(Action(PASS, ())), k.apply(Action(PASS, ()))
    assert s.hands[0] == _cards("7c8d9hAs") and s.hands[1] == _cards("TcJdQh6h")
    assert k.snapshot()["hands"] == list(s.hands) and k.snapshot()["stock"] == []
    assert k.legal_actions() == [Action(PASS, ())]
    s, k = s.apply(Action(PASS, ())), k.apply(Action(PASS, ()))
    singles = set(s.legal_actions())
    assert len(singles) == 4 and all(len(a.cards) == 1 for a in singles)
    assert set(k.legal_actions()) == singles


def test_partial_defence_sends_the_covered_pairs_to_the_discard() -> None:
    """#3 (S1:56 "the beaten are sent to the retreat"): the defender covered 7c with 9c and
    takes the open 8d only; the pair goes to the discard."""
    s = parse_position("simple_partial_defense players=2 trump=6h stock=6hAsKs "
                       "hands=Ts/JdQd table=7c<9c,8d attacker=0 phase=defend")
    k = KernelState.from_state(s)
    s, k = s.apply(Action(TAKE, ())), k.apply(Action(TAKE, ()))
    assert k.snapshot()["hands"] == list(s.hands)
    assert s.hands[1] & _cards("8d") and not s.hands[1] & _cards("7c9c")
    assert k.snapshot()["discard"] == s.discard and s.discard & _cards("7c9c") == _cards("7c9c")


def test_a_twin_cover_closes_the_bout_to_throw_ins() -> None:
    """#22 A1: covering the seven of clubs with its twin stops every throw-in; the defender
    still covers the seven of diamonds, and the bout ends in bito though the attacker holds
    the seven of spades."""
    s = parse_position("big_fool_twin_block players=2 trump=6h stock=- "
                       "hands=7s8s/7c'8d9c9d attacker=0 table=7c,7d")
    k = KernelState.from_state(s)
    for move in ("7c'>7c", "8d>7d"):
        action = parse_action(move)
        assert action in k.legal_actions()
        s, k = s.apply(action), k.apply(action)
        if move == "7c'>7c":
            assert s.closed and k.snapshot()["closed"]
        assert k.snapshot()["hands"] == list(s.hands)
        assert set(k.legal_actions()) == set(s.legal_actions())
    assert k.snapshot()["phase"] == s.phase == L.LEAD_PHASE and s.attacker == 1
    assert s.hands[0] == _cards("7s8s")


def test_twin_block_games_from_the_deal_play_as_in_the_reference() -> None:
    """#22 from the deal (two decks: the kernel starts with the bottom of the stock
    unnumbered) and from the take-over: every position and move list agrees, and bouts get
    closed by twins."""
    rng = random.Random("twin-block")
    closed = 0
    for _ in range(4):
        state = new_game("big_fool_twin_block", rng.randint(2, 4), seed=rng.getrandbits(40))
        failure, _ = compare_two_deck_start(state, rng)
        assert failure is None
        walk = random.Random(rng.random())
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[walk.randrange(len(legal))])
            closed += state.closed
            if kernel.supports_state(state) and walk.random() < 0.02:
                assert compare_game(state, walk) is None
    assert closed > 0
