"""The game review in the browser (issue 36): made in the bot workers, kept with the table.

A finished table's end screen and replay offer "Review this game". The review
(:mod:`bito.review`) is a search over every decision of a seat, seconds of CPU: it never runs
on the event loop. It goes to the bot pool's workers as a *job* (:meth:`~bito.server.botpool.
BotPool.job`, the record's text in, the review's JSON out), under its own time cap, at a
smaller budget than the terminal's default (:data:`WEB_PLAYOUTS`), so one review holds a worker
for about a second of CPU per seat.

A person sees the review of his own seat, and only once the game is over (the full record is
public then, so nothing is shown that the seat could not download). The review made for a
seat is kept with the table for the life of the process (:class:`Reviews`): asked again, it is
not made again; two people asking at once share one job.
"""

from __future__ import annotations

import asyncio
from typing import Any

WEB_PLAYOUTS = 5000
"""Playouts per decision of a review made by the server (the terminal's default is 20,000; a
quarter keeps the categories of the blunder suite, tests/bots/test_review.py)."""

REVIEW_CAP = 120.0
"""Seconds a worker may take over one review before it is abandoned."""

KEEP = 2000
"""Reviews kept per process (the oldest is dropped first)."""


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


class Reviews:
    """The reviews made in this process, by (table, seat), and the jobs under way."""

    def __init__(self) -> None:
        self.done: dict[tuple[str, int], dict[str, Any]] = {}
        self.running: dict[tuple[str, int], asyncio.Future[dict[str, Any] | None]] = {}

    async def review(self, pool: Any, table: str, seat: int, record_text: str,
                     playouts: int = WEB_PLAYOUTS) -> dict[str, Any] | None:
        """The review of ``seat`` at ``table`` (made in ``pool``'s workers the first time);
        None when the worker failed or ran out of time."""
        key = (table, seat)
        if key in self.done:
            return self.done[key]
        running = self.running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.running[key] = future
        try:
            answer = await pool.job(("review:" + table, seat),
                                    {"record": record_text, "seat": seat,
                                     "playouts": playouts}, REVIEW_CAP)
            result = answer[1] if answer is not None and answer[0] == "ok" else None
            if result is not None:
                self.done[key] = result
                while len(self.done) > KEEP:
                    self.done.pop(next(iter(self.done)))
            future.set_result(result)
            return result
        except BaseException as e:
            future.set_exception(e)
            raise
        finally:
            self.running.pop(key, None)
