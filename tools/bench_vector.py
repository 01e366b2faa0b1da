"""Learner steps per second of the compiled vector environment over N, and of the single one
(the measurement lives in :mod:`bito.env.vector_bench`; ``bito bench --vector`` runs it too).

::

    python tools/bench_vector.py --json                       # N = 1, 16, 256, 1024, 4096
    python tools/bench_vector.py --envs 1 4096 --seconds 2 --opponents random
    python tools/bench_vector.py --against-bare --envs 4096 --rounds 3 --json

``--against-bare`` times the vector env and the bare kernel on the same games in turns
(:func:`bito.env.vector_bench.bench_against_bare`): learner steps per CPU-second of each and
the ratio of their CPU times.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from bito.env.vector_bench import (
    DEFAULT_ENVS,
    bench_against_bare,
    format_against_bare,
    format_vector_bench,
    run_vector_bench,
)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, nargs="+", default=list(DEFAULT_ENVS))
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--opponents", default="greedy", choices=("greedy", "random"))
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--copy", action="store_true", help="hand out fresh arrays every step")
    p.add_argument("--self-play", action="store_true", help="the learner takes every seat")
    p.add_argument("--threads", type=int, nargs="+", default=[1],
                   help="numba threads for the vector env (each N runs once per count)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--against-bare", action="store_true",
                   help="the env against the bare kernel on the same games, in turns")
    p.add_argument("--rounds", type=int, default=3, help="--against-bare: rounds")
    p.add_argument("--steps", type=int, default=200,
                   help="--against-bare: learner steps of each env per round")
    a = p.parse_args(argv)
    if a.against_bare:
        bare = bench_against_bare(a.envs[-1], a.variant, a.opponents, a.steps, a.rounds)
        return _show(bare, a.json, format_against_bare)
    out = run_vector_bench(a.envs, a.variant, a.opponents, a.seconds, a.copy, a.self_play,
                           a.threads)
    return _show(out, a.json, format_vector_bench)


def _show(out: dict[str, Any], as_json: bool, text: Callable[[dict[str, Any]], str]) -> int:
    if as_json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        print(text(out))
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
