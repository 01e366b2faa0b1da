"""Per-decision latency of a bot level: median and p99 over real games (a benchmark, not a test).

The level plays seat by seat against heuristic bots; every decision with at least two legal moves
is timed (one-move decisions are free and would flatter the figures). For the Durak search it
also counts the playouts of each sampled decision (worlds times moves, from ``bot.last``;
decisions the endgame solver settled have none). Prints one JSON line.

    python tools/bot_latency.py --level strong --games 10 --variant podkidnoy
    python tools/bot_latency.py --level strong --families --games 1   # one line per family

It also reports the **first** timed decision of the run (``first_ms``) and, for the Durak
search, the first decision the endgame solver settled (``first_solve_ms``): those are the ones
that would pay for loading compiled code if nothing loaded it before the game.
``--cold`` times, in a fresh process, building the bot (``build_ms``: imports and the compiled
playouts) and its first decision (``first_decision_ms``).

Every line also gives the CPU time of the same decisions (``cpu_*``). On a busy machine the
search's wall-clock budget runs out while it waits for a core, so it samples fewer worlds than
an idle core would; ``--cpu-clock`` makes the searches read the process's CPU clock instead,
so each decision spends its budget in CPU time as on an idle core, and ``cpu_*`` is then what
one idle core would take (the wall figures measure the load).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from typing import Any

from bito.bots import make_bot
from bito.games import new_game

#: One game of each family the levels search (variant, players), as in docs/bots.md.
FAMILIES = (
    ("podkidnoy", 2, "durak"), ("perevodnoy", 2, "durak"), ("simple", 2, "durak"),
    ("podkidnoy", 4, "durak"), ("believe_not_believe_2", 2, "social (cheat)"),
    ("animal_sounds", 2, "social"), ("czech_fool", 2, "shedding"),
    ("ontoys_adjacent_rank", 2, "shedding"), ("heaped", 2, "bouts"),
    ("chain_fool", 2, "bouts"), ("chinese", 2, "bouts"), ("polish_fool", 2, "bouts"),
    ("friese_fool", 4, "tricks"),
)


def measure(level: str, variant: str, players: int, games: int, seed: int) -> dict[str, Any]:
    times: list[float] = []
    cpu: list[float] = []
    playouts: list[int] = []
    first_solve: float | None = None
    for g in range(games):
        state = new_game(variant, players, seed=seed + g)
        me = g % players
        bots = [make_bot(level if s == me else "heuristic", seed + g * 10 + s)
                for s in range(players)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            t0 = time.perf_counter()
            c0 = time.process_time()
            action = bots[seat].choose(view)
            if seat == me and len(view.legal) > 1:
                cpu.append((time.process_time() - c0) * 1000)
                ms = (time.perf_counter() - t0) * 1000
                times.append(ms)
                last = getattr(bots[seat], "last", ())
                sampled = sum(getattr(e, "samples", 0) for e in last)
                if sampled:
                    playouts.append(sampled)
                if first_solve is None and any(getattr(e, "proven", None) is not None
                                               for e in last):
                    first_solve = ms
            state = state.apply(action)
    first = times[0] if times else None
    times.sort()
    cpu.sort()
    if not times:
        return {"level": level, "variant": variant, "players": players, "games": games,
                "decisions": 0}
    return {
        "level": level, "variant": variant, "players": players, "games": games,
        "decisions": len(times), "median_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 1),
        "max_ms": round(times[-1], 1),
        # CPU time of the process over the same decisions: what the decision cost a core,
        # apart from waiting for one on a busy machine (the budget is wall-clock, so a busy
        # machine still cuts the worlds earlier than an idle one would).
        "cpu_median_ms": round(statistics.median(cpu), 1),
        "cpu_p99_ms": round(cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))], 1),
        "cpu_max_ms": round(cpu[-1], 1),
        "first_ms": None if first is None else round(first, 1),
        "first_solve_ms": None if first_solve is None else round(first_solve, 1),
        "median_playouts": statistics.median(playouts) if playouts else None}


COLD = """
import json, time
t0 = time.perf_counter()
from bito.bots import make_bot
from bito.games import new_game
bot = make_bot({level!r}, 1)
t1 = time.perf_counter()
state = new_game({variant!r}, 2, seed=3)
while len(state.legal_actions()) < 2:
    state = state.apply(state.legal_actions()[0])
bot.choose(state.view(state.to_act))
t2 = time.perf_counter()
print(json.dumps({{"build_ms": round((t1 - t0) * 1000, 1),
                  "first_decision_ms": round((t2 - t1) * 1000, 1)}}))
"""


def cold(level: str, variant: str) -> dict[str, Any]:
    """Build the bot and make its first decision in a fresh process."""
    out = subprocess.run([sys.executable, "-c", COLD.format(level=level, variant=variant)],
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return {"level": level, "variant": variant, "cold": True, **result}


def use_cpu_clock() -> None:
    """Make the searches (Durak, the other families, the endgame solver) time their budgets
    by the process's CPU clock rather than the wall clock."""
    import types

    from bito.bots import pimc, search, solver

    clock = types.SimpleNamespace(perf_counter=time.process_time)
    for module in (search, pimc, solver):
        setattr(module, "time", clock)  # noqa: B010


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--level", default="strong")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--families", action="store_true",
                   help="one line per family (FAMILIES), --games games each")
    p.add_argument("--cold", action="store_true",
                   help="time building the bot and its first decision in a fresh process")
    p.add_argument("--cpu-clock", action="store_true",
                   help="the searches time their budget in CPU time (what an idle core takes)")
    a = p.parse_args()
    if a.cpu_clock:
        use_cpu_clock()
    if a.cold:
        print(json.dumps(cold(a.level, a.variant)))
        return
    runs = ([(v, n, fam) for v, n, fam in FAMILIES] if a.families
            else [(a.variant, a.players, "")])
    for variant, players, family in runs:
        row = measure(a.level, variant, players, a.games, a.seed)
        if family:
            row["family"] = family
        row["clock"] = "cpu" if a.cpu_clock else "wall"
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
