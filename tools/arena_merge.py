"""Merge the ``--json`` outputs of several ``bito arena`` runs (one per line) into one summary.

Long measurements run as many short arenas with different ``--seed`` values (so a run that is
stopped keeps every finished chunk). Each chunk is one independent observation: the merged score
of a bot is the pair-weighted mean of its chunk scores, and the 95 % interval comes from the
spread of the chunk scores (normal approximation), which a few chunks say little about: use
``--pooled`` then.

    python tools/arena_merge.py runs.jsonl [--plot ladder.svg]

With ``--pooled`` the chunks' duplicate sets are pooled instead (each chunk's ``deal_scores``,
written by ``bito arena --json``): a bot's score is the mean over every set of every chunk and
its 95 % interval the normal one over those sets, as one long run would give. Chunks with
different seeds hold different deals, so their sets are independent observations alike.

For two-player runs it also fits Elo to all the merged games (``bito.arena.ratings``: anchored
at ``random`` = 0 when it plays, else the first bot), with a 95 % bootstrap interval over
chunks, and can draw the ratings plot.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections import defaultdict
from typing import Any

from bito.arena.ratings import PRIOR_DRAWS, _fit_elo


def merge(lines: list[str]) -> dict[str, Any]:
    chunks = [json.loads(line) for line in lines if line.strip()]
    if not chunks:
        raise SystemExit("no arena results to merge")
    per_bot: dict[str, list[tuple[float, int]]] = defaultdict(list)
    fools: dict[str, list[float]] = defaultdict(list)
    pairs = errors = draws = games = 0
    for c in chunks:
        pairs += c["pairs"]
        errors += c["errors"]
        draws += c["draws"]
        games += c["games"]
        for b in c["bots"]:
            per_bot[b["name"]].append((b["score"], c["pairs"]))
            if "fool_rate" in b:
                fools[b["name"]].append(b["fool_rate"])
    bots: list[dict[str, Any]] = []
    for name, rows in per_bot.items():
        total = sum(n for _, n in rows)
        mean = sum(s * n for s, n in rows) / total
        k = len(rows)
        if k > 1:
            var = sum(n * (s - mean) ** 2 for s, n in rows) / total * k / (k - 1)
            half = 1.96 * math.sqrt(var / k)
        else:
            half = math.nan
        bots.append({"name": name, "score": round(mean, 4),
                     "interval": [round(mean - half, 4), round(mean + half, 4)],
                     "fool_rate": round(sum(fools[name]) / len(fools[name]), 4)
                     if fools.get(name) else None, "chunks": k})
    first = chunks[0]
    out: dict[str, Any] = {
        "variant": first["variant"], "players": first["players"], "pairs": pairs,
        "games": games, "draws": draws, "errors": errors, "chunks": len(chunks),
        "think_ms": first.get("think_ms"), "playouts": first.get("playouts"),
        "bots": bots}
    names = [b["name"] for b in bots]
    if first["players"] == 2 and len(names) > 1:
        out["elo"] = merged_elo(chunks, names)
    return out


def pooled(lines: list[str]) -> dict[str, object]:
    """Like :func:`merge`, but the score and interval of each bot come from every duplicate
    set of every chunk pooled (see the module docstring); a bot seated several times at a
    table counts once per set, as its mean there, as ``bito arena`` counts it."""
    chunks = [json.loads(line) for line in lines if line.strip()]
    out = merge(lines)
    per_set: dict[str, list[float]] = defaultdict(list)
    for c in chunks:
        for m in c["matchups"]:
            if "deal_scores" not in m:
                raise SystemExit(f"--pooled: a chunk (seed {c.get('seed')}) has no deal_scores;"
                                 " it was run before bito arena wrote them")
            names = m["table"]
            for row in m["deal_scores"]:
                by_name: dict[str, list[float]] = defaultdict(list)
                for name, v in zip(names, row, strict=True):
                    by_name[name].append(v)
                for name, vs in by_name.items():
                    per_set[name].append(sum(vs) / len(vs))
    for b in out["bots"]:  # type: ignore[attr-defined]
        values = per_set[b["name"]]
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else math.nan
        half = 1.96 * math.sqrt(var / n)
        b["score"] = round(mean, 4)
        b["interval"] = [round(max(0.0, mean - half), 4), round(min(1.0, mean + half), 4)]
        b["sets"] = n
    out["interval_from"] = "pooled duplicate sets"
    return out


def _chunk_points(chunk: dict[str, Any]) -> list[tuple[str, str, float, float]]:
    """(bot a, bot b, a's points, games) per table of one chunk."""
    rows = []
    for m in chunk["matchups"]:
        a, b = m["table"]
        if a != b and m["pairs"]:
            games = 2.0 * m["pairs"]
            rows.append((a, b, m["seats"][0]["score"] * games, games))
    return rows


def merged_elo(chunks: list[dict[str, Any]], names: list[str], bootstrap: int = 300
               ) -> dict[str, list[float]]:
    anchor = "random" if "random" in names else names[0]
    index = {n: i for i, n in enumerate(names)}

    def fit(sample: list[dict[str, Any]]) -> list[float]:
        wins: dict[tuple[int, int], float] = defaultdict(float)
        games: dict[tuple[int, int], float] = defaultdict(float)
        for c in sample:
            for a, b, pa, g in _chunk_points(c):
                i, j = index[a], index[b]
                wins[(i, j)] += pa
                wins[(j, i)] += g - pa
                games[(min(i, j), max(i, j))] += g
        for i, j in list(games):
            wins[(i, j)] += PRIOR_DRAWS / 2
            wins[(j, i)] += PRIOR_DRAWS / 2
            games[(i, j)] += PRIOR_DRAWS
        return _fit_elo(wins, games, len(names), index[anchor])

    point = fit(chunks)
    rng = random.Random(0)
    boots = [fit([chunks[rng.randrange(len(chunks))] for _ in chunks])
             for _ in range(bootstrap if len(chunks) > 1 else 0)]
    out = {}
    for n, i in index.items():
        col = sorted(b[i] for b in boots)
        lo = col[int(0.025 * (len(col) - 1))] if col else math.nan
        hi = col[int(0.975 * (len(col) - 1))] if col else math.nan
        out[n] = [round(point[i], 1), round(lo, 1), round(hi, 1)]
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", help="one `bito arena --json` result per line")
    p.add_argument("--plot", metavar="FILE.png|FILE.svg",
                   help="draw the merged Elo ratings (two-player runs)")
    p.add_argument("--pooled", action="store_true",
                   help="score and interval over every duplicate set of every chunk pooled "
                        "(needs the chunks' deal_scores), not over the chunk scores")
    a = p.parse_args()
    with open(a.file, encoding="utf-8") as f:
        data = (pooled if a.pooled else merge)(f.readlines())
    print(json.dumps(data))
    if a.plot:
        if "elo" not in data:
            raise SystemExit("--plot: only two-player runs have Elo ratings to draw")
        from bito.arena.plot import plot_ratings
        from bito.arena.ratings import Interval

        ratings = {n: (v[0], Interval(v[1], v[2])) for n, v in data["elo"].items()}
        plot_ratings(ratings, a.plot, f"{data['variant']}, 2 players, "
                     f"{data['pairs']} duplicate deals", "Elo (random = 0)")


if __name__ == "__main__":
    main()
