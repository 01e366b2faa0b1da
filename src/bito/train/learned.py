"""Train the ``learned`` bot: PPO on the compiled vector environment, exported for numpy play.

::

    pip install '.[train]'
    python -m bito.train.learned --variant podkidnoy --minutes 60

Why this shape (the longer account is in ``docs/rl.md``): the compiled vector environment
(:class:`bito.env.vector.DurakVectorEnv`) steps thousands of deals, the opponents' moves
included, for less than the network's forward pass costs, so an on-policy method that wants
many fresh games per update is cheap here. The learner sits in seat 0 of ``--envs`` deals
against the kernel's greedy policy, the compiled twin of the search bots' rollout policy, a
little weaker than the heuristic (0.43 against it over 200 duplicate pairs); with
``--epsilon`` of its moves random, so the learner meets more than one line of play. Two
separate multilayer perceptrons (policy and value, ``--hidden`` units twice) read the
observation; the illegal actions' logits are masked out before sampling. The reward is the
deal's result (+1, 0, -1), undiscounted, with generalised advantage estimation.

The learning rate falls linearly to zero over ``--steps`` learner steps; ``--minutes`` is a
wall-clock cap on top. Both the exported weights (``--out``) and the curve (``--curve``, JSON
lines) are written at every evaluation, so an interrupted run still leaves the best weights
so far: "best" by the score against the heuristic on ``--eval-pairs`` duplicate pairs of its
own deals (seed ``--eval-seed``, away from the seeds the figures in ``docs/rl.md`` use).

With the same ``--seed`` and ``--steps`` (and one torch thread, which this module sets) a run
repeats; ``--minutes`` cuts a run at a time that depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MISSING = "training the learned bot needs PyTorch (the train extra): pip install 'bito[train]'"


def _torch() -> Any:
    try:
        import torch
    except ImportError:  # pragma: no cover - exercised only without the extra
        raise ImportError(MISSING) from None
    return torch


@dataclass
class Settings:
    """One training run's knobs (the command's flags)."""

    variant: str = "podkidnoy"
    players: int = 2
    steps: int = 6_000_000
    minutes: float = 60.0
    envs: int = 256
    horizon: int = 64
    hidden: int = 256
    lr: float = 3e-4
    epochs: int = 3
    minibatch: int = 4096
    clip: float = 0.2
    entropy: float = 0.01
    lam: float = 0.95
    epsilon: float = 0.1
    seed: int = 0
    eval_minutes: float = 5.0
    eval_deals: int = 2000
    eval_pairs: int = 200
    eval_seed: int = 7
    out: Path | None = None
    curve: Path | None = None
    init: Path | None = None
    labels: Path | None = None
    label_deals: int = 0
    label_workers: int = 1
    playouts: int = 200
    imitate_epochs: int = 12
    imitate_lr: float = 1e-3
    critic_warmup: int = 5
    dagger_deals: int = 0


def networks(obs_size: int, actions: int, hidden: int) -> tuple[Any, Any]:
    """The policy (logits over every action number) and the value network."""
    nn = _torch().nn

    def mlp(out: int) -> Any:
        return nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                             nn.ReLU(), nn.Linear(hidden, out))

    return mlp(actions), mlp(1)


def export(policy: Any, path: Path, variant: str, players: int) -> None:
    """Write the policy as float16 ``w0..w2`` (inputs x outputs) and ``b0..b2``, with the game
    it was trained for; the file is replaced atomically, so a reader never sees half of it."""
    import numpy as np

    torch = _torch()
    linears = [m for m in policy if isinstance(m, torch.nn.Linear)]
    arrays: dict[str, Any] = {"variant": np.array(variant), "players": np.array(players)}
    for i, lin in enumerate(linears):
        arrays[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = lin.bias.detach().numpy().astype(np.float16)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)


def load_policy(policy: Any, path: Path) -> None:
    """Start from exported weights (``--init``): the same layout :func:`export` writes."""
    import numpy as np

    torch = _torch()
    linears = [m for m in policy if isinstance(m, torch.nn.Linear)]
    with np.load(path) as data:
        for i, lin in enumerate(linears):
            lin.weight.data.copy_(torch.from_numpy(data[f"w{i}"].astype(np.float32).T))
            lin.bias.data.copy_(torch.from_numpy(data[f"b{i}"].astype(np.float32)))


def masked_logits(policy: Any, obs: Any, mask: Any) -> Any:
    torch = _torch()
    logits = policy(obs)
    return torch.where(mask, logits, torch.full_like(logits, -1e9))


def score_against_greedy(policy: Any, settings: Settings, deals: int, seed: int) -> float:
    """The greedy policy's opponent, no random moves: mean score (win 1, draw ½, loss 0) of
    the network's top action over ``deals`` fresh deals, one per env."""
    import numpy as np

    from bito.env.vector import DurakVectorEnv

    torch = _torch()
    env = DurakVectorEnv(num_envs=deals, variant=settings.variant, players=settings.players,
                         opponents="greedy", copy=False)
    obs, _ = env.reset(seed=seed)
    result = np.full(deals, np.nan)
    with torch.no_grad():
        while np.isnan(result).any():
            mask = torch.from_numpy(env.action_masks().astype(bool))
            logits = masked_logits(policy, torch.from_numpy(obs), mask)
            actions = logits.argmax(dim=1).numpy()
            obs, reward, term, trunc, _ = env.step(actions)
            ended = (term | trunc) & np.isnan(result)
            result[ended] = (reward[ended] + 1.0) / 2.0
    return float(result.mean())


def score_against_heuristic(path: Path, settings: Settings) -> tuple[float, float, float]:
    """The exported weights as the ``learned`` bot against the heuristic in bito's arena:
    ``--eval-pairs`` duplicate pairs, mean and 95% interval."""
    from bito.arena.run import run_arena
    from bito.bots import register_bot, unregister_bot
    from bito.bots.learned import LearnedBot

    key = (settings.variant, settings.players)
    register_bot("learned-candidate", lambda seed: LearnedBot(seed, weights={key: path}))
    try:
        result = run_arena(settings.variant, settings.players,
                           ["learned-candidate", "heuristic"], settings.eval_pairs,
                           seed=settings.eval_seed)
    finally:
        unregister_bot("learned-candidate")
    seat = result.matchups()[0]["seats"][0]
    low, high = seat["interval"]
    return float(seat["score"]), float(low), float(high)


def label_stage(settings: Settings, out: Path, deals: int, first_seed: int,
                student: Path | None = None, log: Any = print) -> None:
    """Label ``deals`` deals with the search teacher into ``out``, split over
    ``label_workers`` processes (deal seeds ``first_seed`` + 100,000 k for worker k, away from
    the arena's and the books' deals); skipped when the directory already holds shards, so a
    rerun picks up where the labels are."""
    from concurrent.futures import ProcessPoolExecutor

    from bito.train.teacher import label_deals

    if (out.is_dir() and any(out.glob("*.npz"))) or deals < 1:
        return
    workers = settings.label_workers
    share = -(-deals // workers)
    with ProcessPoolExecutor(workers) as pool:
        jobs = [pool.submit(label_deals, settings.variant, settings.players, out, 1e9,
                            settings.playouts, first_seed + 100_000 * k, 50, share, print,
                            student)
                for k in range(workers)]
        total = sum(job.result() for job in jobs)
    log(json.dumps({"stage": "labels", "student": student is not None,
                    "deals": share * workers, "examples": total}))


def imitate(policy: Any, settings: Settings, dirs: list[Path],
            log: Any = print) -> dict[str, Any]:
    """Supervised stage: raise the teacher's move's log-probability among the legal moves
    (cross-entropy over the masked logits), on every shard in ``dirs`` but a held-out
    twentieth, on which the top-1 agreement is reported."""
    import numpy as np

    from bito.train.teacher import load_examples

    torch = _torch()
    obs_np, legal_np, label_np = load_examples([p for d in dirs for p in d.glob("*.npz")])
    n = len(label_np)
    gen = torch.Generator().manual_seed(settings.seed)
    order = torch.randperm(n, generator=gen)
    held = order[: max(1, n // 20)]
    fit = order[max(1, n // 20):]
    obs = torch.from_numpy(obs_np)
    legal = torch.from_numpy(legal_np.astype(np.int64))
    label = torch.from_numpy(label_np.astype(np.int64))
    n_act = policy[-1].out_features

    def batch(idx: Any) -> tuple[Any, Any, Any]:
        rows = legal[idx]
        mask = torch.zeros((len(idx), n_act + 1), dtype=torch.bool)
        mask.scatter_(1, torch.where(rows < 0, n_act, rows), True)
        return obs[idx].float(), mask[:, :n_act], label[idx]

    optim = torch.optim.Adam(policy.parameters(), lr=settings.imitate_lr)
    steps_per_epoch = -(-len(fit) // 512)
    total = settings.imitate_epochs * steps_per_epoch
    done = 0
    out: dict[str, Any] = {}
    for epoch in range(settings.imitate_epochs):
        perm = fit[torch.randperm(len(fit), generator=gen)]
        for lo in range(0, len(perm), 512):
            for group in optim.param_groups:
                group["lr"] = settings.imitate_lr * (1.0 - done / total)
            o, m, y = batch(perm[lo:lo + 512])
            loss = torch.nn.functional.cross_entropy(masked_logits(policy, o, m), y)
            optim.zero_grad()
            loss.backward()
            optim.step()
            done += 1
        with torch.no_grad():
            o, m, y = batch(held)
            agree = (masked_logits(policy, o, m).argmax(dim=1) == y).float().mean().item()
        out = {"stage": "imitate", "epoch": epoch + 1, "examples": n,
               "held_out_agreement": round(agree, 4)}
        log(json.dumps(out))
    return out


def train(settings: Settings, log: Any = print) -> dict[str, Any]:
    """Run PPO until ``steps`` or ``minutes`` run out; returns the last curve row."""
    import numpy as np

    from bito.env.vector import DurakVectorEnv

    torch = _torch()
    torch.set_num_threads(1)
    torch.manual_seed(settings.seed)
    env = DurakVectorEnv(num_envs=settings.envs, variant=settings.variant,
                         players=settings.players, opponents="greedy",
                         greedy_epsilon=settings.epsilon, copy=False)
    obs_np, _ = env.reset(seed=settings.seed)
    obs_size = env.single_observation_space.shape[0]
    n_act = int(env.single_action_space.n)
    policy, value = networks(obs_size, n_act, settings.hidden)
    if settings.init is not None:
        load_policy(policy, settings.init)
    if settings.labels is not None:
        label_stage(settings, settings.labels, settings.label_deals, 1_000_000, log=log)
        imitate(policy, settings, [settings.labels], log)
        if settings.dagger_deals > 0:
            dagger = settings.labels / "dagger"
            student = settings.labels / "student.weights"
            if not (dagger.is_dir() and any(dagger.glob("*.npz"))):
                export(policy, student, settings.variant, settings.players)
            label_stage(settings, dagger, settings.dagger_deals, 2_000_000, student, log)
            imitate(policy, settings, [settings.labels, dagger], log)
    params = [*policy.parameters(), *value.parameters()]
    optim = torch.optim.Adam(params, lr=settings.lr, eps=1e-5)
    n, horizon = settings.envs, settings.horizon
    obs_buf = torch.zeros((horizon, n, obs_size))
    mask_buf = torch.zeros((horizon, n, n_act), dtype=torch.bool)
    act_buf = torch.zeros((horizon, n), dtype=torch.long)
    logp_buf = torch.zeros((horizon, n))
    val_buf = torch.zeros((horizon, n))
    rew_buf = np.zeros((horizon, n), np.float32)
    done_buf = np.zeros((horizon, n), bool)
    valid_buf = np.zeros((horizon, n), bool)
    started = time.monotonic()
    last_eval = started
    steps = deals = updates = 0
    best = -1.0
    row: dict[str, Any] = {}

    def evaluate() -> dict[str, Any]:
        nonlocal best
        greedy = score_against_greedy(policy, settings, settings.eval_deals,
                                      seed=10_000_019 + settings.eval_seed)
        out: dict[str, Any] = {"minutes": round((time.monotonic() - started) / 60, 2),
                               "steps": steps, "deals": deals, "updates": updates,
                               "vs_greedy": round(greedy, 4)}
        if settings.out is not None:
            latest = settings.out.with_name(settings.out.stem + ".latest.npz")
            export(policy, latest, settings.variant, settings.players)
            if settings.eval_pairs > 0:
                score, low, high = score_against_heuristic(latest, settings)
                out["vs_heuristic"] = score
                out["vs_heuristic_interval"] = [low, high]
            else:
                score = greedy
            if score >= best:
                best = score
                export(policy, settings.out, settings.variant, settings.players)
                out["saved"] = True
        if settings.curve is not None:
            with settings.curve.open("a") as f:
                f.write(json.dumps(out) + "\n")
        log(json.dumps(out))
        return out

    if settings.curve is not None:
        settings.curve.parent.mkdir(parents=True, exist_ok=True)
        settings.curve.write_text("")  # a run's curve is its own
    row = evaluate()
    while steps < settings.steps and time.monotonic() - started < settings.minutes * 60:
        frac = 1.0 - steps / settings.steps
        for group in optim.param_groups:
            group["lr"] = settings.lr * frac
        with torch.no_grad():
            for t in range(horizon):
                mask_np = env.action_masks()
                valid = mask_np.any(axis=1)
                obs_t = torch.from_numpy(obs_np)
                mask_t = torch.from_numpy(mask_np.astype(bool))
                mask_t[~torch.from_numpy(valid), 0] = True  # a finished deal: any action
                logits = masked_logits(policy, obs_t, mask_t)
                dist = torch.distributions.Categorical(logits=logits)
                act = dist.sample()
                obs_buf[t] = obs_t
                mask_buf[t] = mask_t
                act_buf[t] = act
                logp_buf[t] = dist.log_prob(act)
                val_buf[t] = value(obs_t).squeeze(1)
                valid_buf[t] = valid
                obs_np, reward, term, trunc, _ = env.step(act.numpy())
                rew_buf[t] = reward
                done_buf[t] = term | trunc
                steps += int(valid.sum())
                deals += int(done_buf[t].sum())
            last_value = value(torch.from_numpy(obs_np)).squeeze(1).numpy()
        # Advantages: a valid step is followed by a valid step unless it ended the deal, so
        # the bootstrap is the next row's value, or nothing after the deal's end.
        values = val_buf.numpy()
        adv = np.zeros((horizon, n), np.float32)
        gae = np.zeros(n, np.float32)
        for t in reversed(range(horizon)):
            nxt = last_value if t == horizon - 1 else values[t + 1]
            live = ~done_buf[t]
            delta = rew_buf[t] + live * nxt - values[t]
            gae = np.where(valid_buf[t], delta + settings.lam * live * gae, 0.0)
            adv[t] = gae
        ret = adv + values
        keep = torch.from_numpy(valid_buf.reshape(-1))
        b_obs = obs_buf.reshape(-1, obs_size)[keep]
        b_mask = mask_buf.reshape(-1, n_act)[keep]
        b_act = act_buf.reshape(-1)[keep]
        b_logp = logp_buf.reshape(-1)[keep]
        b_adv = torch.from_numpy(adv.reshape(-1))[keep]
        b_ret = torch.from_numpy(ret.reshape(-1))[keep]
        size = b_obs.shape[0]
        for _ in range(settings.epochs):
            order = torch.randperm(size)
            for lo in range(0, size, settings.minibatch):
                idx = order[lo:lo + settings.minibatch]
                logits = masked_logits(policy, b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(b_act[idx]) - b_logp[idx])
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = -torch.min(ratio * a, ratio.clamp(1 - settings.clip,
                                                       1 + settings.clip) * a).mean()
                v_loss = 0.5 * ((value(b_obs[idx]).squeeze(1) - b_ret[idx]) ** 2).mean()
                ent = dist.entropy().mean()
                if updates < settings.critic_warmup:  # the critic learns the imitated policy
                    loss = 0.5 * v_loss                 # first: no policy step on raw values
                else:
                    loss = pg + 0.5 * v_loss - settings.entropy * ent
                optim.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 0.5)
                optim.step()
        updates += 1
        if time.monotonic() - last_eval >= settings.eval_minutes * 60:
            last_eval = time.monotonic()
            row = evaluate()
    row = evaluate()
    if settings.out is not None:  # the run is over: only the best weights stay
        settings.out.with_name(settings.out.stem + ".latest.npz").unlink(missing_ok=True)
    return row


def plot_curves(curves: dict[str, Path], out: Path) -> None:
    """The learning curves (JSON lines written by :func:`train`) as one PNG: the score against
    the heuristic, with its interval, and against the greedy opponent, by PPO learner steps
    (after an imitation stage, step 0 is the imitated policy)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for (name, path), colour in zip(curves.items(), ("tab:blue", "tab:red", "tab:cyan",
                                                        "tab:orange", "tab:green"),
                                    strict=False):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        rows = [r for r in rows if "vs_heuristic" in r]
        x = [r["steps"] / 1e6 for r in rows]
        ax.plot(x, [r["vs_heuristic"] for r in rows], "o-", color=colour,
                label=f"{name}: vs heuristic")
        ax.fill_between(x, [r["vs_heuristic_interval"][0] for r in rows],
                        [r["vs_heuristic_interval"][1] for r in rows], color=colour, alpha=0.15)
        ax.plot(x, [r["vs_greedy"] for r in rows], "--", color=colour,
                label=f"{name}: vs greedy")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("PPO learner steps (millions)")
    ax.set_ylabel("score (win 1, draw 1/2)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def parse(argv: list[str] | None = None) -> Settings:
    d = Settings()
    ap = argparse.ArgumentParser(prog="python -m bito.train.learned",
                                 description="Train the learned bot (PPO on the compiled vector "
                                 "environment against the greedy opponent) and export numpy "
                                 "weights.")
    ap.add_argument("--variant", default=d.variant, help="podkidnoy or perevodnoy (or any rules "
                    "the compiled kernel plays)")
    ap.add_argument("--players", type=int, default=d.players)
    ap.add_argument("--steps", type=int, default=d.steps, help="learner steps; the learning "
                    "rate reaches zero there")
    ap.add_argument("--minutes", type=float, default=d.minutes, help="wall-clock cap")
    ap.add_argument("--envs", type=int, default=d.envs)
    ap.add_argument("--horizon", type=int, default=d.horizon, help="steps per env per update")
    ap.add_argument("--hidden", type=int, default=d.hidden)
    ap.add_argument("--lr", type=float, default=d.lr)
    ap.add_argument("--epochs", type=int, default=d.epochs)
    ap.add_argument("--minibatch", type=int, default=d.minibatch)
    ap.add_argument("--entropy", type=float, default=d.entropy)
    ap.add_argument("--epsilon", type=float, default=d.epsilon,
                    help="share of the greedy opponent's moves made at random")
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--eval-minutes", type=float, default=d.eval_minutes)
    ap.add_argument("--eval-deals", type=int, default=d.eval_deals)
    ap.add_argument("--eval-pairs", type=int, default=d.eval_pairs,
                    help="duplicate pairs against the heuristic per evaluation (0: none)")
    ap.add_argument("--eval-seed", type=int, default=d.eval_seed)
    ap.add_argument("--init", type=Path, default=None, help="start from these weights")
    ap.add_argument("--labels", type=Path, default=None, help="directory of the search "
                    "teacher's labelled positions: imitate them before PPO (labelled first "
                    "when empty, see --label-deals)")
    ap.add_argument("--label-deals", type=int, default=d.label_deals,
                    help="deals the teacher plays and labels into an empty --labels")
    ap.add_argument("--label-workers", type=int, default=d.label_workers)
    ap.add_argument("--playouts", type=int, default=d.playouts,
                    help="the teacher's playouts per decision")
    ap.add_argument("--imitate-epochs", type=int, default=d.imitate_epochs)
    ap.add_argument("--dagger-deals", type=int, default=d.dagger_deals,
                    help="after imitating, deals the imitated network plays with the teacher "
                    "labelling its decisions (into --labels/dagger), then imitate them all")
    ap.add_argument("--critic-warmup", type=int, default=d.critic_warmup,
                    help="PPO updates that train the value network only")
    ap.add_argument("--out", type=Path, default=None, help="weights file (default "
                    "src/bito/bots/weights/learned_<variant>_<players>p.npz)")
    ap.add_argument("--curve", type=Path, default=None, help="learning curve, JSON lines "
                    "(default docs/data/learned_<variant>_<players>p.jsonl)")
    a = ap.parse_args(argv)
    for name in ("steps", "envs", "horizon", "hidden", "epochs", "minibatch", "eval_deals",
                 "label_workers", "playouts"):
        if getattr(a, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.minutes <= 0:
        ap.error("--minutes must be positive")
    if not 0.0 <= a.epsilon <= 1.0:
        ap.error("--epsilon must lie in [0, 1]")
    stem = f"learned_{a.variant}_{a.players}p"
    root = Path(__file__).resolve().parents[3]
    out = a.out or root / "src" / "bito" / "bots" / "weights" / f"{stem}.npz"
    curve = a.curve or root / "docs" / "data" / f"{stem}.jsonl"
    return Settings(a.variant, a.players, a.steps, a.minutes, a.envs, a.horizon, a.hidden, a.lr,
                    a.epochs, a.minibatch, d.clip, a.entropy, d.lam, a.epsilon, a.seed,
                    a.eval_minutes, a.eval_deals, a.eval_pairs, a.eval_seed, out, curve, a.init,
                    a.labels, a.label_deals, a.label_workers, a.playouts, a.imitate_epochs,
                    d.imitate_lr, a.critic_warmup, a.dagger_deals)


def main(argv: list[str] | None = None) -> int:
    try:
        _torch()
    except ImportError as e:
        print(e, file=sys.stderr)
        return 2
    settings = parse(argv)
    try:
        train(settings)
    except ValueError as e:  # bad rules for the kernel, a bad --init file
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
