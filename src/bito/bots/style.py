"""Opponents with a style: possible worlds weighted by how likely they made the moves we saw.

A uniform world is consistent with the cards on view, but not with the way the opponent has
played: a heuristic player who led a queen holds no plain card below it; one who took a single
six while the stock was large may well hold nothing but trumps to cover it with; one who
passed holds no cheap card of an open rank. The search bot learns this by replaying a model of
the opponent (the heuristic, ``easy``, by default) in each world at each move it saw him make:

    P(move | world) = (1 - eps) + eps / n   if the model in that world plays the move,
                      eps / n               otherwise (n: his legal moves then),

and a world's weight is the product over his moves. The bot then plays the worlds drawn in
proportion to their weight (:class:`StyledWorlds`: batches of uniform worlds, resampled).

Which moves can be replayed: his hand when he moved is his hand in the world plus every card
he has laid since. That holds back to his last gain of cards (a draw from the stock or a
take), whose cards the world does not tell apart from the rest of his hand; older moves are
left out. The check is on public counts only, so every world replays the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bito.bots.determinize import WorldTemplate, template
from bito.bots.heuristic import HeuristicBot
from bito.bots.tracking import CardTracker, ObservedMove
from bito.games.durak import Action, DurakState, DurakView
from bito.games.durak.blind import FaceOut
from bito.games.durak.dummy import TossingDummy

STYLE_EPSILON = 0.1
"""How often the modelled opponent is taken to stray from his model's move (any legal move
then): the same share of random moves as the search's own playouts."""

STYLE_BATCH = 32
"""Uniform worlds drawn per resampling step: enough that a batch usually holds worlds the
observed moves fit, few enough that a small playout budget still uses most of them."""


@dataclass(frozen=True)
class Replay:
    """One observed move, ready to replay in any world of the present decision."""

    move: ObservedMove
    #: The public position when he moved (:func:`~bito.bots.determinize.template` of that view).
    then: WorldTemplate
    #: Every card he has laid from that move on (the move's own cards included).
    laid: int


def replayable(tracker: CardTracker, view: DurakView) -> list[Replay]:
    """The moves of ``tracker`` whose mover's hand any world of ``view`` pins down (see the
    module docstring), oldest first; none in games a seat's view does not describe alone (a
    tossing dummy, #56, cards held face out, #58)."""
    if view.extension(TossingDummy) is not None or view.extension(FaceOut) is not None:
        return []
    out: list[Replay] = []
    laid = [0] * view.players
    counts = list(view.hand_counts)
    stopped = [False] * view.players
    for move in reversed(tracker.moves):
        o = move.seat
        if stopped[o] or o >= view.players:
            continue
        then = move.view
        if then.extension(TossingDummy) is not None or then.extension(FaceOut) is not None \
                or then.seat != view.seat:
            stopped[o] = True
            continue
        mask = move.action.mask
        if mask & laid[o]:  # a card laid twice came back to him: a gain in between
            stopped[o] = True
            continue
        laid[o] |= mask
        counts[o] += len(move.action.cards)
        if counts[o] != then.hand_counts[o] or then.known[o] & ~(laid[o] | view.known[o]):
            # He held a different number of cards then, or a card publicly his then has
            # gone elsewhere than the table: he gained cards since (or the rules moved them).
            stopped[o] = True
            continue
        try:
            past = template(then, CardTracker())
        except ValueError:
            stopped[o] = True
            continue
        out.append(Replay(move, past, laid[o]))
    out.reverse()
    return out


class ScriptedTies(random.Random):
    """A random source for a policy that breaks exact ties with ``randrange``: it answers
    the first call with :attr:`pick` and notes how many moves were tied there (later calls
    get 0), so replaying the policy once per tied move lists them all."""

    def __init__(self) -> None:
        super().__init__(0)
        self.pick = 0
        self.ties = 1
        self.calls = 0

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        width = start if stop is None else stop - start
        base = 0 if stop is None else start
        self.calls += 1
        if self.calls == 1:
            self.ties = width
            return base + min(self.pick, width - 1)
        return base


def heuristic_choices(view: DurakView, bot: HeuristicBot | None = None) -> list[Action]:
    """Every move the heuristic may play in ``view``: one, or the moves it breaks an exact
    tie between at random (each as likely)."""
    if bot is None:
        bot = HeuristicBot(0)
    ties = ScriptedTies()
    bot.rng = ties
    first = bot.choose(view)
    out = [first]
    for k in range(1, ties.ties if ties.calls else 1):
        ties.pick, ties.calls = k, 0
        out.append(bot.choose(view))
    return out


class OpponentModel:
    """Replays a policy (the heuristic by default) at the opponents' observed moves in a
    world and scores the world by how likely they made them (see the module docstring).
    ``policy`` returns the moves the modelled player picks between at random."""

    def __init__(self, epsilon: float = STYLE_EPSILON,
                 policy: Callable[[DurakView], Sequence[Action]] | None = None) -> None:
        if not 0.0 < epsilon <= 1.0:
            raise ValueError(f"the style's epsilon must be in (0, 1], not {epsilon}")
        self.epsilon = epsilon
        if policy is None:
            bot = HeuristicBot(0)

            def policy(view: DurakView) -> Sequence[Action]:
                return heuristic_choices(view, bot)
        self.policy = policy
        #: Replays run and how many of them the model played as the opponent did (for the
        #: docs and tests: how often a uniform world already fits his play).
        self.replays = 0
        self.fits = 0

    def weight(self, world: DurakState, replays: Sequence[Replay]) -> float:
        """The likelihood of the observed moves in ``world`` (1.0 when none)."""
        w = 1.0
        eps = self.epsilon
        for r in replays:
            o = r.move.seat
            hand = world.hands[o] | r.laid
            past = position(r.then, o, hand)
            if past is None:
                continue
            seen = past.view(o)
            n = len(seen.legal)
            if n <= 1:
                continue
            self.replays += 1
            choices = self.policy(seen)
            share = sum(1 for a in choices if a == r.move.action) / len(choices)
            if share:
                self.fits += 1
            w *= (1.0 - eps) * share + eps / n
        return w


def position(then: WorldTemplate, seat: int, hand: int) -> DurakState | None:
    """The position ``then`` with ``seat`` holding ``hand`` (the other hidden slots and the
    stock filled with whatever unseen cards are left: the mover's view shows only their
    number), or None when ``hand`` cannot have been his then."""
    fixed = then.fixed[seat]
    if fixed & ~hand or hand.bit_count() != fixed.bit_count() + then.hidden[seat]:
        return None
    own = hand & ~fixed
    pool = then.pool
    mine = [c for c in pool if own >> c & 1]
    if len(mine) != then.hidden[seat]:
        return None  # a card of his hand was not unseen then
    rest = [c for c in pool if not own >> c & 1]
    order: list[int] = []
    for s, h in enumerate(then.hidden):
        if s == seat:
            order.extend(mine)
        elif h:
            order.extend(rest[:h])
            del rest[:h]
    order.extend(rest)
    return then.build(order)


class StyledWorlds:
    """Worlds drawn from ``t`` in proportion to the opponent model's weight: each batch of
    :data:`STYLE_BATCH` uniform worlds is resampled (systematic resampling) into as many
    worlds, so a world the observed moves fit well is played several times (with different
    playout randomness) and one they rule out is rarely played."""

    def __init__(self, t: WorldTemplate, replays: Sequence[Replay], model: OpponentModel,
                 batch: int = STYLE_BATCH) -> None:
        self.t = t
        self.replays = list(replays)
        self.model = model
        self.batch = batch
        self.queue: list[DurakState] = []
        #: Batches whose every world the observed moves ruled out entirely (weight 0 cannot
        #: happen with eps > 0; kept for the ``all equal`` case: played uniformly).
        self.batches = 0

    def sample(self, rng: random.Random) -> DurakState:
        if not self.replays:
            return self.t.sample(rng)
        if not self.queue:
            self.queue = self._resampled(rng)
        return self.queue.pop()

    def _resampled(self, rng: random.Random) -> list[DurakState]:
        self.batches += 1
        worlds = [self.t.sample(rng) for _ in range(self.batch)]
        weights = [self.model.weight(w, self.replays) for w in worlds]
        total = sum(weights)
        if total <= 0.0:
            return worlds
        step = total / self.batch
        u = rng.random() * step
        out: list[DurakState] = []
        acc = 0.0
        i = -1
        for k in range(self.batch):
            target = u + k * step
            while acc <= target and i < self.batch - 1:
                i += 1
                acc += weights[i]
            # A resampled world is shared by reference: the search copies before stepping.
            out.append(worlds[i])
        rng.shuffle(out)
        return out
