"""Random-play invariants of the Durak games with a different bout structure (issue 4,
VARIANTS.md §3.9: #65-#73): cards conserved, views exact, bots finish every game.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots import make_bot
from bito.cards import card_pretty, cards_of, mask_of
from bito.games import new_game
from bito.games.bouts.common import BoutsView
from bito.sim import play_game

BOUT_IDS = ("heaped", "heaped_top_n", "chain_fool", "chinese", "chinese_pass_on",
            "two_phase_japanese", "deck_duel_prelude", "polish_fool")


# --- invariants --------------------------------------------------------------------------------


def _hidden_exact(s: Any) -> None:
    for seat in range(s.players):
        v = s.view(seat)
        assert v.hand == s.hands[seat]
        for other, known in enumerate(v.known):
            assert known & ~s.hands[other] == 0  # only cards he really holds
        if isinstance(v, BoutsView):  # the public text names no hidden card
            for other in range(s.players):
                secret = s.hands[other] & ~v.known[other] if other != seat else 0
                assert not any(card_pretty(c) in v.table for c in cards_of(secret))


@settings(max_examples=25, deadline=None)
@given(vid=st.sampled_from(BOUT_IDS), players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_random_play_invariants(vid: str, players: int, seed: int) -> None:
    """Cards conserved, every listed action applies, ``apply`` leaves the old state alone,
    views hold no hidden card, and the game ends (within its move cap)."""
    s = new_game(vid, players, seed=seed)
    total = s.cards_total()
    rng = random.Random(seed)
    steps = 0
    while not s.is_over:
        acts = s.legal_actions()
        assert acts and len(set(map(str, acts))) == len(acts)
        before = str(s)
        a = rng.choice(acts)
        nxt = s.apply(a)
        assert str(s) == before
        assert nxt.cards_total() == total
        held = [h for h in nxt.hands] + [mask_of(nxt.stock), nxt.discard, mask_of(nxt.centre())]
        union = 0
        for m in held:
            assert union & m == 0  # no card in two places
            union |= m
        if steps % 7 == 0:
            _hidden_exact(nxt)
        s = nxt
        steps += 1
    assert steps <= s.rules.move_cap
    assert s.legal_actions() == []


@pytest.mark.parametrize("vid", (*BOUT_IDS, "akulina"))
def test_heuristic_and_random_bots_finish(vid: str) -> None:
    """Both bots play every id to the end (the 500-game sweeps are in docs/variants.md)."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = new_game(vid, players, seed=seed)
        bots = [make_bot("heuristic" if i % 2 else "random", seed + i) for i in range(players)]
        result = play_game(state, bots)
        assert result.final_state.is_over and result.outcome is result.final_state.outcome
