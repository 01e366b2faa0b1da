#!/usr/bin/env python
"""Two versions of the reference engine timed in one process, in alternating chunks of games.

On a shared machine the speed wanders by a third from minute to minute, so two benchmark runs
of two versions, one after the other, mostly compare two moments. This script loads both
versions into one Python process (each git revision's ``src/bito`` is copied to a temporary
folder under its own package name, ``bito_a`` and ``bito_b``) and plays the same seeds on
each in turn, a chunk at a time, swapping which goes first every round. A slow stretch then
falls on both alike, and what is left is the difference between the versions::

    python tools/ab_engines.py 906653b HEAD
    python tools/ab_engines.py HEAD WORKTREE --rounds 60 --chunk 200 --json

``WORKTREE`` is the working tree's ``src/bito`` as it is now. The output gives each version's
games per CPU second over all its chunks, the ratio of those (B's speed over A's) and the
median of the per-round ratios.

Each game is a deal and uniformly random legal moves to the end. ``--game general`` (the
default) plays them through the public API, ``legal_actions`` and ``apply``, with the loop
written here, so any two revisions run the same driver over their own engine (the reference
engine's general path, what ``bito bench`` reports since issue 17). ``--game playout`` plays
each revision's ``random_playout`` on the fresh deal (what search bots fall back to without the
kernel; before issue 17 it had a two-seat shortcut), and ``--game bench`` each revision's own
``bito.bench.reference_game``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_IMPORT = re.compile(r"\b(from|import) bito\b(?=[\s.])")


def _copy(rev: str, name: str, into: Path) -> None:
    """``src/bito`` at ``rev`` as the package ``name`` under ``into``."""
    target = into / name
    if rev == "WORKTREE":
        shutil.copytree(ROOT / "src" / "bito", target,
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src/bito"],
                                 check=True, capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(into / "_tmp", filter="data")
        shutil.move(into / "_tmp" / "src" / "bito", target)
    for path in target.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = _IMPORT.sub(lambda m: f"{m.group(1)} {name}", text)
        path.write_text(text.replace('"bito.', f'"{name}.'), encoding="utf-8")


def _general(new_game: Callable[..., Any]) -> Callable[..., int]:
    """One random game through ``new_game``, ``legal_actions`` and ``apply``; its action count."""
    def play(rules: Any, players: int, seed: int, rng: random.Random) -> int:
        state = new_game(rules, players, seed=seed)
        rand = rng.random
        steps = 0
        while not state.is_over:
            acts = state.legal_actions()
            state = state.apply(acts[int(rand() * len(acts))])
            steps += 1
        return steps
    return play


def _playout(new_game: Callable[..., Any], random_playout: Callable[..., Any]
             ) -> Callable[..., int]:
    """One random game played in place by ``random_playout``; its action count."""
    def play(rules: Any, players: int, seed: int, rng: random.Random) -> int:
        steps: int = random_playout(new_game(rules, players, seed=seed), rng)[1]
        return steps
    return play


def _game(name: str, variant: str, game: str) -> tuple[Callable[..., int], Any]:
    rules = importlib.import_module(f"{name}.rules").rules_for(variant)
    if game == "general":
        return _general(importlib.import_module(f"{name}.games.durak").new_game), rules
    if game == "playout":
        playout = importlib.import_module(f"{name}.games.durak.playout").random_playout
        return _playout(importlib.import_module(f"{name}.games.durak").new_game, playout), rules
    return importlib.import_module(f"{name}.bench").reference_game, rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("a", help="a git revision, or WORKTREE")
    parser.add_argument("b", help="a git revision, or WORKTREE")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--chunk", type=int, default=200, help="games per version per round")
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", choices=("general", "playout", "bench"), default="general",
                        help="general: legal_actions/apply; playout: random_playout; "
                        "bench: bito.bench.reference_game")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        _copy(args.a, "bito_a", Path(tmp))
        _copy(args.b, "bito_b", Path(tmp))
        sys.path.insert(0, tmp)
        play_a, rules_a = _game("bito_a", args.variant, args.game)
        play_b, rules_b = _game("bito_b", args.variant, args.game)
        rng = random.Random(1)
        for seed in range(300):  # warm both versions' caches
            play_a(rules_a, args.players, 10**6 + seed, rng)
            play_b(rules_b, args.players, 10**6 + seed, rng)
        total_a = total_b = 0.0
        ratios = []
        for r in range(args.rounds):
            seeds = range(r * args.chunk, (r + 1) * args.chunk)
            took = {}
            for which in (("a", "b") if r % 2 == 0 else ("b", "a")):
                play, rules = (play_a, rules_a) if which == "a" else (play_b, rules_b)
                start = time.process_time()
                for seed in seeds:
                    play(rules, args.players, seed, rng)
                took[which] = time.process_time() - start
            total_a += took["a"]
            total_b += took["b"]
            ratios.append(took["a"] / took["b"])
    games = args.rounds * args.chunk
    result = {"a": args.a, "b": args.b, "game": args.game, "variant": args.variant,
              "players": args.players,
              "games_each": games,
              "a_games_per_cpu_second": round(games / total_a, 1),
              "b_games_per_cpu_second": round(games / total_b, 1),
              "b_over_a": round(total_a / total_b, 3),
              "median_round_ratio": round(statistics.median(ratios), 3)}
    print(json.dumps(result) if args.json else
          f"{args.a}: {result['a_games_per_cpu_second']} games/s, {args.b}: "
          f"{result['b_games_per_cpu_second']} games/s; {args.b} is "
          f"{result['b_over_a']} times as fast (median round {result['median_round_ratio']})")


if __name__ == "__main__":
    main()
