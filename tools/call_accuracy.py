"""How often a bot's believe/doubt call on face-down covers (#59) is right (a benchmark).

Plays heuristic games of ``believe_not_believe`` (the heuristic defender covers honestly when
it can and bluffs with its cheapest card when it cannot), stops at every call, asks the bot,
and counts the calls that the turned-up covers prove right (believe honest covers, doubt a
bluff). The games go on with the heuristic's call, so every bot version sees the same
positions for the same seeds. One JSON line.

    python tools/call_accuracy.py --games 100 --level strong --playouts 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import time

from bito.bots import make_bot
from bito.bots.levels import make_level
from bito.games.durak import new_game
from bito.games.durak.actions import BELIEVE
from bito.games.durak.believe import CALL_PHASE, honest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default="strong")
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    calls = right = honest_calls = believed_honest = bluffs = doubted_bluffs = 0
    heuristic_right = 0
    for g in range(args.games):
        seed = args.seed * 100_000 + g
        state = new_game("believe_not_believe", 2, seed=seed)
        bots = [make_bot("heuristic", seed + k) for k in range(2)]
        searcher = make_level(args.level, seed, playouts=args.playouts)
        while not state.is_over:
            view = state.view(state.to_act)
            action = bots[state.to_act].choose(view)
            if state.phase == CALL_PHASE:
                fair = honest(state)
                call = searcher.choose(view)
                good = (call.kind == BELIEVE) == fair
                calls += 1
                right += good
                heuristic_right += (action.kind == BELIEVE) == fair
                if fair:
                    honest_calls += 1
                    believed_honest += call.kind == BELIEVE
                else:
                    bluffs += 1
                    doubted_bluffs += call.kind != BELIEVE
            state = state.apply(action)
    print(json.dumps({
        "level": args.level, "playouts": args.playouts, "games": args.games, "seed": args.seed,
        "calls": calls, "right": right, "rate": round(right / max(calls, 1), 4),
        "heuristic_rate": round(heuristic_right / max(calls, 1), 4),
        "honest_covers": honest_calls, "believed_honest": believed_honest,
        "bluffs": bluffs, "doubted_bluffs": doubted_bluffs,
        "seconds": round(time.perf_counter() - started, 1)}))


if __name__ == "__main__":
    main()
