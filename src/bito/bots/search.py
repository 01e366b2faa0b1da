"""A search bot: Perfect Information Monte Carlo over possible worlds, with an exact endgame.

For each decision the bot

1. rebuilds the public part of the position from its view and deals the cards it cannot see at
   random, consistently with everything its seat has seen (:mod:`bito.bots.determinize`);
2. plays every legal move in that world and finishes the game with a quick greedy playout
   (:mod:`bito.bots.rollouts`, compiled in :mod:`bito.kernel.greedy` when the kernel plays
   the variant), scoring 1 when it is not the fool, ½ for a draw in a two-player
   game and 0 when it is the fool;
3. repeats with fresh worlds until its budget (time or playouts) is spent, and plays the move
   with the best mean score. Every move is tried in the same worlds with the same random
   numbers, so the comparison between moves is as fair as the sample allows.

Once the stock is empty in a two-player game nothing is hidden any more: the bot hands the
position to the exact solver (:mod:`bito.bots.solver`) and plays a move that keeps the best
proven result, so it never throws away a won endgame. If the solver runs out of its node budget
the bot falls back to sampling.

Every step uses the engine's own state machine on the worlds, so the bot plays every variant and
player count the engine plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bito.bots import clock
from bito.bots.blind import choose as blind_choice
from bito.bots.determinize import CALL_WORLDS, WorldTemplate, call_from_worlds, template
from bito.bots.heuristic import HeuristicBot
from bito.bots.prudence import TIE_ALPHA, choose_among_tied, move_cost, move_job, surviving
from bito.bots.rollouts import (
    PLAIN_LIMIT,
    careful_seats,
    greedy_playout,
    greedy_scores,
    load_kernel_greedy,
    random_loser,
    seat_score,
)
from bito.bots.solver import DRAW, LOSS, WIN, Solver, SolverBudgetExceeded
from bito.bots.style import STYLE_EPSILON, OpponentModel, StyledWorlds, replayable
from bito.bots.tracking import CardTracker
from bito.games.durak import Action, DurakState, DurakView
from bito.games.durak.blind import FaceOut

WORLDS_GRACE = 2.0
"""With a time budget, ``min_worlds`` is kept only until this many budgets have passed: on the
Python engine a world of a wide decision (#59's covers, any card face down: up to 76 moves)
costs a playout per move, and four of them took over 1 s (issue 20, item 7)."""


@dataclass(frozen=True)
class MoveEstimate:
    """What the search thinks of one legal move."""

    action: Action
    score: float  # mean playout score in [0, 1] (1: we are not the fool)
    samples: int
    proven: int | None = None  # the solver's exact value (+1, 0, -1) when it solved the position
    #: Whether the paired sample cannot tell this move from the best-scoring one
    #: (:mod:`bito.bots.prudence`); the cheapest such move is played.
    tied: bool = False
    cost: float = 0.0  # what the move gives up (:func:`bito.bots.prudence.move_cost`)

    def to_json(self) -> dict[str, object]:
        return {"action": str(self.action), "score": round(self.score, 4),
                "samples": self.samples, "proven": self.proven, "tied": self.tied,
                "cost": round(self.cost, 2)}


class SearchBot:
    """PIMC search with an exact two-player endgame (see the module docstring).

    ``think_ms`` bounds the time per decision (0: no time limit); ``playouts`` bounds the number
    of playouts per decision (0: no limit); at least one of them must be set. ``min_worlds``
    worlds are sampled (with a time budget, while :data:`WORLDS_GRACE` budgets last; at least
    one always). ``solver_nodes`` caps the endgame solver (0: no cap).
    ``rollout`` is ``greedy`` (default) or ``random``. ``style`` weights the worlds by how
    likely the opponents' moves seen so far were under a model of their play (the heuristic;
    :mod:`bito.bots.style`), ``style_epsilon`` being how often he is taken to stray from it.
    """

    def __init__(self, seed: int | None = None, *, name: str = "search", think_ms: float = 250.0,
                 playouts: int = 0, min_worlds: int = 4, solver_nodes: int = 20_000,
                 rollout: str = "greedy", epsilon: float = 0.1,
                 tie_alpha: float = TIE_ALPHA, style: bool = False,
                 style_epsilon: float = STYLE_EPSILON, halving: float = 0.0,
                 guide: bool = False, plain_limit: float = PLAIN_LIMIT,
                 defence_model: str = "greedy", attack_model: str = "opponents",
                 margin: float = 0.0) -> None:
        if think_ms <= 0 and playouts <= 0:
            raise ValueError("a search bot needs a time budget (think_ms) or a playout budget")
        if rollout not in ("greedy", "random"):
            raise ValueError(f"rollout must be 'greedy' or 'random', not {rollout!r}")
        self.name = name
        self.rng = random.Random(seed)
        self.think_ms = think_ms
        self.playouts = playouts
        self.min_worlds = min_worlds
        self.solver_nodes = solver_nodes
        self.rollout = rollout
        self.epsilon = epsilon
        self.tracker = CardTracker()
        self.last: list[MoveEstimate] = []
        #: The error level of the test that calls a move worse than the best (0: no
        #: tie-break, the best mean is played; see :mod:`bito.bots.prudence`).
        self.tie_alpha = tie_alpha
        #: The best-scoring move of the last decision when the tie-break played a cheaper
        #: one in its place (for hints), else None.
        self.replaced: MoveEstimate | None = None
        #: Kept between decisions: later positions of an endgame were often searched already.
        self._solver: Solver | None = None
        #: The opponent model of ``style`` (None: uniform worlds).
        self.style: OpponentModel | None = OpponentModel(style_epsilon) if style else None
        #: Halfway through the budget, stop playing the moves whose paired gap to the best
        #: mean exceeds this many standard errors (:func:`bito.bots.prudence.surviving`; 0:
        #: never), so the rest of the playouts go to the moves still in the running.
        self.halving = halving
        #: Among the moves the sample cannot tell from the best, play the heuristic's move
        #: when it is one of them (else the cheapest, as without): the search then vetoes the
        #: heuristic's rules of thumb only where its playouts see a real difference.
        self.guide = guide
        #: The playouts' dearest throw-in while the stock lasts, as a share of the dearest
        #: plain card's worth (:data:`bito.bots.rollouts.PLAIN_LIMIT`).
        self.plain_limit = plain_limit
        #: Who defends in the playouts as the heuristic does (``"greedy"``: nobody;
        #: ``"opponents"``: the other seats; ``"all"``; :data:`bito.bots.rollouts.
        #: DEFENCE_MODELS`): its defence plans the whole table where the greedy rule covers
        #: one card at a time, so against the heuristic it models the defender better.
        careful_seats(defence_model, 0, 2)  # (a clear error for a wrong name, now)
        self.defence_model = defence_model
        #: Who leads and throws in in the playouts as the heuristic does (the same names;
        #: by default the opponents, issue 20 item 3): it throws in a queen where the greedy
        #: rule stops at a jack, and in the endgame a trump the defender cannot beat
        #: (:func:`bito.bots.rollouts.heuristic_attack`). The heuristic is the opponent the
        #: strength is measured against and the default model of any opponent (item 6).
        careful_seats(attack_model, 0, 2)
        self.attack_model = attack_model
        #: A playout's score beyond win or loss: this share of a point for the cards the
        #: fool is left with (:func:`bito.bots.rollouts.greedy_scores`; 0: win or loss).
        self.margin = margin
        self._guide_seed = seed
        self._heuristic: HeuristicBot | None = None
        if rollout == "greedy":
            load_kernel_greedy()  # a one-off cost when the bot is built, not on its first move

    def choose(self, view: DurakView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            self.last = [MoveEstimate(legal[0], float("nan"), 0)]
            return legal[0]
        if view.extension(FaceOut) is not None:
            # #58: a world starts from the seat's own cards, which it cannot see here; the
            # blind policy of the heuristic plays instead (docs/bots.md).
            choice = blind_choice(view)
            self.last = [MoveEstimate(choice, float("nan"), 0)]
            return choice
        estimates = self.analyse(view)
        return estimates[0].action

    def observe(self, view: Any, seat: int, action: Any) -> None:
        """Another seat's move, with this seat's view just before it (:func:`bito.sim.
        play_game` calls this): the card tracker keeps it for the opponent model. (This
        search plays the games of its own tracker; :class:`~bito.bots.levels.LevelBot` routes
        the other families' moves to their own searches.)"""
        self.tracker.observe(view, seat, action)

    # --- analysis ---------------------------------------------------------------------------

    def analyse(self, view: DurakView) -> list[MoveEstimate]:
        """Every legal move with its estimate, best first (also kept in :attr:`last`)."""
        started = clock.now()
        self.replaced = None
        t = template(view, self.tracker)
        if (view.players == 2 and view.stock_count == 0 and not t.face_down
                and sum(1 for h in t.hidden if h) <= 1):
            # Every unseen card is in the only other hand: the position is fully known. (Not
            # so when a tossing dummy, #56, also hides cards, or covers lie face down, #59.)
            solved = self._solve(t)
            if solved is not None:
                self.last = solved
                return solved
        called = call_from_worlds(t, self.rng)
        if called is not None:  # #59: believe or doubt by the modelled covers
            self.last = [MoveEstimate(called, float("nan"), CALL_WORLDS)]
            return self.last
        self.last = self._sample(t, started)
        return self.last

    def _solve(self, t: WorldTemplate) -> list[MoveEstimate] | None:
        """Exact values of every move of a perfect-information endgame (None if too big)."""
        world = t.build(list(t.pool))
        if world.stock or world.outcome is not None or world.rules.exchange_mode == "choose":
            return None  # (#31's choice rounds are not positions the solver keys)
        solver = self._solver
        if solver is None or (solver.table and solver.beats_key is not world.beats) \
                or len(solver.table) > 500_000:
            # A new deal (or a very full table): proven values of the old one do not apply.
            solver = self._solver = Solver()
        solver.nodes = 0
        solver.max_nodes = self.solver_nodes
        solver.deadline = (clock.now() + 2 * self.think_ms / 1000.0
                           if self.think_ms > 0 else 0.0)
        seat = world.to_act
        values: list[tuple[Action, int]] = []
        try:
            for a in solver._ordered(world, None):
                child = world.copy()
                child.step_unchecked(a)
                values.append((a, solver.value(child, seat)))
                if values[-1][1] == WIN:
                    break  # a proven win: nothing can be better
        except SolverBudgetExceeded:
            solver.path.clear()
            won = [a for a, v in values if v == WIN]
            if not won:
                return None
        best = max(v for _, v in values)
        score = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}
        if best == LOSS and len(values) == len(world.legal_list()):
            # Every move loses against perfect play: let the playouts pick the one that gives
            # a fallible opponent the most chances.
            sampled = self._sample(t, clock.now())
            proven = dict(values)
            return [MoveEstimate(e.action, e.score, e.samples, proven.get(e.action))
                    for e in sampled]
        out = [MoveEstimate(a, score[v], 0, v) for a, v in values]
        # Stable sort keeps the solver's order (cheapest cards first) among equal values.
        out.sort(key=lambda e: -e.score)
        return out

    def _sample(self, t: WorldTemplate, started: float) -> list[MoveEstimate]:
        view = t.view
        legal = list(view.legal)
        seat = view.seat
        k = len(legal)
        budget_s = self.think_ms / 1000.0
        rng = self.rng
        playouts = 0
        #: One row per world: the scores of the moves still searched (``alive``), in order.
        rows: list[list[float]] = []
        alive = list(range(k))
        #: Moves dropped by the halving, with the rows they were judged on.
        dropped: dict[int, list[float]] = {}
        halved = self.halving <= 0 or k <= 2
        costs = [move_cost(view, a) for a in legal]
        jobs = [move_job(a) for a in legal]
        source: WorldTemplate | StyledWorlds = t
        careful = careful_seats(self.defence_model, seat, view.players)
        shrewd = careful_seats(self.attack_model, seat, view.players)
        if self.style is not None:
            source = StyledWorlds(t, replayable(self.tracker, view), self.style)
        while True:
            world = source.sample(rng)
            seed = rng.randrange(1 << 62)
            moves = [legal[i] for i in alive]
            if self.rollout == "greedy":
                row = greedy_scores(world, moves, seat, seed, self.epsilon, self.plain_limit,
                                    careful, shrewd, self.margin)
            else:
                row = []
                for a in moves:
                    child = world.copy()
                    child.step_unchecked(a)
                    row.append(self._playout(child, seat, random.Random(seed)))
            rows.append(row)
            playouts += len(moves)
            elapsed = clock.now() - started
            if len(rows) < self.min_worlds and not (
                    budget_s > 0 and elapsed >= WORLDS_GRACE * budget_s):
                continue
            if self.playouts and playouts >= self.playouts:
                break
            if budget_s > 0 and elapsed >= budget_s:
                break
            if not halved and ((self.playouts and 2 * playouts >= self.playouts)
                               or (budget_s > 0 and 2 * elapsed >= budget_s)):
                halved = True
                keep = surviving(rows, [costs[i] for i in alive], self.halving,
                                 alpha=self.tie_alpha or TIE_ALPHA,
                                 jobs=[jobs[i] for i in alive])
                if len(keep) < len(alive):
                    for j, i in enumerate(alive):
                        if j not in keep:
                            dropped[i] = [r[j] for r in rows]
                    alive = [alive[j] for j in keep]
                    rows = [[r[j] for j in keep] for r in rows]
        counts = len(rows)
        means = {i: sum(r[j] for r in rows) / counts for j, i in enumerate(alive)}
        samples = dict.fromkeys(alive, counts)
        for i, col in dropped.items():
            means[i] = sum(col) / len(col)
            samples[i] = len(col)
        if self.tie_alpha <= 0:
            # The best mean of the moves searched to the end (a dropped move's mean is of
            # fewer worlds, and it was already shown worse), then the rest.
            order = sorted(range(k), key=lambda i: (i in dropped, -means[i]))
            return [MoveEstimate(legal[i], means[i], samples[i]) for i in order]
        # The tie-break among the moves searched to the end (a dropped move was already
        # shown worse than the best at the same test).
        tie = choose_among_tied(rows, [costs[i] for i in alive], alpha=self.tie_alpha,
                                moves=k, jobs=[jobs[i] for i in alive])
        tied = {alive[j] for j in tie.tied}
        out = [MoveEstimate(a, means[i], samples[i], tied=i in tied, cost=costs[i])
               for i, a in enumerate(legal)]
        chosen = out[alive[tie.index]]
        if tie.replaced is not None:
            self.replaced = out[alive[tie.replaced]]
        if self.guide and len(tied) > 1:
            pick = legal.index(self.heuristic_move(view))
            if pick in tied and out[pick] is not chosen:
                best = out[alive[tie.replaced]] if tie.replaced is not None else chosen
                chosen = out[pick]
                self.replaced = best if best is not chosen else None
        # The move played first, then the rest by mean score.
        rest = sorted((e for e in out if e is not chosen), key=lambda e: -e.score)
        return [chosen, *rest]

    def heuristic_move(self, view: DurakView) -> Action:
        """The rule-of-thumb bot's move here (:mod:`bito.bots.heuristic`), reading this
        bot's own card tracker."""
        if self._heuristic is None:
            self._heuristic = HeuristicBot(self._guide_seed)
            self._heuristic.tracker = self.tracker
        return self._heuristic.choose(view)

    def _playout(self, s: DurakState, seat: int, rng: random.Random) -> float:
        outcome = s.outcome
        if outcome is None:
            if self.rollout == "random":
                loser, draw = random_loser(s, rng)
                return seat_score(loser, draw, seat, s.deal.players)
            players = s.deal.players
            outcome = greedy_playout(s, rng, self.epsilon, plain_limit=self.plain_limit,
                                     careful=careful_seats(self.defence_model, seat, players),
                                     shrewd=careful_seats(self.attack_model, seat, players))
            if outcome is None:
                return 0.5
        return seat_score(outcome.loser, outcome.draw, seat, s.deal.players)
