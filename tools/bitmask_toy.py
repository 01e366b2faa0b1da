#!/usr/bin/env python
"""A bare bitmask two-player podkidnoy, as a yardstick for ``bito bench``.

Issue 2 sets the reference engine's target next to "a bare bitmask toy" measured on the
issue writers' machines (about 3,000 games a second). Our machines are shared and their speed
wanders, so a figure only means something next to the same toy run on the same machine at the
same time: this script is that toy. It knows nothing but the plain game: 36 cards as bits of
an int, six-card hands, a turned trump, one-card leads, covers, throw-ins by the attacker up
to the defender's cards and six on the table, takes, the attacker drawing first. Every
decision lists its legal moves and picks one with ``rng.random()``, as a random bot would;
there are no options, records, notation or checks. It is not bito's engine and plays no part
in it.

    python tools/bitmask_toy.py --games 10000 --json

prints the games per CPU second and the mean number of decisions per game.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bito.cards import cards_of  # a set's bits in increasing order (no card encoding)

SUITS = 4
RANKS = 9  # 6 to ace
CARDS = SUITS * RANKS  # card c: suit c // 9, rank c % 9


def _beats(trump: int) -> list[int]:
    """For each card, the set of cards that beat it."""
    out = []
    for c in range(CARDS):
        suit, rank = divmod(c, RANKS)
        m = 0
        for d in range(CARDS):
            s2, r2 = divmod(d, RANKS)
            if (s2 == suit and r2 > rank) or (s2 == trump and suit != trump):
                m |= 1 << d
        out.append(m)
    return out


BEATS = [_beats(t) for t in range(SUITS)]
RANK_MASK = [sum(1 << (s * RANKS + r) for s in range(SUITS)) for r in range(RANKS)]


def play(seed: int, rng: random.Random) -> int:
    """One game from the deal to the end; the number of decisions."""
    deck = list(range(CARDS))
    random.Random(seed).shuffle(deck)
    hands = [0, 0]
    for i in range(12):
        hands[i % 2] |= 1 << deck[i]
    stock = deck[12:]  # stock[0] is the turned trump, drawn last
    trump = stock[0] // RANKS
    beats = BEATS[trump]
    trumps = sum(1 << (trump * RANKS + r) for r in range(RANKS))
    low = [(h & trumps) & -(h & trumps) for h in hands]
    att = 0 if low[0] and (not low[1] or low[0] < low[1]) else 1
    decisions = 0
    while True:
        d = 1 - att
        lead = cards_of(hands[att])
        card = lead[int(rng.random() * len(lead))]
        decisions += 1
        hands[att] ^= 1 << card
        table = [card]
        open_card = card
        ranks = RANK_MASK[card % RANKS]
        room = min(6, hands[d].bit_count()) - 1  # attack cards still allowed
        taken = False
        while True:
            if open_card >= 0:  # the defender covers or takes
                covers = cards_of(hands[d] & beats[open_card])
                choice = int(rng.random() * (len(covers) + 1))
                decisions += 1
                if choice == len(covers):
                    taken = True
                else:
                    cover = covers[choice]
                    hands[d] ^= 1 << cover
                    table.append(cover)
                    ranks |= RANK_MASK[cover % RANKS]
                open_card = -1
            # the attacker throws in or passes
            if room <= 0 or not hands[att]:
                break
            options = cards_of(hands[att] & ranks)
            choice = int(rng.random() * (len(options) + 1))
            decisions += 1
            if choice == len(options):
                break
            card = options[choice]
            hands[att] ^= 1 << card
            table.append(card)
            room -= 1
            if not taken:
                open_card = card
        if taken:
            for c in table:
                hands[d] |= 1 << c
        for seat in (att, d):  # the attacker draws first
            while hands[seat].bit_count() < 6 and stock:
                hands[seat] |= 1 << stock.pop()
        if not stock and (not hands[0] or not hands[1]):
            return decisions
        if not taken:
            att = d


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(0)
    for seed in range(200):  # warm up
        play(seed, rng)
    start = time.process_time()
    decisions = sum(play(seed, rng) for seed in range(args.games))
    seconds = time.process_time() - start
    result = {"name": "bitmask-toy-2p", "games": args.games,
              "games_per_cpu_second": round(args.games / seconds, 1),
              "mean_decisions": round(decisions / args.games, 2)}
    print(json.dumps(result) if args.json else
          f"{result['games_per_cpu_second']} games/s, "
          f"{result['mean_decisions']} decisions a game")


if __name__ == "__main__":
    main()
