"""Measure Long et al.'s (AAAI-10) game-tree properties that predict how well PIMC search does,
on two-player Durak with random play. Prints one JSON line.

How each property is measured here (the paper defines them on synthetic trees; these are the
real-game versions, as the paper measured them, by sampling games):

* **leaf correlation**: at the last decision of a game where the player to act had a choice
  (two players, stock empty, so the position is fully known), the exact value of every
  alternative (the endgame solver) is computed; the correlation is the share of such nodes
  where every alternative has the same value (the choice does not matter there).
* **bias**: the share of those alternatives' values that favour the seat that attacked first,
  with draws counting half (0.5 means no player is favoured).
* **disambiguation factor**: from one seat's point of view, the number of opponent hands
  consistent with what it has seen (the unseen cards choose the opponent's hidden ones); the
  factor is the share of the game's moves after which that number shrinks. ``bits_per_move``
  is the mean information revealed per move, in bits.

    python tools/pimc_properties.py --games 500 --variant podkidnoy
"""

from __future__ import annotations

import argparse
import json
import math
import random

from bito.bots.solver import DRAW, WIN, Solver, SolverBudgetExceeded
from bito.bots.tracking import CardTracker
from bito.games.durak import new_game


def consistent_hands(tracker: CardTracker, opponent: int) -> int:
    return math.comb(tracker.unseen.bit_count(), tracker.hidden_count(opponent))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=500)
    p.add_argument("--variant", default="podkidnoy")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-nodes", type=int, default=50_000,
                   help="skip a leaf-level node whose solve needs more (counted in 'skipped')")
    a = p.parse_args()
    rng = random.Random(a.seed)
    same = nodes = 0
    favour = 0.0
    values = 0
    shrink = moves = skipped = 0
    bits = 0.0
    for g in range(a.games):
        s = new_game(a.variant, 2, seed=a.seed * 1_000_003 + g)
        first = s.attacker
        tracker = CardTracker()
        tracker.update(s.view(0))
        size = consistent_hands(tracker, 1)
        last_choice = None
        while not s.is_over:
            legal = s.legal_actions()
            if len(legal) > 1 and not s.stock:
                last_choice = s
            s = s.apply(legal[rng.randrange(len(legal))])
            if s.is_over:
                break
            tracker.update(s.view(0))
            new = consistent_hands(tracker, 1)
            moves += 1
            if new < size:
                shrink += 1
                bits += math.log2(size / new)
            size = new
        if last_choice is None:
            continue
        solver = Solver(max_nodes=a.max_nodes)
        vals = []
        try:
            for act in last_choice.legal_actions():
                child = last_choice.copy()
                child.step_unchecked(act)
                vals.append(solver.value(child, first))
        except SolverBudgetExceeded:
            skipped += 1
            continue
        nodes += 1
        same += len(set(vals)) == 1
        for v in vals:
            favour += 1.0 if v == WIN else 0.5 if v == DRAW else 0.0
            values += 1
    print(json.dumps({
        "variant": a.variant, "games": a.games, "seed": a.seed,
        "leaf_correlation": round(same / nodes, 4) if nodes else None,
        "leaf_nodes": nodes, "skipped": skipped,
        "bias_first_attacker": round(favour / values, 4) if values else None,
        "disambiguation_factor": round(shrink / moves, 4) if moves else None,
        "bits_per_move": round(bits / moves, 4) if moves else None,
        "moves": moves}))


if __name__ == "__main__":
    main()
