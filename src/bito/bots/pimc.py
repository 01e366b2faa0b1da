"""A search bot for the games outside the Durak family: PIMC over sampled worlds.

For each decision :class:`FamilySearchBot`

1. asks its family's sampler (:mod:`bito.bots.worlds`) for a *world*: a full state that
   agrees with the seat's view and with what the seat saw earlier in the deal (the sampler's
   memory), the unseen cards dealt at random;
2. plays every legal move in that world and finishes the game with the family heuristic
   (:class:`~bito.bots.families.FamilyHeuristicBot`'s policies), one move in ten random;
3. repeats with fresh worlds until its budget (time or playouts) is spent and plays the move
   with the best mean value. Every move sees the same worlds and the same random numbers, so
   the comparison between moves is paired. Ties go to the heuristic's own move: where the
   playouts cannot tell the moves apart (every move wins, or every move loses, against
   heuristic play), the search plays like the heuristic rather than the engine's first move.

A playout scores the seat's result: 1 when it is not the fool, ½ for a two-player draw, 0 for
the fool. Games of many rounds (Mau-Mau matches, *Fool!*) are not played to their end: a
playout stops when the round is over and scores the match standing then (:func:`standing`),
which keeps a decision's cost that of one round. A playout that hits :data:`MAX_PLAYOUT`
actions is scored by the same standing (or by hand sizes in games without scores).

Everything goes through the GameState protocol (``legal_actions``, ``apply``, ``outcome``,
``to_act``, ``view``), so a family needs only its sampler.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bito.bots import clock
from bito.bots.families import FAMILY_POLICIES, FamilyPolicy, game_policy
from bito.bots.search import MoveEstimate
from bito.bots.worlds import Sampler, sampler_for
from bito.games.family import family_name

MAX_PLAYOUT = 120
"""Actions after which a playout stops and is scored by the standing: the horizon of the
search. Cheat, animal sounds and the Polish fool can go round for hundreds of actions; a
playout that long costs more than the information it brings (measured: docs/history.md)."""

CARD_SCALE = 4.0
"""Cards of margin worth about three quarters of a win in :func:`standing` (games without
scores)."""

SCORE_SCALE = 10.0
"""Points of margin worth about three quarters of a win in :func:`standing` (a hand's worth
of small cards in Mau-Mau and *Fool!*)."""


class FamilySearchBot:
    """PIMC search for every family with a sampler (see the module docstring).

    ``think_ms`` bounds the time per decision (0: no limit), ``playouts`` the playouts per
    decision (0: no limit); at least one must be set. ``min_worlds`` worlds are sampled
    unless the time budget runs out first; one whole world always is (a world cut short by
    the clock is dropped, so every move is judged on the same worlds). ``epsilon`` is the
    share of random moves in playouts. With ``think_ms=0`` the bot is deterministic for a
    given seed and playout budget.
    """

    def __init__(self, seed: int | None = None, *, name: str = "search",
                 think_ms: float = 250.0, playouts: int = 0, min_worlds: int = 4,
                 epsilon: float = 0.1) -> None:
        if think_ms <= 0 and playouts <= 0:
            raise ValueError("a search bot needs a time budget (think_ms) or a playout budget")
        self.name = name
        self.rng = random.Random(seed)
        self.think_ms = think_ms
        self.playouts = playouts
        self.min_worlds = min_worlds
        self.epsilon = epsilon
        self.sampler: Sampler | None = None
        self._view_type: type[Any] | None = None
        self.last: list[MoveEstimate] = []

    def observe(self, view: Any, seat: int, action: Any) -> None:
        """Another seat's move, with this seat's view just before it: for a sampler that
        remembers the others' moves (a ``watch`` method, Cheat's claims)."""
        sampler = self._sampler(view)
        watch = getattr(sampler, "watch", None)
        if watch is not None:
            watch(view, seat, action)

    def supports(self, view: Any) -> bool:
        """Whether this bot can search ``view``'s game (its family has a sampler)."""
        return self._sampler(view) is not None

    def _sampler(self, view: Any) -> Sampler | None:
        if self._view_type is not type(view):
            self.sampler = sampler_for(view)
            self._view_type = type(view)
        return self.sampler

    def choose(self, view: Any) -> Any:
        sampler = self._sampler(view)
        if sampler is None:
            raise ValueError(f"no world sampler for {type(view).__name__}: this family "
                             "cannot be searched")
        sampler.observe(view)
        legal = view.legal
        policy = game_policy(view)
        if policy is not None and policy.chance is not None:
            # Laughter at an animal sound is not a decision: a random event for bots (#60
            # A2), rolled as the heuristic rolls it.
            choice = policy.chance(view, self.rng)
            if choice is not None:
                self.last = []
                return choice
        if policy is not None and policy.model is not None:
            decided = policy.model(view, sampler, self.rng, policy.rule)
            if decided is not None and decided in legal:
                self.last = []
                return decided
        if policy is not None and policy.rule is not None and policy.rule_decides is not None \
                and policy.rule_decides(view):
            # A decision a game's policy keeps for its rule of thumb: all of Cheat, whose
            # search lost every game to the heuristic (families.cheat_unsearched).
            self.last = []
            choice = policy.rule(view)
            return choice if choice in legal else legal[0]
        if len(legal) == 1:
            self.last = [MoveEstimate(legal[0], float("nan"), 0)]
            return legal[0]
        self.last = self.analyse(view)
        return self.last[0].action

    def analyse(self, view: Any) -> list[MoveEstimate]:
        """Every legal move with its mean playout value, best first."""
        sampler = self._sampler(view)
        assert sampler is not None
        started = clock.now()
        legal = list(view.legal)
        policy = game_policy(view)
        rule = policy.rule if policy is not None else None
        if rule is not None:  # the heuristic's move first: it wins every tie
            first = rule(view)
            if first in legal:
                legal.remove(first)
                legal.insert(0, first)
        seat = view.seat
        totals = [0.0] * len(legal)
        worlds = 0
        playouts = 0
        budget_s = self.think_ms / 1000.0
        rng = self.rng
        now = clock.now
        while True:
            world = sampler.sample(view, rng)
            seed = rng.randrange(1 << 62)
            values = []
            for a in legal:
                if worlds and budget_s > 0 and now() - started >= budget_s:
                    break  # out of time: drop this unfinished world, keep the finished ones
                values.append(playout(world.apply(a), seat, random.Random(seed), self.epsilon))
            if len(values) < len(legal):
                break
            for i, v in enumerate(values):
                totals[i] += v
            worlds += 1
            playouts += len(legal)
            if worlds < self.min_worlds:
                continue
            if self.playouts and playouts >= self.playouts:
                break
            if budget_s > 0 and clock.now() - started >= budget_s:
                break
        out = [MoveEstimate(a, totals[i] / worlds, worlds) for i, a in enumerate(legal)]
        out.sort(key=lambda e: -e.score)  # stable: ties keep the engine's order
        return out


def _policy_move(state: Any, rng: random.Random, epsilon: float) -> Any:
    acts = state.legal_actions()
    if len(acts) == 1:
        return acts[0]
    if rng.random() < epsilon:
        return acts[int(rng.random() * len(acts))]
    view = state.view(state.to_act)
    policy = game_policy(view)
    if policy is not None and policy.chance is not None:  # a random event (#60 A2)
        choice = policy.chance(view, rng)
        if choice is not None:
            return choice
    if policy is None or policy.rule is None:
        return acts[int(rng.random() * len(acts))]
    choice = policy.rule(view)
    return choice if choice in acts else acts[0]


def playout(state: Any, seat: int, rng: random.Random, epsilon: float = 0.1) -> float:
    """Finish the round of ``state`` with the family heuristic (``epsilon`` random moves) and
    score it for ``seat`` in [0, 1]."""
    start_round = getattr(state, "round", None)
    s = state
    moves = 0
    while s.outcome is None and moves < MAX_PLAYOUT:
        if start_round is not None and s.round != start_round:
            break
        s = s.apply(_policy_move(s, rng, epsilon))
        moves += 1
    return result(s, seat)


def result(state: Any, seat: int) -> float:
    """The value of ``state`` for ``seat``: its outcome if the game is over, else the
    standing."""
    outcome = state.outcome
    if outcome is not None:
        if outcome.loser == seat:
            return 0.0
        if outcome.loser is None and outcome.draw and state.players == 2:
            return 0.5
        return 1.0  # as the arena scores it: not the fool
    return standing(state, seat)


_FAMILIES: dict[type[Any], FamilyPolicy | None] = {}


def _family_of(state: Any) -> FamilyPolicy | None:
    """The family policy of ``state``, cached by state type: :func:`family_name` checks a
    runtime protocol, a few microseconds that added up to 2 % of a *Fool!* search."""
    kind = type(state)
    if kind not in _FAMILIES:
        _FAMILIES[kind] = FAMILY_POLICIES.get(family_name(state))
    return _FAMILIES[kind]


def standing(state: Any, seat: int) -> float:
    """How well ``seat`` stands in an unfinished game, in [0, 1]: with scores, its margin over
    the worst other seat (penalty points count against it in Mau-Mau, points for it in
    *Fool!*) squashed by the family's ``score_spread`` (Mau-Mau: by the rounds left) or else
    :data:`SCORE_SCALE`; without scores (the fool is the last holding
    cards), its margin in cards below the fullest other hand still in, squashed by
    :data:`CARD_SCALE`."""
    scores = getattr(state, "scores", None)
    if scores:
        family = _family_of(state)
        lower_is_better = family is not None and family.penalty_scores
        sign = -1 if lower_is_better else 1
        mine = sign * scores[seat]
        worst_other = min(sign * v for s, v in enumerate(scores) if s != seat)
        scale = SCORE_SCALE
        if family is not None and family.score_spread is not None:
            scale = family.score_spread(state)
        return 0.5 + 0.5 * math.tanh((mine - worst_other) / scale)
    counts = [h.bit_count() for h in state.hands]
    out = getattr(state, "out", ())
    if seat in out:
        return 1.0
    others = [c for s, c in enumerate(counts) if s != seat and s not in out]
    if not others:
        return 0.0
    return 0.5 + 0.5 * math.tanh((max(others) - counts[seat]) / CARD_SCALE)


__all__ = ["FamilySearchBot", "playout", "result", "standing"]
