#!/usr/bin/env python
"""Sweep ``bito sim`` over the bout-structure ids of issue 4 (#65-#73) and print JSON lines.

The same runs and the same table as ``tools/sweep_variants.py`` (whose ``run`` and ``table``
this reuses), for ids it does not cover: the ``bouts`` family games have their own rules
objects, so their player counts come from the family rules, and Akulina (#73) is a Durak game.
Every id is run at every player count it allows, with every seat ``random`` and every seat
``heuristic``::

    python tools/sweep_bouts.py --games 500 > /tmp/bouts.jsonl
    python tools/sweep_variants.py --table /tmp/bouts.jsonl

Exit status 1 if any run reported an error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sweep_variants import run

from bito.games import family_of, family_rules_for
from bito.rules import resolve

IDS = ("chinese", "chinese_pass_on", "two_phase_japanese", "deck_duel_prelude", "heaped",
       "heaped_top_n", "chain_fool", "polish_fool", "akulina")


def player_counts(spec: str) -> range:
    if family_of(spec) == "durak":
        rules = resolve(spec).rules
        return range(rules.players_min, rules.max_players + 1)
    fam = family_rules_for(spec)
    return range(fam.players_min, fam.max_players + 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--ids", default=",".join(IDS))
    ap.add_argument("--bots", default="random,heuristic", help="bot line-ups, comma-separated")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    bad = False
    for spec in args.ids.split(","):
        for players in player_counts(spec):
            for bot in args.bots.split(","):
                row = run(spec, players, args.games, bot, args.seed)
                bad = bad or row["errors"] > 0
                print(json.dumps(row), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
