"""What a careful player prefers among moves the search cannot tell apart.

A search bot values a move by the share of sampled worlds it wins. Two covers that win equally
often in the sample (a six of trumps and the ace of trumps over a plain six, early in the deal)
are then chosen between at random, and the ace half the time: a move no club player would make,
because the sample is blind to what the ace is worth *later*, beyond what crude playouts see.

So the search compares moves in two steps:

1. **Is the difference real?** Every move is played in the same worlds with the same random
   numbers, so the comparison is *paired*: for the best-scoring move ``b`` and another move
   ``m``, each world gives one difference ``score(b) - score(m)``. ``m`` is *tied* with ``b``
   when the mean difference is within ``z`` standard errors of zero (and below a cap, so a
   large gap is never waved through on a small, noisy sample). A paired test is much sharper
   than comparing two win-rate intervals: most worlds end the same for both moves, and those
   cancel. Moves within :data:`TIE_MARGIN` of the best tie in any case. ``b`` is the best
   of ``k`` noisy means, so it is lucky more often than not (the
   winner's curse); ``z`` is therefore the one-sided 5 % point split over the ``k - 1``
   comparisons (Bonferroni): 1.64 for two moves, 2.13 for four, 2.54 for ten. With a single
   5 % test per move the issue's position still went to Q♥ in 4 of 30 seeds at 1,000
   playouts, though Q♥ is no better at 12,000.
2. **Among the tied, the cheapest move** by :func:`move_cost`, the value of what the move
   gives up, on the scale of :class:`~bito.bots.rollouts.CardWorth` (a card is worth the number
   of cards it covers, so every trump outweighs every plain card in any variant):

   * a cover, a transfer or a lead: the worth of the cards it puts on the table (so the six
     of trumps before the ace, a plain cover before any trump, a plain lead before a trump
     lead); a lead of several cards of one rank counts each extra card as a saving, since it
     sheds more;
   * a throw-in: its worth less the playouts' throw-in limit (plain cards up to about a
     queen while the stock lasts, any plain card after), so a cheap throw-in comes before
     passing and a dear one (a trump) after;
   * showing a trump to pass the attack on (``transfer.show_trump``, #96): only what it
     reveals, :data:`REVEAL_COST` for a card nobody knew the shower held; the card stays in
     his hand, so it is no spent trump;
   * passing (bito): nothing;
   * taking: a little more than covering with the lowest trump, plus half a point per card
     picked up: a plain cover or the lowest trump comes first (a needless take hands the
     attacker the tempo and grows the hand), but a take comes before spending a higher
     trump, as the heuristic's rule has it (trumps decide the endgame);
   * a cover that cannot finish the bout, because another attack card on the table has no
     cover in the hand at all: more than taking, since the cover goes back into the hand with
     the take anyway and only shows the card and opens ranks for throw-ins.

   Covers of the same attack card do the same job, so the dearer one must earn its place:
   it is played over a cheaper cover of that card only when it leads by a clear margin,
   :data:`SAME_JOB_MARGIN` rather than :data:`TIE_MARGIN` (issue 35: in a real game
   ``strong`` covered 10♠ with the trump J♣ holding J♠, which won every game played on from
   there).

Why a tie-break and not a richer playout score (cards left, trumps kept): the score of a
playout is what the arena counts, win or lose, so the search keeps optimising the real goal;
the tie-break only speaks where the sample has no opinion, which is exactly where the absurd
moves came from. A playout score blending in card counts would trade real wins for cosmetic
margins whenever the weights are off.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Final

from bito.bots.rollouts import card_worth
from bito.games.durak import ATTACK, DEFEND, LEAD, PASS, TAKE, Action, DurakView
from bito.games.durak.show_trump import SHOW

TIE_ALPHA: Final = 0.05
"""The chance of calling some move worse than the best when all are equal (split over the
comparisons): a move is only called worse when the sample says so at that level."""

TIE_MARGIN: Final = 0.02
"""Moves within this much of the best mean tie however large the sample: a difference of two
points in greedy playouts is within the playout policy's own modelling error (its throwers,
for one, throw in plain cards up to a queen and never higher while the stock lasts), so it is
no reason to spend a high trump. Without it, ``strong`` at its own budget (about 13,000
playouts) grew confident in such small differences and failed 4 of the 65 suite positions;
with it, see docs/bots.md."""

TIE_CAP: Final = 0.1
"""Moves more than this far below the best mean are never tied, however noisy the sample."""

SAME_JOB_MARGIN: Final = 0.05
"""A cheaper cover of the same attack card ties with the best when within this much of it,
however large the sample: spending a trump (or a higher card) where a cheaper card covers the
same card needs a clear lead in the playouts, since their greedy play sees what the dearer
card buys (a pair left for a lead, say) but not what it costs in the endgame. Still within
:data:`TIE_CAP`."""

REVEAL_COST: Final = 1.0
"""What showing a card costs on the card-worth scale: it stays in the hand, but the other
players now know it is there. One point, a rank step of a plain card: cheaper than any card
spent but a six, and far cheaper than taking."""


@dataclass(frozen=True)
class Tie:
    """The outcome of the tie-break: the move played, and the best-scoring move it replaced
    (``None`` when the best-scoring move was also the cheapest)."""

    index: int
    replaced: int | None
    tied: tuple[int, ...]


def _cards_worth(cards: Sequence[int], worth: Sequence[int]) -> float:
    return float(sum(worth[c] if 0 <= c < len(worth) else 0 for c in cards))


def move_cost(view: DurakView, action: Action) -> float:
    """The value a move gives up, for telling statistically tied moves apart (module doc)."""
    w = card_worth(view.beats, view.trumps)
    worth = w.worth
    top = float(max(worth, default=1) or 1)
    # The lowest trump's worth: taking costs a little more than covering with it, and less
    # than covering with any higher trump.
    trump_floor = float(min((x for x in worth if x > w.max_plain), default=top))
    take_cost = trump_floor + 1.0
    kind = action.kind
    if kind == PASS:
        return 0.0
    if kind == SHOW:  # the card stays in the hand; only news of it is given away
        known = view.known[view.seat] if 0 <= view.seat < len(view.known) else 0
        return REVEAL_COST * sum(1 for c in action.cards if not known >> c & 1)
    if kind == TAKE:
        on_table = sum(1 for c in view.attack if c >= 0) + sum(1 for c in view.defence if c >= 0)
        return take_cost + on_table / 2
    if kind == DEFEND:
        cost = _cards_worth(action.cards, worth)
        if _hopeless_cover(view, action):
            cost += take_cost + top
        return cost
    if kind == ATTACK and view.phase == LEAD:
        n = max(1, len(action.cards))
        return _cards_worth(action.cards, worth) / n - 2.0 * (n - 1)
    if kind == ATTACK:
        # A throw-in sheds a card and makes the defender spend one: worth it for the cards the
        # playouts' throwers throw (plain cards up to about a queen while the stock lasts,
        # every plain card after), so those cost less than passing, dearer ones more.
        limit = w.limit_stock if view.stock_count else w.limit_empty
        return _cards_worth(action.cards, worth) - limit
    return _cards_worth(action.cards, worth)


def move_job(action: Action) -> tuple[int, int] | None:
    """What a move is for, when another move can do the same: a cover is for the attack card
    it covers. ``None`` for the rest (a lead, a take...), which are compared by cost only."""
    if action.kind == DEFEND and action.target >= 0:
        return (DEFEND, action.target)
    return None


def _margin(jobs: Sequence[object] | None, costs: Sequence[float], best: int, i: int,
            margin: float) -> float:
    """The margin within which move ``i`` ties with the best: wider for a cheaper move that
    does the best move's job (:data:`SAME_JOB_MARGIN`)."""
    if (jobs is not None and jobs[i] is not None and jobs[i] == jobs[best]
            and costs[i] < costs[best]):
        return max(margin, SAME_JOB_MARGIN)
    return margin


def _hopeless_cover(view: DurakView, action: Action) -> bool:
    """Whether another uncovered attack card has no cover at all in the hand left after this
    cover: the bout ends in a take whatever else happens."""
    left = view.hand & ~action.mask
    beats = view.beats
    for a, d in zip(view.attack, view.defence, strict=False):
        if d != -1 or a == action.target or not 0 <= a < len(beats):
            continue
        if not beats[a] & left:
            return True
    return False


def paired_gap(rows: Sequence[Sequence[float]], best: int, other: int) -> tuple[float, float]:
    """Mean of ``score(best) - score(other)`` over the sampled worlds, and its standard error."""
    n = len(rows)
    if n == 0:
        return 0.0, 0.0
    diffs = [r[best] - r[other] for r in rows]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def tie_z(moves: int, alpha: float = TIE_ALPHA) -> float:
    """The standard errors within which a move ties with the best of ``moves`` moves."""
    return NormalDist().inv_cdf(1.0 - alpha / max(1, moves - 1))


def choose_among_tied(rows: Sequence[Sequence[float]], costs: Sequence[float],
                      alpha: float = TIE_ALPHA, cap: float = TIE_CAP,
                      margin: float = TIE_MARGIN, moves: int = 0,
                      jobs: Sequence[object] | None = None) -> Tie:
    """The cheapest move among those the paired sample cannot tell from the best mean.

    ``rows`` holds one list of per-move scores per sampled world, ``costs`` the cost of each
    move. Ties in cost keep the better mean. ``moves`` is how many moves the best was picked
    from, when more than these (the halving dropped some; the best is still the luckiest of
    them all, so the test is split over all of them). ``jobs`` (:func:`move_job` of each
    move, optional): a cheaper move doing the best move's job ties within
    :data:`SAME_JOB_MARGIN`."""
    k = len(costs)
    z = tie_z(max(k, moves), alpha)
    n = len(rows)
    means = [sum(r[i] for r in rows) / n if n else 0.0 for i in range(k)]
    best = max(range(k), key=lambda i: means[i])
    tied = [best]
    for i in range(k):
        if i == best:
            continue
        gap, se = paired_gap(rows, best, i)
        if gap <= cap and gap <= max(z * se, _margin(jobs, costs, best, i, margin)) + 1e-12:
            tied.append(i)
    pick = min(tied, key=lambda i: (costs[i], -means[i]))
    return Tie(pick, best if pick != best else None, tuple(sorted(tied)))


def surviving(rows: Sequence[Sequence[float]], costs: Sequence[float], z: float,
              alpha: float = TIE_ALPHA, cap: float = TIE_CAP,
              margin: float = TIE_MARGIN, jobs: Sequence[object] | None = None) -> list[int]:
    """The moves (indices into each row) still worth playouts halfway through a search: the
    best mean, every move within ``z`` standard errors of it (paired, as in
    :func:`choose_among_tied`), and every move **cheaper** than the best that the tie-break
    would still call tied with it. A dearer move is dropped once it trails by more than ``z``
    standard errors: it can only be played by overtaking the best. A cheaper one is kept
    while the tie-break's own test leaves it in, because the tie-break may yet play it; so
    the halving never takes away the careful player's move (a plain six of trumps over a
    6♣ rather than taking, the issue's position)."""
    k = len(costs)
    if k <= 2 or not rows:
        return list(range(k))
    n = len(rows)
    tie_at = tie_z(k, alpha)
    means = [sum(r[i] for r in rows) / n for i in range(k)]
    best = max(range(k), key=lambda i: means[i])
    keep = []
    for i in range(k):
        gap, se = paired_gap(rows, best, i)
        close = gap <= z * se + 1e-12
        cheap_and_tied = (costs[i] < costs[best] and gap <= cap
                          and gap <= max(tie_at * se, _margin(jobs, costs, best, i, margin))
                          + 1e-12)
        if i == best or close or cheap_and_tied:
            keep.append(i)
    return keep


def keeps_text(cheap: Action, dear: Action, view: DurakView) -> str:
    """Why the cheaper of two tied moves is better, in a few words for a hint."""
    trumps = view.trumps

    def is_trump(c: int) -> bool:
        return c % 80 < 64 and c % 80 // 16 in trumps

    if dear.kind == TAKE:
        return "no need to take"
    if dear.kind == DEFEND and _hopeless_cover(view, dear):
        return "the bout ends in a take anyway, so covering first would only show a card"
    if dear.kind == SHOW:  # the shower keeps his trump: all he gives away is the news of it
        return "keeps the trump unseen"
    if cheap.kind == PASS:
        return "keeps the card"
    dear_trumps = sum(1 for c in dear.cards if is_trump(c))
    # a shown card stays in the hand: showing spends none
    cheap_trumps = 0 if cheap.kind == SHOW else sum(1 for c in cheap.cards if is_trump(c))
    if dear_trumps > cheap_trumps:
        return "keeps a trump"
    if cheap.kind == SHOW:
        return "keeps the card"
    if len(cheap.cards) > len(dear.cards):
        return "sheds more cards at once"
    if cheap_trumps and dear_trumps:
        return "keeps the higher trump"
    return "keeps the higher card"


__all__ = ["REVEAL_COST", "SAME_JOB_MARGIN", "TIE_ALPHA", "TIE_CAP", "TIE_MARGIN", "Tie",
           "choose_among_tied", "keeps_text", "move_cost", "move_job", "paired_gap",
           "surviving", "tie_z"]
