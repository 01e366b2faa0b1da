"""``bito bench``: how many random-vs-random games per second an engine plays on one core.

The measured unit is a *full game*: the deal (shuffle, trump, first attacker) plus every move to
the end, because that is what a simulation, an arena match or an RL rollout pays for. Moves are
uniformly random legal moves, so the figure measures the engine and not a bot.

Engines are pluggable so that a fast kernel can add its rows next to the reference engine and be
compared on the same cases: :func:`register_engine` takes a function that plays one game and
returns its number of actions.
"""

from __future__ import annotations

import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bito.games.durak import new_game
from bito.games.durak.playout import random_playout
from bito.rules import Rules, rules_for

#: Plays one full random game of ``rules`` with ``players`` seats dealt from ``seed``, choosing
#: moves with ``rng``; returns the number of actions played.
EngineGame = Callable[[Rules, int, int, random.Random], int]


@dataclass(frozen=True)
class BenchCase:
    """One row of the benchmark: a name, a variant spec and a seat count."""

    name: str
    variant: str
    players: int


#: The cases issue 2 asks for; a later engine reports the same names so rows line up.
DEFAULT_CASES: tuple[BenchCase, ...] = (
    BenchCase("podkidnoy-2p", "podkidnoy", 2),
    BenchCase("podkidnoy-4p", "podkidnoy", 4),
    BenchCase("perevodnoy-2p", "perevodnoy", 2),
)

DEFAULT_SECONDS = 2.0
"""Time budget per case when neither a game count nor a time is given."""


def reference_game(rules: Rules, players: int, seed: int, rng: random.Random) -> int:
    """One game on the pure-Python reference engine (deal included)."""
    _, steps = random_playout(new_game(rules, players, seed=seed), rng)
    return steps


_ENGINES: dict[str, EngineGame] = {"reference": reference_game}


def register_engine(name: str, game: EngineGame) -> None:
    """Add an engine whose rows ``run_bench(engines=[name, ...])`` can report."""
    _ENGINES[name] = game


def engine_names() -> list[str]:
    return sorted(_ENGINES)


def measure(case: BenchCase, engine: str = "reference", games: int | None = None,
            seconds: float | None = None, seed: int = 0) -> dict[str, Any]:
    """Play games of one case until ``games`` are done or ``seconds`` have passed (whichever
    comes first when both are given; :data:`DEFAULT_SECONDS` when neither is)."""
    play = _ENGINES[engine]
    if games is None and seconds is None:
        seconds = DEFAULT_SECONDS
    rules = rules_for(case.variant)
    rng = random.Random(seed)
    # A few untimed games first, so imports and first-call caches do not count.
    for i in range(3):
        play(rules, case.players, seed - 1 - i, rng)
    played = 0
    actions = 0
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds if seconds is not None else float("inf")
    while (games is None or played < games) and (played == 0 or clock() < deadline):
        actions += play(rules, case.players, seed + played, rng)
        played += 1
    elapsed = clock() - start
    return {
        "name": case.name,
        "engine": engine,
        "variant": case.variant,
        "players": case.players,
        "games": played,
        "seconds": round(elapsed, 4),
        "games_per_second": round(played / elapsed, 1) if elapsed > 0 else float(played),
        "mean_actions": round(actions / played, 2),
    }


def machine_text() -> str:
    """Where the figures come from: they only compare within one machine."""
    cpu = platform.processor() or platform.machine()
    return f"{platform.system()} {platform.machine()} ({cpu})"


def run_bench(games: int | None = None, seconds: float | None = None, seed: int = 0,
              engines: Sequence[str] = ("reference",),
              cases: Sequence[BenchCase] = DEFAULT_CASES,
              progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run every case on every engine; the dict is what ``bito bench --json`` prints."""
    unknown = [e for e in engines if e not in _ENGINES]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r} (known: {', '.join(engine_names())})")
    results = []
    for case in cases:
        for engine in engines:
            row = measure(case, engine, games=games, seconds=seconds, seed=seed)
            results.append(row)
            if progress is not None:
                progress(row)
    return {
        "results": results,
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "machine": machine_text(),
    }


def format_table(report: dict[str, Any]) -> str:
    """The report as an aligned text table for the terminal."""
    lines = [f"{'case':<16}{'engine':<12}{'games':>8}{'games/s':>11}{'actions/game':>14}"]
    for r in report["results"]:
        lines.append(f"{r['name']:<16}{r['engine']:<12}{r['games']:>8}"
                     f"{r['games_per_second']:>11.1f}{r['mean_actions']:>14.1f}")
    lines.append(f"python {report['python']}; machine {report['machine']}; one core")
    return "\n".join(lines)
