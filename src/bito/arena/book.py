"""Books of deals: a fixed evaluation protocol, so scores are comparable across runs, machines
and papers.

A book is a name, a game (variant and seat count), a number of deals and the reference
opponents. Its deals are not stored card by card: deal *d* of book *name* is the game
``new_game(variant, players, seed=derive_seed(book_seed(name), d))``, where
:func:`book_seed` hashes the name (BLAKE2b, stable across Python versions and machines), as
the arena already derives every deal from its seed. Changing a book would change published
numbers, so a book is never edited: a new one gets a new name (``-v2``).

Scoring (``bito arena --book NAME --bots B``): every deal is played once per seat rotation
(with two players, each deal twice with the hands swapped: a duplicate pair), the candidate in
one seat and the reference opponent in every other, and the candidate's score is its mean over
duplicate sets (1 not the fool, ½ a two-player draw, 0 the fool) with a normal 95 % interval.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bito.arena.games import jobs_for, play_job
from bito.arena.ratings import mean_interval, set_scores
from bito.executors import Executor, make_executor


@dataclass(frozen=True)
class Book:
    """A named, fixed set of deals of one game, with the opponents a bot is scored against."""

    name: str
    variant: str
    players: int
    deals: int
    opponents: tuple[str, ...]
    note: str = ""

    @property
    def seed(self) -> int:
        return book_seed(self.name)


def book_seed(name: str) -> int:
    """The 63-bit seed of a book, from its name alone."""
    digest = hashlib.blake2b(f"bito-book:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


_REFERENCE = ("random", "heuristic")

BOOKS: dict[str, Book] = {b.name: b for b in (
    Book("podkidnoy-2p-v1", "podkidnoy", 2, 1000, _REFERENCE, "the base game, heads up"),
    Book("perevodnoy-2p-v1", "perevodnoy", 2, 1000, _REFERENCE, "with transfers"),
    Book("podkidnoy-3p-v1", "podkidnoy", 3, 500, _REFERENCE, "three seats, two opponents"),
    Book("czech_fool-2p-v1", "czech_fool", 2, 500, _REFERENCE, "Mau-Mau family (#86)"),
    Book("adjacent-3p-v1", "ontoys_adjacent_rank", 3, 500, _REFERENCE,
         "the adjacent-rank game (#94)"),
    Book("friese_fool-4p-v1", "friese_fool", 4, 200, _REFERENCE, "Fool! (#95)"),
)}
"""The books bito ships, by name."""


def get_book(name: str) -> Book:
    """A book by name; ValueError listing the books for an unknown one."""
    try:
        return BOOKS[name]
    except KeyError:
        raise ValueError(f"unknown book {name!r} (books: {', '.join(BOOKS)})") from None


@dataclass
class BookScore:
    """One candidate against one reference opponent on a book."""

    bot: str
    opponent: str
    score: float
    low: float
    high: float
    deals: int
    games: int
    errors: int

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "opponent": self.opponent, "score": round(self.score, 4),
                "interval": [round(self.low, 4), round(self.high, 4)], "deals": self.deals,
                "games": self.games, "errors": self.errors}


def score_on_book(book: Book, bots: Sequence[str], deals: int | None = None,
                  executor: Executor | None = None, progress: Any = None,
                  think_ms: float | None = None,
                  playouts: int | None = None) -> list[BookScore]:
    """Score every bot of ``bots`` against each reference opponent of ``book`` on its first
    ``deals`` deals (all of them by default); ``think_ms`` and ``playouts`` budget the search
    bots as in :func:`bito.arena.run_arena`."""
    n = book.deals if deals is None else deals
    if not 1 <= n <= book.deals:
        raise ValueError(f"--pairs: book {book.name} has {book.deals} deals; "
                         f"ask for 1 to {book.deals}, not {n}")
    tables = [(bot, *(opponent,) * (book.players - 1)) for bot in bots
              for opponent in book.opponents]
    jobs = jobs_for(book.variant, book.players, tables, range(n), book.seed, think_ms, playouts)
    own = executor is None
    ex = executor or make_executor("local")
    records = []
    try:
        for rec in ex.map(play_job, jobs):
            records.append(rec)
            if progress is not None:
                progress(len(records), len(jobs))
    finally:
        if own:
            ex.close()
    per_table = set_scores(records)
    out = []
    for t, table in enumerate(tables):
        mine = [s[0] for (ti, _d), s in sorted(per_table.items()) if ti == t]
        m, iv = mean_interval(mine)
        games = [r for r in records if r.job.table_index == t]
        out.append(BookScore(table[0], table[1], m, iv.low, iv.high, len(mine), len(games),
                             sum(r.error is not None for r in games)))
    return out


def book_table(book: Book, scores: Sequence[BookScore]) -> str:
    """The results as a terminal table: one row per bot, one column per opponent."""
    deals = scores[0].deals if scores else 0
    lines = [f"book {book.name}: {book.variant}, {book.players} players, {deals} of "
             f"{book.deals} deals, every deal played in each of the {book.players} seatings",
             f"{'bot':<12}" + "".join(f"{'vs ' + o:<26}" for o in book.opponents)]
    by_bot: dict[str, dict[str, BookScore]] = {}
    for s in scores:
        by_bot.setdefault(s.bot, {})[s.opponent] = s
    for bot, row in by_bot.items():
        cells = "".join(f"{f'{row[o].score:.3f} [{row[o].low:.3f}, {row[o].high:.3f}]':<26}"
                        for o in book.opponents)
        lines.append(f"{bot:<12}{cells}")
    return "\n".join(lines)


__all__ = ["BOOKS", "Book", "BookScore", "book_seed", "book_table", "get_book", "score_on_book"]
