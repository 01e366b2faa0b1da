"""The kernel compiled per rule set (``bito.kernel.frozen``), #96's show of a trump and the joker
systems #25, #26, #27 and #81 on the kernel, against the reference engine."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bito import kernel
from bito.cards import is_joker
from bito.games.durak import new_game
from bito.games.durak.show_trump import SHOW
from bito.kernel import layout as L
from bito.kernel.convert import (
    card_index,
    from_state,
    kernel_snapshot,
    reference_snapshot,
    rule_facts,
)
from bito.kernel.core import deal_of
from bito.kernel.frozen import FROZEN, facts_of
from bito.kernel.verify import BASES, compare_game, random_deal
from bito.rules import rules_for

JOKER_SYSTEMS = ("podkidnoy+double_joker", "podkidnoy+single_joker",
                 "podkidnoy+novosibirsk_two_joker", "podkidnoy+double_joker_color_only")
"""#25, #26, #27 and #81: jokers that change what beats what (and, turned up, the trumps)."""
SHOW_TRUMP = "perevodnoy+show_trump_transfer"  # #96


@settings(max_examples=40, deadline=None)
@given(st.sampled_from((*BASES, SHOW_TRUMP, *JOKER_SYSTEMS)), st.integers(0, 2**32),
       st.integers(0, 60))
def test_the_frozen_facts_are_facts_of_the_rules_alone(base: str, seed: int, moves: int
                                                       ) -> None:
    """What a compilation freezes is the same in every position of a rule set and seat count:
    the deal, the match context and the moves played never change it, so a specialised
    compilation serves every position of its rules."""
    rng = random.Random(seed)
    state = random_deal(base, rng)
    for _ in range(moves):
        if state.is_over:
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    if not kernel.supports_state(state):
        return
    here = facts_of(from_state(state))
    assert here == facts_of(rule_facts(state.rules, state.players))
    assert len(here.values) == len(FROZEN)


def test_a_specialised_compilation_plays_the_same_games() -> None:
    """``specialise=True`` (the rule facts as constants) plays exactly the games of the
    general compilation from the same seed: the same fools and the same number of actions."""
    rules = rules_for("podkidnoy")
    general = kernel.play_random_games(rules, 2, 300, 17)
    assert kernel.play_random_games(rules, 2, 300, 17, specialise=True) == general
    assert general[1] > 300 * 20


def test_a_show_of_a_trump_is_played_by_the_kernel_as_by_the_reference() -> None:
    """#96: random perevodnoy games with transfers by showing a trump, stepped on both engines
    with every position and every legal-action list compared; shows are offered and played."""
    rng = random.Random(96)
    shows = 0
    for _ in range(4):
        state = random_deal(SHOW_TRUMP, rng)
        assert kernel.supports_state(state)
        probe = state
        walk = random.Random(rng.random())
        while not probe.is_over:
            legal = probe.legal_actions()
            shows += sum(a.kind == SHOW for a in legal)
            probe = probe.apply(legal[walk.randrange(len(legal))])
        assert compare_game(state, rng) is None
    assert shows > 0


@pytest.mark.parametrize("variant", JOKER_SYSTEMS)
def test_the_kernel_deals_a_joker_system_as_the_reference(variant: str) -> None:
    """#25/#26/#27/#81: given the reference shuffle and dealer, the kernel's own deal matches
    the reference deal, its beat table and trump cards included; a joker turned up stays the
    trump card where the system gives it a meaning (#25's colour, #27's wild jokers), else it
    is buried at a random place, which the two engines draw differently (not compared)."""
    rules = rules_for(variant)
    index = card_index(rules)
    assert index is not None
    compared = 0
    for seed in range(40):
        players = 2 + seed % 4
        shuffle = random.Random(seed)
        deck = list(rules.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(players)
        ref = new_game(rules, players, seed=seed)
        if deck[players * rules.deal_hand_size] != ref.deal.trump_card:
            continue  # a rejected card was buried
        pack = np.array([index.kernel_card(c) for c in deck], np.int64)
        dealt = deal_of(rule_facts(rules, players), pack, dealer, seed)
        taken = from_state(ref)
        assert kernel_snapshot(dealt, index) == reference_snapshot(ref)
        assert list(dealt[L.BEATS:L.HEAD]) == list(taken[L.BEATS:L.HEAD])
        assert dealt[L.TRUMP_SET] == taken[L.TRUMP_SET] and dealt[L.TRUMP] == taken[L.TRUMP]
        compared += 1
    assert compared > 30


@pytest.mark.parametrize("variant", ["podkidnoy+double_joker", "podkidnoy+novosibirsk_two_joker"])
def test_a_turned_joker_deal_matches(variant: str) -> None:
    """#25 (two trump suits of the joker's colour, it the high joker) and #27 (no trump, wild
    jokers): deals whose turned card is a joker, found among many shuffles, deal alike."""
    rules = rules_for(variant)
    index = card_index(rules)
    assert index is not None
    found = 0
    for seed in range(400):
        shuffle = random.Random(seed)
        deck = list(rules.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(2)
        if not is_joker(deck[12]):
            continue
        ref = new_game(rules, 2, seed=seed)
        pack = np.array([index.kernel_card(c) for c in deck], np.int64)
        dealt = deal_of(rule_facts(rules, 2), pack, dealer, seed)
        assert kernel_snapshot(dealt, index) == reference_snapshot(ref)
        assert list(dealt[L.BEATS:L.HEAD]) == list(from_state(ref)[L.BEATS:L.HEAD])
        found += 1
    assert found >= 3


@pytest.mark.parametrize("variant", JOKER_SYSTEMS)
def test_the_kernel_plays_a_joker_system_as_the_reference(variant: str) -> None:
    """#25/#26/#27/#81: random games compared move by move, positions and legal actions, and
    whole random games dealt in the kernel end with a fool or a draw."""
    rng = random.Random(25)
    for _ in range(3):
        state = random_deal(variant, rng)
        assert kernel.supports_state(state)
        assert compare_game(state, rng) is None
    losers, actions = kernel.play_random_games(rules_for(variant), 3, 60, 5)
    assert len(losers) == 60 and actions > 60 * 10 and set(losers) <= {0, 1, 2, None}
