"""Does the opponent model gain strength? Paired duplicate deals (issue 20, item 6).

Every deal is played in both seat rotations twice: the search bot with uniform worlds against
the heuristic, and the same bot with worlds weighted by the opponent model
(:mod:`bito.bots.style`) against the heuristic, with the same deal and bot seeds as
``bito arena --bots strong,easy --playouts N`` (so the uniform half repeats that run's games).
One JSON line per deal (the search bot's score over the two rotations, each way) goes to
``--out`` as it finishes, so a run can be stopped at any time and summed with ``--summary``.

    nice -n 19 python tools/style_pairs.py --pairs 400 --playouts 1000 --out style.jsonl
    python tools/style_pairs.py --summary style.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from bito.bots.families import FamilyHeuristicBot
from bito.bots.levels import LevelBot
from bito.games import new_game
from bito.games.protocol import human_loser
from bito.sim import derive_seed, play_game


def search_score(variant: str, deal: int, rotation: int, seed: int, playouts: int,
                 style: bool, epsilon: float) -> float:
    """The search bot's score (1 not the fool, ½ a draw, 0 the fool) in one game."""
    n = 2
    seat_of = [(k + rotation) % n for k in range(n)]
    search = LevelBot(derive_seed(seed, deal, rotation, 0), name="strong", think_ms=0.0,
                      playouts=playouts, style=style)
    if search.style is not None:
        search.style.epsilon = epsilon
    easy = FamilyHeuristicBot(derive_seed(seed, deal, rotation, 1))
    bots: list[object] = [None, None]
    bots[seat_of[0]] = search
    bots[seat_of[1]] = easy
    result = play_game(new_game(variant, n, seed=derive_seed(seed, deal)), bots)  # type: ignore[arg-type]
    fool = human_loser(result.outcome)
    if fool is None:
        return 0.5 if result.outcome.draw else 1.0
    return 0.0 if fool == seat_of[0] else 1.0


def summary(path: Path) -> dict[str, float]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    n = len(rows)
    d = [r["styled"] - r["uniform"] for r in rows]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) / 2  # per game: a deal is two games
    return {"pairs": n, "uniform": sum(r["uniform"] for r in rows) / (2 * n),
            "styled": sum(r["styled"] for r in rows) / (2 * n), "gain": mean / 2,
            "gain_95": half,
            "seconds_uniform": sum(r["t_uniform"] for r in rows),
            "seconds_styled": sum(r["t_styled"] for r in rows)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--start", type=int, default=0, help="first deal")
    p.add_argument("--playouts", type=int, default=1000)
    p.add_argument("--epsilon", type=float, default=0.1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path)
    p.add_argument("--summary", type=Path, help="sum up a finished (or stopped) run")
    a = p.parse_args()
    if a.summary:
        print(json.dumps(summary(a.summary), indent=1))
        return 0
    out = a.out.open("a") if a.out else sys.stdout
    for deal in range(a.start, a.start + a.pairs):
        row: dict[str, float | int] = {"deal": deal}
        for style, key in ((False, "uniform"), (True, "styled")):
            t = time.perf_counter()
            row[key] = sum(search_score(a.variant, deal, r, a.seed, a.playouts, style,
                                        a.epsilon) for r in (0, 1))
            row["t_" + key] = round(time.perf_counter() - t, 2)
        out.write(json.dumps(row) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
