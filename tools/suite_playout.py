"""Play a blunder-suite position out after each of some moves, search bots in both seats.

    PYTHONPATH=src python tools/suite_playout.py POSITION MOVE[,MOVE...] [--worlds 150]
        [--playouts 1000] [--seed 21] [--json]

POSITION is a blunder-suite name (bito/bots/blunders.txt) or a position in notation.

A check of a suite verdict that does not lean on the search's own estimate of the move: the
cards the mover cannot see are dealt at random, consistently with his view (the first world
is the position as the suite gives it), and in each world every listed move is played and
the game finished by search bots (:class:`bito.bots.levels.LevelBot`, ``--playouts`` per
decision, each seat deciding from its own view only). The same worlds and bot seeds serve
every move, so the comparison is paired. It reports the mover's rate of not being the fool
after each move and, for each pair, the paired difference with its standard error.
Playout budgets only, no clock: the same arguments give the same figures on any machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any


def play_out(world: Any, move: str, world_index: int, playouts: int) -> float:
    """The mover's score (1 not the fool, ½ a draw, 0 the fool) after ``move`` in ``world``."""
    from bito.bots.levels import LevelBot
    from bito.games.protocol import decider, seen_by

    me = world.to_act
    bots = {s: LevelBot(1000 * world_index + s, name="playout", think_ms=0,
                        playouts=playouts, solver_nodes=200_000)
            for s in range(world.players)}
    for s, bot in bots.items():
        bot.remember(world.view(s))
    state = world.apply(next(a for a in world.legal_actions() if str(a) == move))
    while not state.is_over:
        mover, seat = decider(state), state.to_act
        view = state.view(seat)
        action = bots[mover].choose(view) if len(view.legal) > 1 else view.legal[0]
        for s, bot in bots.items():
            if s != mover:
                bot.observe(state.view(s), seat, seen_by(state, action, s))
        state = state.apply(action)
    loser = state.outcome.loser
    return 0.5 if loser is None else 0.0 if loser == me else 1.0


def main() -> int:
    from bito.bots.blunders import load_suite
    from bito.bots.determinize import template
    from bito.bots.tracking import CardTracker
    from bito.notation import parse_position

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("position", help="a suite position's name (bito/bots/blunders.txt) or a "
                   "position in notation")
    p.add_argument("moves", help="the moves to compare, comma-separated, in notation")
    p.add_argument("--worlds", type=int, default=150)
    p.add_argument("--playouts", type=int, default=1000, help="per decision of each bot")
    p.add_argument("--seed", type=int, default=21, help="the worlds' seed")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if "players=" in args.position:
        start = parse_position(args.position)
    else:
        found = [b for b in load_suite() if b.name == args.position]
        if not found:
            print(f"position: no suite position {args.position!r}", file=sys.stderr)
            return 2
        start = found[0].state
    moves = args.moves.split(",")
    legal = {str(a) for a in start.legal_actions()}
    for m in moves:
        if m not in legal:
            print(f"moves: {m!r} is not legal there ({', '.join(sorted(legal))})",
                  file=sys.stderr)
            return 2
    view = start.view(start.to_act)
    tracker = CardTracker()
    tracker.update(view)
    worlds_of = template(view, tracker)
    rng = random.Random(args.seed)
    worlds = [start] + [worlds_of.sample(rng) for _ in range(args.worlds - 1)]
    rows: list[dict[str, float]] = []
    began = time.process_time()
    for i, world in enumerate(worlds):
        rows.append({m: play_out(world, m, i, args.playouts) for m in moves})
        if not args.json:
            print(f"world {i}: {rows[-1]}", file=sys.stderr, flush=True)
    n = len(rows)
    report: dict[str, Any] = {
        "position": args.position, "worlds": n, "playouts": args.playouts, "seed": args.seed,
        "not_the_fool": {m: round(sum(r[m] for r in rows) / n, 3) for m in moves},
        "differences": {}, "cpu_s": round(time.process_time() - began, 1)}
    for i, a in enumerate(moves):
        for b in moves[i + 1:]:
            d = [r[a] - r[b] for r in rows]
            mean = sum(d) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
            report["differences"][f"{a} - {b}"] = {"mean": round(mean, 3),
                                                   "se": round(sd / math.sqrt(n), 3)}
    print(json.dumps(report, ensure_ascii=False) if args.json else
          "\n".join(f"{k}: {v}" for k, v in report.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
