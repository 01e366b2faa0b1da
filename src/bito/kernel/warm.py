"""Compile the kernel's machine code once, ahead of its first use.

numba compiles a kernel entry point the first time it is called and keeps the machine code in
its on-disk cache; from then on a process loads it in about a second. The first call pays
tens of CPU-seconds per entry point (random games, the search's playouts and endgame solver,
the vector environment, the verifier's replay): a bot's first decision, a benchmark's first
case or a
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

from bito.bench import DEFAULT_CASES


def _random_games() -> None:
    from bito.kernel import play_random_games
    from bito.rules import rules_for

    for case in DEFAULT_CASES:  # one compilation plays every rule set (the rules as data)
        play_random_games(rules_for(case.variant), case.players, 2, seed=0)


def _specialised(index: int) -> Callable[[], None]:
    """The compilation for the rules of one of the benchmark's cases (``specialise``): a
    whole copy of the kernel each, so each is an entry point of its own."""
    def run() -> None:
        from bito.kernel import play_random_games
        from bito.rules import rules_for

        case = DEFAULT_CASES[index]
        play_random_games(rules_for(case.variant), case.players, 2, seed=0, specialise=True)

    return run


def _playouts(variant: str) -> Callable[[], None]:
    """The search's playouts of one game: podkidnoy for one deck, big_fool for the two decks
    from the deal (bito.kernel.two_decks), each compiled apart."""
    def run() -> None:
        from bito.bots.rollouts import greedy_scores
        from bito.games.durak import new_game

        state = new_game(variant, 2, seed=0)
        greedy_scores(state, state.legal_actions()[:1], 0, 0)

    return run


def _endgame_solver() -> None:
    from bito.bots.solver import load_kernel_solver

    load_kernel_solver()


def _vector_env(threads: int = 1) -> None:
    from bito.env.vector import DurakVectorEnv

    env = DurakVectorEnv(num_envs=2 * threads, threads=threads)
    env.reset(seed=0)
    for _ in range(4):
        env.step(env.action_masks().argmax(axis=1))


def _vector_env_on_threads() -> None:
    """The vector environment stepped on several of numba's threads (``threads=``), a
    compilation of its own; where numba has one thread only, there is none to make."""
    import numba

    if int(getattr(numba.config, "NUMBA_NUM_THREADS", 1)) > 1:
        _vector_env(threads=2)


def _bare_kernel() -> None:
    """The vector environment's yardstick (``tools/bench_vector.py``): the same learner
    steps on the bare kernel."""
    from bito.env.vector_bench import bench_against_bare

    bench_against_bare(2, steps=1, rounds=1, games=1)


def _verifier() -> None:
    """The whole-game replay, and the step-by-step comparison that the two-deck games (#21)
    and a disagreement's report go through (``step_of``, ``legal_actions_of``)."""
    import random

    from bito.games.durak import new_game
    from bito.kernel.verify import compare_game, verify_game

    verify_game(new_game("podkidnoy", 2, seed=0), random.Random(0))
    compare_game(new_game("podkidnoy", 2, seed=0), random.Random(0))


def _playouts_from_a_position() -> None:
    """``bito.kernel.random_playouts``: random games on from a position (the search's
    fallback rollouts and the kernel's own tests)."""
    from bito.games.durak import new_game
    from bito.kernel import random_playouts

    random_playouts(new_game("podkidnoy", 2, seed=0), 1, 0)


#: What the games' players meet: the search bots' playouts (one deck and two) and endgame
#: solver, which a server's bot workers and the bots' first decisions load. From an empty
#: cache, on the 2-core development machine: the two-deck playouts some 50 CPU-seconds, the
#: solver 30, the one-deck playouts 40, or 23 once the kernel's functions they share with
#: the two-deck ones are in the cache. So in two processes: the two-deck playouts in one, the
#: solver then the one-deck playouts in the other, which by then find those functions cached
#: (56 CPU-seconds for the longer of the two, against 69 in the order longest first).
PLAY: tuple[tuple[str, Callable[[], None]], ...] = (
    ("search playouts of two decks", _playouts("big_fool")),
    ("endgame solver", _endgame_solver),
    ("search playouts", _playouts("podkidnoy")),
)
#: What the tools meet: the random games of ``bito bench`` and simulations (the general loop
#: and the benchmark's three compilations for their own rules, some 25 CPU-seconds each), the
#: vector environment of the learners, and the verifier's replay of ``bito bench --verify``.
#: The general loop first: it compiles the kernel's functions that the vector environment and
#: the verifier call on the same types, so that they find them in the cache rather than
#: compiling them again at the same time; the specialised copies share nothing with it.
TOOLS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("random games", _random_games),
    ("random playouts from a position", _playouts_from_a_position),
    *((f"random games compiled for {case.name}", _specialised(i))
      for i, case in enumerate(DEFAULT_CASES)),
    ("vector environment", _vector_env),
    ("vector environment on threads", _vector_env_on_threads),
    ("vector environment against the bare kernel", _bare_kernel),
    ("move-by-move verifier", _verifier),
)
#: Everything compiled, by group (``--only``).
GROUPS: dict[str, tuple[tuple[str, Callable[[], None]], ...]] = {"play": PLAY, "tools": TOOLS}
ENTRY_POINTS: tuple[tuple[str, Callable[[], None]], ...] = PLAY + TOOLS


def warm(report: Callable[[str, float], None] | None = None,
         entries: tuple[tuple[str, Callable[[], None]], ...] = ENTRY_POINTS) -> bool:
    """Compile (or load from the cache) every entry point of ``entries``; ``report(name,
    cpu_seconds)`` after each. False when the kernel is not usable here (numba missing:
    nothing to compile)."""
    from bito.kernel import available

    if not available():
        return False
    for name, run in entries:
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
    parser.add_argument("--only", choices=sorted(GROUPS),
                        help="only what the players meet (play: the search bots) or what the "
                             "tools meet (tools: bench, the vector environment, the verifier)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs: at least 1")
    from bito.kernel import available

    if not available():
        print("the compiled kernel is not installed here (the 'fast' extra): nothing to compile")
        return 0
    entries = GROUPS[args.only] if args.only else ENTRY_POINTS

    def say(name: str, cpu: float) -> None:
        print(f"kernel compiled: {name} ({cpu:.1f} CPU-s)", flush=True)

    if args.jobs == 1:
        warm(say, entries)
        return 0
    from concurrent.futures import ProcessPoolExecutor

    indices = [ENTRY_POINTS.index(entry) for entry in entries]
    with ProcessPoolExecutor(args.jobs) as pool:
        for index, cpu in zip(indices, pool.map(_one, indices), strict=True):
            say(ENTRY_POINTS[index][0], cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
