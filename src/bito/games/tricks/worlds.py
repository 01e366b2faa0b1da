"""Possible worlds of *Fool!* for a search bot (:mod:`bito.games.worlds`).

The cards of finished tricks and of the trick on the table are public; the unseen cards of the
round are in the other hands. One more thing is public and a view forgets it: a player who
put a regular card of another colour on a trick had no card of the colour led (S2:31; a wild 1
may always be played, so it shows nothing). The sampler remembers those voids from every trick
its seat sees (the current one and the last finished one) until the round ends, and deals no
card of a colour to a player void in it.

The dealer of the round (whose left-hand neighbour led the first trick) is remembered from the
round's first trick; it only decides who leads the next round, which a world deals afresh.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bito.games.tricks.fool import FoolState, FoolView, colour_of, fool_deck, is_wild
from bito.games.worlds import deal_slots, mask

COLOUR_MASKS = tuple(((1 << 32) - 1) << (32 * col) for col in range(4))


def voids_in(plays: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """(seat, colour) for every play of a trick that shows the seat void in the colour led."""
    lead = -1
    out = []
    for seat, c in plays:
        if is_wild(c):
            continue
        if lead < 0:
            lead = colour_of(c)
        elif colour_of(c) != lead:
            out.append((seat, lead))
    return out


@dataclass
class FoolSampler:
    """Worlds of a *Fool!* game; remembers the voids shown and the dealer, per round."""

    round: int = -1
    voids: dict[int, set[int]] = field(default_factory=dict)
    dealer: int = -1

    def observe(self, view: FoolView) -> None:
        if view.round != self.round:
            self.round, self.voids, self.dealer = view.round, {}, -1
        if view.played == 0:  # the round's first trick: its leader sits left of the dealer
            leader = view.trick[0][0] if view.trick else view.to_act
            self.dealer = (leader - 1) % view.players
        tricks = [view.trick]
        if view.last_trick is not None and view.played:  # else it ended the last round
            tricks.append(view.last_trick.plays)
        for plays in tricks:
            for seat, colour in voids_in(plays):
                self.voids.setdefault(seat, set()).add(colour)

    def banned(self, seat: int) -> int:
        m = 0
        for col in self.voids.get(seat, ()):
            m |= COLOUR_MASKS[col]
        return m

    def sample(self, view: FoolView, rng: random.Random) -> FoolState:
        rules, n, seat = view.rules, view.players, view.seat
        on_table = mask([c for _, c in view.trick])
        seen = view.hand | view.played | on_table
        pool = [c for c in fool_deck(rules, n) if not seen >> c & 1]
        sizes = [0 if s == seat else view.hand_counts[s] for s in range(n)]
        dealt = deal_slots(pool, sizes, [self.banned(s) for s in range(n)], rng)
        hands = [mask(d) for d in dealt]
        hands[seat] = view.hand
        leader = view.trick[0][0] if view.trick else view.to_act
        played = {p for p, _ in view.trick}
        order = [(leader + k) % n for k in range(n)]
        order = [p for p in order if p not in view.sitting_out and p not in played]
        s = object.__new__(FoolState)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.round = view.round
        s.dealer = self.dealer if self.dealer >= 0 else (leader - 1) % n
        s.hands, s.trick, s.order = hands, list(view.trick), order
        s.sitting_out, s.scores, s.plus_tens = view.sitting_out, list(view.scores), \
            list(view.plus_tens)
        s.last_trick, s.gone, s.outcome = view.last_trick, view.played, None
        s.forget_legal()
        return s


SAMPLERS: dict[type[Any], Callable[[], Any]] = {FoolView: FoolSampler}
"""The sampler of each view type (read by :meth:`bito.games.family.Family.samplers`)."""

__all__ = ["SAMPLERS", "FoolSampler", "voids_in"]
