"""Play the Durak search on every Durak-family id of the registry and report what fails.

For each id (a game as itself, a house rule stacked on podkidnoy, or on its first accepted
base) it plays ``--games`` games at ``--players`` seats: seat 0 is a :class:`SearchBot` with a
small playout budget, the other seats the heuristic. Every decision of seat 0 with a choice
is searched (nothing falls back), so an error names a variant the search cannot play. Prints
one JSON line per id, then a summary line; exit status 1 if any search raised.

    python tools/search_sweep.py --games 2 --playouts 16
"""

from __future__ import annotations

import argparse
import json
import sys

from bito.bots import make_bot
from bito.bots.search import SearchBot
from bito.games.durak import new_game
from bito.rules.registry import all_variants


def specs() -> list[str]:
    out = []
    for v in all_variants():
        if v.family != "durak":
            continue
        if v.kind == "modifier":
            bases = [b for b in ("podkidnoy", "simple", "perevodnoy")
                     if not v.applies_to or b in v.applies_to] or list(v.applies_to[:1])
            out.append(f"{bases[0]}+{v.id}")
        else:
            out.append(v.id)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--playouts", type=int, default=16)
    a = p.parse_args()
    failed = 0
    swept = 0
    for spec in specs():
        searched = 0
        error = None
        for g in range(a.games):
            try:
                state = new_game(spec, a.players, seed=g)
            except Exception as e:  # a variant that does not seat this many players
                error = f"not dealt: {type(e).__name__}: {e}"
                break
            bots = [SearchBot(g, think_ms=0, playouts=a.playouts, min_worlds=2,
                              solver_nodes=2000)]
            bots += [make_bot("heuristic", g + k) for k in range(1, a.players)]
            try:
                while not state.is_over:
                    seat = state.decider
                    view = state.view(seat)
                    if seat == 0 and len(view.legal) > 1:
                        searched += 1
                    state = state.apply(bots[seat].choose(view))
            except Exception as e:
                error = f"{type(e).__name__}: {e}"
                failed += 1
                break
        swept += 1
        print(json.dumps({"spec": spec, "players": a.players, "searched": searched,
                          "error": error}), flush=True)
    print(json.dumps({"swept": swept, "failed": failed}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
