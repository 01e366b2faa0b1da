#!/usr/bin/env python
"""A bare two-player podkidnoy in numba: the yardstick the compiled kernel is held to.

The same game as ``tools/bitmask_toy.py`` (36 cards as the bits of an integer, six-card
hands, a turned trump, one-card leads, covers, throw-ins by the attacker up to the defender's
cards and six attack cards, takes, the attacker drawing first), compiled, with nothing else:
no options, no rule facts, no records. Each decision counts its choices and picks one at
random. It is fair to the kernel in both directions: the same random generator
(xorshift64* with a multiply-shift to the range, as ``bito.kernel.core.next_below``) and the
CPU's population count and trailing-zero count, so neither side wins on plumbing; and it plays
a simpler game than the kernel's podkidnoy (no several-card leads, no throw-in rounds, no
repetition or idle-bout draws), which is the price of generality the kernel is asked to beat.

It is not bito's engine and plays no part in it.

    python tools/bitmask_toy_numba.py --games 200000

prints the games per CPU second and the mean number of decisions per game.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

RANKS = 9  # 6 to ace; card c is suit c // 9, rank c % 9
CARDS = 36


@intrinsic
def _ones(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _lowest(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def _below(rng, k):  # type: ignore[no-untyped-def]
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    r = (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)
    return np.int64((r * np.uint64(k)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _pick(rng, cards):  # type: ignore[no-untyped-def]
    """A random card of a non-empty set."""
    k = _below(rng, _ones(cards))
    for _ in range(k):
        cards &= cards - 1
    return _lowest(cards)


@njit(cache=True)
def play(games, seed):  # type: ignore[no-untyped-def]
    """``games`` random games from the deal; the total number of decisions."""
    rng = np.empty(1, np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)
    rank_of = np.empty(CARDS, np.int64)
    same_rank = np.zeros(CARDS, np.int64)
    for c in range(CARDS):
        rank_of[c] = c % RANKS
        for d in range(CARDS):
            if d % RANKS == c % RANKS:
                same_rank[c] |= np.int64(1) << d
    beats = np.zeros((4, CARDS), np.int64)  # [trump][card]: the cards that cover it
    for t in range(4):
        for c in range(CARDS):
            for d in range(CARDS):
                if (d // RANKS == c // RANKS and d > c) or (d // RANKS == t and c // RANKS != t):
                    beats[t, c] |= np.int64(1) << d
    deck = np.arange(CARDS)
    hands = np.zeros(2, np.int64)
    decisions = 0
    for _ in range(games):
        for j in range(CARDS - 1, 0, -1):
            i = _below(rng, j + 1)
            c = deck[i]
            deck[i] = deck[j]
            deck[j] = c
        hands[0] = 0
        hands[1] = 0
        for i in range(12):
            hands[i % 2] |= np.int64(1) << deck[i]
        top = CARDS  # deck[12:top] is the stock, deck[12] the turned trump drawn last
        trump = deck[12] // RANKS
        cover = beats[trump]
        trumps = np.int64(0x1FF) << (trump * RANKS)
        low0 = hands[0] & trumps
        low1 = hands[1] & trumps
        att = 0 if low0 and (low1 == 0 or (low0 & -low0) < (low1 & -low1)) else 1
        while True:
            d = 1 - att
            card = _pick(rng, hands[att])
            decisions += 1
            hands[att] ^= np.int64(1) << card
            table = np.int64(1) << card
            ranks = same_rank[card]
            open_card = card
            room = min(6, _ones(hands[d])) - 1
            taken = False
            while True:
                if open_card >= 0:
                    covers = hands[d] & cover[open_card]
                    n = _ones(covers)
                    choice = _below(rng, n + 1)
                    decisions += 1
                    if choice == n:
                        taken = True
                    else:
                        for _ in range(choice):
                            covers &= covers - 1
                        c = _lowest(covers)
                        hands[d] ^= np.int64(1) << c
                        table |= np.int64(1) << c
                        ranks |= same_rank[c]
                    open_card = -1
                if room <= 0 or hands[att] == 0:
                    break
                options = hands[att] & ranks
                n = _ones(options)
                choice = _below(rng, n + 1)
                decisions += 1
                if choice == n:
                    break
                for _ in range(choice):
                    options &= options - 1
                c = _lowest(options)
                hands[att] ^= np.int64(1) << c
                table |= np.int64(1) << c
                room -= 1
                if not taken:
                    open_card = c
            if taken:
                hands[d] |= table
            for seat in (att, d):
                while top > 12 and _ones(hands[seat]) < 6:
                    top -= 1
                    hands[seat] |= np.int64(1) << deck[top]
            if top == 12 and (hands[0] == 0 or hands[1] == 0):
                break
            if not taken:
                att = d
    return decisions


def games_per_cpu_second(games: int, seed: int) -> tuple[float, float]:
    """Games per CPU second of one timed call (compiled beforehand) and the mean decisions."""
    play(10, seed)
    start = time.process_time()
    decisions = play(games, seed)
    return games / (time.process_time() - start), decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rate, mean = games_per_cpu_second(args.games, args.seed)
    result = {"name": "bitmask-toy-numba-2p", "games": args.games,
              "games_per_cpu_second": round(rate), "mean_decisions": round(mean, 2)}
    print(json.dumps(result) if args.json else
          f"{result['games_per_cpu_second']} games/s, {result['mean_decisions']} decisions a game")


if __name__ == "__main__":
    main()
