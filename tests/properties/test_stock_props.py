"""Invariants under the Variants II stock group (#31-38, #61-63), by random play.

Over every stock-group house rule on every base it accepts (and a few stacks): no card is
created or lost (face-down reserves and locked cards counted), every game ends, every state
has a position text that parses back to the same state, and no seat's view ever holds a card
it may not see: another hand's unknown cards, or any face-down card, its own included.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import card_str, cards_of
from bito.games.durak import DurakState, new_game
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.stock import Tallies
from bito.notation import parse_position, position_text
from bito.rules.registry import all_variants
from conftest import assert_conserved, random_walk

STOCK_IDS = frozenset((*range(31, 39), 61, 62, 63))
EXTRA = ("podkidnoy+gradual_access+buy_in", "perevodnoy+exchange+points_fool+epaulettes",
         "podkidnoy+recycle_discard+draw_when_empty", "simple+arithmetic_progression+exchange",
         "podkidnoy+piled_up+figure_count", "japanese+no_stock+points_fool")


def stock_specs() -> list[str]:
    out = []
    for v in all_variants():
        if v.number in STOCK_IDS:
            out += [f"{b}+{v.id}" for b in v.applies_to]
    return out + list(EXTRA)


SPECS = stock_specs()


def assert_view_is_honest(state: DurakState) -> None:
    """Views hold the seat's hand, public cards, and (#31) the hand it passed on; never a
    face-down card, never another hand's unknown card."""
    books = BOOKS.of(state)
    face_down = sum((*books.reserve, *books.locked)) if books else 0
    for seat in range(state.players):
        v = state.view(seat)
        assert v.hand == state.hands[seat]
        assert not (v.hand | sum(v.known)) & (face_down | state.aside)
        passed = books.passed[seat] if books else 0
        for other in range(state.players):
            if other != seat:
                allowed = state.known[other] | passed
                assert not v.known[other] & ~allowed, (seat, other)
        if books:
            tallies = v.extension(Tallies)
            assert tallies is not None and tallies.reserve_counts == tuple(
                (r | k).bit_count() for r, k in zip(books.reserve, books.locked, strict=True))
            fields = dict(w.split("=", 1) for w in position_text(state, seat).split()[1:])
            for c in cards_of(face_down):
                for key in ("hands", "known", "stock", "reserve", "locked"):
                    assert card_str(c) not in fields.get(key, ""), (key, c)


def test_the_sample_covers_every_id() -> None:
    assert {v.id for v in all_variants() if v.number in STOCK_IDS} == {
        spec.split("+")[1] for spec in SPECS if spec.count("+") == 1}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_random_play_keeps_the_invariants(spec: str, players: int, seed: int) -> None:
    s = new_game(spec, players=min(players, 6), seed=seed)
    assert_conserved(s)
    rng = random.Random(seed)
    end = s
    for i, (before, _, after) in enumerate(random_walk(s, rng)):
        assert_conserved(after)
        if i % 7 == 0:
            assert_view_is_honest(before)
            text = position_text(before)
            back = parse_position(text)
            assert position_text(back) == text
            assert back.legal_actions() == before.legal_actions()
        end = after
    assert end.is_over and end.outcome is not None
    assert sorted(end.outcome.order) == list(range(end.players))
    rules = end.rules
    assert bool(end.outcome.points) == (rules.score_points != "off")
    assert bool(end.outcome.figures) == rules.score_figures
    if end.outcome.points:
        assert set(end.outcome.top_scorers) <= set(range(end.players))
