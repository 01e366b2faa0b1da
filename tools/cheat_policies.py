"""Cheat (#85) put and doubt policies against the heuristic, two players (issue 20, item 5).

An experiment, not a bot: each policy replaces one part of the heuristic's play (what it puts
down, or when it doubts) and plays duplicate deals against the unchanged heuristic, both seats
of each deal, with the arena's deal seeds (``bito arena --seed S``). No search, so hundreds of
pairs take seconds. Prints one JSON line per policy: its score and a 95 % normal interval over
pairs.

    python tools/cheat_policies.py --pairs 200
    python tools/cheat_policies.py --pairs 200 --put keep_singletons --doubt heuristic

Why these policies: a judge who counts only his own cards proves a claim of *k* cards of the
rank due false exactly when *k* + his cards of that rank (hand and his own pile cards) > 4. In
a two-player game every card is in one of the two hands or the pile, so that happens exactly
when *k* > *T*, *T* being the claimer's own cards of the rank (hand, his pile cards, this
claim). The put policies differ in how many of the *T* they claim and which cards go down.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable
from typing import Any

from bito.bots.families import FamilyHeuristicBot, cheat
from bito.cards import STANDARD_LOW_RANK, cards_of, rank_of
from bito.games import new_game
from bito.games.protocol import Move, human_loser
from bito.games.social.cheat import CheatView
from bito.sim import derive_seed, play_game


def _due_count(cards: int, due: int) -> int:
    return sum(1 for c in cards_of(cards) if rank_of(c) == due)


def _claim(view: CheatView) -> Move | None:
    return next((m for m in view.legal if m.kind == "claim"), None)


def make_put(name: str) -> Callable[[CheatView], Move]:
    """A put policy: ``heuristic`` (all cards of the rank due, else one lie, the rank due
    last), ``keep_singletons`` (claim *T*, shedding extra cards of ranks held twice or more
    first, so one card of every rank stays in hand), ``keep_due`` (claim *T*, lying with the
    ranks held least, keeping the rank due), ``keep_one`` (the heuristic, but one card of the
    rank due is kept back when it holds two or more), ``keeper:N`` (``keep_singletons``,
    then from N cards left shed everything but the rank held most), ``switch:N``
    (``keep_singletons``, then from N cards left the heuristic)."""
    kind, _, arg = name.partition(":")
    limit = int(arg) if arg else 0
    if kind == "heuristic":
        return cheat

    def put(view: CheatView) -> Move:
        due, most = view.due, view.rules.max_cards
        hand = cards_of(view.hand)
        span = 15 - STANDARD_LOW_RANK[view.rules.deck_size]
        true_in_hand = _due_count(view.hand, due)
        t = true_in_hand + _due_count(view.mine_in_pile | view.claim_cards, due)
        size = len(hand) + view.claim_count
        all_true = true_in_hand == len(hand) and _due_count(view.claim_cards, due) \
            == view.claim_count
        goes_out = all_true and size <= most
        k = min(max(t, 1), most)
        if not goes_out:
            k = min(k, size - 1) if size > 1 else 1
        if kind == "keep_one" and true_in_hand + _due_count(view.claim_cards, due) >= 2:
            k = min(k, true_in_hand + view.claim_count - 1)
        claim = _claim(view)
        if view.claim_count >= k and claim is not None:
            return claim
        plays = [m for m in view.legal if m.kind == "play"]
        counts: dict[int, int] = {}
        for c in hand:
            counts[rank_of(c)] = counts.get(rank_of(c), 0) + 1

        def rank(m: Move) -> int:
            return rank_of(m.cards[0])

        def wait(m: Move) -> int:  # how long until the card's rank is due again
            return (rank(m) - due) % span

        if goes_out:
            return plays[0]
        if kind == "keep_one" or (kind == "switch" and size <= limit):
            true = [m for m in plays if rank(m) == due]
            return true[0] if true else max(plays, key=wait)
        if kind == "keep_due":
            others = [m for m in plays if rank(m) != due]
            return min(others, key=lambda m: (counts[rank(m)], -wait(m))) if others else plays[0]
        if kind == "keeper" and size <= limit:
            keep = max(counts, key=lambda r: (counts[r], -((r - due) % span)))
            others = [m for m in plays if rank(m) != keep]
            if others:
                return max(others, key=lambda m: (rank(m) == due, -counts[rank(m)], wait(m)))
            return plays[0]
        # keep_singletons (and keeper/switch above their limit)
        return max(plays, key=lambda m: (counts[rank(m)] >= 2, rank(m) == due, counts[rank(m)],
                                         wait(m)))

    return put


class PolicyBot:
    """The heuristic with its put and doubt replaced; it watches the claims of the others
    (``play_game`` shows it every move) for the ``pile_model`` doubt."""

    name = "policy"

    def __init__(self, put: str, doubt: str) -> None:
        self.put = make_put(put)
        self.doubt = doubt
        self.claims: list[tuple[int, int, int]] = []  # (seat, rank, cards) since a pick-up
        self.pile = 0

    def _watch_pile(self, view: CheatView) -> None:
        if view.pile_count < self.pile:  # the pile was picked up
            self.claims = []
        self.pile = view.pile_count

    def observe(self, view: Any, seat: int, action: Any) -> None:
        self._watch_pile(view)
        if getattr(action, "kind", None) == "claim":
            self.claims.append((seat, view.due, view.claim_count))

    def choose(self, view: CheatView) -> Move:
        self._watch_pile(view)
        if view.phase != "doubting":
            return self.put(view)
        rule = cheat(view)
        going_out = view.hand_counts[view.claimer] == 0
        mode, _, arg = self.doubt.partition(":")
        pass_move = next(m for m in view.legal if m.kind == "pass")
        if mode == "never":
            return rule if going_out else pass_move
        if mode == "small_pile":
            return rule if going_out or view.pile_count <= int(arg) else pass_move
        if mode == "take_small":
            # Doubt a claim (true or not) while the pile is small: taking a few cards of
            # the opponent's can be worth more than the cards (see docs/history.md).
            if going_out or view.pile_count <= int(arg):
                return next(m for m in view.legal if m.kind == "doubt")
            return rule
        if mode == "pile_model":
            # A heuristic claimer never lies with two cards or more: such a claim that
            # survived put that many cards of its rank in the pile, out of his hand.
            due = view.due
            ours = _due_count(view.hand | view.mine_in_pile, due)
            sure = sum(k for s, r, k in self.claims[:-1] if r == due and s != view.seat and k >= 2)
            if view.claim_count > 4 - ours - sure or going_out:
                return next(m for m in view.legal if m.kind == "doubt")
            return pass_move
        return rule


def score(put: str, doubt: str, pairs: int, seed: int) -> dict[str, object]:
    per_pair = []
    for d in range(pairs):
        total = 0.0
        for rotation in (0, 1):
            bots: list[Any] = [PolicyBot(put, doubt), FamilyHeuristicBot(derive_seed(seed, d))]
            if rotation:
                bots.reverse()
            result = play_game(new_game("believe_not_believe_2", 2, seed=derive_seed(seed, d)),
                               bots)
            fool = human_loser(result.outcome)
            total += 0.5 if fool is None else float(fool != rotation)
        per_pair.append(total / 2)
    mean = sum(per_pair) / pairs
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_pair) / (pairs - 1)) if pairs > 1 else 0.0
    half = 1.96 * sd / math.sqrt(pairs)
    return {"put": put, "doubt": doubt, "pairs": pairs, "seed": seed,
            "score": round(mean, 4), "interval": [round(mean - half, 4), round(mean + half, 4)]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pairs", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--put", action="append", help="put policies (default: all)")
    p.add_argument("--doubt", action="append", help="doubt policies (default: all, with "
                   "the heuristic's put)")
    a = p.parse_args()
    puts = a.put or ["heuristic", "keep_singletons", "keep_due", "keep_one", "keeper:10",
                     "switch:20"]
    doubts = a.doubt or ["heuristic", "never", "small_pile:10", "small_pile:20", "pile_model"]
    runs = [(put, "heuristic") for put in puts]
    runs += [("heuristic", doubt) for doubt in doubts if doubt != "heuristic"]
    if a.put and a.doubt:
        runs = [(put, doubt) for put in a.put for doubt in a.doubt]
    for put, doubt in runs:
        print(json.dumps(score(put, doubt, a.pairs, a.seed)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
