"""CPU time of one learner step, with the observation written three ways, side by side in one
run: by the encoder as it was before it drew from the table model (``old``: the frozen copies
of ``tests/env/frozen_encoders.py``), by today's encoder from the whole table model, words and
all (``whole``: what the encoders paid before the model had a learner's build), and by
today's encoder from the learner's build (``new``: ``words=False``, what the environments
run).

A step is a Gymnasium step with random opponents (``bito/Game-v0``): the learner's action
(a random legal one), the opponents' moves up to its next turn, the seat's view, its
observation and its mask; a finished game is dealt again. Each run plays ``--steps`` steps
with the old encoder, then the same steps with the new one (same seeds, same games); the best
of ``--runs`` runs is printed, in microseconds of CPU time a step, and ``new`` against
``old``::

    PYTHONPATH=src python tools/learner_step_speed.py podkidnoy:2 czech_fool:2 heaped:3

``--encode`` times the observation alone (the same positions, old and new encoder).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "env"))

from frozen_encoders import old_bouts, old_card_play, old_durak

from bito.env.bouts import BoutsEncoder
from bito.env.cardplay import CardPlayEncoder
from bito.env.gymnasium import GameEnv
from bito.games.tables import table_of


class _Frozen:
    """An encoder that writes the old way, for the environment to call."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self.size = encoder.size
        self.old = (old_bouts if isinstance(encoder, BoutsEncoder)
                    else old_card_play if isinstance(encoder, CardPlayEncoder) else old_durak)

    def encode(self, view: Any, out: Any = None) -> Any:
        if self.old is old_durak:
            return old_durak(self.encoder, view, out)
        return self.old(self.encoder, view)


class _Whole:
    """Today's encoder, fed the whole table model (moves, notes and words included)."""

    def __init__(self, encoder: Any) -> None:
        self.encoder = encoder
        self.size = encoder.size

    def encode(self, view: Any, out: Any = None) -> Any:
        return self.encoder.encode_table(table_of(view), out)


def _steps(env: GameEnv, steps: int) -> float:
    """CPU seconds of ``steps`` learner steps from fixed seeds."""
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    started = time.process_time()
    for _ in range(steps):
        legal = info["action_mask"].nonzero()[0]
        _, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
        if done:
            _, info = env.reset(seed=rng.randrange(1 << 30))
    return time.process_time() - started


def _positions(env: GameEnv, count: int) -> list[Any]:
    """The learner's views along ``count`` random steps."""
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    views = []
    for _ in range(count):
        views.append(env.state.view(env.seat))
        legal = info["action_mask"].nonzero()[0]
        _, _, done, _, info = env.step(int(legal[rng.randrange(len(legal))]))
        if done:
            _, info = env.reset(seed=rng.randrange(1 << 30))
    return views


def _encode(encoder: Any, views: list[Any]) -> float:
    started = time.process_time()
    for view in views:
        encoder.encode(view)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", help="GAME:PLAYERS, e.g. podkidnoy:2")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--encode", action="store_true", help="time the observation alone")
    args = parser.parse_args()
    for item in args.games:
        game, _, seats = item.partition(":")
        env = GameEnv(game, int(seats or 2), opponents="random")
        ways = {"old": _Frozen(env.encoder), "whole": _Whole(env.encoder), "new": env.encoder}
        best = dict.fromkeys(ways, float("inf"))
        views = _positions(env, args.steps) if args.encode else []
        for _ in range(args.runs):
            for name, encoder in ways.items():
                if args.encode:
                    spent = _encode(encoder, views)
                else:
                    env.encoder = encoder
                    spent = _steps(env, args.steps)
                best[name] = min(best[name], spent)
        us = {k: v / args.steps * 1e6 for k, v in best.items()}
        print(f"{item:<24} old {us['old']:6.1f} us  whole {us['whole']:6.1f} us  "
              f"new {us['new']:6.1f} us  "
              f"{(us['new'] / us['old'] - 1) * 100:+6.1f} %"
              f"{'  (observation alone)' if args.encode else ''}", flush=True)


if __name__ == "__main__":
    main()
