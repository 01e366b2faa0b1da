#!/usr/bin/env python
"""Games per CPU second of a peer engine, to tell how fast this machine is.

Issue 2 sets its speed target next to figures measured on the issue writers' machines: the
fastest Python peers at 300-800 random games a second. Those figures come from the research
report (``../shared/research/peers.md``). Its fastest peer, durakgame 1.0.4, played
MrFirst vs MrFirst at 787 games/s (649-1,048) and 75.5 decisions a game. Running the same
package here, in turn with ``bito bench``, says whether this machine is of that kind.
durakgame is not a dependency of bito. Install it into a throw-away environment::

    python -m venv /tmp/peer && /tmp/peer/bin/pip install durakgame==1.0.4
    /tmp/peer/bin/python tools/peer_yardstick.py --games 2000 --json

The script plays the games with the peer's own ``play`` and ``MrFirst`` and imports nothing
from bito.
"""

from __future__ import annotations

import argparse
import json
import random
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from durakgame.interface import play
    from durakgame.player import MrFirst

    random.seed(1)  # durakgame shuffles with the module-level generator
    for _ in range(50):  # warm up
        play(MrFirst(), MrFirst())
    moves = 0
    start = time.process_time()
    for _ in range(args.games):
        history = play(MrFirst(), MrFirst())
        moves += len(history.p1Moves) + len(history.p2Moves)
    seconds = time.process_time() - start
    result = {"name": "durakgame-1.0.4-mrfirst-2p", "games": args.games,
              "games_per_cpu_second": round(args.games / seconds, 1),
              "mean_moves": round(moves / args.games, 2)}
    print(json.dumps(result) if args.json else
          f"{result['games_per_cpu_second']} games/s, {result['mean_moves']} moves a game")


if __name__ == "__main__":
    main()
