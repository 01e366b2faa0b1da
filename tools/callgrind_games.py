#!/usr/bin/env python
"""Deals or full random games of the reference engine, to count their instructions.

The machine is shared, so wall-clock figures wander by a third from run to run; valgrind's
instruction count does not. Run the script three times under callgrind, once per mode, and
take differences: ``warm`` only imports and warms the caches (20 games), ``deal`` adds N deals
(``new_game``), ``full`` adds N full games (``bito.bench.reference_game``: the deal and the
random playout)::

    for mode in warm deal full; do
        valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$mode \\
            python tools/callgrind_games.py $mode 1000 2>&1 | grep Collected
    done

Then per game: deal = (deal - warm) / N, playout = (full - deal) / N, both = (full - warm) / N
(``callgrind_annotate /tmp/cg.full | head -40`` shows where they go). Podkidnoy, two players,
seeds 0 to N - 1, moves drawn from ``random.Random(1)``; ``--variant`` and ``--players`` pick
another case.
"""

from __future__ import annotations

import argparse
import random

from bito.bench import reference_game
from bito.games.durak import new_game
from bito.rules import rules_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("mode", choices=("warm", "deal", "full"))
    parser.add_argument("games", type=int, nargs="?", default=1000)
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    rules = rules_for(args.variant)
    warm = random.Random(7)
    for seed in range(20):  # fill the per-rules caches, as a long run would have
        reference_game(rules, args.players, 10**6 + seed, warm)
    rng = random.Random(1)
    actions = 0
    if args.mode == "deal":
        for seed in range(args.games):
            new_game(rules, args.players, seed=seed)
    elif args.mode == "full":
        for seed in range(args.games):
            actions += reference_game(rules, args.players, seed, rng)
    print(args.mode, args.games, actions)


if __name__ == "__main__":
    main()
