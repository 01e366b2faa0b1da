"""The game review in the browser (issue 36): made in the bot workers, stored with the game.

A finished table's end screen and replay offer "Review this game". The review
(:mod:`bito.review`) is a search over every decision of a seat, seconds of CPU: it never runs
on the event loop. It goes to the bot pool's workers as a *job* (:meth:`~bito.server.botpool.
BotPool.job`, the record's text in, the review's JSON out), under its own time cap, at a
smaller budget than the terminal's default (:data:`WEB_PLAYOUTS`), so one review holds a worker
for about a second of CPU per seat.

A person sees the review of his own seat, and only once the game is over (the full record is
public then, so nothing is shown that the seat could not download).

A review is stored with the game once made (``bito_reviews``, one row per table and seat,
:mod:`bito.server.migrations` step 5), so any process serves it, after a restart too, and
nobody's request makes it again. Asked again, it is read, never made; two people asking one
process at once share one job (:class:`Reviews`); two processes asking at once may each make
it, but the row is inserted only if absent and both serve the copy stored first, so nobody
ever sees two different reviews of one seat.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from bito.server.shared import Exchanging

WEB_PLAYOUTS = 5000
"""Playouts per decision of a review made by the server (the terminal's default is 20,000; a
quarter keeps the categories of the blunder suite, tests/bots/test_review.py)."""

REVIEW_CAP = 120.0
"""Seconds a worker may take over one review before it is abandoned."""

#: Keeping a review: only if none is stored for the seat yet (another process's wins).
STORE = ("INSERT INTO bito_reviews (table_id, seat, playouts, review, made) "
         "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING")
READ = "SELECT review FROM bito_reviews WHERE table_id = ? AND seat = ?"


def run_job(job: dict[str, Any]) -> tuple[str, Any]:
    """In a bot worker: the review of ``job["seat"]`` in the record ``job["record"]`` (its
    JSON Lines text), as ``("ok", review JSON)`` or ``("error", why)``."""
    try:
        from bito.record import load_record
        from bito.review import review_record

        record = load_record(str(job["record"]))
        review = review_record(record, [int(job["seat"])],
                               playouts=int(job.get("playouts", WEB_PLAYOUTS)), seed=0)
        data = review.to_json()
        data["chances"] = chances(data)
        return ("ok", data)
    except Exception as e:  # a record the review cannot read: the caller says so
        return ("error", f"{type(e).__name__}: {e}")


def chances(data: dict[str, Any]) -> list[list[float]]:
    """The win-probability graph's points: (move number, the seat's best chance before it
    moved) for every reviewed decision."""
    return [[m["n"], m["best_chance"]] for m in data["moves"]]


async def stored_review(db: Exchanging, table: str, seat: int) -> dict[str, Any] | None:
    """The review of ``seat`` at ``table`` stored by any process, or None."""
    ((_, rows),) = await db.exchange([(READ, (table, seat))])
    return _loaded(rows)


async def store_review(db: Exchanging, table: str, seat: int, playouts: int,
                       review: dict[str, Any]) -> dict[str, Any]:
    """Keep ``review`` unless one is stored already; the stored one either way (this
    process's, or the one another process stored first), read back in the same
    transaction."""
    text = json.dumps(review, ensure_ascii=False, separators=(",", ":"))
    (_, (_, rows)) = await db.exchange([(STORE, (table, seat, playouts, text, time.time())),
                                        (READ, (table, seat))])
    return _loaded(rows) or review


def _loaded(rows: list[tuple[Any, ...]]) -> dict[str, Any] | None:
    if not rows:
        return None
    data = json.loads(rows[0][0])
    return data if isinstance(data, dict) else None


class Reviews:
    """This process's review jobs under way, by (table, seat), so that one job serves every
    request that comes while it runs. The reviews themselves are in the database."""

    def __init__(self, playouts: int = WEB_PLAYOUTS) -> None:
        self.playouts = playouts
        self.running: dict[tuple[str, int], asyncio.Future[dict[str, Any] | None]] = {}
        self.made = 0  # jobs sent to the workers by this process

    async def review(self, pool: Any, db: Exchanging, table: str, seat: int,
                     record: Callable[[], str]) -> dict[str, Any] | None:
        """The review of ``seat`` at ``table``: the stored one, else made in ``pool``'s
        workers from ``record()`` (the full record's text) and stored; None when the worker
        failed or ran out of time (nothing is stored: a later request tries again)."""
        key = (table, seat)
        found = await stored_review(db, table, seat)
        if found is not None:
            return found
        running = self.running.get(key)  # (no await between this look and the entry below)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.running[key] = future
        try:
            self.made += 1
            answer = await pool.job(("review:" + table, seat),
                                    {"record": record(), "seat": seat,
                                     "playouts": self.playouts}, REVIEW_CAP)
            result = answer[1] if answer is not None and answer[0] == "ok" else None
            if result is not None:
                result = await store_review(db, table, seat, self.playouts, result)
            future.set_result(result)
            return result
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: nobody else may be waiting for it
            raise
        finally:
            self.running.pop(key, None)
