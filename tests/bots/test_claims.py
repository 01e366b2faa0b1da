"""The claimer model of Cheat's worlds (#85 ``believe_not_believe_2``; issue 20, item 5).

Rules: VARIANTS.md #85 names the game only (S4:15, "Веришь -- не веришь (2)"); bito's rules
are in :mod:`bito.games.social.cheat`: a claim is a lie when any claimed card is not of the
rank due, and the claimed cards are hidden from everybody but the claimer until a doubt.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots import make_bot
from bito.bots.claims import (
    HONESTY,
    ClaimModelSampler,
    branch_likelihoods,
    judge,
    judging_world,
    lie_size_probability,
    rollout_judge,
    truth_probability,
    unaccounted,
)
from bito.bots.families import cheat
from bito.bots.worlds import sampler_for
from bito.cards import rank_of
from bito.games import new_game
from bito.games.family import seen_by
from bito.games.social.cheat import CheatState


def _judged_claim(players: int, seed: int, max_steps: int = 400) -> CheatState | None:
    """The first position of a heuristic game (one move in five random) where a claim of at
    least ``1`` card waits to be judged after ``seed % 30`` actions, or None."""
    state: Any = new_game("believe_not_believe_2", players, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed + s) for s in range(players)]
    skip = seed % 30
    for step in range(max_steps):
        if state.is_over:
            return None
        if step >= skip and state.phase == "doubting":
            return state  # type: ignore[no-any-return]
        view = state.view(state.to_act)
        action = (view.legal[rng.randrange(len(view.legal))] if rng.random() < 0.2
                  else bots[state.to_act].choose(view))
        state = state.apply(action)
    return None


def _judged_claims(seeds: range) -> Iterator[tuple[int, Any, float]]:
    """For each seed with a two-player claim to judge: the seed, the judge's view and the
    model's chance that the claim is true."""
    for seed in seeds:
        state = _judged_claim(2, seed)
        if state is None:
            continue
        view = state.view(state.to_act)
        pool, due = unaccounted(view)
        hand = view.hand_counts[view.claimer] + view.claim_count
        yield seed, view, truth_probability(pool, due, hand, view.claim_count,
                                            view.rules.max_cards)


def _is_true(world: CheatState) -> bool:
    return all(rank_of(c) == world.due for c in world.claim)


@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_worlds_respect_everything_the_judge_knows(players: int, seed: int) -> None:
    """Every modelled world gives the judging seat exactly its view and holds each card of
    the pack exactly once, whatever the claim."""
    state = _judged_claim(players, seed)
    if state is None:
        return
    seat = state.to_act
    view = state.view(seat)
    sampler = sampler_for(view)
    assert isinstance(sampler, ClaimModelSampler)
    rng = random.Random(seed)
    for _ in range(5):
        world = sampler.sample(view, rng)
        assert world.view(seat) == view
        cards = [c for h in world.hands for c in range(64) if h >> c & 1]
        cards += [c for c in range(64) if world.pile >> c & 1] + list(world.claim)
        assert len(cards) == len(set(cards)) == state.cards_total()
        assert len(world.claim) == view.claim_count
        for s in range(players):  # cards a doubt revealed stay where they went
            assert world.hands[s] & view.known[s] == view.known[s]


def test_claims_are_true_at_the_modelled_rate() -> None:
    """Over many worlds of one judged claim the share of true claims matches the model's
    exact rate (binomial tolerance: 4 standard errors)."""
    found = 0
    for seed, view, expected in _judged_claims(range(200)):
        if not 0.05 < expected < 0.95:
            continue  # look for a claim where the model is unsure either way
        sampler = ClaimModelSampler()
        rng = random.Random(seed)
        n = 2000
        true = sum(_is_true(sampler.sample(view, rng)) for _ in range(n))
        tolerance = 4 * (expected * (1 - expected) / n) ** 0.5
        assert abs(true / n - expected) <= tolerance, (seed, true / n, expected)
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} uncertain judged claims in 200 games")


def test_uniform_worlds_make_almost_every_claim_a_lie() -> None:
    """Why the model exists: with the family sampler's uniform deal a one-card claim is true
    about as often as a card of the rank due is among the unseen ones (4 in ~40), while the
    model makes it true far more often."""
    expected_uniform = 4 / 40
    modelled = truth_probability(pool=40, due_in_pool=4, hand=10, k=1, max_cards=4)
    assert modelled > 3 * expected_uniform


def test_the_model_follows_the_cards_out() -> None:
    """A claim of more cards of the rank than the judge cannot place is never true; a claim
    by a hand that must hold the rank (every unplaced card is his) is a lie only when he
    lies though honest play was open to him; more unplaced cards of the rank make a claim
    likelier to be true."""
    assert truth_probability(pool=30, due_in_pool=1, hand=8, k=2, max_cards=4) == 0.0
    sure = HONESTY / (HONESTY + (1 - HONESTY) * lie_size_probability(2, 4))
    assert truth_probability(pool=8, due_in_pool=2, hand=8, k=2, max_cards=4) == \
        pytest.approx(sure)
    low = truth_probability(pool=30, due_in_pool=1, hand=8, k=1, max_cards=4)
    high = truth_probability(pool=30, due_in_pool=3, hand=8, k=1, max_cards=4)
    assert high > low > 0
    truth, lie = branch_likelihoods(d=2, n=6, k=2, max_cards=4)
    assert truth == HONESTY and 0 < lie < 1 - HONESTY
    assert branch_likelihoods(d=0, n=6, k=1, max_cards=4)[0] == 0.0


def test_judge_doubts_impossible_claims_and_a_claimer_going_out() -> None:
    """The claimer model's judge: a claim the model finds impossible is doubted; one that
    would put the claimer out is doubted unless surely true."""
    found = set()
    for _, view, p in _judged_claims(range(300)):
        move = judge(view)
        assert move is not None and move in view.legal
        if p == 0.0 or (view.hand_counts[view.claimer] == 0 and p < 1.0):
            assert move.kind == "doubt"
            found.add("doubt")
        elif p > 0.5:
            assert move.kind == "pass"
            found.add("pass")
        if found == {"doubt", "pass"}:
            return
    pytest.fail(f"only {found} seen in 300 games")


def _watched_judging(seed: int, skip: int) -> tuple[CheatState, ClaimModelSampler] | None:
    """A two-player heuristic game up to the first claim for seat 0 to judge after ``skip``
    actions, with seat 0's sampler fed every move of seat 1 (as the game loop feeds a level
    bot), or None."""
    state: Any = new_game("believe_not_believe_2", 2, seed=seed)
    bots = [make_bot("heuristic", seed + s) for s in range(2)]
    sampler = ClaimModelSampler()
    for step in range(600):
        if state.is_over:
            return None
        if step >= skip and state.phase == "doubting" and state.to_act == 0:
            sampler.observe(state.view(0))
            return state, sampler
        mover = state.to_act
        action = bots[mover].choose(state.view(mover))
        if mover == 1:
            sampler.watch(state.view(0), 1, seen_by(state, action, 0))
        elif state.phase == "put":
            sampler.observe(state.view(0))
        state = state.apply(action)
    return None


@given(seed=st.integers(0, 10_000), skip=st.integers(0, 300))
@settings(max_examples=20, deadline=None)
def test_judging_worlds_deal_the_pile_by_the_claims(seed: int, skip: int) -> None:
    """The rollout judge's worlds give the judge its view, hold each card once, and deal
    every claim of two cards or more the claimer made since the pile was last empty as true:
    the pile holds at least that many cards of the rank (a heuristic claimer never lies with
    more than one card, and such a claim in the real game was true)."""
    found = _watched_judging(seed, skip)
    if found is None:
        return
    state, sampler = found
    view = state.view(0)
    assert sampler.claims and sampler.claims[-1] == (1, view.due, view.claim_count)
    rng = random.Random(seed)
    for _ in range(4):
        world = judging_world(view, sampler.claims, rng)
        assert world.view(0) == view
        cards = [c for h in world.hands for c in range(64) if h >> c & 1]
        cards += [c for c in range(64) if world.pile >> c & 1] + list(world.claim)
        assert len(cards) == len(set(cards)) == state.cards_total()
        if view.claim_count >= 2:
            assert _is_true(world)
        his_pile = world.pile & ~view.mine_in_pile
        for _seat, rank, k in sampler.claims[:-1]:
            if k >= 2:
                assert sum(1 for c in range(64) if his_pile >> c & 1 and rank_of(c) == rank) >= k


def test_the_rollout_judge_answers_only_two_player_doubts() -> None:
    found = None
    for seed in range(40):
        found = _watched_judging(seed, 20)
        if found is not None and found[0].hands[1]:
            break
    assert found is not None
    state, sampler = found
    view = state.view(0)
    rng = random.Random(1)
    move = rollout_judge(view, sampler, rng, cheat)
    assert move in view.legal
    put = new_game("believe_not_believe_2", 2, seed=3)
    assert rollout_judge(put.view(put.to_act), sampler, rng, cheat) is None
    assert rollout_judge(view, sampler, rng, None) is None
    three = _judged_claim(3, 5)
    if three is not None:
        assert rollout_judge(three.view(three.to_act), sampler, rng, cheat) is None
