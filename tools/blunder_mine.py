"""Find candidate positions for the blunder suite (``src/bito/bots/blunders.txt``) in real games.

Plays games of the three base games (2-4 players) between heuristic bots that play a random
legal move one time in five (so the positions are varied, not only the heuristic's own lines),
and at every decision checks a few patterns where a strong player's verdict is clear whatever
the hidden cards (see ``docs/bots.md``, *The blunder suite*). Each hit is one suite line. The
choice of positions never looks at what any search bot would play: buckets (pattern, variant,
players, stage) are filled in game order, round-robin, up to a quota.

    python tools/blunder_mine.py --games 40 > candidates.txt
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Iterator

from bito.bots import make_bot
from bito.bots.solver import LOSS, WIN, Solver
from bito.cards import card_pretty, count, iter_cards, rank_of, suit_of
from bito.games.durak import (
    ATTACK,
    DEFEND,
    LEAD,
    TAKE,
    TRANSFER,
    Action,
    DurakState,
    DurakView,
    new_game,
)
from bito.notation import position_text

J, Q = 11, 12  # rank_of gives the pips: 2 = 2 ... T = 10, J = 11, Q = 12, K = 13, A = 14


def is_trump(v: DurakView, c: int) -> bool:
    return suit_of(c) in v.trumps


def stage(s: DurakState, v: DurakView) -> str:
    if v.stock_count == 0:
        return "end"
    start = 36 - 6 * v.players
    return "early" if v.stock_count >= 2 * start // 3 or v.bout <= 1 else "middle"


def uncovered(v: DurakView) -> list[int]:
    return [a for a, d in zip(v.attack, v.defence, strict=False) if d == -1]


def patterns(s: DurakState, v: DurakView, solver_ok: bool) -> Iterator[tuple[str, str, str]]:
    """(pattern, verdict, reason) for each pattern the position shows."""
    legal = v.legal
    p = card_pretty
    if v.phase == LEAD and v.to_act == v.seat and v.stock_count >= 6:
        plain_low = [c for c in iter_cards(v.hand) if not is_trump(v, c) and rank_of(c) <= 10]
        # (only leads of trumps alone: shedding a pair that holds a low trump is a matter
        # of taste)
        trump_leads = [a for a in legal if a.kind == ATTACK and a.cards
                       and all(is_trump(v, c) for c in a.cards)]
        if plain_low and trump_leads:
            low = min(plain_low, key=rank_of)
            yield ("trump_lead", "avoid " + " ".join(str(a) for a in trump_leads),
                   f"{v.stock_count} cards in the stock: lead a cheap plain card such as "
                   f"{p(low)}, not a trump")
    open_cards = uncovered(v)
    if v.defender == v.seat and open_cards and not v.taking and any(
            a.kind == DEFEND for a in legal):
        transfers = any(a.kind == TRANSFER for a in legal)
        hopeless = [a for a in open_cards if not v.beats[a] & v.hand]
        if len(open_cards) >= 2 and hopeless and not transfers:
            covers = [a for a in legal if a.kind == DEFEND]
            yield ("hopeless_cover", "play take" if any(a.kind == TAKE for a in legal)
                   else "avoid " + " ".join(str(a) for a in covers),
                   f"nothing in the hand beats {p(hopeless[0])}, so the bout ends in a take; "
                   "covering first only shows cards")
        # Ranks publicly known to be in another hand: a cover of such a rank invites that
        # card in, which a strong player weighs, so such covers are not called "cheap"; and
        # when such a rank is already on the table the bout's course is a calculation, not a
        # matter of taste (a public 6♥ of a thrower's over a 6♦ lead: covering may only
        # start a chain of throw-ins), so the cover patterns leave those positions out.
        shown = {rank_of(c) for seat, k in enumerate(v.known) if seat != v.seat
                 for c in iter_cards(k)}
        on_table = {rank_of(c) for c in (*v.attack, *v.defence) if c >= 0}
        if len(open_cards) == 1 and not is_trump(v, open_cards[0]) and v.stock_count >= 4 \
                and not shown & on_table:
            target = open_cards[0]
            covers = [a for a in legal if a.kind == DEFEND and a.target == target]
            plain = [a for a in covers if not is_trump(v, a.cards[0])
                     and rank_of(a.cards[0]) <= J and rank_of(a.cards[0]) not in shown]
            high_trump = [a for a in covers if is_trump(v, a.cards[0])
                          and rank_of(a.cards[0]) >= Q]
            low_trump = [a for a in covers if is_trump(v, a.cards[0])
                         and rank_of(a.cards[0]) <= 8 and rank_of(a.cards[0]) not in shown]
            if plain and high_trump and not transfers:
                yield ("cheap_cover", "avoid " + " ".join(str(a) for a in high_trump),
                       f"{v.stock_count} in the stock: {p(plain[0].cards[0])} covers "
                       f"{p(target)}; a high trump is wasted on a plain card")
            # (only against a fresh lead of one card: with covered pairs on the table the
            # ranks already open can make covering on a losing race, as the first version
            # of this pattern found: perevodnoy, J♣ over 7♣ with the attacker's 7♦ and two
            # trumps of open ranks known)
            if plain and v.stock_count >= 6 and not transfers and len(v.attack) == 1 \
                    and any(a.kind == TAKE for a in legal):
                yield ("needless_take", "avoid take",
                       f"{p(plain[0].cards[0])} covers {p(target)} cheaply with "
                       f"{v.stock_count} cards in the stock: taking is needless")
            if not plain and not any(not is_trump(v, a.cards[0]) for a in covers) \
                    and low_trump and high_trump and not transfers:
                yield ("low_trump_cover", "avoid " + " ".join(str(a) for a in high_trump),
                       f"only trumps cover {p(target)}: the low {p(low_trump[0].cards[0])} "
                       "does it as well as a high trump")
    if v.taking and v.seat != v.defender and v.stock_count >= 6:
        gifts = [a for a in legal if a.kind == ATTACK and is_trump(v, a.cards[0])]
        if gifts:
            yield ("trump_gift", "avoid " + " ".join(str(a) for a in gifts),
                   f"the defender takes and {v.stock_count} cards are in the stock: a trump "
                   "thrown in now is a trump given to him")
    if solver_ok and v.players == 2 and v.stock_count == 0 and len(legal) >= 2 \
            and count(v.hand) + sum(v.hand_counts) <= 16:
        values: dict[Action, int] = {}
        solver = Solver()
        solver.max_nodes = 200_000
        try:
            for a in legal:
                child = s.copy()
                child.step_unchecked(a)
                values[a] = solver.value(child, v.seat)
        except Exception:
            return
        wins = [a for a, x in values.items() if x == WIN]
        if wins and any(x == LOSS for x in values.values()):
            losing = [a for a, x in values.items() if x == LOSS]
            yield ("endgame", "play " + " ".join(str(a) for a in wins),
                   f"both hands are known: {wins[0]} wins by force, "
                   f"{losing[0]} loses")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=30, help="games per variant and player count")
    ap.add_argument("--seed", type=int, default=2000)
    ap.add_argument("--quota", type=int, default=2, help="positions per bucket")
    a = ap.parse_args()
    buckets: dict[tuple[str, str, int, str], list[str]] = defaultdict(list)
    for vi, variant in enumerate(("podkidnoy", "perevodnoy", "simple")):
        for players in (2, 3, 4):
            for g in range(a.games):
                seed = a.seed + 1000 * vi + 100 * players + g
                s = new_game(variant, players, seed=seed)
                bots = [make_bot("heuristic", seed * 10 + k) for k in range(players)]
                rng = random.Random(seed)
                taken: set[str] = set()
                while not s.is_over:
                    seat = s.to_act
                    v = s.view(seat)
                    if len(v.legal) > 1:
                        for pat, verdict, reason in patterns(s, v, solver_ok=True):
                            key = (pat, variant, players, stage(s, v))
                            if pat in taken or len(buckets[key]) >= a.quota:
                                continue
                            taken.add(pat)  # one position of a pattern per game
                            buckets[key].append(
                                f"{pat}-{variant}-{players}p-s{seed} | {verdict} | "
                                f"{stage(s, v)}: {reason} | {position_text(s)}")
                    action = (rng.choice(v.legal) if rng.random() < 0.2
                              else bots[seat].choose(v))
                    s = s.apply(action)
    # One position per (pattern, variant, players), the earliest stage first; the endgame
    # patterns (hopeless covers, solved endgames) get a second one from the stage left out.
    picked: list[str] = []
    groups: dict[tuple[str, str, int], list[list[str]]] = defaultdict(list)
    for (pat, variant, players, _stage), lines in buckets.items():
        groups[(pat, variant, players)].append(lines)
    order = {"early": 0, "middle": 1, "end": 2}
    for n, group in enumerate(sorted(groups)):
        # (every other group from its latest stage, so that the suite spans the deal)
        by_stage = sorted(((order[b[0].split(" | ")[2].split(":")[0]], b)
                           for b in groups[group]), key=lambda x: x[0],
                          reverse=n % 2 == 1 and group[0] not in ("hopeless_cover", "endgame"))
        want = 2 if group[0] in ("hopeless_cover", "endgame") else 1
        picked.extend(b[0] for _, b in by_stage[:want])
        if want == 2 and len(by_stage) == 1 and len(by_stage[0][1]) > 1:
            picked.append(by_stage[0][1][1])
    for line in picked:
        print(line)
    print(f"{len(picked)} positions picked from {sum(len(x) for x in buckets.values())} "
          f"in {len(buckets)} buckets", file=sys.stderr)


if __name__ == "__main__":
    main()
