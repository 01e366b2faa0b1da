"""The greedy playout policy (``bito.bots.rollouts.greedy_move``) against its rules as written.

The Python playouts carry look-up caches (a lead's cost by its cards, #59's covers compared
inline) because a #59 search spends most of its time choosing greedy moves on the Python
engine. A cache must not change a choice, or the same seed would give another game: these
tests play random games of the games with the widest move lists (#59's face-down covers and
Rozaliev's pair-plus-one leads, #2) and of podkidnoy, and check at every greedy decision that
the policy picks what its docstring's rules pick, computed here from scratch.
"""

from __future__ import annotations

import random

import pytest

from bito.bots.rollouts import card_worth, greedy_move
from bito.games.durak import ATTACK, DEFEND, PASS, TRANSFER, Action, DurakState, new_game
from bito.games.durak.state import THROW

UNSEEN = 1 << 20  # the worth of a move without a card of the hand (#40's stock-top lead)


def _worth(a: Action, w: list[int]) -> int:
    return w[a.cards[0]] if a.cards else UNSEEN


def _as_written(s: DurakState, acts: list[Action], w: list[int], limit_stock: float,
                limit_empty: float) -> Action:
    """The greedy move by the rules of ``bito.bots.rollouts``' docstring, no caches."""
    if acts[0].kind == ATTACK and s.phase == 0:  # lead: cheapest mean worth, 2 off per card
        def cost(a: Action) -> float:
            if not a.cards:
                return float(UNSEEN)
            return sum(w[c] for c in a.cards) / len(a.cards) - 2.0 * (len(a.cards) - 1)
        return min(acts, key=lambda a: (cost(a), a.mask))
    if acts[-1].kind == PASS:  # throw in the cheapest card if cheap enough, else pass
        throws = [a for a in acts if a.kind == ATTACK]
        if not throws:
            return acts[-1]
        best = min(throws, key=lambda a: (_worth(a, w), a.mask))
        limit = limit_stock if s.stock else limit_empty
        return best if _worth(best, w) <= limit else acts[-1]
    covers = [a for a in acts if a.kind == DEFEND]
    if covers:
        covers = [a for a in covers if a.target == covers[0].target]
    cover = min(covers, key=lambda a: (_worth(a, w), a.mask)) if covers else None
    transfers = [a for a in acts if a.kind == TRANSFER]
    move = min(transfers, key=lambda a: (_worth(a, w), a.mask)) if transfers else None
    if move is not None and (cover is None or _worth(move, w) <= _worth(cover, w)):
        return move
    return cover if cover is not None else acts[-1]


@pytest.mark.parametrize("variant", ["believe_not_believe", "simple_classic_5card",
                                     "podkidnoy"])
def test_greedy_move_picks_what_its_rules_pick(variant: str) -> None:
    """At every greedy decision of random games (any seat, any phase the policy rules),
    ``greedy_move`` returns the move its written rules choose."""
    rng = random.Random(20)
    checked = 0
    for seed in range(12):
        s = new_game(variant, 2, seed=seed)
        worth = card_worth(s.beats, s.deal.trump.suits)
        moves = 0
        while s.outcome is None and moves < 400:
            acts = s.legal_actions()
            if len(acts) > 1 and s.phase <= THROW:
                got = greedy_move(s, acts, worth)
                want = _as_written(s, acts, worth.worth, worth.limit_stock, worth.limit_empty)
                assert got == want, (variant, seed, moves, str(got), str(want))
                checked += 1
            s = s.apply(acts[rng.randrange(len(acts))])
            moves += 1
    assert checked > 100
