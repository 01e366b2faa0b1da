"""Random two-player endgames (stock empty) from real play, for testing and timing the solver.

A deal is played by two heuristic bots that each move at random one time in five, so the
positions are the kind a game really reaches, with some variety; the first position with the
stock empty and at most ``max_cards`` cards in the two hands that a coin toss picks is returned.
"""

from __future__ import annotations

import random

from bito.bots.heuristic import HeuristicBot
from bito.games.durak import DurakState, new_game


def random_endgame(seed: int, variant: str = "podkidnoy", max_cards: int = 12,
                   min_cards: int = 1, with_table: bool = False) -> DurakState | None:
    """An endgame position of ``variant`` (None if the deal ended before reaching one).
    ``max_cards``/``min_cards`` count the cards in both hands, and the cards on the table too
    when ``with_table`` is set."""
    rng = random.Random(seed)
    s = new_game(variant, 2, seed=seed)
    bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
    while s.outcome is None:
        if not s.stock:
            cards = s.hands[0].bit_count() + s.hands[1].bit_count()
            if with_table:
                cards += len(s.attack) + sum(1 for d in s.defence if d >= 0)
            if min_cards <= cards <= max_cards and rng.random() < 0.5:
                return s
        view = s.view(s.to_act)
        a = bots[s.to_act].choose(view) if rng.random() < 0.8 else rng.choice(view.legal)
        s = s.apply(a)
    return None


def endgames(count: int, variant: str = "podkidnoy", max_cards: int = 12, min_cards: int = 1,
             seed: int = 0, with_table: bool = False) -> list[DurakState]:
    """``count`` endgames from consecutive deal seeds starting at ``seed``."""
    out: list[DurakState] = []
    k = seed
    while len(out) < count:
        s = random_endgame(k, variant, max_cards, min_cards, with_table)
        k += 1
        if s is not None:
            out.append(s)
    return out
