#!/usr/bin/env python
"""Sweep ``bito sim`` over every playable Variants I id (issue 3) and print JSON lines.

For each catalogue id of issue 3 (#13-30, #80-84) this runs the real command line,
``bito sim --variant SPEC --players N --games K --bots BOTS --json``, at every player count
the variant allows (2 up to its limit, capped by ``--max-players``) and with each bot line-up
(every seat ``random``, every seat ``heuristic`` by default). A game is swept by its id; a
house rule is swept on every base game it accepts (``podkidnoy+no_trump``, ...), plus a few
stacks of house rules that only matter together (``podkidnoy+royal+ace_only_by_trump``).

Each run prints one JSON line: the spec, players, bots, games, errors (the figure that must
be 0), draws, mean actions, games per second and the command. Specs the engine still refuses
("not playable yet") are printed once as ``{"spec": ..., "skipped": "<reason>"}``. ``--table``
turns a JSON-lines file back into the Markdown table of ``docs/variants.md``::

    python tools/sweep_variants.py --set primary --games 500 > /tmp/sweep.jsonl
    python tools/sweep_variants.py --set others --games 100 >> /tmp/sweep.jsonl
    python tools/sweep_variants.py --retry /tmp/sweep.jsonl > /tmp/retry.jsonl
    python tools/sweep_variants.py --table /tmp/sweep.jsonl

Exit status 1 if any run reported an error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bito.errors import BitoError
from bito.rules import resolve
from bito.rules.options import pending_options
from bito.rules.registry import all_variants

#: Catalogue numbers in issue 3's scope.
ISSUE3 = frozenset((*range(13, 31), 80, 81, 82, 84))
#: Bases a house rule is swept on, in this order (only those it accepts).
BASES = ("simple", "podkidnoy", "perevodnoy", "japanese", "estonian", "capital")
#: Stacks where one house rule changes another's meaning (#20 cancels royal's low-beats-ace).
EXTRA = ("podkidnoy+royal+ace_only_by_trump", "perevodnoy+royal+beats.royal_suit_scope=any_suit",
         "japanese+royal+ace_only_by_trump", "podkidnoy+suitless+albanian",
         "japanese+single_joker+albanian")


def specs(ids: set[str] | None = None, which: str = "all") -> Iterator[str]:
    """The specs to sweep: games by id, house rules on each base they accept. ``which`` is
    ``primary`` (one spec per id: the game, or the house rule on podkidnoy, else on its first
    base), ``others`` (every other base, and the EXTRA stacks) or ``all``."""
    for v in all_variants():
        # --ids names any catalogue ids (issue 4's too); without it, issue 3's.
        if (ids and v.id not in ids) or (not ids and v.number not in ISSUE3):
            continue
        if v.kind == "game":
            if which != "others":
                yield v.id
            continue
        bases = [b for b in BASES if b in v.applies_to]
        first = "podkidnoy" if "podkidnoy" in bases else bases[0]
        for base in bases:
            if which == "all" or (which == "primary") == (base == first):
                yield f"{base}+{v.id}"
    if not ids and which != "primary":
        yield from EXTRA


def refusal(spec: str) -> str | None:
    """Why the engine refuses ``spec`` today (None if it plays it)."""
    try:
        rules = resolve(spec).rules
    except BitoError as exc:
        return str(exc)
    waiting = pending_options(rules)
    return f"not playable yet: {', '.join(waiting)}" if waiting else None


def player_counts(spec: str, most: int) -> range:
    rules = resolve(spec).rules
    # Partnerships (#53-55) seat an even number of players.
    step = 2 if rules.team_layout != "none" else 1
    return range(rules.players_min, min(rules.max_players, most) + 1, step)


def bito_command() -> list[str]:
    """The installed ``bito`` script next to this interpreter, else ``python -m``."""
    here = Path(sys.executable).with_name("bito")
    if here.exists():
        return [str(here)]
    found = shutil.which("bito")
    return [found] if found else [sys.executable, "-c", "from bito.cli import main; main()"]


def run(spec: str, players: int, games: int, bots: str, seed: int) -> dict[str, Any]:
    """One ``bito sim`` run, summarised."""
    args = ["sim", "--variant", spec, "--players", str(players), "--games", str(games),
            "--bots", bots, "--seed", str(seed), "--json", "--no-progress"]
    done = subprocess.run([*bito_command(), *args], capture_output=True, text=True, check=False)
    row: dict[str, Any] = {"spec": spec, "players": players, "bots": bots, "games": games,
                           "command": "bito " + " ".join(args), "exit": done.returncode}
    try:
        out = json.loads(done.stdout)
    except json.JSONDecodeError:
        row.update(errors=games, failure=(done.stderr or done.stdout).strip()[-400:])
        return row
    row.update(errors=out["errors"], errors_by_kind=out.get("errors_by_kind", {}),
               draws=out["draws"], mean_actions=out["mean_actions"],
               games_per_second=out["games_per_second"], seconds=out["seconds"])
    return row


def table(path: Path) -> str:
    """The Markdown summary of a JSON-lines sweep: one row per spec and bot line-up, its player
    counts added up. A ``--retry`` row replaces
    the run it repeats; the errors of the first run are then shown in the last column."""
    runs: dict[tuple[str, int, str], dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        r = json.loads(line)
        if "skipped" in r:
            skipped[r["spec"]] = r["skipped"]
            continue
        key = (r["spec"], r["players"], r["bots"])
        if "retry_of_errors" in r and key in runs:
            r["first_errors"] = runs[key]["errors"]
        runs[key] = r
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for (spec, _, bots), r in runs.items():
        rows.setdefault((spec, bots), []).append(r)
    out = ["| spec | players | bots | games | errors | draws | mean actions | errors on a "
           "first run, retried |",
           "|---|---|---|---|---|---|---|---|"]
    for (spec, bots), group in rows.items():
        counts = sorted({r["players"] for r in group})
        games = sum(r["games"] for r in group)
        errors = sum(r["errors"] for r in group)
        draws = sum(r.get("draws", 0) for r in group)
        weighted = sum(r.get("mean_actions", 0) * (r["games"] - r["errors"]) for r in group)
        done = games - errors
        first = sum(r.get("first_errors", 0) for r in group)
        out.append(f"| `{spec}` | {counts[0]}-{counts[-1]} | {bots} | {games} | "
                   f"{errors} | {draws} | {weighted / max(done, 1):.0f} | {first or ''} |")
    for spec, why in skipped.items():
        out.append(f"| `{spec}` | - | - | 0 | - | - | - | not played: {why} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per run (default 200)")
    parser.add_argument("--max-players", type=int, default=6, help="highest player count")
    parser.add_argument("--bots", default="random;heuristic",
                        help="bot line-ups separated by ';' (default 'random;heuristic')")
    parser.add_argument("--ids", default="", help="only these ids (comma-separated)")
    parser.add_argument("--seed", type=int, default=0, help="first deal seed of every run")
    parser.add_argument("--set", dest="which", choices=("all", "primary", "others"),
                        default="all", help="one spec per id, the other bases, or all")
    parser.add_argument("--table", type=Path, help="print the Markdown table of a sweep file")
    parser.add_argument("--retry", type=Path, help="run again only the runs of a sweep file "
                        "that reported errors (same spec, players, bots, games, seed)")
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.table))
        return 0
    status = 0
    if args.retry:
        for line in args.retry.read_text().splitlines():
            old = json.loads(line) if line.strip() else {}
            if old.get("errors"):
                row = run(old["spec"], old["players"], old["games"], old["bots"], args.seed)
                row["retry_of_errors"] = old["errors"]
                status |= row["errors"] > 0
                print(json.dumps(row), flush=True)
        return int(status)
    ids = {i.strip() for i in args.ids.split(",") if i.strip()} or None
    for spec in specs(ids, args.which):
        why = refusal(spec)
        if why is not None:
            print(json.dumps({"spec": spec, "skipped": why}), flush=True)
            continue
        for players in player_counts(spec, args.max_players):
            for bots in args.bots.split(";"):
                row = run(spec, players, args.games, bots, args.seed)
                status |= row["errors"] > 0
                print(json.dumps(row), flush=True)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
