"""Merge the ``--json`` outputs of several ``bito arena`` runs (one per line) into one summary.

Long measurements run as many short arenas with different ``--seed`` values (so a run that is
stopped keeps every finished chunk). Each chunk is one independent observation: the merged score
of a bot is the pair-weighted mean of its chunk scores, and the 95 % interval comes from the
spread of the chunk scores (normal approximation).

    python tools/arena_merge.py runs.jsonl
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict


def merge(lines: list[str]) -> dict[str, object]:
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
    bots = []
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
    return {"variant": first["variant"], "players": first["players"], "pairs": pairs,
            "games": games, "draws": draws, "errors": errors, "chunks": len(chunks),
            "think_ms": first.get("think_ms"), "bots": bots}


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        print(json.dumps(merge(f.readlines())))
