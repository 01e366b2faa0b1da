"""``bito bench``: how many random-vs-random games per second an engine plays on one core.

The measured unit is a *full game*: the deal (shuffle, trump, first attacker) plus every move to
the end, because that is what a simulation, an arena match or an RL rollout pays for. Moves are
uniformly random legal moves, so the figure measures the engine and not a bot.

The ``reference`` rows are the reference engine's general path: ``new_game``, then
``legal_actions`` and ``apply`` until the game is over, the way any caller plays it. There is no
games-per-second target for it (issue 17 withdrew the old one, and with it the inlined two-seat
loop written to reach it); speed comes from the compiled kernel, whose rows are measured
against these. The ``playout`` rows play :func:`~bito.games.durak.playout.random_playout` on
the fresh deal (the same games, stepped in place), what the search bots fall back to without
the kernel.

Engines are pluggable so that a fast kernel can add its rows next to the reference engine and be
compared on the same cases: :func:`register_engine` takes a function that plays one game and
returns its number of actions; :func:`register_batch_engine` one that plays many games per call
(the compiled kernel, ``engine: "kernel"``, whose per-call overhead would otherwise dominate).
Rows give wall-clock speed and, because our machines are shared, speed per CPU-second of this
process too; a row of another engine carries its ``speedup`` over the reference row of the same
case and run.

``run_verify`` is ``bito bench --verify N``: N random games per base game, each with random
options, replayed move by move on the kernel against the reference engine
(:mod:`bito.kernel.verify`).
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
from bito.i18n import _, ngettext
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
    """One game on the reference engine's general path, through its public API (deal
    included): what a caller without the kernel pays per game."""
    state = new_game(rules, players, seed=seed)
    rand = rng.random
    steps = 0
    while not state.is_over:
        acts = state.legal_actions()
        state = state.apply(acts[int(rand() * len(acts))])
        steps += 1
    return steps


def playout_game(rules: Rules, players: int, seed: int, rng: random.Random) -> int:
    """The same game as :func:`reference_game` (same moves from the same random stream),
    stepped in place by :func:`~bito.games.durak.playout.random_playout`."""
    _, steps = random_playout(new_game(rules, players, seed=seed), rng, in_place=True)
    return steps


_ENGINES: dict[str, EngineGame] = {"reference": reference_game, "playout": playout_game}

#: Plays ``games`` full random games of ``rules`` with ``players`` seats from ``seed`` in one
#: call; returns the total number of actions.
BatchGames = Callable[[Rules, int, int, int], int]


def kernel_games(rules: Rules, players: int, seed: int, games: int) -> int:
    """Full games on the compiled kernel (:func:`bito.kernel.play_random_games`)."""
    from bito.kernel import available, play_random_games, supports

    if not available():
        raise ValueError("the kernel engine needs numba: pip install 'bito[fast]'")
    if not supports(rules, players):
        raise ValueError("the kernel does not play these rules")
    return play_random_games(rules, players, games, seed, specialise=True)[1]


_BATCH_ENGINES: dict[str, BatchGames] = {"kernel": kernel_games}
BATCH = 2000
"""Games per call of a batch engine while the clock runs."""


def register_engine(name: str, game: EngineGame) -> None:
    """Add an engine whose rows ``run_bench(engines=[name, ...])`` can report."""
    _ENGINES[name] = game


def register_batch_engine(name: str, games: BatchGames) -> None:
    """Add an engine that plays many games per call (see :data:`BatchGames`)."""
    _BATCH_ENGINES[name] = games


def engine_names() -> list[str]:
    return sorted({*_ENGINES, *_BATCH_ENGINES})


def measure(case: BenchCase, engine: str = "reference", games: int | None = None,
            seconds: float | None = None, seed: int = 0) -> dict[str, Any]:
    """Play games of one case until ``games`` are done or ``seconds`` have passed (whichever
    comes first when both are given; :data:`DEFAULT_SECONDS` when neither is)."""
    if games is None and seconds is None:
        seconds = DEFAULT_SECONDS
    rules = rules_for(case.variant)
    rng = random.Random(seed)
    batch = _BATCH_ENGINES.get(engine)
    play = _ENGINES.get(engine, reference_game)
    # Untimed games first, so imports, compilation and first-call caches do not count.
    if batch is not None:
        batch(rules, case.players, seed - 1, 50)
    else:
        for i in range(3):
            play(rules, case.players, seed - 1 - i, rng)
    played = 0
    actions = 0
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds if seconds is not None else float("inf")
    while (games is None or played < games) and (played == 0 or clock() < deadline):
        if batch is not None:
            n = BATCH if games is None else min(BATCH, games - played)
            actions += batch(rules, case.players, seed + played, n)
            played += n
        else:
            actions += play(rules, case.players, seed + played, rng)
            played += 1
    elapsed = clock() - start
    cpu = time.process_time() - cpu_start
    return {
        "name": case.name,
        "engine": engine,
        "variant": case.variant,
        "players": case.players,
        "games": played,
        "seconds": round(elapsed, 4),
        "games_per_second": round(played / elapsed, 1) if elapsed > 0 else float(played),
        "mean_actions": round(actions / played, 2),
        "cpu_seconds": round(cpu, 4),
        "games_per_cpu_second": round(played / cpu, 1) if cpu > 0 else float(played),
    }


def machine_text() -> str:
    """Where the figures come from: they only compare within one machine."""
    cpu = platform.processor() or platform.machine()
    return f"{platform.system()} {platform.machine()} ({cpu})"


def run_bench(games: int | None = None, seconds: float | None = None, seed: int = 0,
              engines: Sequence[str] = ("reference",),
              cases: Sequence[BenchCase] = DEFAULT_CASES,
              progress: Callable[[dict[str, Any]], None] | None = None,
              repeat: int = 1) -> dict[str, Any]:
    """Run every case on every engine; the dict is what ``bito bench --json`` prints.

    With ``repeat`` > 1 every case is measured that many times, in rounds (each round runs
    every case once), so that a machine whose speed drifts touches every case alike. A row
    then reports the median run's figures, with every run's rate in ``runs`` and the best and
    worst in ``best_games_per_second`` and ``worst_games_per_second``: on a shared machine a
    single run says as much about the neighbours as about the engine."""
    unknown = [e for e in engines if e not in _ENGINES and e not in _BATCH_ENGINES]
    if unknown:
        raise ValueError(f"unknown engine {unknown[0]!r} (known: {', '.join(engine_names())})")
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    runs: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for _round in range(repeat):
        for case in cases:
            for engine in engines:
                runs.setdefault((case.name, engine), []).append(
                    measure(case, engine, games=games, seconds=seconds, seed=seed))
    results = []
    for case in cases:
        rows = [_median_row(runs[(case.name, engine)]) for engine in engines]
        reference = next((r for r, e in zip(rows, engines, strict=True) if e == "reference"),
                         None)
        for row in rows:
            if reference is not None and row is not reference:
                row["speedup"] = round(row["games_per_second"]
                                       / max(reference["games_per_second"], 1e-9), 1)
                row["cpu_speedup"] = round(row["games_per_cpu_second"]
                                           / max(reference["games_per_cpu_second"], 1e-9), 1)
            results.append(row)
            if progress is not None:
                progress(row)
    return {
        "results": results,
        "python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        "machine": machine_text(),
        "repeat": repeat,
    }


def _median_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One case's runs as one row: the run with the median rate (the lower middle one of an
    even count, so the row's figures all come from one real run), plus every run's rate."""
    if len(rows) == 1:
        return rows[0]
    ranked = sorted(rows, key=lambda r: r["games_per_second"])
    row = dict(ranked[(len(ranked) - 1) // 2])
    row["runs"] = [r["games_per_second"] for r in rows]
    row["cpu_runs"] = [r["games_per_cpu_second"] for r in rows]
    row["best_games_per_second"] = ranked[-1]["games_per_second"]
    row["worst_games_per_second"] = ranked[0]["games_per_second"]
    return row


def format_table(report: dict[str, Any]) -> str:
    """The report as an aligned text table for the terminal."""
    head = (_("case"), _("engine"), _("games"), _("games/s"), _("per cpu-s"),
            _("actions/game"), _("speedup"))
    w = [max(width, len(h) + 2) for h, width in zip(head, (16, 12, 8, 11, 11, 14, 9),
                                                     strict=True)]
    lines = [f"{head[0]:<{w[0]}}{head[1]:<{w[1]}}" + "".join(
        f"{h:>{wi}}" for h, wi in zip(head[2:], w[2:], strict=True))]
    for r in report["results"]:
        speedup = f"{r['speedup']:.1f}x" if "speedup" in r else ""
        lines.append(f"{r['name']:<{w[0]}}{r['engine']:<{w[1]}}{r['games']:>{w[2]}}"
                     f"{r['games_per_second']:>{w[3]}.1f}{r['games_per_cpu_second']:>{w[4]}.1f}"
                     f"{r['mean_actions']:>{w[5]}.1f}{speedup:>{w[6]}}")
        if "runs" in r:
            lines.append(f"{'':<{w[0]}}{'':<{w[1]}}{_('runs'):>{w[2]}}  "
                         + " ".join(f"{x:.0f}" for x in r["runs"]) + "  "
                         + _("(median of {n}; best {best})").format(
                             n=len(r["runs"]), best=f"{r['best_games_per_second']:.0f}"))
    lines.append(_("python {python}; machine {machine}; one core").format(
        python=report["python"], machine=report["machine"]))
    return "\n".join(lines)


# --- differential verification ---------------------------------------------------------------

VERIFY_CHUNK = 500
"""Games per unit of work of :func:`run_verify` (each a separate seed, so any executor gives the
same games)."""


def run_verify(games: int, seed: int = 0, executor: str = "local", workers: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """``bito bench --verify N``: ``games`` random games per base game (simple, podkidnoy,
    perevodnoy), each with a random option set, and per named variant the kernel plays
    (``bito.kernel.verify.NAMED``), each with a random seat count and match context, played on the
    reference engine and replayed move by move on the kernel. The dict reports games, actions,
    distinct option sets and disagreements per base game (the first one described)."""
    from bito.executors import make_executor
    from bito.kernel import available

    if not available():
        raise ValueError("--verify needs the kernel: pip install 'bito[fast]'")
    from bito.kernel.verify import VERIFIED, VerifyReport, verify_chunk

    jobs = []
    for b, base in enumerate(VERIFIED):
        for c, lo in enumerate(range(0, games, VERIFY_CHUNK)):
            jobs.append((base, min(VERIFY_CHUNK, games - lo), seed * 1_000_003 + b * 100_003 + c))
    merged = {base: VerifyReport(base) for base in VERIFIED}
    start = time.perf_counter()
    runner = make_executor(executor, workers)
    done = 0
    try:
        for part in runner.map(verify_chunk, jobs):
            into = merged[part.variant]
            into.games += part.games
            into.actions += part.actions
            into.disagreements += part.disagreements
            into.option_sets |= part.option_sets
            into.started += part.started
            into.first_failure = into.first_failure or part.first_failure
            done += part.games
            if progress is not None:
                progress(done, games * len(VERIFIED))
    finally:
        runner.close()
    rows = [m.to_json() for m in merged.values()]
    return {
        "verify": rows,
        "games": sum(r["games"] for r in rows),
        "actions": sum(r["actions"] for r in rows),
        "disagreements": sum(r["disagreements"] for r in rows),
        "seconds": round(time.perf_counter() - start, 1),
        "seed": seed,
    }


def format_verify(report: dict[str, Any]) -> str:
    head = (_("base game"), _("games"), _("actions"), _("option sets"), _("disagreements"))
    w = [max(width, len(h) + 2) for h, width in zip(head, (14, 9, 12, 13, 15), strict=True)]
    lines = [f"{head[0]:<{w[0]}}" + "".join(f"{h:>{wi}}" for h, wi in zip(head[1:], w[1:],
                                                                             strict=True))]
    for r in report["verify"]:
        lines.append(f"{r['variant']:<{w[0]}}{r['games']:>{w[1]}}{r['actions']:>{w[2]}}"
                     f"{r['option_sets']:>{w[3]}}{r['disagreements']:>{w[4]}}")
        if r["first_failure"]:
            lines.append("  " + _("first: {failure}").format(failure=r["first_failure"]))
    games, disagreements = int(report["games"]), int(report["disagreements"])
    lines.append(", ".join((
        ngettext("{n} game", "{n} games", games).format(n=games),
        ngettext("{n} disagreement", "{n} disagreements", disagreements).format(
            n=disagreements),
        _("{seconds} s").format(seconds=report["seconds"]))))
    return "\n".join(lines)
