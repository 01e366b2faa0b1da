"""MaskablePPO (sb3-contrib) on bito's compiled vector environment.

    pip install 'bito[train]'          # sb3-contrib and torch, plus the rl and fast extras
    python examples/maskable_ppo_vector.py --steps 200000 --num-envs 256

The learner plays seat 0 of 2-player podkidnoy against the kernel's greedy opponent in
``--num-envs`` deals stepped together in compiled code (``bito.env.vector``). Stable-Baselines3
has its own vector interface, so a small adapter (:class:`Sb3Vector`) turns Gymnasium's
next-step auto-reset into SB3's same-step one: when a deal ends, the adapter keeps its last
observation in ``info["terminal_observation"]`` and re-deals just that env
(``reset(options={"reset_mask": ...})``). MaskablePPO reads the legal actions from
``action_masks()``. At the end the policy is scored on a few hundred deals against the
greedy opponent.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

MISSING = ("this example needs sb3-contrib and torch (the train extra): "
           "pip install 'bito[train]'")


def same_step_reset(venv: Any, actions: Any) -> tuple[Any, Any, Any, list[dict[str, Any]]]:
    """One step of a Gymnasium vector env (next-step auto-reset) the way SB3 expects it: a deal
    that ends is re-dealt at once, its last observation kept in ``terminal_observation``."""
    import numpy as np

    obs, reward, terminated, truncated, _ = venv.step(np.asarray(actions, dtype=np.int64))
    done = np.logical_or(terminated, truncated)
    infos: list[dict[str, Any]] = [{} for _ in range(len(done))]
    if done.any():
        for i in np.flatnonzero(done):
            infos[i]["terminal_observation"] = obs[i].copy()
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        obs, _ = venv.reset(options={"reset_mask": done})
    return obs, reward.astype(np.float32), done, infos


def make_adapter(venv: Any) -> Any:
    """An SB3 ``VecEnv`` over a Gymnasium vector env with next-step auto-reset."""
    import numpy as np
    from stable_baselines3.common.vec_env import VecEnv

    class Sb3Vector(VecEnv):  # type: ignore[misc]
        def __init__(self) -> None:
            self.venv = venv
            super().__init__(venv.num_envs, venv.single_observation_space,
                             venv.single_action_space)
            self._actions: Any = None

        def reset(self) -> Any:
            obs, _ = self.venv.reset(seed=int(np.random.SeedSequence().entropy % 2**31))
            return obs

        def step_async(self, actions: Any) -> None:
            self._actions = np.asarray(actions, dtype=np.int64)

        def step_wait(self) -> Any:
            return same_step_reset(self.venv, self._actions)

        def action_masks(self) -> Any:
            return self.venv.action_masks().astype(bool)

        def env_method(self, method_name: str, *args: Any, indices: Any = None,
                       **kwargs: Any) -> list[Any]:
            if method_name == "action_masks":
                masks = self.action_masks()
                return [masks[i] for i in self._get_indices(indices)]
            raise NotImplementedError(method_name)

        def close(self) -> None:
            self.venv.close()

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(self.venv, attr_name)] * len(list(self._get_indices(indices)))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(self.venv, attr_name, value)

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * len(list(self._get_indices(indices)))

        def seed(self, seed: int | None = None) -> list[int | None]:
            return [seed] * self.num_envs

    return Sb3Vector()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=200_000, help="learner steps in all")
    ap.add_argument("--num-envs", type=int, default=64)
    ap.add_argument("--variant", default="podkidnoy")
    ap.add_argument("--eval-deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch's CPU threads")
    args = ap.parse_args(argv)
    try:
        import sb3_contrib  # noqa: F401
        import torch
    except ImportError:
        print(MISSING, file=sys.stderr)
        return 2
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(args.threads)

    import bito.env.gymnasium  # noqa: F401  (registers the ids and the vector entry point)

    venv = gym.make_vec("bito/Durak-v0", num_envs=args.num_envs,
                        vectorization_mode="vector_entry_point", variant=args.variant)
    env = make_adapter(venv)
    n_steps = max(8, min(256, args.steps // args.num_envs))
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(1024, n_steps
                        * args.num_envs), seed=args.seed, verbose=1)
    model.learn(total_timesteps=args.steps)
    # Score: the mean end-of-deal reward over --eval-deals deals against the greedy opponent.
    obs = env.reset()
    finished, total = 0, 0.0
    while finished < args.eval_deals:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, reward, done, _ = env.step(action)
        finished += int(done.sum())
        total += float(reward[done].sum())
    print(f"MaskablePPO after {args.steps} steps: mean return {total / finished:+.3f} over "
          f"{finished} deals against the greedy opponent (+1 win, -1 loss)")
    env.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
