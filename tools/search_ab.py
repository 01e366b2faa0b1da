"""Screen a change to the Durak search: settings of ``strong`` on the same deals (issue 20).

Every deal is played in both seat rotations by ``strong`` against the heuristic twice: once
with the ``--base`` settings and once with the ``--cand`` settings (JSON objects of
:class:`~bito.bots.search.SearchBot` attributes set after the bot is built, e.g.
``'{"epsilon": 0.05}'``). Deal and bot seeds are those of
``bito arena --bots easy,strong --playouts N --seed S``, so the base half with ``'{}'`` repeats
that run's games, and each deal gives a paired difference: most games are played the same
both ways and cancel, which makes a screen of a few hundred deals worth several times as
many unpaired ones.

One JSON line per deal goes to ``--out`` as it finishes (a run may be stopped at any time);
``--summary FILE`` sums a finished or stopped run.

    nice -n 10 python tools/search_ab.py --variant perevodnoy --pairs 400 --seed 1 \\
        --cand '{"halving": true}' --out ab.jsonl --workers 2
    python tools/search_ab.py --summary ab.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bito.bots.families import FamilyHeuristicBot
from bito.bots.levels import make_level
from bito.games import new_game
from bito.games.protocol import human_loser
from bito.sim import derive_seed, play_game


def strong_score(variant: str, deal: int, rotation: int, seed: int, playouts: int,
                 settings: dict[str, Any], players: int = 2) -> tuple[float, int]:
    """``strong``'s score (1 not the fool, ½ a draw, 0 the fool) in one game, seated as
    ``bito arena --bots easy,strong`` seats it (with more players, as ``--bots
    strong,easy,easy,...`` does), and how many heuristic seats were the fool (0 or 1)."""
    n = players
    me = 1 if n == 2 else 0  # strong's index in the arena's bot list
    seat_of = [(k + rotation) % n for k in range(n)]
    strong = make_level("strong", derive_seed(seed, deal, rotation, me), think_ms=0.0,
                        playouts=playouts)
    for key, value in settings.items():
        if not hasattr(strong, key):
            raise SystemExit(f"--base/--cand: the search bot has no setting {key!r}")
        setattr(strong, key, value)
    bots: list[Any] = [None] * n
    for k in range(n):
        bots[seat_of[k]] = strong if k == me else FamilyHeuristicBot(
            derive_seed(seed, deal, rotation, k))
    result = play_game(new_game(variant, n, seed=derive_seed(seed, deal)), bots)
    fool = human_loser(result.outcome)
    if fool is None:
        return (0.5 if result.outcome.draw and n == 2 else 1.0), 0
    return (0.0, 0) if fool == seat_of[me] else (1.0, 1)


def play_deal(job: tuple[str, int, int, int, dict[str, Any] | None, list[dict[str, Any]], int]
              ) -> dict[str, float | int]:
    variant, deal, seed, playouts, base, cands, players = job
    row: dict[str, float | int] = {"deal": deal}
    arms = [("base", base)] if base is not None else []
    arms += [("cand" if j == 0 else f"cand{j}", c) for j, c in enumerate(cands)]
    for key, settings in arms:
        t = time.perf_counter()
        games = [strong_score(variant, deal, r, seed, playouts, settings, players)
                 for r in range(players)]
        row[key] = sum(g[0] for g in games)
        if players > 2:
            row["fools_" + key] = sum(g[1] for g in games)
        row["t_" + key] = round(time.perf_counter() - t, 2)
    return row


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def summary(path: Path, key: str = "cand", base_from: Path | None = None) -> dict[str, float]:
    """Scores per game and the candidate's gain with a 95 % normal interval over the paired
    deal differences. ``base_from``: a run of the same deals and seeds whose ``base`` arm (or,
    in a ``--no-base`` run, first candidate) pairs with this ``--no-base`` run (the base arm
    plays the same games every time, so it need not be replayed); deals missing from either
    are left out."""
    rows = _rows(path)
    if base_from is not None:
        # (its base arm, or a --no-base run's one candidate: the unchanged bot's settings)
        arm = "base" if "base" in _rows(base_from)[0] else "cand"
        base = {r["deal"]: r for r in _rows(base_from)}
        rows = [{**r, "base": base[r["deal"]][arm], "t_base": base[r["deal"]]["t_" + arm]}
                for r in rows if r["deal"] in base]
    n = len(rows)
    games = 4 if "fools_" + key in rows[0] else 2  # rotations per deal (the tool's players)
    extra: dict[str, float] = {}
    for arm in (key, "base"):
        if games > 2 and "fools_" + arm in rows[0]:
            # four players: how often strong is the fool, and a heuristic seat
            strong_fool = 1 - sum(r[arm] for r in rows) / (games * n)
            heuristic_fool = sum(r["fools_" + arm] for r in rows) / (games * (games - 1) * n)
            extra[arm + "_strong_fool"] = round(strong_fool, 4)
            extra[arm + "_heuristic_fool"] = round(heuristic_fool, 4)
            extra[arm + "_ratio"] = round(strong_fool / heuristic_fool, 4) if heuristic_fool \
                else 0.0
    if "base" not in rows[0]:  # a --no-base run: the candidate's score alone
        x = [r[key] / games for r in rows]
        mean = sum(x) / n
        var = sum((v - mean) ** 2 for v in x) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n)
        return {"pairs": n, key: round(mean, 4),
                "interval": [round(mean - half, 4), round(mean + half, 4)],
                "seconds_" + key: round(sum(r["t_" + key] for r in rows), 1), **extra}
    d = [r[key] - r["base"] for r in rows]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) / games  # per game: a deal is one game per rotation
    return {"pairs": n, "base": round(sum(r["base"] for r in rows) / (games * n), 4),
            key: round(sum(r[key] for r in rows) / (games * n), 4),
            "gain": round(mean / games, 4), "gain_95": round(half, 4), **extra,
            "deals_differing": sum(1 for x in d if x),
            "seconds_base": round(sum(r["t_base"] for r in rows), 1),
            "seconds_" + key: round(sum(r["t_" + key] for r in rows), 1)}


def print_summaries(path: Path, base_from: Path | None = None) -> None:
    first = next(line for line in path.read_text().splitlines()
                 if line.strip() and not line.startswith("#"))
    for key in json.loads(first):
        if key.startswith("cand"):
            print(json.dumps(summary(path, key, base_from)))


def main() -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    p.add_argument("--variant", default="perevodnoy")
    p.add_argument("--pairs", type=int, default=100)
    p.add_argument("--start", type=int, default=0, help="first deal")
    p.add_argument("--playouts", type=int, default=1000)
    p.add_argument("--players", type=int, default=2,
                   help="2 (strong in the arena's second seat) or 4 (strong first, as "
                        "--bots strong,easy,easy,easy); the summary of a 4-player run gives "
                        "how often strong and a heuristic seat are the fool")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--base", default="{}", help="JSON: search settings of the base")
    p.add_argument("--cand", action="append", default=[],
                   help="JSON: search settings of a candidate (repeat for more, same deals)")
    p.add_argument("--no-base", action="store_true",
                   help="play the candidates only (their scores over duplicate pairs)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path)
    p.add_argument("--summary", type=Path, help="sum up a finished (or stopped) run")
    p.add_argument("--base-from", type=Path,
                   help="with --summary of a --no-base run: pair it with this run's base arm")
    a = p.parse_args()
    if a.summary:
        print_summaries(a.summary, a.base_from)
        return 0
    base = None if a.no_base else json.loads(a.base)
    cands = [json.loads(c) for c in a.cand or ["{}"]]
    if a.players not in (2, 4):
        raise SystemExit("--players: 2 or 4")
    jobs = [(a.variant, d, a.seed, a.playouts, base, cands, a.players)
            for d in range(a.start, a.start + a.pairs)]
    out = a.out.open("a") if a.out else sys.stdout
    out.write("# " + json.dumps({"variant": a.variant, "seed": a.seed, "playouts": a.playouts,
                                 "players": a.players, "base": base, "cands": cands}) + "\n")
    if a.workers > 1:
        with Pool(a.workers) as pool:
            for row in pool.imap(play_deal, jobs):
                out.write(json.dumps(row) + "\n")
                out.flush()
    else:
        for job in jobs:
            out.write(json.dumps(play_deal(job)) + "\n")
            out.flush()
    if a.out:
        out.close()
        print_summaries(a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
