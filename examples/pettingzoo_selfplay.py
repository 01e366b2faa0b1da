"""Multi-agent self-play on bito's PettingZoo environment: one shared policy plays every seat.

    python examples/pettingzoo_selfplay.py --variant perevodnoy --players 3 --steps 20000

The policy is a linear softmax over the legal actions (numpy only, no deep-learning library),
trained by REINFORCE: at the end of each deal every seat's moves are pushed towards (or away
from) what they chose, by that seat's return. It is a small, honest template for plugging a
real learner into ``bito.env.pettingzoo.env``: the loop, the action mask, the per-agent
rewards and the end of a deal are all here. Any game with an environment works
(``--variant czech_fool`` or ``friese_fool --players 4`` too). Every ``--report`` deals it
prints how often seat 0 won (in self-play, about 1/players while nothing is learnt; the
point here is the loop, not the strength).

Needs the ``rl`` extra: ``pip install 'bito[rl]'``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def masked_softmax(logits: Any, mask: Any) -> Any:
    import numpy as np

    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max()
    p = np.exp(z)
    return p / p.sum()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="podkidnoy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--steps", type=int, default=20000, help="environment steps in all")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--report", type=int, default=50, help="deals between progress lines")
    args = ap.parse_args(argv)
    try:
        import numpy as np

        from bito.env.pettingzoo import env as make_env
    except ImportError as e:
        print(f"this example needs the rl extra: {e}", file=sys.stderr)
        return 2

    e = make_env(variant=args.variant, players=args.players)
    e.reset(seed=args.seed)
    first = e.possible_agents[0]
    obs_size = e.observation_space(first)["observation"].shape[0]
    n_actions = e.action_space(first).n
    rng = np.random.default_rng(args.seed)
    weights = np.zeros((n_actions, obs_size), dtype=np.float64)
    steps = deals = 0
    wins = 0.0
    while steps < args.steps:
        trajectory: dict[str, list[tuple[Any, Any, int]]] = {a: [] for a in e.possible_agents}
        returns: dict[str, float] = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                returns[agent] = float(reward)
                e.step(None)
                continue
            x = obs["observation"].astype(np.float64)
            p = masked_softmax(weights @ x, obs["action_mask"])
            action = int(rng.choice(n_actions, p=p))
            trajectory[agent].append((x, p, action))
            e.step(action)
            steps += 1
        deals += 1
        for agent, moves in trajectory.items():
            g = returns.get(agent, 0.0)
            for x, p, action in moves:  # grad of log softmax: (onehot - p) x
                grad = -p[:, None] * x[None, :]
                grad[action] += x
                weights += args.lr * g * grad
        wins += returns.get(first, 0.0) > 0
        if deals % args.report == 0:
            print(f"{steps:>8} steps, {deals:>5} deals; seat 0 won {wins / args.report:.2f} "
                  f"of the last {args.report}", flush=True)
            wins = 0.0
        e.reset()
    print(f"done: {steps} steps, {deals} deals, |W| = {float(np.abs(weights).sum()):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
