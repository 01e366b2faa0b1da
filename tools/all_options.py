#!/usr/bin/env python
"""Play one random game for every combination of the rules options (too slow for the suite).

The combinations are the full cartesian product of every option with a fixed list of choices in
``bito.rules.options.OPTION_SPECS`` (all but ``family`` and ``deck.size``), together with
``trump.reject_indicator`` in {(), (A,), (A, L)} (#74) and ``throw_in.first_bout_cap`` in {0, 5}
(#75); the deck is 36 cards and hands are 6. Combination ``i`` plays one game per player count
with seed ``i`` (deal and random moves, via ``random_playout``); about half of the games, picked
by the same seed, are a later deal of a match (a ``MatchContext`` drawn from that seed), so
``next_game_leader`` and ``transfer.first_bout`` take part. Any exception, a game that runs past
the time limit, or an inconsistent outcome counts as an error; the last line printed is a JSON
summary ``{"combinations": N, "games": G, "errors": E, "seconds": S}``, and the first errors are
described on standard error. The exit status is 1 if there was an error::

    python tools/all_options.py                    # everything, 2 and 3 players
    python tools/all_options.py --limit 20000      # a fixed sample of 20,000 combinations
    python tools/all_options.py --players 2,3,4 --jobs 2

``tests/properties/test_option_combinations.py`` covers the same space with a pairwise array
and Hypothesis.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import random
import signal
import sys
import time
import traceback
from collections.abc import Iterator, Sequence
from typing import Any

from bito.games.durak import MatchContext, new_game
from bito.games.durak.playout import random_playout
from bito.rules import OPTION_SPECS, Rules

FIXED: dict[str, Any] = {"deck.size": 36, "deal.hand_size": 6}
NUMERIC: dict[str, tuple[Any, ...]] = {
    "trump.reject_indicator": ((), ("A",), ("A", "L")),
    "throw_in.first_bout_cap": (0, 5),
}
GAME_SECONDS = 10  # a single game that runs longer is reported as a hang


def axes() -> list[tuple[str, tuple[Any, ...]]]:
    """(option, values) for every varied option, in OPTION_SPECS order then the numeric ones."""
    out = [(k, tuple(s.ready_choices)) for k, s in OPTION_SPECS.items()
           if s.ready_choices is not None and k not in ("family", *FIXED)]
    return out + list(NUMERIC.items())


def total_combinations() -> int:
    return math.prod(len(values) for _, values in axes())


def combination(index: int) -> dict[str, Any]:
    """The index-th combination of the cartesian product (last axis varies fastest)."""
    out: dict[str, Any] = dict(FIXED)
    for key, values in reversed(axes()):
        index, digit = divmod(index, len(values))
        out[key] = values[digit]
    return out


def chosen_indices(total: int, limit: int | None) -> Sequence[int]:
    """All indices, or a fixed random sample of ``limit`` of them (a sample, not a stride, so
    no option is stuck at one value by the stride sharing a factor with the product)."""
    if limit is None or limit >= total:
        return range(total)
    return sorted(random.Random(0).sample(range(total), limit))


def later_deal(rng: random.Random, players: int) -> MatchContext:
    fool = rng.choice([None, *range(players)])
    winner = rng.choice([p for p in range(players) if p != fool])
    dealer = fool if fool is not None else rng.randrange(players)
    return MatchContext(game_number=rng.randint(1, 3), dealer=dealer, previous_fool=fool,
                        previous_winner=winner)


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _Hang(f"game still running after {GAME_SECONDS} s")


def play_one(index: int, players: int) -> str | None:
    """Play combination ``index`` with ``players``; None, or a description of the error."""
    combo = combination(index)
    signal.alarm(GAME_SECONDS)
    try:
        rules = Rules().with_options(**combo)
        pick = random.Random(index)
        ctx = later_deal(pick, players) if pick.random() < 0.5 else MatchContext()
        state = new_game(rules, players=players, seed=index, match=ctx)
        outcome, _ = random_playout(state, random.Random(index))
        if outcome.draw != (outcome.loser is None):
            raise AssertionError(f"outcome {outcome}: draw and loser disagree")
        if sorted(outcome.order) != list(range(players)):
            raise AssertionError(f"outcome {outcome}: order is not every seat once")
        if not rules.end_draw_allowed and outcome.loser is None:
            raise AssertionError(f"outcome {outcome}: a draw with end.draw_allowed=false")
        return None
    except Exception as exc:  # every error is counted and described, none stops the run
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return (f"combination {index}, {players} players: {type(exc).__name__}: {exc} "
                f"({where.filename}:{where.lineno}) options={combo}")
    finally:
        signal.alarm(0)


def run_chunk(job: tuple[Sequence[int], tuple[int, ...]]) -> tuple[int, int, list[str]]:
    """(games, errors, first error descriptions) for a slice of combinations."""
    signal.signal(signal.SIGALRM, _alarm)
    indices, players = job
    games = errors = 0
    described: list[str] = []
    for index in indices:
        for n in players:
            games += 1
            error = play_one(index, n)
            if error is not None:
                errors += 1
                if len(described) < 20:
                    described.append(error)
    return games, errors, described


def chunks(indices: Sequence[int], size: int) -> Iterator[Sequence[int]]:
    for start in range(0, len(indices), size):
        yield indices[start:start + size]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="2,3",
                        help="comma-separated player counts, one game each (default 2,3)")
    parser.add_argument("--limit", type=int, default=None,
                        help="play only a fixed random sample of this many combinations")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    players = tuple(int(p) for p in args.players.split(",") if p.strip())
    for n in players:
        if not 2 <= n <= Rules().with_options(**FIXED).max_players:
            parser.error(f"--players: {n} players cannot play with 36 cards and 6-card hands")

    total = total_combinations()
    indices = chosen_indices(total, args.limit)
    jobs = [(chunk, players) for chunk in chunks(indices, 2000)]
    began = time.perf_counter()
    games = errors = 0
    described: list[str] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results: Iterator[tuple[int, int, list[str]]] = pool.imap_unordered(run_chunk, jobs)
            for g, e, d in results:
                games, errors = games + g, errors + e
                described += d
    else:
        for g, e, d in map(run_chunk, jobs):
            games, errors = games + g, errors + e
            described += d
    seconds = round(time.perf_counter() - began, 1)
    for line in itertools.islice(described, 20):
        print(line, file=sys.stderr)
    print(json.dumps({"combinations": len(indices), "games": games, "errors": errors,
                      "seconds": seconds}))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
