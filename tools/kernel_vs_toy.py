#!/usr/bin/env python
"""Random whole games of two-player podkidnoy on the kernel against bare numba toys, in turns.

A shared machine's speed wanders, so the kernel is only ever reported as a ratio to a toy run
in the same process, in alternation (A B A B ...): each round times one batch of every
contestant in CPU seconds, and the line reports each round's ratios. Contestants:

* ``kernel``: :func:`bito.kernel.play_random_games`, every rule fact read from the array;
* ``specialised``: the same games on the kernel compiled for the rule set
  (``specialise=True``, :mod:`bito.kernel.frozen`);
* ``toy``: ``tools/bitmask_toy_numba.py``, the bare game with the kernel's random generator;
* ``outside``: any other toy module with ``play_many(games, seed)`` (``--outside PATH``).

    python tools/kernel_vs_toy.py --rounds 3 --games 20000 --outside /path/toy_numba.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bito import kernel
from bito.rules import rules_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bitmask_toy_numba


def _outside(path: str) -> Callable[[int, int], object]:
    spec = importlib.util.spec_from_file_location("outside_toy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    play: Callable[[int, int], object] = module.play_many
    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--outside", help="a toy module with play_many(games, seed)")
    args = parser.parse_args()
    rules = rules_for(args.variant)
    players = args.players
    runs: dict[str, Callable[[int, int], object]] = {
        "kernel": lambda n, seed: kernel.play_random_games(rules, players, n, seed),
        "specialised": lambda n, seed: kernel.play_random_games(rules, players, n, seed,
                                                                specialise=True),
        "toy": bitmask_toy_numba.play,
    }
    if args.outside:
        runs["outside"] = _outside(args.outside)
    for run in runs.values():  # compile (or load from disk) before the clock starts
        run(50, 1)
    rates: dict[str, list[float]] = {name: [] for name in runs}
    load = [os.getloadavg()[0]]
    for r in range(args.rounds):
        names = list(runs) if r % 2 == 0 else list(reversed(runs))
        for name in names:
            start = time.process_time()
            runs[name](args.games, 1000 + r)
            rates[name].append(args.games / (time.process_time() - start))
    load.append(os.getloadavg()[0])
    out = {"variant": args.variant, "players": players, "games": args.games,
           "games_per_cpu_second": {k: [round(x) for x in v] for k, v in rates.items()},
           "load": [round(x, 2) for x in load]}
    for base in ("toy", "outside"):
        if base in rates:
            out[f"specialised_over_{base}"] = [round(a / b, 3) for a, b in
                                               zip(rates["specialised"], rates[base],
                                                   strict=True)]
            out[f"kernel_over_{base}"] = [round(a / b, 3) for a, b in
                                          zip(rates["kernel"], rates[base], strict=True)]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
