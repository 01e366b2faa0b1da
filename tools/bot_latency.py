"""Per-decision latency of a bot level: median and p99 over real games (a benchmark, not a test).

The level plays seat by seat against heuristic bots; every decision with at least two legal moves
is timed (one-move decisions are free and would flatter the figures). For the Durak search it
also counts the playouts of each sampled decision (worlds times moves, from ``bot.last``;
decisions the endgame solver settled have none). Prints one JSON line.

    python tools/bot_latency.py --level strong --games 10 --variant podkidnoy
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bito.bots import make_bot
from bito.games import new_game


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--level", default="strong")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    times: list[float] = []
    playouts: list[int] = []
    for g in range(a.games):
        state = new_game(a.variant, a.players, seed=a.seed + g)
        me = g % a.players
        bots = [make_bot(a.level if s == me else "heuristic", a.seed + g * 10 + s)
                for s in range(a.players)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            t0 = time.perf_counter()
            action = bots[seat].choose(view)
            if seat == me and len(view.legal) > 1:
                times.append((time.perf_counter() - t0) * 1000)
                sampled = sum(getattr(e, "samples", 0) for e in getattr(bots[seat], "last", ()))
                if sampled:
                    playouts.append(sampled)
            state = state.apply(action)
    times.sort()
    print(json.dumps({
        "level": a.level, "variant": a.variant, "players": a.players, "games": a.games,
        "decisions": len(times), "median_ms": round(statistics.median(times), 1),
        "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 1),
        "max_ms": round(times[-1], 1),
        "median_playouts": statistics.median(playouts) if playouts else None}))


if __name__ == "__main__":
    main()
