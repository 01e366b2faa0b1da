"""Headless games between bots, and many of them at once with statistics.

:func:`play_game` plays one deal: each bot sees only its own seat's view, and every action is
recorded so a game can be replayed from (variant, players, seed, actions).

:func:`run_sim` plays many deals and counts who became the fool. Seats rotate every game (bot
``k`` sits at seat ``(k + g) % players`` in game ``g``) so no bot profits from a seat, and each
deal's seed is derived from ``(seed, g)``, so a run is reproducible and two runs with the same
seed deal the same cards. A game that raises (a buggy bot, an illegal move, an engine bug) is
counted in ``errors`` and the run goes on: one bad deal must not cost an hour of simulation.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bito.bots import Bot, make_bot
from bito.bots.base import Watcher
from bito.games import DURAK, family_for, new_game
from bito.games.durak import (
    MatchContext,
    Outcome,
    next_match_context,
)
from bito.games.family import seen_by
from bito.games.protocol import PlayAction, PlayState, decider, human_loser
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.executors import Executor

MAX_ACTIONS = 20_000
"""A game longer than this is abandoned as an error (no sensible game comes near it; it guards
the run against bots that could cycle cards forever in a many-player game)."""


class GameTooLongError(RuntimeError):
    """A game exceeded :data:`MAX_ACTIONS` actions."""


@dataclass(frozen=True)
class GameResult:
    """One finished deal: its outcome, the seat of each move and the moves themselves."""

    outcome: Outcome
    actions: tuple[PlayAction, ...]
    seats: tuple[int, ...]  # who made each action
    seed: int
    final_state: PlayState | None = None

    @property
    def loser(self) -> int | None:
        return self.outcome.loser

    @property
    def draw(self) -> bool:
        return self.outcome.draw

    def to_json(self) -> dict[str, Any]:
        return {"outcome": self.outcome.to_json(), "seed": self.seed,
                "actions": [str(a) for a in self.actions], "seats": list(self.seats)}


def play_game(state: PlayState, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS
              ) -> GameResult:
    """Play ``state`` to the end; the bot at index ``i`` plays seat ``i`` and sees only
    ``state.view(i)``. Raises whatever a bot or the engine raises (an illegal action raises
    :class:`~bito.errors.IllegalActionError`), and :class:`GameTooLongError`."""
    if len(bots) != state.players:
        raise ValueError(f"{len(bots)} bots for a {state.players}-player game")
    actions: list[PlayAction] = []
    seats: list[int] = []
    # Bots that model their opponents (issue 20, item 6) are shown every other seat's move
    # as their seat sees it, with their view of the position it was made in.
    watchers = [(i, b) for i, b in enumerate(bots) if isinstance(b, Watcher)]
    while not state.is_over:
        if len(actions) >= max_actions:
            raise GameTooLongError(f"game not over after {max_actions} actions")
        seat = state.to_act
        # The player who decides (a playing dummy's controller on its turn, #57) acts from
        # the acting seat's view.
        mover = decider(state)
        action = bots[mover].choose(state.view(seat))
        for i, watcher in watchers:
            if i != mover:
                watcher.observe(state.view(i), seat, seen_by(state, action, i))
        state = state.apply(action)
        actions.append(action)
        seats.append(seat)
    assert state.outcome is not None
    return GameResult(outcome=state.outcome, actions=tuple(actions), seats=tuple(seats),
                      seed=family_for(state).seed(state),
                      final_state=state)


@dataclass
class SimStats:
    """What a run of many games found. ``losses_by_bot`` and ``non_losses_by_bot`` are keyed by
    bot name; a name that fills several seats counts every seat it fills (``non_losses`` is the
    fraction of its seat-games that did not end with it as the fool; a draw is a non-loss)."""

    variant: str
    players: int
    games: int
    bots: list[str]
    seed: int
    errors: int = 0
    draws: int = 0
    losses_by_bot: dict[str, int] = field(default_factory=dict)
    seat_games_by_bot: dict[str, int] = field(default_factory=dict)
    errors_by_kind: dict[str, int] = field(default_factory=dict)
    losses_by_seat: list[int] = field(default_factory=list)
    #: Games whose fool was a playing dummy (#57): nobody's loss, so not in losses_by_bot.
    dummy_losses: int = 0
    total_actions: int = 0
    seconds: float = 0.0
    #: The scoring variants' figures (#61-63), only for games that keep them: per bot, the
    #: points and figures scored and the games it was a top scorer in; games whose fool wore
    #: epaulettes, by count.
    tallies: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def completed(self) -> int:
        return self.games - self.errors

    @property
    def mean_actions(self) -> float:
        return self.total_actions / self.completed if self.completed else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    @property
    def non_losses_by_bot(self) -> dict[str, float]:
        """Fraction of each bot's completed seat-games that it did not lose."""
        out = {}
        for name, n in self.seat_games_by_bot.items():
            out[name] = (n - self.losses_by_bot.get(name, 0)) / n if n else 0.0
        return out

    def to_json(self) -> dict[str, Any]:
        """The figures as plain JSON data (the ``bito sim --json`` output)."""
        return {
            "variant": self.variant, "players": self.players, "games": self.games,
            "errors": self.errors, "draws": self.draws,
            "losses_by_bot": dict(self.losses_by_bot),
            "non_losses_by_bot": {k: round(v, 4) for k, v in self.non_losses_by_bot.items()},
            "mean_actions": round(self.mean_actions, 2),
            "games_per_second": round(self.games_per_second, 1),
            "bots": list(self.bots), "seed": self.seed,
            "seat_games_by_bot": dict(self.seat_games_by_bot),
            "losses_by_seat": list(self.losses_by_seat),
            **({"dummy_losses": self.dummy_losses} if self.dummy_losses else {}),
            "errors_by_kind": dict(self.errors_by_kind),
            "seconds": round(self.seconds, 3),
            **({"tallies": {k: dict(v) for k, v in self.tallies.items()}}
               if self.tallies else {}),
        }


def derive_seed(*parts: int) -> int:
    """A 63-bit seed from several integers, stable across runs, machines and Python versions
    (unlike ``hash``), and without the collisions of simple arithmetic mixes."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def seat_of(bot_index: int, game: int, players: int) -> int:
    """Where bot ``bot_index`` sits in game ``game``: seats rotate by one every game."""
    return (bot_index + game) % players


def run_sim(variant: str | Rules, players: int, games: int, bot_names: list[str],
            seed: int | None = 0, progress: Callable[[int, int], None] | None = None,
            deals: int = 1, executor: str | None = None, workers: int | None = None
            ) -> SimStats:
    """Play ``games`` deals of ``variant`` between the named bots (one per seat) and count.

    Game ``g`` is dealt with a seed derived from ``(seed, g)``; bot ``k`` sits at seat
    ``(k + m) % players`` in match ``m = g // deals`` and is built fresh with a seed derived
    from ``(seed, g, k)``, so every game is reproducible on its own. With ``deals > 1`` the
    games form matches of that many deals: the fool deals next and the first attacker follows
    ``next_game_leader`` (VARIANTS.md §1.8). ``seed=None`` picks a fresh seed (reported in the
    stats). ``progress(done, total)`` is called after each game. Exceptions in a game are
    counted in ``errors`` (by exception type in ``errors_by_kind``) and never stop the run.

    ``executor`` (``local``, ``process`` or ``ray``, see :mod:`bito.executors`) splits the
    games into chunks of whole matches, plays them there with ``workers`` workers and merges
    the counts in chunk order, so the figures equal those of the plain run with the same seed
    (``progress`` is then called once per chunk).
    """
    if len(bot_names) != players:
        raise ValueError(f"{len(bot_names)} bot names for {players} players")
    if deals < 1:
        raise ValueError("a match has at least one deal")
    for name in bot_names:
        make_bot(name, 0)  # fail fast on an unknown name, before any game
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    label = variant if isinstance(variant, str) else _rules_label(variant)
    stats = SimStats(variant=label, players=players, games=games, bots=list(bot_names),
                     seed=seed, losses_by_seat=[0] * players)
    if executor is not None:
        from bito.executors import make_executor

        runner = make_executor(executor, workers)  # started before the clock: Ray takes seconds
        start = time.perf_counter()
        try:
            _run_chunks(stats, variant, bot_names, deals, runner, progress)
        finally:
            runner.close()
        stats.seconds = time.perf_counter() - start
        return stats
    start = time.perf_counter()
    previous: PlayState | None = None
    for g in range(games):
        match = None
        if g % deals and previous is not None:
            match = next_match_context(DURAK.own(previous))
        previous = _play_one(variant, players, bot_names, seed, g, stats, g // deals, match)
        if progress is not None:
            progress(g + 1, games)
    stats.seconds = time.perf_counter() - start
    return stats


def _chunk_bounds(games: int, deals: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into about four chunks per worker, cut only between matches."""
    matches = -(-games // deals)
    per_chunk = max(1, -(-matches // (4 * workers)))
    step = per_chunk * deals
    return [(lo, min(lo + step, games)) for lo in range(0, games, step)]


def _play_chunk(job: tuple[str | Rules, int, list[str], int, int, int, int]) -> SimStats:
    """Games ``lo`` to ``hi`` of a run (a whole number of matches), counted on their own; a
    top-level function so that process pools and Ray can ship it."""
    variant, players, bot_names, seed, lo, hi, deals = job
    part = SimStats(variant="", players=players, games=hi - lo, bots=list(bot_names),
                    seed=seed, losses_by_seat=[0] * players)
    previous: PlayState | None = None
    for g in range(lo, hi):
        match = None
        if g % deals and previous is not None:
            match = next_match_context(DURAK.own(previous))
        previous = _play_one(variant, players, bot_names, seed, g, part, g // deals, match)
    return part


def _run_chunks(stats: SimStats, variant: str | Rules, bot_names: list[str], deals: int,
                runner: Executor, progress: Callable[[int, int], None] | None) -> None:
    """Play the run's games in chunks on ``runner`` and add each chunk's counts to ``stats``
    in chunk order (which reproduces the plain loop's counts and key order)."""
    jobs = [(variant, stats.players, list(bot_names), stats.seed, lo, hi, deals)
            for lo, hi in _chunk_bounds(stats.games, deals, runner.workers)]
    done = 0
    for part in runner.map(_play_chunk, jobs):
        _merge_into(stats, part)
        done += part.games
        if progress is not None:
            progress(done, stats.games)


def _merge_into(stats: SimStats, part: SimStats) -> None:
    stats.errors += part.errors
    stats.draws += part.draws
    stats.dummy_losses += part.dummy_losses
    stats.total_actions += part.total_actions
    for name, n in part.seat_games_by_bot.items():
        stats.seat_games_by_bot[name] = stats.seat_games_by_bot.get(name, 0) + n
    for name, n in part.losses_by_bot.items():
        stats.losses_by_bot[name] = stats.losses_by_bot.get(name, 0) + n
    for kind, n in part.errors_by_kind.items():
        stats.errors_by_kind[kind] = stats.errors_by_kind.get(kind, 0) + n
    for seat, n in enumerate(part.losses_by_seat):
        stats.losses_by_seat[seat] += n
    for key, counts in part.tallies.items():
        mine = stats.tallies.setdefault(key, {})
        for name, n in counts.items():
            mine[name] = mine.get(name, 0) + n


def _add_tallies(stats: SimStats, outcome: Outcome, at_seat: list[str]) -> None:
    """Count the scoring variants' results of one game (#61-63) into ``stats.tallies``."""
    def add(key: str, name: str, n: int) -> None:
        counts = stats.tallies.setdefault(key, {})
        counts[name] = counts.get(name, 0) + n

    for seat, n in enumerate(outcome.points):
        add("points_by_bot", at_seat[seat], n)
    for seat in outcome.top_scorers:
        add("top_scorer_by_bot", at_seat[seat], 1)
    for seat, n in enumerate(outcome.figures):
        add("figures_by_bot", at_seat[seat], n)
    if outcome.epaulettes:
        add("epaulettes", str(outcome.epaulettes), 1)


def _play_one(variant: str | Rules, players: int, bot_names: list[str], seed: int, g: int,
              stats: SimStats, rotation: int, match: MatchContext | None
              ) -> PlayState | None:
    """Play game ``g`` of a run and add it to ``stats`` (as an error if anything raised).
    Returns the final state, from which the next deal of a match is set up."""
    at_seat = [""] * players
    bots: list[Bot | None] = [None] * players
    try:
        for k, name in enumerate(bot_names):
            s = seat_of(k, rotation, players)
            at_seat[s] = name
            bots[s] = make_bot(name, derive_seed(seed, g, k))
        state = new_game(variant, players, seed=derive_seed(seed, g), match=match)
        result = play_game(state, [b for b in bots if b is not None])
    except Exception as e:  # one bad game must not stop the run
        stats.errors += 1
        kind = type(e).__name__
        stats.errors_by_kind[kind] = stats.errors_by_kind.get(kind, 0) + 1
        return None
    stats.total_actions += len(result.actions)
    dummy = result.outcome.dummy
    for seat, name in enumerate(at_seat):
        if seat == dummy:
            continue  # #57: nobody plays the dummy's seat as his own
        stats.seat_games_by_bot[name] = stats.seat_games_by_bot.get(name, 0) + 1
        stats.losses_by_bot.setdefault(name, 0)
    outcome = result.outcome
    if outcome.points or outcome.figures or outcome.epaulettes:
        _add_tallies(stats, outcome, at_seat)  # only the scoring variants (#61-63) keep them
    if result.draw:
        stats.draws += 1
    elif result.loser is not None:
        stats.losses_by_seat[result.loser] += 1
        fool = human_loser(outcome)
        if fool is None:
            stats.dummy_losses += 1  # #57 A1: the dummy was the fool; no bot lost
        else:
            stats.losses_by_bot[at_seat[fool]] += 1
    return result.final_state


def _rules_label(rules: Rules) -> str:
    """A short text for custom rules: the options that differ from the base game."""
    changed = rules.changed_options()
    if not changed:
        return "podkidnoy"
    return "custom:" + ",".join(f"{k}={v}" for k, v in sorted(changed.items()))
