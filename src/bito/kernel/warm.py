"""Compile the kernel's machine code once, ahead of its first use.

numba compiles a kernel entry point the first time it is called and keeps the machine code in
its on-disk cache; from then on a process loads it in about a second. The first call pays
tens of CPU-seconds per entry point (random games, the search's playouts and endgame solver,
the vector environment): a bot's first decision, a benchmark's first case or a
test that meets the kernel first would spend them inside its own budget, and several
processes starting at once (the bot workers of a server, the test runner's workers) would each
compile the same code. Running this module once after installing, as ``python3 run.py
pytest`` does, fills the cache for all of them.

``python -m bito.kernel.warm`` prints one line per entry point with the CPU-seconds it took
(a fraction of a second each when the cache was already filled).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def _random_games() -> None:
    from bito.bench import DEFAULT_CASES
    from bito.kernel import play_random_games
    from bito.rules import rules_for

    for case in DEFAULT_CASES:  # the general loop, and the one compiled for each rule set
        for specialise in (False, True):
            play_random_games(rules_for(case.variant), case.players, 2, seed=0,
                              specialise=specialise)


def _search() -> None:
    from bito.bots.rollouts import load_kernel_greedy

    load_kernel_greedy()  # the greedy playouts (one deck and two) and the endgame solver


def _vector_env() -> None:
    from bito.env.vector import DurakVectorEnv

    env = DurakVectorEnv(num_envs=2)
    env.reset(seed=0)
    for _ in range(4):
        env.step(env.action_masks().argmax(axis=1))


#: What is compiled, in the order a newcomer's first runs meet it.
ENTRY_POINTS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("random games", _random_games),
    ("search playouts and endgame solver", _search),
    ("vector environment", _vector_env),
)


def warm(report: Callable[[str, float], None] | None = None) -> bool:
    """Compile (or load from the cache) every entry point; ``report(name, cpu_seconds)`` after
    each. False when the kernel is not usable here (numba missing: nothing to compile)."""
    from bito.kernel import available

    if not available():
        return False
    for name, run in ENTRY_POINTS:
        start = time.process_time()
        run()
        if report is not None:
            report(name, time.process_time() - start)
    return True


def _one(index: int) -> float:
    start = time.process_time()
    ENTRY_POINTS[index][1]()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bito.kernel.warm",
                                     description="Compile the kernel's entry points once.")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="compile in N processes at once (one core each)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    from bito.kernel import available

    if not available():
        print("the compiled kernel is not installed here (the 'fast' extra): nothing to compile")
        return 0
    if args.jobs == 1:
        warm(lambda name, cpu: print(f"kernel compiled: {name} ({cpu:.1f} CPU-s)", flush=True))
        return 0
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(args.jobs) as pool:
        for (name, _run), cpu in zip(ENTRY_POINTS, pool.map(_one, range(len(ENTRY_POINTS))),
                                     strict=True):
            print(f"kernel compiled: {name} ({cpu:.1f} CPU-s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
