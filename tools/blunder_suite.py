"""Score bots on the blunder suite (``src/bito/bots/blunders.txt``), one JSON line per bot.

By default every level plays at its own budget (its clock: 40 ms for medium, 250 ms for strong),
which is what a player meets; ``--playouts N`` fixes the search budget instead (as the test
does), and ``--no-tie-break`` switches the search's tie-break off (``tie_alpha=0``) to compare
with the search before it.

    python tools/blunder_suite.py --bots easy,medium,strong
    python tools/blunder_suite.py --bots strong --playouts 3000 --no-tie-break
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from bito.bots.blunders import SuiteError, load_suite, run_suite
from bito.bots.levels import make_level


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="easy,medium,strong")
    ap.add_argument("--playouts", type=int, default=0, help="fixed playouts (0: own clock)")
    ap.add_argument("--seed", type=int, default=7000, help="bot seed of the first position")
    ap.add_argument("--suite", default=None, help="a suite file (default: the shipped one)")
    ap.add_argument("--no-tie-break", action="store_true")
    a = ap.parse_args()
    try:
        suite = load_suite(a.suite)
    except (SuiteError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for name in a.bots.split(","):
        def make(i: int, name: str = name) -> Any:
            bot = make_level(name, a.seed + i, playouts=a.playouts or None)
            if a.no_tie_break and hasattr(bot, "tie_alpha"):
                bot.tie_alpha = 0.0
            return bot

        started = time.perf_counter()
        result = run_suite(suite, make)
        out = {"bot": name, "playouts": a.playouts or None, "tie_break": not a.no_tie_break,
               **result.to_json(), "seconds": round(time.perf_counter() - started, 1)}
        print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
