"""Many deals at once: a batch environment for learners that act on arrays.

``BatchEnv(num_envs=64)`` holds 64 independent deals, each with one learning seat and bots in
the others (as :mod:`bito.env.gymnasium`). ``step(actions)`` takes one codec integer per deal
and returns stacked arrays: observations ``(n, obs_size)`` ``float32``, rewards ``(n,)``,
done flags ``(n,)`` and legal masks ``(n, actions)`` ``int8``. A finished deal is re-dealt at
once (auto-reset, as Gymnasium's vector environments do): its reward and done flag belong to
the finished deal, its observation and mask to the new one.

It steps the reference engine through the same :class:`~bito.env.kit.GameKit` as the other
adapters, so it plays every game of every family and seats any bot, at Python speed. For the
rules the kernel plays, :class:`bito.env.vector.DurakVectorEnv` steps the deals, the
observations and compiled opponents in compiled code.

Benchmark (JSON on stdout)::

    python3 -m bito.env.batch --envs 64 --steps 500
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.kit import kit_for
from bito.env.payoff import seat_returns

np: Any = require("numpy", "bito.env.batch")


class BatchEnv:
    """``num_envs`` deals stepped together (see the module docstring).

    ``seat``: the learner's seat in every deal, or ``"rotate"`` to move it round the table
    from one deal to the next. ``seed`` fixes every deal and every bot.
    """

    def __init__(self, variant: str = "podkidnoy", players: int = 2, num_envs: int = 16,
                 opponents: Sequence[str] | str = ("random",), seat: int | str = 0,
                 seed: int = 0) -> None:
        self.kit = kit_for(variant, players)  # refuses a bad game or seat count
        self.rules = self.kit.rules
        self.players = players
        self.num_envs = num_envs
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names *= players - 1
        if len(names) != players - 1:
            raise ValueError(f"opponents: give one bot name or {players - 1}, not {len(names)}")
        for name in names:
            make_bot(name, 0)
        if seat != "rotate" and not (isinstance(seat, int) and 0 <= seat < players):
            raise ValueError(f"seat must be a seat number below {players} or 'rotate'")
        self.opponent_names = tuple(names)
        self.seat_rule = seat
        self.codec = self.kit.codec
        self.encoder = self.kit.encoder
        self._rng = random.Random(seed)
        self._deals = 0
        self.states: list[Any] = []
        self.seats: list[int] = []
        self._bots: list[dict[int, Bot]] = []
        self.moves = 0  # engine moves made, bots' included (for the benchmark)
        #: Per row, after :meth:`step`: (the deal that just finished, the learner's seat in
        #: it), or None; the row itself already holds the next deal.
        self.finished: list[tuple[Any, int] | None] = []

    @property
    def obs_size(self) -> int:
        return int(self.encoder.size)

    def _deal(self, i: int) -> None:
        seat = self._deals % self.players if self.seat_rule == "rotate" else int(self.seat_rule)
        self._deals += 1
        game_seed = self._rng.randrange(2**62)
        bots = {}
        others = [s for s in range(self.players) if s != seat]
        for s, name in zip(others, self.opponent_names, strict=True):
            bots[s] = make_bot(name, self._rng.randrange(2**62))
        state = self.kit.deal(game_seed)
        if i < len(self.states):
            self.states[i], self.seats[i], self._bots[i] = state, seat, bots
        else:
            self.states.append(state)
            self.seats.append(seat)
            self._bots.append(bots)
        self._advance(i)

    def _advance(self, i: int) -> None:
        """Let the bots play until the learner is to act or the deal is over."""
        state, seat, bots = self.states[i], self.seats[i], self._bots[i]
        while not state.is_over and state.to_act != seat:
            s = state.to_act
            state = state.apply(bots[s].choose(state.view(s)))
            self.moves += 1
        self.states[i] = state

    def _observe(self) -> tuple[Any, Any]:
        obs = np.zeros((self.num_envs, self.encoder.size), dtype=np.float32)
        masks = np.zeros((self.num_envs, self.codec.size), dtype=np.int8)
        index = self.codec._index
        for i, (state, seat) in enumerate(zip(self.states, self.seats, strict=True)):
            self.encoder.encode(state.view(seat), out=obs[i])
            row = masks[i]
            # (the Durak engine's legal_list skips building a fresh list)
            for a in getattr(state, "legal_list", state.legal_actions)():
                row[index[a]] = 1
        return obs, masks

    def reset(self) -> tuple[Any, Any]:
        """Deal every game afresh; (observations, masks)."""
        self.states, self.seats, self._bots = [], [], []
        for i in range(self.num_envs):
            self._deal(i)
        return self._observe()

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any]:
        """Play one learner action per deal; (observations, rewards, dones, masks).

        An illegal action raises :class:`~bito.errors.IllegalActionError` naming the rule
        (use the masks)."""
        if len(actions) != self.num_envs:
            raise ValueError(f"expected {self.num_envs} actions, got {len(actions)}")
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        dones = np.zeros(self.num_envs, dtype=bool)
        self.finished = [None] * self.num_envs
        for i, a in enumerate(actions):
            state = self.kit.play(self.states[i], self.codec.action(int(a)))
            self.moves += 1
            self.states[i] = state
            self._advance(i)
            state = self.states[i]
            if state.is_over:
                rewards[i] = seat_returns(state.outcome, self.players)[self.seats[i]]
                dones[i] = True
                self.finished[i] = (state, self.seats[i])
                self._deal(i)
        obs, masks = self._observe()
        return obs, rewards, dones, masks


def benchmark(envs: int, steps: int, variant: str = "podkidnoy", players: int = 2,
              opponents: str = "random", seed: int = 0) -> dict[str, Any]:
    """Step ``envs`` deals ``steps`` times with uniformly random legal learner actions."""
    env = BatchEnv(variant, players, envs, opponents, seat="rotate", seed=seed)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    cpu = time.process_time()
    _, masks = env.reset()
    finished = 0
    for _ in range(steps):
        # One random legal action per row: argmax of random keys on the legal entries.
        keys = rng.random(masks.shape) * masks
        _, _, dones, masks = env.step(keys.argmax(axis=1))
        finished += int(dones.sum())
    wall = time.perf_counter() - start
    cpu_s = time.process_time() - cpu
    return {"variant": variant, "players": players, "opponents": opponents, "envs": envs,
            "steps": steps, "learner_steps_per_s": round(envs * steps / wall, 1),
            "engine_moves_per_s": round(env.moves / wall, 1),
            "learner_steps_per_cpu_s": round(envs * steps / cpu_s, 1),
            "deals_finished": finished, "seconds": round(wall, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description="Benchmark the batch environment (JSON output)")
    ap.add_argument("--envs", type=int, default=64)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--variant", default="podkidnoy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(benchmark(a.envs, a.steps, a.variant, a.players, a.opponents, a.seed)))


if __name__ == "__main__":
    main()
