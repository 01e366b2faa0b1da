"""Train the ``dmc`` bot: Deep Monte-Carlo action values for 2-player podkidnoy, PyTorch on CPU.

    python3 tools/train_dmc.py --minutes 30 --out src/bito/env/weights/dmc_podkidnoy_2p.npz

Each episode deals a podkidnoy game; the learner takes a random seat against the ``random`` or
the ``heuristic`` bot and picks actions epsilon-greedily from its value network (input: the
seat's observation vector and the action's features, see :mod:`bito.env.agent`). Every
(observation, action) pair of the episode gets the learner's final score as its target
(+1 not the fool, -1 the fool, 0 a draw); the network regresses onto those returns. Every few
minutes the greedy policy plays fixed deals against each bot and the win rates go to a CSV
(the learning curve in ``docs/rl.md``); the weights are exported as float16 numpy arrays after
each evaluation, so a stopped run still leaves a usable bot.

Needs PyTorch (not a bito dependency: ``pip install torch``). Uses one thread.
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from bito.bots import make_bot
from bito.env.agent import action_features
from bito.env.observation import ObservationEncoder
from bito.env.payoff import seat_returns
from bito.games.durak import new_game

VARIANT, PLAYERS = "podkidnoy", 2


def build(in_size: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(in_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                         nn.ReLU(), nn.Linear(hidden, 1))


class Learner:
    def __init__(self, hidden: int, lr: float, seed: int) -> None:
        torch.manual_seed(seed)
        self.enc = ObservationEncoder(VARIANT, PLAYERS)
        self.cards = self.enc.codec.cards
        self.pos = np.full(160, -1, dtype=np.int64)
        for i, c in enumerate(self.cards):
            self.pos[c] = i
        self.feat_size = 5 + 2 * len(self.cards)
        self.net = build(self.enc.size + self.feat_size, hidden)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def values(self, obs: np.ndarray, feats: np.ndarray) -> np.ndarray:
        x = np.concatenate([np.broadcast_to(obs, (len(feats), obs.shape[0])), feats], axis=1)
        with torch.no_grad():
            return self.net(torch.from_numpy(x)).numpy()[:, 0]

    def pick(self, view, eps: float, rng: random.Random):  # type: ignore[no-untyped-def]
        legal = list(view.legal)
        obs = self.enc.encode(view)
        feats = action_features(self.cards, self.pos, legal)
        if len(legal) == 1:
            return legal[0], obs, feats[0]
        if rng.random() < eps:
            i = rng.randrange(len(legal))
        else:
            i = int(np.argmax(self.values(obs, feats)))
        return legal[i], obs, feats[i]

    def export(self, path: Path) -> None:
        layers = [m for m in self.net if isinstance(m, nn.Linear)]
        arrays: dict[str, np.ndarray] = {}
        for i, lin in enumerate(layers):
            arrays[f"w{i}"] = lin.weight.detach().numpy().T.astype(np.float16)
            arrays[f"b{i}"] = lin.bias.detach().numpy().astype(np.float16)
        arrays["obs_size"] = np.array(self.enc.size)
        arrays["card_count"] = np.array(len(self.cards))
        arrays["players"] = np.array(PLAYERS)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)


def play(learner: Learner, opponent: str, seed: int, eps: float, rng: random.Random,
         seat: int) -> tuple[float, list[tuple[np.ndarray, np.ndarray]]]:
    """One deal; the learner's score and its (observation, action features) pairs."""
    state = new_game(VARIANT, PLAYERS, seed=seed)
    bot = make_bot(opponent, seed)
    pairs = []
    while not state.is_over:
        s = state.to_act
        view = state.view(s)
        if s == seat:
            action, obs, feat = learner.pick(view, eps, rng)
            pairs.append((obs, feat))
        else:
            action = bot.choose(view)
        state = state.apply(action)
    return seat_returns(state.outcome, PLAYERS)[seat], pairs


def evaluate(learner: Learner, opponent: str, games: int) -> float:
    """Greedy win rate (not the fool, not a draw) over fixed deals, seats alternating."""
    rng = random.Random(0)
    wins = 0
    for g in range(games):
        score, _ = play(learner, opponent, 10**9 + g, 0.0, rng, seat=g % 2)
        wins += score > 0
    return wins / games


def plot(curve: Path, png: Path) -> None:
    """The learning curve: greedy win rate against each bot over training time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with curve.open() as fh:
        rows = list(csv.DictReader(fh))
    minutes = [float(r["minutes"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=110)
    ax.plot(minutes, [float(r["win_vs_random"]) for r in rows], "o-", label="vs random")
    ax.plot(minutes, [float(r["win_vs_heuristic"]) for r in rows], "s-", label="vs heuristic")
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("training time (minutes, wall clock)")
    ax.set_ylabel("deals won (not the fool)")
    ax.set_ylim(0, 1)
    ax.set_title("dmc bot, 2-player podkidnoy")
    ax.legend(loc="center right")
    fig.tight_layout()
    fig.savefig(png)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--out", type=Path, default=Path("src/bito/env/weights/dmc_podkidnoy_2p.npz"))
    ap.add_argument("--curve", type=Path, default=Path("docs/rl_learning_curve.csv"))
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=5e-4)
    ap.add_argument("--eval-every", type=float, default=3.0, help="minutes between evaluations")
    ap.add_argument("--eval-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-share", type=float, default=0.3,
                    help="fraction of training deals against the random bot (else heuristic)")
    ap.add_argument("--updates", type=int, default=4,
                    help="gradient steps (batches of 512) after every 16 deals")
    ap.add_argument("--plot", type=Path, default=None,
                    help="also draw the curve to this PNG (needs matplotlib)")
    ap.add_argument("--plot-only", action="store_true", help="only redraw --plot from --curve")
    args = ap.parse_args()
    if args.plot_only:
        plot(args.curve, args.plot)
        return
    torch.set_num_threads(1)
    rng = random.Random(args.seed)
    np_rng = np.random.default_rng(args.seed)
    learner = Learner(args.hidden, args.lr, args.seed)
    buf_obs: list[np.ndarray] = []
    buf_feat: list[np.ndarray] = []
    buf_ret: list[float] = []
    capacity, batch = 60_000, 512
    start = time.time()
    next_eval = 0.0
    episodes = 0
    args.curve.parent.mkdir(parents=True, exist_ok=True)
    with args.curve.open("w", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["minutes", "cpu_minutes", "episodes", "win_vs_random",
                      "win_vs_heuristic"])
        while True:
            minutes = (time.time() - start) / 60
            if minutes >= next_eval or minutes >= args.minutes:
                vr = evaluate(learner, "random", args.eval_games)
                vh = evaluate(learner, "heuristic", args.eval_games)
                cpu = time.process_time() / 60
                out.writerow([f"{minutes:.2f}", f"{cpu:.2f}", episodes, f"{vr:.3f}",
                              f"{vh:.3f}"])
                fh.flush()
                learner.export(args.out)
                print(f"{minutes:6.2f} min  {episodes:7d} episodes  "
                      f"vs random {vr:.3f}  vs heuristic {vh:.3f}", flush=True)
                next_eval += args.eval_every
                if minutes >= args.minutes:
                    break
            eps = max(0.05, 0.3 - 0.25 * minutes / max(args.minutes * 0.6, 1e-9))
            opponent = "random" if rng.random() < args.random_share else "heuristic"
            score, pairs = play(learner, opponent, rng.randrange(2**62), eps, rng,
                                seat=rng.randrange(PLAYERS))
            episodes += 1
            for obs, feat in pairs:
                buf_obs.append(obs)
                buf_feat.append(feat)
                buf_ret.append(score)
            if len(buf_ret) > capacity:
                cut = len(buf_ret) - capacity
                del buf_obs[:cut], buf_feat[:cut], buf_ret[:cut]
            if episodes % 16 == 0 and len(buf_ret) >= batch:
                for _ in range(args.updates):
                    idx = np_rng.integers(0, len(buf_ret), size=batch)
                    x = np.concatenate([np.stack([buf_obs[i] for i in idx]),
                                        np.stack([buf_feat[i] for i in idx])], axis=1)
                    y = torch.tensor([buf_ret[i] for i in idx], dtype=torch.float32)
                    pred = learner.net(torch.from_numpy(x))[:, 0]
                    loss = ((pred - y) ** 2).mean()
                    learner.opt.zero_grad()
                    loss.backward()
                    learner.opt.step()
    if args.plot is not None:
        plot(args.curve, args.plot)


if __name__ == "__main__":
    main()
