"""Check and time the two-player endgame solver (``bito.bots.solver``).

``verify``: solve N random endgames (stock empty, at most ``--max-cards`` cards in hands and on the
table together) with the alpha-beta solver and with the brute-force retrograde reference, and
count agreements. ``time``: solve N random endgames with at most ``--max-cards`` cards in the two
hands and report the median and p99 solve time. Both print one JSON line.

    python tools/solver_check.py verify --count 1000 --max-cards 6 --variant podkidnoy
    python tools/solver_check.py time --count 200 --max-cards 12 --variant podkidnoy
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bito.bots.endgames import endgames
from bito.bots.solver import Solver, brute_force


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("verify", "time"))
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--max-cards", type=int, default=6)
    p.add_argument("--min-cards", type=int, default=1)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    positions = endgames(a.count, a.variant, a.max_cards, a.min_cards, a.seed,
                         with_table=a.mode == "verify")
    times: list[float] = []
    nodes: list[int] = []
    agree = 0
    disagreements: list[str] = []
    for s in positions:
        t0 = time.perf_counter()
        solver = Solver()
        v = solver.value(s, s.to_act)
        times.append((time.perf_counter() - t0) * 1000)
        nodes.append(solver.nodes)
        if a.mode == "verify":
            ref = brute_force(s, s.to_act)
            if ref == v:
                agree += 1
            else:
                disagreements.append(repr(s))
    times.sort()
    out: dict[str, object] = {
        "mode": a.mode, "variant": a.variant, "positions": len(positions),
        "max_cards": a.max_cards, "seed": a.seed,
        "median_ms": round(statistics.median(times), 3),
        "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))], 3),
        "max_ms": round(times[-1], 3), "median_nodes": statistics.median(nodes),
    }
    if a.mode == "verify":
        out["agree"] = agree
        out["disagreements"] = disagreements[:5]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
