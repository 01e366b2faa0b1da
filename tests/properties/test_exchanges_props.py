"""Invariants of #31's chosen exchange (``exchange=choose``) under random play.

On every base #31 applies to, at 2-6 players and k = 1..3 (with a couple of stock-group
stacks): no card is created or lost, every legal move is accepted and a move that is not
legal is refused, every game ends, every position text parses back to the same state, and no
view, censored position or log line ever shows a seat a card it may not see: another hand's
unknown cards, or another seat's choice before the passes.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import card_str, cards_of
from bito.errors import IllegalActionError
from bito.games.durak import DurakState, new_game
from bito.games.durak.actions import EXCHANGE, exchange
from bito.games.durak.exchange import EXCHANGE_PHASE, Chosen
from bito.games.durak.position_stock import BOOKS
from bito.games.family import seen_by
from bito.games.protocol import Hidden
from bito.notation import parse_position, position_text
from bito.rules import rules_for
from conftest import assert_conserved, random_walk

BASES = ("simple", "podkidnoy", "perevodnoy", "japanese")
STACKS = ("podkidnoy+exchange=choose+gradual_access+buy_in",
          "perevodnoy+exchange=choose+points_fool+epaulettes")


def assert_round_is_private(state: DurakState) -> None:
    """During a round: a seat's view and censored position show its own choice only, and
    every public card a view claims in another hand is really there."""
    books = BOOKS.of(state)
    assert books is not None
    for seat in range(state.players):
        v = state.view(seat)
        assert v.hand == state.hands[seat]
        assert v.extension(Chosen) == Chosen(books.chosen[seat] if books.chosen else 0)
        for other in range(state.players):
            if other != seat:
                assert not v.known[other] & ~state.hands[other]
                allowed = state.known[other] | books.passed[seat]
                assert not v.known[other] & ~allowed
        fields = dict(f.split("=", 1) for f in position_text(state, seat).split()[1:])
        text = " ".join(fields.get(key, "") for key in ("hands", "known", "chosen"))
        for other, chosen in enumerate(books.chosen):
            if other != seat and chosen:
                unknown = chosen & ~state.known[other] & ~books.passed[seat]
                for c in cards_of(unknown):
                    assert card_str(c) not in text, (seat, other, c)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from([f"{b}+exchange=choose" for b in BASES] + list(STACKS)),
       k=st.integers(1, 3), players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_random_play_keeps_the_invariants(spec: str, k: int, players: int, seed: int) -> None:
    rules = rules_for(f"{spec}+exchange.cards={k}")
    s = new_game(rules, players=min(players, rules.max_players), seed=seed)
    rng = random.Random(seed)
    end = s
    rounds = 0
    for i, (before, action, after) in enumerate(random_walk(s, rng)):
        assert_conserved(after)
        if before.phase == EXCHANGE_PHASE:
            rounds += 1
            hand = before.hands[before.to_act]
            assert action.kind == EXCHANGE and len(action.cards) == min(k, hand.bit_count())
            assert_round_is_private(before)
            for seat in (*range(before.players), None):
                seen = seen_by(before, action, seat)
                assert (seen is action) if seat == before.to_act else isinstance(seen, Hidden)
            wrong = exchange(*cards_of(hand)[:max(1, len(action.cards) - 1)])
            if wrong not in before.legal_actions():
                try:
                    before.apply(wrong)
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError("an illegal choice was accepted")
        if i % 9 == 0 or before.phase == EXCHANGE_PHASE:
            text = position_text(before)
            back = parse_position(text)
            assert position_text(back) == text
            assert back.legal_actions() == before.legal_actions()
        end = after
    assert end.is_over and end.outcome is not None
    assert sorted(end.outcome.order) == list(range(end.players))
