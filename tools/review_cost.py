"""What a game review costs and how stable its categories are (issue 36, items 1 and 4).

    PYTHONPATH=src python tools/review_cost.py --games 50 --playouts 20000 [--json]

Deals ``--games`` two-player podkidnoy games (seeds 0, 1, ...), plays each with the heuristic
in both seats (the games are reproducible by seed), reviews both seats at ``--playouts`` with
review seed 0, and reports the CPU time per game (``time.process_time``: this process only,
so it does not depend on how loaded the machine is, as far as the cache allows): median and
95th percentile. With ``--stability`` it reviews every game a second time with review seed 1
and reports the share of decisions that land in the same category.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time


def main() -> int:
    from bito.bots import make_bot
    from bito.bots.rollouts import load_kernel_greedy
    from bito.games import new_game
    from bito.review import DEFAULT_PLAYOUTS, review_moves
    from bito.sim import play_game

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--first", type=int, default=0, help="first deal seed")
    p.add_argument("--playouts", type=int, default=DEFAULT_PLAYOUTS)
    p.add_argument("--bots", default="heuristic,heuristic")
    p.add_argument("--stability", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    load_kernel_greedy()  # the compiled playouts: a one-off cost, not the review's
    names = args.bots.split(",")
    cpu: list[float] = []
    decisions = same = 0
    per_category: dict[str, list[int]] = {}
    for g in range(args.first, args.first + args.games):
        start = new_game("podkidnoy", players=2, seed=g)
        result = play_game(start, [make_bot(names[0], 2 * g), make_bot(names[1], 2 * g + 1)])
        moves = list(zip(result.seats, result.actions, strict=True))
        t = time.process_time()
        first = review_moves(start, moves, [0, 1], playouts=args.playouts, seed=0)
        cpu.append(time.process_time() - t)
        line = f"game {g}: {cpu[-1]:.1f} s CPU, {len(first.moves)} decisions"
        if args.stability:
            second = review_moves(start, moves, [0, 1], playouts=args.playouts, seed=1)
            pairs = list(zip(first.moves, second.moves, strict=True))
            agree = sum(a.category == b.category for a, b in pairs)
            decisions += len(pairs)
            same += agree
            for a, b in pairs:
                row = per_category.setdefault(a.category, [0, 0])
                row[0] += 1
                row[1] += a.category == b.category
            line += f", {agree}/{len(pairs)} same category"
        print(line, file=sys.stderr, flush=True)
    cpu.sort()
    p95 = cpu[min(len(cpu) - 1, round(0.95 * (len(cpu) - 1)))]
    report = {"games": len(cpu), "playouts": args.playouts, "bots": names,
              "cpu_median_s": round(statistics.median(cpu), 2), "cpu_p95_s": round(p95, 2),
              "cpu_max_s": round(cpu[-1], 2)}
    if args.stability:
        report["decisions"] = decisions
        report["same_category"] = round(same / max(1, decisions), 4)
        report["same_by_category"] = {k: f"{v[1]}/{v[0]}" for k, v in per_category.items()}
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
