"""Books of deals (issue 21 item 6): a fixed evaluation protocol. A book's deals follow from
its name alone, every deal is played in each seating, and ``bito arena --book`` scores bots
against the book's reference opponents with intervals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bito.arena.book import BOOKS, book_seed, get_book, score_on_book
from bito.arena.games import jobs_for
from bito.games import new_game
from bito.sim import derive_seed

SRC = Path(__file__).parents[2] / "src"


def _bito(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bito", *args], capture_output=True,
                          text=True, env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"},
                          timeout=120, check=False)


def test_a_books_deals_follow_from_its_name() -> None:
    """Deal d of a book is new_game(variant, players, derive_seed(book_seed(name), d)): two
    books never share deals, and the seed does not depend on the process (no hash())."""
    book = get_book("podkidnoy-2p-v1")
    assert book.seed == book_seed("podkidnoy-2p-v1") != book_seed("perevodnoy-2p-v1")
    code = ("from bito.arena.book import book_seed; print(book_seed('podkidnoy-2p-v1'))")
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={"PYTHONPATH": str(SRC), "PYTHONHASHSEED": "123"}, check=True)
    assert int(other.stdout) == book.seed
    jobs = jobs_for(book.variant, book.players, [("heuristic", "random")], range(2), book.seed)
    assert [(j.deal, j.rotation) for j in jobs] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    first = new_game(book.variant, book.players, seed=derive_seed(book.seed, 0))
    assert first.hands != new_game(book.variant, book.players,
                                   seed=derive_seed(book.seed, 1)).hands


def test_every_book_deals_its_game() -> None:
    for book in BOOKS.values():
        assert book.deals > 0 and book.opponents
        new_game(book.variant, book.players, seed=derive_seed(book.seed, book.deals - 1))


def test_scores_have_intervals_and_the_heuristic_beats_random() -> None:
    """On 12 duplicate pairs the heuristic scores above 1/2 against random, every score lies
    in its interval, and against its own twin the heuristic's interval holds 1/2."""
    book = get_book("podkidnoy-2p-v1")
    scores = {(s.bot, s.opponent): s for s in score_on_book(book, ["heuristic"], deals=12)}
    win = scores[("heuristic", "random")]
    assert (win.deals, win.games, win.errors) == (12, 24, 0)
    assert win.low <= win.score <= win.high and win.score > 0.5
    mirror = scores[("heuristic", "heuristic")]
    assert mirror.low <= 0.5 <= mirror.high


def test_more_players_seat_the_opponent_in_every_other_seat() -> None:
    book = get_book("friese_fool-4p-v1")  # #95 seats 4 to 8 (S2)
    (vs_random, _vs_heuristic) = score_on_book(book, ["random"], deals=2)
    assert (vs_random.games, vs_random.deals) == (8, 2)  # each deal in the 4 seatings


def test_bad_requests_are_named() -> None:
    with pytest.raises(ValueError, match="podkidnoy-2p-v1"):
        get_book("podkidnoy")
    with pytest.raises(ValueError, match="1000 deals"):
        score_on_book(get_book("podkidnoy-2p-v1"), ["random"], deals=1001)


def test_the_command_line() -> None:
    listing = _bito("arena", "--book", "list")
    assert listing.returncode == 0 and all(name in listing.stdout for name in BOOKS)
    done = _bito("arena", "--book", "czech_fool-2p-v1", "--bots", "heuristic", "--pairs", "4",
                 "--json", "--no-progress")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["book"] == "czech_fool-2p-v1" and data["deals"] == 4
    assert [s["opponent"] for s in data["scores"]] == ["random", "heuristic"]
    assert all(s["interval"][0] <= s["score"] <= s["interval"][1] for s in data["scores"])
    wrong = _bito("arena", "--book", "podkidnoy-2p-v1", "--bots", "heuristic", "--players", "3")
    assert wrong.returncode == 2 and "--players" in wrong.stderr and "Traceback" not in wrong.stderr
    unknown = _bito("arena", "--book", "nope", "--bots", "heuristic")
    assert unknown.returncode == 2 and "podkidnoy-2p-v1" in unknown.stderr
