"""Tournament (#64): an elimination event over many games, with bots.

S0:310 describes a multi-stage competition of many players that ends with one winner; the
catalogue leaves the format to us (#64 A1). Ours: at every stage the players still in are
shuffled and seated at tables of at most ``table`` players (as even as possible; with tables of
two and an odd count one player has a bye), one deal of the chosen game is played at every
table, and every table's fool is eliminated. A drawn table (no fool) replays with a fresh seed
up to ``replays`` times, then eliminates nobody that stage. It goes on until one player is
left.

The standings list the winner first, then the others by the stage they fell in, latest first;
players who fell in the same stage are ranked by fewer cards left in hand, then entry order.
Everything is fixed by ``seed``: the seating, each deal and each bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bito.bots import make_bot
from bito.games.durak import new_game
from bito.rules import Rules
from bito.sim import derive_seed, play_game


@dataclass(frozen=True)
class TableResult:
    """One table of one stage: who sat where, the deals played, who fell."""

    stage: int
    seats: tuple[int, ...]  # entrant numbers, by seat
    seeds: tuple[int, ...]  # every deal played (replays after draws included)
    fool: int | None  # entrant number eliminated, None after too many draws
    cards_left: int  # cards the fool held at the end


@dataclass
class Tournament:
    """A finished tournament: the entrants (bot names), the tables, the standings."""

    variant: str
    entrants: list[str]
    table_size: int
    seed: int
    tables: list[TableResult] = field(default_factory=list)
    eliminated: list[tuple[int, int, int]] = field(default_factory=list)  # (stage, cards, who)
    winner: int | None = None

    @property
    def stages(self) -> int:
        return max((t.stage for t in self.tables), default=0)

    def standings(self) -> list[int]:
        """Entrant numbers, the winner first, then by stage of elimination, latest first."""
        order = [] if self.winner is None else [self.winner]
        fallen = sorted(self.eliminated, key=lambda e: (-e[0], e[1], e[2]))
        return order + [who for _, _, who in fallen]

    def to_json(self) -> dict[str, Any]:
        place = {who: i + 1 for i, who in enumerate(self.standings())}
        stage_out = {who: stage for stage, _, who in self.eliminated}
        return {
            "variant": self.variant, "entrants": len(self.entrants),
            "table_size": self.table_size, "seed": self.seed, "stages": self.stages,
            "deals": sum(len(t.seeds) for t in self.tables),
            "winner": self.winner,
            "winner_bot": self.entrants[self.winner] if self.winner is not None else None,
            "standings": [{"place": place[w], "entrant": w, "bot": self.entrants[w],
                           "out_in_stage": stage_out.get(w)} for w in self.standings()],
            "tables": [{"stage": t.stage, "seats": list(t.seats), "deals": len(t.seeds),
                        "fool": t.fool} for t in self.tables],
        }


def seat_tables(players: list[int], table: int) -> list[list[int]]:
    """Split the players into the fewest tables of at most ``table``, sizes differing by one
    at most. Only tables of two with an odd number of players leave one player alone: he has
    a bye into the next stage."""
    count = -(-len(players) // table)
    base, extra = divmod(len(players), count)
    out, at = [], 0
    for i in range(count):
        size = base + (1 if i < extra else 0)
        out.append(players[at:at + size])
        at += size
    return out


def run_tournament(variant: str | Rules, entrants: list[str], table: int = 4, seed: int = 0,
                   replays: int = 3,
                   progress: Callable[[TableResult], None] | None = None) -> Tournament:
    """Play a whole tournament between bots named in ``entrants`` (one entry per player)."""
    if len(entrants) < 2:
        raise ValueError("a tournament needs at least 2 entrants")
    if table < 2:
        raise ValueError("a table seats at least 2 players")
    label = variant if isinstance(variant, str) else "custom rules"
    result = Tournament(variant=label, entrants=list(entrants), table_size=table, seed=seed)
    alive = list(range(len(entrants)))
    stage = 0
    stalled = 0
    while len(alive) > 1:
        stage += 1
        rng = random.Random(derive_seed(seed, stage, 0))
        rng.shuffle(alive)
        fallen: list[int] = []
        for t, seats in enumerate(seat_tables(alive, table)):
            if len(seats) < 2:
                continue  # a bye
            res = _play_table(variant, entrants, seats, stage, derive_seed(seed, stage, t + 1),
                              replays)
            result.tables.append(res)
            if progress is not None:
                progress(res)
            if res.fool is not None:
                fallen.append(res.fool)
                result.eliminated.append((stage, res.cards_left, res.fool))
        alive = sorted(p for p in alive if p not in fallen)
        stalled = 0 if fallen else stalled + 1
        if stalled >= 3:
            break  # nobody can be eliminated any more: the rest share the top places
    result.winner = alive[0] if len(alive) == 1 else None
    if result.winner is None:
        for who in alive:
            result.eliminated.append((stage + 1, 0, who))
    return result


def _play_table(variant: str | Rules, entrants: list[str], seats: list[int], stage: int,
                seed: int, replays: int) -> TableResult:
    seeds = []
    for attempt in range(replays + 1):
        deal_seed = derive_seed(seed, attempt)
        seeds.append(deal_seed)
        bots = [make_bot(entrants[who], derive_seed(deal_seed, k)) for k, who in enumerate(seats)]
        state = new_game(variant, len(seats), seed=deal_seed)
        played = play_game(state, bots)
        loser = played.outcome.loser
        if loser is not None:
            assert played.final_state is not None
            left = played.final_state.hands[loser].bit_count()
            return TableResult(stage, tuple(seats), tuple(seeds), seats[loser], left)
    return TableResult(stage, tuple(seats), tuple(seeds), None, 0)
