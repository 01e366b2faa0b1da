"""Cheat worlds that model the claimer (issue 20, item 5).

The family sampler (:class:`bito.games.social.worlds.CheatSampler`) deals the cards of a claim
being judged uniformly from the unseen ones. With 4 cards of a rank in a 52-card pack almost
none of those deals makes the claim true, so a search over them thinks every claim is a lie,
doubts everything and takes the pile each time the claimer told the truth (it lost 4 games of 4
so). A player does not claim at random: he says "three sevens" mostly because he holds three
sevens. :class:`ClaimModelSampler` deals the claimer's cards from that simple model of him.

**The model.** Let *U* be the claimer's hand just before the claim (his hidden cards now plus
the *k* claimed ones) and *d* the cards of the rank due in it. Then

* he tells the truth with probability :data:`HONESTY` when he holds the rank (*d* ≥ 1), putting
  down all of it he may (*k* = min(*d*, ``max_cards``));
* otherwise he lies, with *k* drawn from :func:`lie_size_probability` (a lone card
  mostly), the *k* cards taken from those of *U* not of the rank due.

*U* is a priori a uniform share of the cards the seat cannot place (the hidden hands, the
hidden pile and the claim are exchangeable for it), so a world is *U* drawn uniformly and kept
with the likelihood of the observed *k* under the model (rejection sampling: exact for the
model), then the claim is made true or a lie in proportion to the two branches' likelihoods.
How often a claim of *k* is true then depends on what the brief asks: the claimer's hand size,
how many cards of the rank are unaccounted for, and how many he claimed
(:func:`truth_probability` gives the rate exactly; the tests check the sampler against it).

Not modelled: the claimer's past play (the pile's cards are dealt uniformly, though his earlier
claims were true as often as this one), and claimers other than a heuristic-like one.
"""

from __future__ import annotations

import random
from math import comb
from typing import Final

from bito.cards import cards_of, rank_of, standard_deck
from bito.games.protocol import Move
from bito.games.social.cheat import DOUBTING, CheatState, CheatView
from bito.games.social.worlds import CheatSampler
from bito.games.worlds import mask

HONESTY: Final = 0.9
"""How often a claimer holding the rank due claims it truthfully."""

LIE_ONE: Final = 0.7
"""How often a lie is a single card; the rest is spread evenly over 2..max_cards cards."""

MAX_TRIES: Final = 400
"""Draws of the claimer's hand before the sampler gives up modelling and keeps the uniform
deal (only a claim the model finds near impossible gets there)."""


def lie_size_probability(k: int, max_cards: int) -> float:
    """The chance that a lie is of ``k`` cards."""
    if max_cards <= 1:
        return 1.0 if k == 1 else 0.0
    if k == 1:
        return LIE_ONE
    return (1.0 - LIE_ONE) / (max_cards - 1) if 2 <= k <= max_cards else 0.0


def branch_likelihoods(d: int, n: int, k: int, max_cards: int) -> tuple[float, float]:
    """The likelihood that a claimer whose hand of ``n`` cards holds ``d`` of the rank due
    claims ``k`` cards truthfully, and that he claims ``k`` as a lie."""
    truth = HONESTY if d >= 1 and k == min(d, max_cards) else 0.0
    lie_chance = 1.0 - (HONESTY if d >= 1 else 0.0)
    lie = lie_chance * lie_size_probability(k, max_cards) if n - d >= k else 0.0
    return truth, lie


def truth_probability(pool: int, due_in_pool: int, hand: int, k: int, max_cards: int) -> float:
    """The model's chance that a claim of ``k`` cards is true, when the claimer's hand before
    the claim (``hand`` cards, the claim included) is a uniform share of ``pool`` cards the
    judge cannot place, ``due_in_pool`` of them of the rank due."""
    true_mass = total = 0.0
    for d in range(0, min(due_in_pool, hand) + 1):
        p = comb(due_in_pool, d) * comb(pool - due_in_pool, hand - d) / comb(pool, hand)
        truth, lie = branch_likelihoods(d, hand, k, max_cards)
        true_mass += p * truth
        total += p * (truth + lie)
    return true_mass / total if total > 0 else 0.0


class ClaimModelSampler(CheatSampler):
    """Cheat worlds in which the claim being judged is true as often as the claimer model
    makes it (see the module docstring); other positions as the family sampler deals them."""

    def sample(self, view: CheatView, rng: random.Random) -> CheatState:
        world = super().sample(view, rng)
        if view.phase != DOUBTING or view.seat == view.claimer or view.claim_count == 0:
            return world
        remodel(world, view, rng)
        return world


def remodel(world: CheatState, view: CheatView, rng: random.Random) -> bool:
    """Re-deal, in place, the claimer's hidden cards and claim of a uniformly dealt ``world``
    by the claimer model; the other hidden slots take the rest in their sizes. Whether the
    model was applied (False: no hand within :data:`MAX_TRIES` draws fits it)."""
    n, claimer, k = view.players, view.claimer, view.claim_count
    known = view.known
    seat = view.seat
    slots: list[tuple[str, int]] = []
    free: list[int] = []
    for s in range(n):
        if s == seat:
            continue
        hidden = world.hands[s] & ~known[s]
        free += cards_of(hidden)
        if s != claimer:
            slots.append(("hand", s))
    pile_hidden = world.pile & ~view.mine_in_pile
    free += cards_of(pile_hidden)
    free += list(world.claim)
    claimer_hidden = (world.hands[claimer] & ~known[claimer]).bit_count()
    size = claimer_hidden + k
    due = view.due
    for _ in range(MAX_TRIES):
        rng.shuffle(free)
        hand = free[:size]
        due_cards = [c for c in hand if rank_of(c) == due]
        other = [c for c in hand if rank_of(c) != due]
        truth, lie = branch_likelihoods(len(due_cards), size, k, view.rules.max_cards)
        if rng.random() >= truth + lie:  # max truth + lie is 1: a plain rejection step
            continue
        if rng.random() * (truth + lie) < truth:
            claim = due_cards[:k]
        else:
            claim = other[:k]
        rest = [c for c in hand if c not in claim]
        world.claim = claim
        world.hands[claimer] = mask(rest) | (known[claimer] & world.hands[claimer])
        others = free[size:]
        at = 0
        for _kind, s in slots:
            count = (world.hands[s] & ~known[s]).bit_count()
            world.hands[s] = mask(others[at:at + count]) | (known[s] & world.hands[s])
            at += count
        world.pile = mask(others[at:]) | view.mine_in_pile
        return True
    return False


def judge(view: CheatView) -> Move | None:
    """The judge's doubt or pass by the claimer model, or None when no claim waits for this
    seat. A doubt moves the pile and the claim (``pile_count`` cards) to the claimer when the
    claim is a lie and to the judge when it is true; passing moves nothing, unless the claim
    empties the claimer's hand (he goes out, which in a two-player game makes the judge the
    fool). So the judge doubts when the claim is more likely a lie than true
    (:func:`truth_probability` below ½), or when it would put the claimer out and may be a
    lie at all.

    Why not the playouts: finished by the heuristic at the search's 120-action horizon they
    rated doubting a claim the model finds 99 % true above passing (0.576 against 0.530 over
    200 worlds), and played to the end both came out a coin flip (0.50 and 0.51): a Cheat game
    between heuristic players is a long random walk that hides the swing of one doubt."""
    if view.phase != DOUBTING or view.seat == view.claimer or view.claim_count == 0:
        return None
    pool, due = unaccounted(view)
    hand = view.hand_counts[view.claimer] + view.claim_count
    p_true = truth_probability(pool, due, hand, view.claim_count, view.rules.max_cards)
    going_out = view.hand_counts[view.claimer] == 0
    doubt = p_true < 0.5 or (going_out and p_true < 1.0)
    want = "doubt" if doubt else "pass"
    return next((m for m in view.legal if m.kind == want), None)


def unaccounted(view: CheatView) -> tuple[int, int]:
    """How many cards the judging seat cannot place, and how many of them are of the rank
    due (what :func:`truth_probability` needs for a view)."""
    deck = standard_deck(view.rules.deck_size)
    seen = view.hand | view.mine_in_pile | view.claim_cards
    for s, k in enumerate(view.known):
        if s != view.seat:
            seen |= k
    pool = [c for c in deck if not seen >> c & 1]
    return len(pool), sum(1 for c in pool if rank_of(c) == view.due)


__all__ = ["HONESTY", "LIE_ONE", "MAX_TRIES", "ClaimModelSampler",
           "branch_likelihoods", "judge", "lie_size_probability", "remodel", "truth_probability",
           "unaccounted"]
