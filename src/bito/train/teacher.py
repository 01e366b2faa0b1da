"""Positions labelled by a search teacher: the imitation stage of the learned bot's training.

Pure PPO from scratch against the greedy opponent learns slowly on a shared machine (about
0.2 against the heuristic after five minutes, see ``docs/rl.md``), and the heuristic is a
strong opponent for a network to overtake by trial and error within an hour. The search bots
are much stronger (the ``medium`` level with 200 playouts a decision scores about 0.8 against
the heuristic) but far too slow to be the bot. So the network first learns to imitate the
search: the teacher (:func:`bito.bots.levels.make_level`, a fixed number of playouts and no
clock, so the labels do not depend on the machine) plays deals against the heuristic, seats
alternating, and every decision it makes with more than one legal action becomes one example:
the seat's observation, the legal action numbers and the one it chose. The deals come from
the opponent the bot is measured against, so the examples cover the positions it will meet.

Examples are written in shards (``.npz``: ``obs`` float16, ``legal`` int16 padded with -1,
``label`` int16), one every ``shard_games`` deals, so an interrupted run keeps what it
labelled. No PyTorch here: labelling needs the ``rl`` and ``fast`` extras only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

MAX_LEGAL = 128
"""Room for the legal actions of one decision (2-player podkidnoy and perevodnoy stay far
below it; a decision with more is kept with its first ``MAX_LEGAL``, the label among them)."""


def label_deals(variant: str, players: int, out_dir: Path, minutes: float, playouts: int,
                first_seed: int = 0, shard_games: int = 50, most_games: int | None = None,
                log: Any = print, student: Path | None = None) -> int:
    """Play and label deals for ``minutes`` (or ``most_games``); returns the examples kept.

    With ``student`` (learned-bot weights) the student plays the labelled seat and the teacher
    only says what it would have played there (DAgger: the examples then cover the positions
    the student's own mistakes lead to, which the teacher's games never reach)."""
    import numpy as np

    from bito.bots import make_bot
    from bito.bots.levels import make_level
    from bito.env.codec import codec_for, durak_rules
    from bito.env.observation import ObservationEncoder
    from bito.games.durak import new_game
    from bito.games.family import DURAK

    rules = durak_rules(variant)
    enc = ObservationEncoder(rules, players)
    codec = codec_for(rules)
    out_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    obs: list[Any] = []
    legal: list[Any] = []
    label: list[int] = []
    total = games = shard = 0

    def flush() -> None:
        nonlocal obs, legal, label, shard, total
        if not label:
            return
        path = out_dir / f"{variant}_{players}p_{first_seed}_{shard:05d}.npz"
        np.savez_compressed(path, obs=np.stack(obs).astype(np.float16),
                            legal=np.stack(legal), label=np.array(label, np.int16))
        total += len(label)
        shard += 1
        obs, legal, label = [], [], []

    while time.monotonic() - started < minutes * 60 and (most_games is None
                                                         or games < most_games):
        seed = first_seed + games
        teacher_seat = games % players
        teacher = make_level("medium", seed, think_ms=0.0, playouts=playouts)
        bots = {s: make_bot("heuristic", seed + s) for s in range(players)}
        bots[teacher_seat] = teacher
        player = teacher
        if student is not None:
            from bito.bots.learned import LearnedBot

            player = LearnedBot(seed, weights={(variant, players): student})
        state = new_game(rules, players, seed=seed)
        while not state.is_over:
            view = state.view(state.to_act)
            action = bots[state.to_act].choose(view)
            if state.to_act == teacher_seat and len(view.legal) > 1:
                played = player.choose(view) if player is not teacher else action
                idx = codec.indices(view.legal)
                row = np.full(MAX_LEGAL, -1, np.int16)
                row[:min(len(idx), MAX_LEGAL)] = idx[:MAX_LEGAL]
                chosen = codec.index(DURAK.own_action(action))
                if chosen in row:
                    obs.append(enc.encode(view))
                    legal.append(row)
                    label.append(chosen)
                action = played
            state = state.apply(action)
        games += 1
        if games % shard_games == 0:
            flush()
            log(f"{games} deals, {total} examples, "
                f"{(time.monotonic() - started) / 60:.1f} min")
    flush()
    log(f"done: {games} deals, {total} examples in {out_dir}")
    return total


def load_examples(paths: list[Path]) -> tuple[Any, Any, Any]:
    """Every shard's ``obs``, ``legal`` and ``label``, concatenated."""
    import numpy as np

    parts = [np.load(p) for p in sorted(paths)]
    if not parts:
        raise ValueError("no labelled examples: run the labelling stage first")
    return (np.concatenate([p["obs"] for p in parts]),
            np.concatenate([p["legal"] for p in parts]),
            np.concatenate([p["label"] for p in parts]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bito.train.teacher",
                                 description="Label positions with the search teacher's moves.")
    ap.add_argument("--variant", default="podkidnoy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=25.0)
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--deals", type=int, default=None, help="stop after this many deals (the "
                    "wall-clock --minutes cap still applies), so a rerun labels the same deals")
    ap.add_argument("--out", type=Path, required=True, help="directory for the shards")
    ap.add_argument("--student", type=Path, default=None, help="learned-bot weights that play "
                    "the labelled seat (DAgger); the teacher only labels")
    a = ap.parse_args(argv)
    if a.playouts < 1 or a.minutes <= 0:
        ap.error("--playouts must be at least 1 and --minutes positive")
    if a.deals is not None and a.deals < 1:
        ap.error("--deals must be at least 1")
    try:
        label_deals(a.variant, a.players, a.out, a.minutes, a.playouts, a.first_seed,
                    most_games=a.deals, student=a.student)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
