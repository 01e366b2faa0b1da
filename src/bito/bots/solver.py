"""Exact endgame solver for two-player Durak once the stock is empty.

With two players and an empty stock a seat that remembers every card knows the other hand
exactly (:meth:`~bito.bots.tracking.CardTracker.exact_hand`): the rest of the deal is a game of
perfect information. Its value for a seat is +1 (the other player is the fool), 0 (a draw: both
go out in the same bout) or -1 (we are the fool).

:func:`solve` finds that value by alpha-beta over the engine's own moves (so it follows every
variant's rules without knowing them), with

* a **transposition table** keyed on what decides the rest of the game: both hands, the table
  as a set of (attack, cover) pairs (the order the covers went down is irrelevant, which merges
  the k! orders of covering k cards), whose move it is and the bout's flags. Each entry keeps
  the proven bounds, so a position searched with another window is not searched again;
* **move ordering**: the transposition table's best move first, then weak cards before strong
  ones and taking last. Values are only -1, 0 and +1, so the first winning move ends a node.

:func:`brute_force` is the reference it is tested against: plain minimax over every move with
no table and no pruning.
"""

from __future__ import annotations

import functools
import sys
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from bito.bots import clock
from bito.games.durak import TAKE, Action, Deal, DurakState

WIN: Final = 1
DRAW: Final = 0
LOSS: Final = -1
_EXACT, _LOWER, _UPPER = 0, 1, 2


class SolverBudgetExceeded(Exception):
    """The search visited more nodes than it was allowed (the position is too big to solve
    within the caller's time)."""


def solvable(state: DurakState) -> bool:
    """Is this a position :func:`solve` handles: two players, stock empty, game not over?"""
    return state.deal.players == 2 and not state.stock and state.outcome is None


def outcome_value(state: DurakState, seat: int) -> int:
    """+1 if ``seat`` is not the fool and the other player is, 0 for a draw, -1 if it is."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.loser is None:
        return DRAW
    return LOSS if outcome.loser == seat else WIN


def _strengths(beats: Sequence[int]) -> list[int]:
    """For each card, how many cards it covers: a rough measure of what it is worth."""
    strength = [0] * 160
    for m in beats:
        while m:
            low = m & -m
            strength[low.bit_length() - 1] += 1
            m ^= low
    return strength


_STRENGTH_CACHE: dict[int, list[int]] = {}


def _strength_of(beats: tuple[int, ...]) -> list[int]:
    key = id(beats)
    hit = _STRENGTH_CACHE.get(key)
    if hit is None:
        if len(_STRENGTH_CACHE) > 64:
            _STRENGTH_CACHE.clear()
        hit = _STRENGTH_CACHE[key] = _strengths(beats)
    return hit


_UNBOUNDED: dict[int, tuple[Deal, Deal]] = {}

#: Nodes a second the compiled search is assumed to manage when a deadline is turned into a
#: node budget: well below what it does even on a loaded machine, so the deadline holds.
_KERNEL_NODES_PER_SECOND: Final = 200_000


def unbounded(state: DurakState) -> DurakState:
    """``state`` (a copy if needed) with the engine's game-length bounds switched off
    (``end.repetition``, ``end.idle_bouts``): those draws depend on the history before the
    position, which a solver keyed by positions cannot see. The solver's own rule takes their
    place: play that would go on for ever is a draw (a repetition on the current line), which
    gives the same value whenever a side can force a result."""
    deal = state.deal
    if not (deal.repetition or deal.idle_limit):
        return state
    hit = _UNBOUNDED.get(id(deal))
    if hit is None or hit[0] is not deal:
        if len(_UNBOUNDED) > 256:
            _UNBOUNDED.clear()
        free = replace(deal)
        object.__setattr__(free, "repetition", 0)
        object.__setattr__(free, "idle_limit", 0)
        hit = _UNBOUNDED[id(deal)] = (deal, free)
    s = state.copy()
    s.deal = hit[1]
    return s


def _key(s: DurakState) -> tuple[int, int, int, int, int]:
    """What decides the rest of an empty-stock two-player game. The table enters as two sets,
    covered cards and uncovered attack cards: which card covered which no longer matters once
    it lies there (a covered pair goes to the discard or to the defender as one). Under
    ``transfer.window=any_time`` the uncovered card a transfer must match joins the flags."""
    covered = uncovered = 0
    for a, d in zip(s.attack, s.defence, strict=True):
        if d < 0:
            uncovered |= 1 << a
        else:
            covered |= 1 << a | 1 << d
    flags = (s.phase | s.to_act << 2 | s.attacker << 3 | s.defender << 4 | s.taking << 5
             | s.closed << 6 | s.out_mask << 7 | s.passes << 9 | s.t_idx << 12
             | (s.bout == 0) << 15)
    if uncovered and s.deal.rules.transfer_window == "any_time":
        # #10: a transfer matches the last uncovered card thrown, so the order the uncovered
        # cards came in decides the moves; the card a transfer would match tells it apart
        flags |= (s.transfer_rank_card() + 1) << 16
    return (s.hands[0], s.hands[1], covered, uncovered, flags)


@dataclass
class Solver:
    """Alpha-beta with a transposition table, for one endgame (and the positions after it).

    ``max_nodes`` bounds the work (:class:`SolverBudgetExceeded` when it is reached); the
    table is kept between calls, so solving the moves of one position one after another reuses
    what the earlier searches proved.
    """

    max_nodes: int = 0
    nodes: int = 0
    #: A ``clock.now()`` value after which the search gives up (0: none).
    deadline: float = 0.0
    table: dict[tuple[int, int, int, int, int], tuple[int, int, Action | None]] = field(
        default_factory=dict)
    cost: dict[Action, int] = field(default_factory=dict)
    path: set[tuple[int, int, int, int, int]] = field(default_factory=set)
    repeats: int = 0
    #: The beat table the caches were filled under: a new one (``is not``) empties them.
    beats_key: tuple[int, ...] = ()
    #: Search compiled positions (:mod:`bito.kernel.solver`) where the kernel plays the rules;
    #: False keeps every search in Python (the tests compare the two).
    use_kernel: bool = True
    _kernel_table: Any = None

    def value(self, state: DurakState, seat: int) -> int:
        """The game-theoretic value of ``state`` for ``seat``.

        Two null-window searches: "does the side to act win?", and if not, "does it at least
        draw?". Each proves less than a full-window search, so it prunes more, and the second
        reuses the bounds the first left in the table."""
        if state.outcome is not None:
            return outcome_value(state, seat)
        state = unbounded(state)
        v = self._kernel_value(state) if self.use_kernel else None
        if v is None:
            if sys.getrecursionlimit() < 20_000:
                sys.setrecursionlimit(20_000)  # one frame per move of the longest line searched
            v = WIN if self._search(state, DRAW, WIN) >= WIN else (
                DRAW if self._search(state, LOSS, DRAW) >= DRAW else LOSS)
        return v if state.to_act == seat else -v

    def _kernel_value(self, state: DurakState) -> int | None:
        """The value for the seat to act from the compiled search, or None where the kernel
        does not play these rules (or is not installed). The node budget and the deadline
        apply as in the Python search: the deadline becomes a node budget at a rate the
        compiled search always beats."""
        try:
            from bito.kernel import available, supports_state
        except ImportError:  # pragma: no cover - numpy missing
            return None
        if not (available() and supports_state(state)) or state.rules.deck_copies > 1:
            return None  # #21's two decks: the key's card numbering changes with the discard
        import numpy as np

        from bito.kernel import layout
        from bito.kernel.convert import card_index, from_state
        from bito.kernel.solver import new_table, solve_array

        if self._kernel_table is None or self.beats_key is not state.beats:
            self._kernel_table, self.beats_key = new_table(), state.beats
        budget = self.max_nodes - self.nodes if self.max_nodes else 0
        if self.max_nodes and budget <= 0:
            raise SolverBudgetExceeded(f"more than {self.max_nodes} nodes")
        if self.deadline:
            left = self.deadline - clock.now()
            if left <= 0:
                raise SolverBudgetExceeded("out of time")
            by_time = max(1, int(left * _KERNEL_NODES_PER_SECOND))
            budget = min(budget, by_time) if budget else by_time
        arr = from_state(state)
        arr[layout.REPETITION] = 0
        arr[layout.IDLE_LIMIT] = 0
        index = card_index(state.rules)
        strength = (index.values(_strength_of(state.beats))
                    if index is not None and not index.identity
                    else np.array(_strength_of(state.beats), np.int64))
        v, nodes = solve_array(arr, strength, self._kernel_table, budget)
        self.nodes += nodes
        if v is None:
            raise SolverBudgetExceeded("out of nodes or time (compiled search)")
        return v

    def move_values(self, state: DurakState) -> list[tuple[Action, int]]:
        """Every legal move with its exact value for the seat to act."""
        seat = state.to_act
        out = []
        for a in self._ordered(state, None):
            child = state.copy()
            child.step_unchecked(a)
            out.append((a, self.value(child, seat)))
        return out

    def best_move(self, state: DurakState) -> tuple[Action, int]:
        """A move that achieves the value of ``state`` for the seat to act, and that value."""
        seat = state.to_act
        best: tuple[Action, int] | None = None
        alpha = LOSS - 1
        for a in self._ordered(state, self._tt_move(state)):
            child = state.copy()
            child.step_unchecked(a)
            v = self.value(child, seat)
            if v > alpha:
                best, alpha = (a, v), v
                if v == WIN:
                    break
        assert best is not None
        return best

    def _tt_move(self, s: DurakState) -> Action | None:
        hit = self.table.get(_key(s))
        return hit[2] if hit else None

    def _ordered(self, s: DurakState, first: Action | None) -> list[Action]:
        """Legal moves, likeliest best first: ``first`` (the table's best move), then the
        weakest cards (a multi-card lead before a single card), passing, and taking last."""
        acts = s.legal_list()
        cost = self.cost
        if len(cost) > 100_000 or self.beats_key is not s.beats:
            cost.clear()
            self.beats_key = s.beats
        for a in acts:
            if a not in cost:
                cost[a] = self._cost_of(a, s.beats)
        ordered = sorted(acts, key=cost.__getitem__)
        if first is not None and first is not ordered[0] and first in ordered:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    @staticmethod
    def _cost_of(a: Action, beats: tuple[int, ...]) -> int:
        if a.kind == TAKE:
            return 10_000
        if not a.cards:
            return 5_000  # pass
        strength = _strength_of(beats)
        return sum(strength[c] for c in a.cards) - 100 * (len(a.cards) - 1)

    def _search(self, s: DurakState, alpha: int, beta: int) -> int:
        """Negamax value for the seat to act, within (alpha, beta) fail-soft."""
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise SolverBudgetExceeded(f"more than {self.max_nodes} nodes")
        if self.deadline and not self.nodes & 127 and clock.now() > self.deadline:
            raise SolverBudgetExceeded("out of time")
        key = _key(s)
        if key in self.path:
            # The same position again on this line: with transfers (perevodnoy) cards can go
            # round for ever, and play that never ends counts as a draw.
            self.repeats += 1
            return DRAW
        hit = self.table.get(key)
        tt_move = None
        if hit is not None:
            v, flag, tt_move = hit
            if flag == _EXACT:
                return v
            if flag == _LOWER and v >= beta:
                return v
            if flag == _UPPER and v <= alpha:
                return v
            if flag == _LOWER and v > alpha:
                alpha = v
            elif flag == _UPPER and v < beta:
                beta = v
        me = s.to_act
        a0 = alpha
        best = LOSS - 1
        best_move: Action | None = None
        repeats = self.repeats
        self.path.add(key)
        try:
            for a in self._ordered(s, tt_move):
                child = s.copy()
                child.step_unchecked(a)
                if child.outcome is not None:
                    v = outcome_value(child, me)
                elif child.to_act == me:
                    v = self._search(child, alpha, beta)
                else:
                    v = -self._search(child, -beta, -alpha)
                if v > best:
                    best, best_move = v, a
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        finally:
            self.path.discard(key)
        if self.repeats != repeats:
            return best  # the value leaned on a repetition of this line: not for the table
        flag = _EXACT
        if best <= a0:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        self.table[key] = (best, flag, best_move)
        return best


def solve(state: DurakState, seat: int, max_nodes: int = 0) -> int:
    """The exact value of a two-player endgame for ``seat`` (see :func:`solvable`)."""
    if not solvable(state) and state.outcome is None:
        raise ValueError("the solver needs a two-player position with the stock empty")
    return Solver(max_nodes=max_nodes).value(state, seat)


def _full_key(s: DurakState) -> tuple[object, ...]:
    return (tuple(s.hands), tuple(s.attack), tuple(s.defence), s.phase, s.to_act, s.attacker,
            s.defender, s.taking, s.closed, s.out_mask, s.t_idx, s.passes, s.bout == 0)


def brute_force(state: DurakState, seat: int, max_states: int = 2_000_000) -> int:
    """Reference solver, independent of :class:`Solver`: build the whole graph of positions
    reachable from ``state`` (keyed by the full table in play order, nothing merged), then
    find by retrograde analysis the positions from which ``seat`` can force a win and those
    from which the other player can force ``seat``'s loss. Everything else is a draw
    (including play that goes round for ever). No pruning, no ordering, no bounds.
    """
    if state.outcome is not None:
        return outcome_value(state, seat)
    state = unbounded(state)
    index: dict[tuple[object, ...], int] = {_full_key(state): 0}
    mover: list[int] = [state.to_act]
    succ: list[list[int]] = [[]]
    terminal: list[int | None] = [None]
    todo = deque([(0, state)])
    while todo:
        i, s = todo.popleft()
        for a in s.legal_list():
            child = s.copy()
            child.step_unchecked(a)
            if child.outcome is not None:
                j = len(mover)
                mover.append(-1)
                succ.append([])
                terminal.append(outcome_value(child, seat))
            else:
                k = _full_key(child)
                got = index.get(k)
                if got is None:
                    j = index[k] = len(mover)
                    mover.append(child.to_act)
                    succ.append([])
                    terminal.append(None)
                    todo.append((j, child))
                    if len(mover) > max_states:
                        raise SolverBudgetExceeded(f"more than {max_states} positions")
                else:
                    j = got
            succ[i].append(j)
    pred: list[list[int]] = [[] for _ in mover]
    for i, js in enumerate(succ):
        for j in js:
            pred[j].append(i)

    def attractor(player_is_seat: bool, target: int) -> list[bool]:
        """Positions from which one player (``seat`` or the other) forces a terminal
        position whose value is ``target``."""
        won = [terminal[i] == target for i in range(len(mover))]
        left = [len(js) for js in succ]
        queue = deque(i for i, w in enumerate(won) if w)
        while queue:
            j = queue.popleft()
            for i in pred[j]:
                if won[i]:
                    continue
                ours = (mover[i] == seat) == player_is_seat
                if ours:
                    won[i] = True
                    queue.append(i)
                else:
                    left[i] -= 1
                    if left[i] == 0:
                        won[i] = True
                        queue.append(i)
        return won

    if attractor(True, WIN)[0]:
        return WIN
    if attractor(False, LOSS)[0]:
        return LOSS
    return DRAW


@functools.cache
def load_kernel_solver() -> bool:
    """Load the compiled endgame search now (once per process: about a quarter of a second
    from numba's cache, some 25 s the very first time it compiles), so that the first
    endgame of a game does not pay for it inside a decision's budget. Whether the compiled
    search is usable here."""
    try:
        from bito.kernel import available
    except ImportError:  # pragma: no cover - numpy missing
        return False
    if not available():
        return False
    from bito.notation import parse_position

    state = parse_position("podkidnoy players=2 trump=6h hands=7c8c/9cTc attacker=0")
    Solver().value(state, 0)
    return True


__all__ = ["DRAW", "LOSS", "WIN", "Solver", "SolverBudgetExceeded", "brute_force",
           "load_kernel_solver", "outcome_value", "solvable", "solve"]
