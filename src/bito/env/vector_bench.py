"""Learner steps per second of the compiled vector environment over N, beside the single
environment's, measured in the same run (``bito bench --vector``, ``tools/bench_vector.py``).

A *learner step* is one decision of the learning seat: its action, every opponent move up to
its next decision, the new observation and legal mask, the reward and, when a deal ends, the
auto-reset. The learner plays the first legal action of each mask (``mask.argmax``: a cheap
policy, though at N = 4,096 reading every mask row costs about 0.3 µs a learner step, which
:func:`bench_against_bare` reports apart from the environment's own time). Each row runs for about
``seconds`` after a warm-up step (compilation is loaded from numba's disk cache, or paid once,
outside the timing). CPU seconds are reported beside wall seconds, and the load average with
them, because the machine may be shared.

:func:`bench_against_bare` holds the vector env to the cost of its rules: the same learner
steps on the same deals played by the bare kernel (:func:`bito.kernel.vector.bare_step`: the
moves, the opponents and the auto-reset, without known cards, observations, masks or rewards),
timed in turns with the env in one process, several rounds, CPU seconds by ``process_time``
(the env's: of ``env.step`` alone, and beside it of the loop with the learner's ``argmax``).
The ratio of the two CPU times per learner step is what observing and masking cost on top of
the rules. Beside them, in the same rounds, the kernel's random whole games on one position
(:func:`bito.kernel.play_random_games`, what ``bito bench --engine kernel`` times): its moves
per CPU-second priced at the moves a learner step makes give the cost of a learner step's rules
with every fact in the caches, the yardstick issue 35 states (``ratio_to_one_position``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from bito.env._optional import require

np: Any = require("numpy", "bito.env.vector_bench")

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


def _env_run(n: int, variant: str, opponents: str, steps: int) -> dict[str, Any]:
    """``steps`` learner steps of ``n`` envs from ``reset(seed=0)``, the learner playing
    ``mask.argmax``: CPU seconds of ``env.step`` alone (what the environment costs), and of
    the loop with the learner's ``argmax`` over every mask row beside it (a policy's cost,
    which grows with the action space: 1,397 entries a row in podkidnoy)."""
    from bito.env.vector import DurakVectorEnv

    env = DurakVectorEnv(n, variant, opponents=opponents, copy=False)
    env.reset(seed=0)
    masks = env.action_masks()  # the env's own buffer: each step rewrites it
    ended = 0
    clock = time.process_time
    stepping = 0.0
    cpu0 = clock()
    for _ in range(steps):
        actions = masks.argmax(axis=1)
        t0 = clock()
        _, _, term, trunc, _ = env.step(actions)
        stepping += clock() - t0
        ended += int(term.sum() + trunc.sum())
    cpu = max(stepping, 1e-9)
    with_policy = max(clock() - cpu0, 1e-9)
    return {"cpu_s": round(cpu, 4), "learner_steps_per_cpu_s": round(n * steps / cpu),
            "with_argmax_cpu_s": round(with_policy, 4),
            "with_argmax_learner_steps_per_cpu_s": round(n * steps / with_policy),
            "deals_ended": ended}


def _bare_run(n: int, variant: str, opponents: str, steps: int) -> dict[str, Any]:
    """The same learner steps on the same deals (an env reset with the same seed, then its
    positions stepped by :func:`~bito.kernel.vector.bare_step`)."""
    from bito.env.vector import DurakVectorEnv
    from bito.kernel.vector import bare_step

    env = DurakVectorEnv(n, variant, opponents=opponents, copy=False)
    env.reset(seed=0)
    t = env._t
    args = (env._states, env._width, env._template, env._pack, env._pending,
            env.seat, env.self_play, env._kinds, env._rngs, env._worth, env._lim_stock,
            env._lim_empty, env._eps, env._rows, t["codes"], t["multi_masks"], t["multi_index"])
    counts = np.zeros(2, np.int64)
    cpu0 = time.process_time()
    for _ in range(steps):
        bare_step(*args, counts)
    cpu = max(time.process_time() - cpu0, 1e-9)
    moves = int(counts[0])
    return {"cpu_s": round(cpu, 4), "learner_steps_per_cpu_s": round(n * steps / cpu),
            "moves_per_cpu_s": round(moves / cpu), "moves_per_learner_step":
            round(moves / (n * steps), 3), "deals_ended": int(counts[1])}


def _games_run(variant: str, games: int, seed: int) -> dict[str, Any]:
    """Random whole games on the kernel, one position at a time (deal included)."""
    from bito.env.codec import durak_rules
    from bito.kernel import play_random_games

    rules = durak_rules(variant)
    cpu0 = time.process_time()
    _, moves = play_random_games(rules, 2, games, seed)
    cpu = max(time.process_time() - cpu0, 1e-9)
    return {"cpu_s": round(cpu, 4), "games": games, "moves_per_cpu_s": round(moves / cpu)}


def bench_against_bare(n: int = 4096, variant: str = "podkidnoy", opponents: str = "greedy",
                       steps: int = 200, rounds: int = 3,
                       games: int = 100_000) -> dict[str, Any]:
    """The vector env against the bare kernel on the same games, in turns (which goes first
    alternates by round): per round, CPU seconds and learner steps per CPU-second of each,
    the bare kernel's moves per CPU-second, and the ratio of the env's CPU time to the bare
    kernel's for the same learner steps; then ``games`` random games on one position and the
    env's cost per learner step against their rules' cost; the medians over the rounds."""
    if n < 1 or steps < 1 or rounds < 1:
        raise ValueError("--envs, --steps and --rounds must be positive")
    if opponents not in ("greedy", "random"):
        raise ValueError(f"opponents must be greedy or random, not {opponents!r}")
    _env_run(4, variant, opponents, 2)  # compile (or load numba's disk cache) untimed
    _bare_run(4, variant, opponents, 2)
    _games_run(variant, 10, 0)
    out = []
    for r in range(rounds):
        first, second = (_env_run, _bare_run) if r % 2 == 0 else (_bare_run, _env_run)
        a = first(n, variant, opponents, steps)
        b = second(n, variant, opponents, steps)
        env, bare = (a, b) if r % 2 == 0 else (b, a)
        one = _games_run(variant, games, r + 1)
        # the rules of one learner step, every fact in the caches: its moves at that rate
        rules_cpu = max(bare["moves_per_learner_step"], 1e-9) / one["moves_per_cpu_s"]
        out.append({"env": env, "bare": bare, "one_position": one, "same_games":
                    env["deals_ended"] == bare["deals_ended"],
                    # from the rates, not the rounded seconds: a tiny run (the kernel's
                    # warm-up takes one step) rounds its seconds to nothing
                    "ratio": round(bare["learner_steps_per_cpu_s"]
                                   / env["learner_steps_per_cpu_s"], 2),
                    "ratio_to_one_position": round(
                        1 / env["learner_steps_per_cpu_s"] / rules_cpu, 2)})

    def median(values: list[float]) -> float:
        return sorted(values)[len(values) // 2]

    return {
        "variant": variant, "players": 2, "opponents": opponents, "num_envs": n,
        "learner_steps_per_round": n * steps, "rounds": out,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "median": {
            "env_learner_steps_per_cpu_s": median(
                [r["env"]["learner_steps_per_cpu_s"] for r in out]),
            "env_with_argmax_learner_steps_per_cpu_s": median(
                [r["env"]["with_argmax_learner_steps_per_cpu_s"] for r in out]),
            "bare_learner_steps_per_cpu_s": median(
                [r["bare"]["learner_steps_per_cpu_s"] for r in out]),
            "bare_moves_per_cpu_s": median([r["bare"]["moves_per_cpu_s"] for r in out]),
            "ratio": median([r["ratio"] for r in out]),
            "one_position_moves_per_cpu_s": median(
                [r["one_position"]["moves_per_cpu_s"] for r in out]),
            "ratio_to_one_position": median([r["ratio_to_one_position"] for r in out]),
        },
    }


def format_against_bare(out: dict[str, Any]) -> str:
    lines = []
    for i, r in enumerate(out["rounds"]):
        lines.append(f"round {i + 1}: env {r['env']['learner_steps_per_cpu_s']:,} learner "
                     f"steps per CPU-s, bare kernel {r['bare']['learner_steps_per_cpu_s']:,} "
                     f"({r['bare']['moves_per_cpu_s']:,} moves per CPU-s): {r['ratio']}x; "
                     f"one position {r['one_position']['moves_per_cpu_s']:,} moves per "
                     f"CPU-s: {r['ratio_to_one_position']}x")
    m = out["median"]
    lines.append(f"median: env {m['env_learner_steps_per_cpu_s']:,} (with the learner's "
                 f"argmax {m['env_with_argmax_learner_steps_per_cpu_s']:,}), bare "
                 f"{m['bare_learner_steps_per_cpu_s']:,} learner steps per CPU-s: "
                 f"{m['ratio']}x; one position {m['one_position_moves_per_cpu_s']:,} moves "
                 f"per CPU-s: {m['ratio_to_one_position']}x (N={out['num_envs']}, load "
                 f"average {' '.join(map(str, out['load_average']))})")
    return "\n".join(lines)


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


__all__ = ["DEFAULT_ENVS", "bench_against_bare", "bench_single", "bench_vector",
           "format_against_bare", "format_vector_bench", "run_vector_bench"]
