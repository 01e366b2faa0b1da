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
from collections.abc import Callable
from math import comb
from typing import Any, Final

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
    makes it (see the module docstring); other positions as the family sampler deals them.

    It also keeps the claims the other seats made since the pile was last empty
    (:attr:`claims`, fed by :meth:`watch` with every move the bot sees), for the judge that
    deals the pile by them (:func:`rollout_judge`)."""

    def __init__(self) -> None:
        #: (seat, rank claimed, cards) of every claim of another seat since the pile was
        #: last empty, oldest first; the last is the one being judged while a doubt waits.
        self.claims: list[tuple[int, int, int]] = []

    def observe(self, view: CheatView) -> None:
        if view.pile_count - view.claim_count == 0:
            # Picked up (or a new deal): the pile holds no older claim; only the claim now
            # being judged stays.
            judged = (view.claimer, view.due, view.claim_count)
            self.claims = [c for c in self.claims[-1:]
                           if view.phase == DOUBTING and c == judged]

    def watch(self, view: CheatView, seat: int, action: Any) -> None:
        """Another seat's move, with this seat's view just before it."""
        self.observe(view)
        if getattr(action, "kind", None) == "claim" and seat != view.seat:
            self.claims.append((seat, view.due, view.claim_count))

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


JUDGE_WORLDS: Final = 4
"""Worlds a :func:`rollout_judge` plays each answer in (20 pairs of the first tries: 4 worlds
already scored 70 %; every world costs two whole games of the heuristic)."""

ROLLOUT_CAP: Final = 3000
"""Moves after which a judging rollout is scored as a draw (a game of heuristic players that
cycles without the repetition rule biting: the worlds start its count afresh)."""

TRUE_SINGLE: Final = 0.6
"""In a judging world, how often a one-card claim of the heuristic-like claimer is dealt
true when a card of its rank is left (a claim of two or more is always dealt true: such a
claimer never lies with more than one card)."""


def judging_world(view: CheatView, claims: list[tuple[int, int, int]],
                  rng: random.Random) -> CheatState:
    """A two-player world for judging, whose pile holds what the claimer claimed: the
    claimer is modelled as the heuristic, who claims every card he holds of the rank due
    (a true claim) and lies, with a single card, only when he holds none. So each of his
    claims of two cards or more since the pile was last empty, and the claim being judged,
    are dealt true; a one-card claim true with chance :data:`TRUE_SINGLE`; the rest of the
    unseen cards is his hand. Where ``claims`` do not add up to the pile (a claim this seat
    did not see), the family sampler's uniform world."""
    world = CheatSampler().sample(view, rng)
    me, him = view.seat, view.claimer
    known = view.known[him]
    free = cards_of((world.hands[him] & ~known) | (world.pile & ~view.mine_in_pile))
    free += list(world.claim)
    rng.shuffle(free)

    def deal(rank: int, k: int) -> list[int] | None:
        out = []
        single = k == 1
        for _ in range(k):
            of_rank = [c for c in free if rank_of(c) == rank]
            if of_rank and not (single and rng.random() >= TRUE_SINGLE):
                c = of_rank[0]
            else:
                other = [c for c in free if rank_of(c) != rank]
                if not other:
                    return None
                c = other[0]
            free.remove(c)
            out.append(c)
        return out

    # The sure claims (two cards or more) first, so a one-card lie cannot take their cards.
    todo = [(rank, k) for seat, rank, k in claims[:-1] if seat == him]
    todo.append((view.due, view.claim_count))  # the claim being judged, last
    claim: list[int] | None = None
    pile: list[int] = []
    for i in sorted(range(len(todo)), key=lambda i: todo[i][1] < 2):
        rank, k = todo[i]
        part = deal(rank, k)
        if part is None:
            return world
        if i < len(todo) - 1:
            pile += part
        else:
            claim = part
    hidden_pile = view.pile_count - view.claim_count - view.mine_in_pile.bit_count()
    hidden_hand = view.hand_counts[him] - known.bit_count()
    if claim is None or len(pile) > hidden_pile:
        return world
    while len(pile) < hidden_pile and free:
        pile.append(free.pop())
    if len(free) != hidden_hand:
        return world
    world.claim = claim
    world.pile = mask(pile) | view.mine_in_pile
    world.hands[him] = mask(free) | known
    world.put_by = [0] * view.players
    world.put_by[me] = view.mine_in_pile
    world.put_by[him] = mask(pile)
    return world


def rollout_judge(view: CheatView, memory: Any, rng: random.Random,
                  rule: Callable[[Any], Move] | None) -> Move | None:
    """Two players: doubt or pass by playing both to the end in :data:`JUDGE_WORLDS`
    :func:`judging_world` worlds, both seats by ``rule`` (the heuristic), and answering as
    the better scores say (``rule``'s answer on a tie). None (the rule decides) for any other
    decision, or when the claimer would go out (doubting is then the only chance).

    Why rollouts here when they failed before: the earlier worlds dealt the pile uniformly
    and cut playouts at 120 moves, where one doubt is lost in a long random walk. Played to
    the end against a deterministic model, a doubt's effect shows: the search learned to doubt
    claims it believes *true* now and then, taking a small pile of the claimer's cards
    (which leaves him short of their rank when it comes round to him: he must lie, and the
    lie can be proven), which no fixed rule of ours found (docs/history.md)."""
    if (rule is None or view.phase != DOUBTING or view.players != 2
            or view.seat == view.claimer or view.claim_count == 0
            or view.hand_counts[view.claimer] == 0):
        return None
    claims = memory.claims if isinstance(memory, ClaimModelSampler) else []
    totals: dict[str, float] = {m.kind: 0.0 for m in view.legal}
    for _ in range(JUDGE_WORLDS):
        world = judging_world(view, claims, rng)
        for m in view.legal:
            totals[m.kind] += _finish(world.apply(m), view.seat, rule)
    usual = rule(view)
    best = max(view.legal, key=lambda m: (totals[m.kind], m == usual))
    return best


def _finish(state: CheatState, seat: int, rule: Callable[[Any], Move]) -> float:
    """``state`` played to the end by ``rule`` for every seat: 1 ``seat`` is not the fool,
    ½ a draw (or :data:`ROLLOUT_CAP` moves), 0 the fool."""
    moves = 0
    while state.outcome is None and moves < ROLLOUT_CAP:
        state = state.apply(rule(state.view(state.to_act)))
        moves += 1
    outcome = state.outcome
    if outcome is None or outcome.draw:
        return 0.5
    return 0.0 if outcome.loser == seat else 1.0


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


__all__ = ["HONESTY", "JUDGE_WORLDS", "LIE_ONE", "MAX_TRIES", "ROLLOUT_CAP", "TRUE_SINGLE",
           "ClaimModelSampler", "branch_likelihoods", "judge", "judging_world",
           "lie_size_probability", "remodel", "rollout_judge", "truth_probability",
           "unaccounted"]
