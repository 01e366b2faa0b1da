"""Possible worlds of the social games for a search bot (:mod:`bito.games.worlds`).

**Animal sounds** (#60). The whole pack is dealt and everything played lies face up, so the
unseen cards are in the other hands. A player who makes his sound has no card of the rank due
(he would have to play it): the sampler remembers that void from every judging it is asked
to take part in, and forgets a player's voids as soon as his hand grows (he took the pile).
Not in a view, filled in: the sounds in a row since the last card (1 while a sound is judged,
else 0). Not modelled: which cards went into which hand with a pile (the view does not say who
took it).

**Cheat** (#85). Hidden are the other hands (less the cards a doubt revealed, which the view
lists in ``known``), the face-down pile (less the seat's own cards in it) and, for everyone
but the claimer, the cards of the claim being judged. A world deals the unseen cards to all
three with the right counts; a claim may be a lie, so nothing constrains them. Not in a view,
filled in: which other player put which face-down pile card (none: they only feed the
other players' own knowledge) and the action count towards the move cap (0).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bito.cards import rank_of, standard_deck
from bito.games.social.animal import JUDGE, AnimalState, AnimalView
from bito.games.social.cheat import DOUBTING, PUT, CheatState, CheatView
from bito.games.worlds import deal_slots, mask


def _rank_mask(deck: tuple[int, ...], rank: int) -> int:
    return mask([c for c in deck if rank_of(c) == rank])


@dataclass
class AnimalSampler:
    """Worlds of the animal-sounds game; remembers the ranks players showed void in."""

    voids: dict[int, set[int]] = field(default_factory=dict)
    counts: tuple[int, ...] = ()

    def observe(self, view: AnimalView) -> None:
        if self.counts and (len(self.counts) != view.players
                            or sum(view.hand_counts) + len(view.pile) != sum(self.counts)):
            self.voids.clear()  # another deal
        for s, c in enumerate(view.hand_counts):
            if self.counts and c > self.counts[s]:
                self.voids.pop(s, None)  # he took the pile: he may hold any rank again
        self.counts = view.hand_counts
        if view.phase == JUDGE and view.due:
            self.voids.setdefault(view.skipper, set()).add(view.due)

    def sample(self, view: AnimalView, rng: random.Random) -> AnimalState:
        rules, n, seat = view.rules, view.players, view.seat
        deck = standard_deck(rules.deck_size)
        seen = view.hand | mask(view.pile)
        pool = [c for c in deck if not seen >> c & 1]
        sizes = [0 if s == seat else view.hand_counts[s] for s in range(n)]
        banned = [0] * n
        for who, ranks in self.voids.items():
            for r in ranks:
                banned[who] |= _rank_mask(deck, r)
        dealt = deal_slots(pool, sizes, banned, rng)
        hands = [mask(d) for d in dealt]
        hands[seat] = view.hand
        s = object.__new__(AnimalState)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.hands, s.pile, s.nicknames = hands, list(view.pile), view.nicknames
        s.phase, s.to_act, s.skipper = view.phase, view.to_act, view.skipper
        s.laughed, s.out, s.moves, s.outcome = list(view.laughed), list(view.out), 0, None
        s.seen = ()  # the repetition count starts afresh in a guessed world
        s.judges = []
        s.sounds_in_row = 0
        if view.phase == JUDGE:
            s.sounds_in_row = 1
            active = [p for p in range(n) if p not in view.out and p != view.skipper]
            ring = sorted(active, key=lambda p: (p - view.skipper) % n)
            s.judges = ring[ring.index(view.to_act) + 1:]
        return s


@dataclass
class CheatSampler:
    """Worlds of Cheat (nothing to remember beyond the view: revealed cards are in
    ``view.known``)."""

    def observe(self, view: CheatView) -> None:
        del view

    def sample(self, view: CheatView, rng: random.Random) -> CheatState:
        rules, n, seat = view.rules, view.players, view.seat
        own_claim = view.claim_cards
        known = list(view.known)
        known[seat] = 0
        seen = view.hand | view.mine_in_pile | own_claim | mask(
            [c for k in known for c in _bits(k)])
        pool = [c for c in standard_deck(rules.deck_size) if not seen >> c & 1]
        pile_hidden = view.pile_count - view.claim_count - view.mine_in_pile.bit_count()
        claim_hidden = 0 if own_claim or view.claim_count == 0 else view.claim_count
        if own_claim and own_claim.bit_count() != view.claim_count:
            raise ValueError("cheat view: the claimer's own claim does not match its count")
        sizes = [0 if s == seat else view.hand_counts[s] - known[s].bit_count()
                 for s in range(n)] + [pile_hidden, claim_hidden]
        dealt = deal_slots(pool, sizes, [0] * len(sizes), rng)
        hands = [mask(dealt[s]) | known[s] for s in range(n)]
        hands[seat] = view.hand
        s = object.__new__(CheatState)
        s.rules, s.players, s.seed = rules, n, rng.randrange(1 << 62)
        s.hands = hands
        s.pile = mask(dealt[n]) | view.mine_in_pile
        s.claim = _bits(own_claim) if own_claim else list(dealt[n + 1])
        s.due, s.phase, s.to_act = view.due, view.phase, view.to_act
        s.claimer = view.claimer if view.phase == DOUBTING else -1
        s.doubters = []
        if view.phase == DOUBTING:
            active = [p for p in range(n) if p not in view.out and p != view.claimer]
            ring = sorted(active, key=lambda p: (p - view.claimer) % n)
            s.doubters = ring[ring.index(view.to_act) + 1:]
        s.known = list(view.known)
        s.put_by = [0] * n
        s.put_by[seat] = view.mine_in_pile
        s.out, s.moves, s.last_reveal, s.outcome = list(view.out), 0, view.last_reveal, None
        s.seen = ()  # the repetition count starts afresh in a guessed world
        assert s.phase in (PUT, DOUBTING)
        return s


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


SAMPLERS: dict[type[Any], Callable[[], Any]] = {AnimalView: AnimalSampler, CheatView: CheatSampler}
"""The sampler of each view type (read by :meth:`bito.games.family.Family.samplers`)."""

__all__ = ["SAMPLERS", "AnimalSampler", "CheatSampler"]
