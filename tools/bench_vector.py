"""Learner steps per second of the compiled vector environment over N, and of the single one.

::

    python tools/bench_vector.py --json                       # N = 1, 16, 256, 1024, 4096
    python tools/bench_vector.py --envs 1 4096 --seconds 2 --opponents random

A *learner step* is one decision of the learning seat: its action, every opponent move up to
its next decision, the new observation and legal mask, the reward and, when a deal ends, the
auto-reset. The learner plays the first legal action of each mask (``mask.argmax``: a policy
that costs next to nothing, so the figure is the environment's). Each row runs for about
``--seconds`` after a warm-up step (compilation is loaded from numba's disk cache, or paid
once, outside the timing). CPU seconds are reported beside wall seconds, because the machine
may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

import bito.env.gymnasium  # noqa: F401  (registers the ids)
from bito.env.gymnasium import DurakEnv
from bito.env.vector import DurakVectorEnv


def _timed(step: Any, batch: int, seconds: float) -> dict[str, float]:
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while True:
        step()
        steps += batch
        wall = time.perf_counter() - wall0
        if wall >= seconds:
            break
    cpu = time.process_time() - cpu0
    return {"steps": steps, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "steps_per_s": round(steps / wall), "steps_per_cpu_s": round(steps / cpu)}


def bench_vector(n: int, variant: str, opponents: str, seconds: float, copy: bool,
                 self_play: bool, threads: int = 1) -> dict[str, Any]:
    env = DurakVectorEnv(n, variant, opponents=opponents, copy=copy, self_play=self_play,
                         threads=threads)
    _, info = env.reset(seed=0)
    masks = env.action_masks() if not copy else None
    episodes = 0

    def step() -> None:
        nonlocal info, episodes
        mask = masks if masks is not None else info["action_mask"]
        _, _, term, trunc, info = env.step(mask.argmax(axis=1))
        episodes += int(term.sum() + trunc.sum())

    step()
    episodes = 0
    row = _timed(step, n, seconds)
    row.update(num_envs=n, threads=threads, episodes=episodes)
    return row


def bench_single(variant: str, opponents: str, seconds: float) -> dict[str, Any]:
    env = DurakEnv(variant, opponents=(opponents,))
    _, info = env.reset(seed=0)
    episodes = 0

    def step() -> None:
        nonlocal info, episodes
        _, _, term, trunc, info = env.step(int(info["action_mask"].argmax()))
        if term or trunc:
            episodes += 1
            _, info = env.reset()

    step()
    episodes = 0
    row = _timed(step, 1, seconds)
    row.update(num_envs=1, episodes=episodes)
    return row


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--envs", type=int, nargs="+", default=[1, 16, 256, 1024, 4096])
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--opponents", default="greedy", choices=("greedy", "random"))
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--copy", action="store_true", help="hand out fresh arrays every step")
    p.add_argument("--self-play", action="store_true", help="the learner takes every seat")
    p.add_argument("--threads", type=int, nargs="+", default=[1],
                   help="numba threads for the vector env (each N runs once per count)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    single = bench_single(a.variant, a.opponents, a.seconds)
    rows = [bench_vector(n, a.variant, a.opponents, a.seconds, a.copy, a.self_play, t)
            for t in a.threads for n in a.envs]
    for row in rows:
        row["speedup_vs_single"] = round(row["steps_per_s"] / single["steps_per_s"], 1)
    out = {"variant": a.variant, "players": 2, "opponents": a.opponents, "copy": a.copy,
           "self_play": a.self_play, "load_average": [round(x, 2) for x in os.getloadavg()],
           "single_env": single, "vector_env": rows}
    if a.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        print(f"single env: {single['steps_per_s']:,} steps/s")
        for row in rows:
            print(f"N={row['num_envs']:>5} threads={row['threads']}: "
              f"{row['steps_per_s']:>10,} steps/s "
                  f"({row['steps_per_cpu_s']:,} per CPU-s), {row['speedup_vs_single']}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
