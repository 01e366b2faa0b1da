"""Playouts per second of the family search's playout loop (``bito.bots.pimc.playout``).

Plays 20 playouts (the family heuristic, one move in ten random, from fixed seeds) from the
first position of each of N deals and prints the playouts per CPU second, so two versions of
the engines can be compared on the same work:

    PYTHONPATH=OLD/src python tools/family_playout_speed.py friese_fool 4 40
    PYTHONPATH=src     python tools/family_playout_speed.py friese_fool 4 40

``sum`` is the total of the playout values: equal for two versions that play the same games
(unless the playout scoring itself changed).
"""

from __future__ import annotations

import random
import sys
import time

from bito.bots.pimc import playout
from bito.games import new_game


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit("usage: family_playout_speed.py VARIANT PLAYERS DEALS")
    variant, players, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    states = [new_game(variant, players, seed=s) for s in range(n)]
    started = time.process_time()
    total = 0.0
    for k, s in enumerate(states):
        for r in range(20):
            total += playout(s, 0, random.Random(k * 100 + r))
    spent = time.process_time() - started
    print(f"{variant}: {n * 20} playouts, {spent:.2f} s CPU, {n * 20 / spent:.0f} a second, "
          f"sum {total:.4f}")


if __name__ == "__main__":
    main()
