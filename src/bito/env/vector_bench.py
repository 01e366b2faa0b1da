"""Learner steps per second of the compiled vector environment over N, beside the single
environment's, measured in the same run (``bito bench --vector``, ``tools/bench_vector.py``).

A *learner step* is one decision of the learning seat: its action, every opponent move up to
its next decision, the new observation and legal mask, the reward and, when a deal ends, the
auto-reset. The learner plays the first legal action of each mask (``mask.argmax``: a policy
that costs next to nothing, so the figure is the environment's). Each row runs for about
``seconds`` after a warm-up step (compilation is loaded from numba's disk cache, or paid once,
outside the timing). CPU seconds are reported beside wall seconds, and the load average with
them, because the machine may be shared.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

DEFAULT_ENVS = (1, 16, 256, 1024, 4096)


def _timed(step: Callable[[], None], batch: int, seconds: float) -> dict[str, Any]:
    steps = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while True:
        step()
        steps += batch
        wall = time.perf_counter() - wall0
        if wall >= seconds:
            break
    cpu = max(time.process_time() - cpu0, 1e-9)
    return {"steps": steps, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "steps_per_s": round(steps / wall), "steps_per_cpu_s": round(steps / cpu)}


def bench_vector(n: int, variant: str, opponents: str, seconds: float, copy: bool,
                 self_play: bool, threads: int = 1) -> dict[str, Any]:
    """One row: ``n`` deals stepped together for about ``seconds``."""
    from bito.env.vector import DurakVectorEnv

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
    """The single Gymnasium environment's row, for the speed-up."""
    from bito.env.gymnasium import DurakEnv

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


def run_vector_bench(envs: Sequence[int] = DEFAULT_ENVS, variant: str = "podkidnoy",
                     opponents: str = "greedy", seconds: float = 3.0, copy: bool = False,
                     self_play: bool = False, threads: Sequence[int] = (1,)) -> dict[str, Any]:
    """The whole measurement as one JSON-ready dict; ValueError naming a bad argument."""
    if not envs or min(envs) < 1:
        raise ValueError("--envs: each N must be at least 1")
    if seconds <= 0:
        raise ValueError("--seconds must be positive")
    if opponents not in ("greedy", "random"):
        raise ValueError(f"opponents must be greedy or random, not {opponents!r}")
    single = bench_single(variant, opponents, seconds)
    rows = [bench_vector(n, variant, opponents, seconds, copy, self_play, t)
            for t in threads for n in envs]
    for row in rows:
        row["speedup_vs_single"] = round(row["steps_per_s"] / max(single["steps_per_s"], 1), 1)
    return {"variant": variant, "players": 2, "opponents": opponents, "copy": copy,
            "self_play": self_play, "load_average": [round(x, 2) for x in os.getloadavg()],
            "single_env": single, "vector_env": rows}


def format_vector_bench(out: dict[str, Any]) -> str:
    lines = [f"single env: {out['single_env']['steps_per_s']:,} steps/s "
             f"(load average {' '.join(map(str, out['load_average']))})"]
    for row in out["vector_env"]:
        lines.append(f"N={row['num_envs']:>5} threads={row['threads']}: "
                     f"{row['steps_per_s']:>10,} steps/s "
                     f"({row['steps_per_cpu_s']:,} per CPU-s), {row['speedup_vs_single']}x")
    return "\n".join(lines)


__all__ = ["DEFAULT_ENVS", "bench_single", "bench_vector", "format_vector_bench",
           "run_vector_bench"]
