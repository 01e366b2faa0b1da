"""Invariants of the engine under the attack-and-defence ids of Variants II (#39-45, #48-51, #83),
by random play with Hypothesis.

Over every modifier on each base it accepts (and a stack of all of them): no card is ever
created or lost, every game ends, every position reached prints and parses back to the same
position with the same legal moves, an action is legal exactly when ``apply`` accepts it (the
new action kinds included), and a card drawn face down for a second try or a poker swap never
shows in another seat's view.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.errors import IllegalActionError
from bito.games.durak import new_game
from bito.games.durak.actions import (
    COUNTER,
    OWN_COVER,
    PAIR,
    STOCK_ACTION,
    SWAP,
    TRY,
    TRY_ACTION,
    counter,
    own_cover,
    pair,
    swap,
)
from bito.games.durak.bout_extras import EXTRAS
from bito.notation import parse_position, position_text
from bito.rules import lookup
from bito.rules.registry import all_variants
from conftest import assert_conserved, fingerprint, random_walk

GROUP = frozenset((*range(39, 46), 48, 49, 50, 51, 83))
STACK = ("perevodnoy+armenian_unlimited+poker+second_try+self_throw+counter_throw+cunning",
         "podkidnoy+impudent=cover_own_first_then_throw+counter_throw+armenian",
         "simple+armenian_poker_second_try+counter_throw+defense.exchange_mode=up_to")


def group_specs() -> list[str]:
    out = [f"{base}+{v.id}" for v in all_variants() if v.number in GROUP
           for base in v.applies_to]
    return out + list(STACK)


SPECS = group_specs()
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_id_is_sampled() -> None:
    """Each of the twelve ids is registered and sampled on every base it accepts."""
    ids = {v.id for v in all_variants() if v.number in GROUP}
    assert len(ids) == 12
    for vid in ids:
        assert all(f"{b}+{vid}" in SPECS for b in lookup(vid).applies_to)


def _random_extra(rng: random.Random, deck: list[int]):
    """Any action of the new kinds, legal or not."""
    a, b, c = rng.sample(deck, 3)
    return rng.choice([TRY_ACTION, STOCK_ACTION, swap(a, b), swap(a), pair(a, b),
                       own_cover(a, b), counter(a, b, c)])


@SETTINGS
@given(st.sampled_from(SPECS), st.integers(2, 5), st.integers(0, 2**32 - 1))
def test_random_games_keep_the_invariants(spec: str, players: int, seed: int) -> None:
    s = new_game(spec, players=players, seed=seed)
    rng = random.Random(seed)
    deck = list(s.rules.deck())
    end = s
    for before, action, after in random_walk(s, random.Random(seed ^ 0x33)):
        end = after
        assert_conserved(after)
        # legal exactly when accepted, for the new kinds too
        legal = before.legal_actions()
        assert len(set(legal)) == len(legal)
        print_before = fingerprint(before)
        for _ in range(2):
            x = _random_extra(rng, deck)
            if x in legal:
                continue
            try:
                before.apply(x)
            except IllegalActionError as e:
                assert e.rule and e.detail
            else:
                raise AssertionError(f"illegal {x} accepted")
        assert fingerprint(before) == print_before
        # a whole state in one line
        text = position_text(after)
        again = parse_position(text)
        assert position_text(again) == text
        assert again.legal_actions() == after.legal_actions()
        # a card drawn face down is nobody else's business
        if action.kind in (TRY, SWAP):
            d = before.defender
            drawn = after.hands[d] & ~before.hands[d] & ~after.deal.trump.face_up
            extras = EXTRAS.of(before)
            shown = extras.shown if extras is not None else -1
            if shown >= 0:
                drawn &= ~(1 << shown)
            for seat in range(players):
                if seat != d:
                    assert not after.view(seat).known[d] & drawn
    assert end.is_over  # random_walk raises if a game runs past its bound


def test_random_bots_play_every_new_action() -> None:
    """The bots must play every new action type: uniform random play over a few deals meets
    each kind of this group."""
    wanted = {TRY, SWAP, PAIR, OWN_COVER, COUNTER, STOCK_ACTION.kind}
    seen: set[int] = set()
    for seed in range(12):
        s = new_game(STACK[0], players=3, seed=seed)
        for _, action, _ in random_walk(s, random.Random(seed)):
            seen.add(action.kind)
        s = new_game(STACK[1], players=3, seed=seed)
        for _, action, _ in random_walk(s, random.Random(seed)):
            seen.add(action.kind)
    assert wanted <= seen
