"""The game review in the browser (issue 36, item 2), server side: the review is made in a bot
worker (a real spawned process, never the event loop), stored once made, and made once when
two people ask at the same time (tests/server/test_server_review_storage.py: across processes
and restarts). Rules in play: podkidnoy (VARIANTS.md #3); small playout budgets.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from bito.games import new_game
from bito.games.game import Game
from bito.record import record_from_game
from bito.server.botpool import BotPool
from bito.server.db import open_database
from bito.server.review import Reviews, run_job


def _record_text(seed: int = 4, moves: int = 16) -> str:
    """The first ``moves`` random moves of a deal (the stock still full: a quick review)."""
    game = Game(new_game("podkidnoy", 2, seed=seed))
    rng = random.Random(seed)
    while not game.state.is_over and len(game) < moves:
        legal = game.state.legal_actions()
        game.push(legal[rng.randrange(len(legal))])
    return record_from_game(game, ["Anna", "Boris"], people=[0, 1]).to_jsonl()


def test_a_review_job_runs_in_a_worker_process() -> None:
    text = _record_text()

    async def scenario() -> Any:
        pool = BotPool(1, time_cap=30)
        try:
            answer = await pool.job(("review:t", 1), {"record": text, "seat": 1,
                                                      "playouts": 40}, 600)
            pid = pool.pids[0]
        finally:
            pool.close()
        return answer, pid

    (kind, data), pid = asyncio.run(scenario())
    assert kind == "ok", data
    assert data["seats"] == [1] and data["playouts"] == 40
    assert data["moves"] and all(m["seat"] == 1 for m in data["moves"])
    assert data["chances"] == [[m["n"], m["best_chance"]] for m in data["moves"]]
    import os

    assert pid != os.getpid()  # made in the worker, not here


def test_a_bad_record_is_an_error_answer_not_a_crash() -> None:
    kind, why = run_job({"record": "not a record", "seat": 0})
    assert kind == "error" and "RecordError" in why


class CountingPool:
    """A stand-in pool that answers a job after a pause and counts the jobs."""

    def __init__(self) -> None:
        self.jobs = 0

    async def job(self, key: Any, job: dict[str, Any], cap: float) -> tuple[str, Any]:
        self.jobs += 1
        await asyncio.sleep(0.05)
        return ("ok", {"seat": job["seat"], "made": self.jobs})


def test_a_review_is_made_once_and_kept(tmp_path: Path) -> None:
    async def scenario() -> tuple[list[Any], Any, int]:
        pool = CountingPool()
        reviews = Reviews()
        db = open_database(str(tmp_path / "games.sqlite3"))
        await db.open()
        try:
            together = await asyncio.gather(*(reviews.review(pool, db, "t", 0, lambda: "rec")
                                              for _ in range(3)))
            later = await reviews.review(pool, db, "t", 0, lambda: "rec")
            other = await reviews.review(pool, db, "t", 1, lambda: "rec")
        finally:
            await db.close()
        assert other is not None and other["seat"] == 1
        return list(together), later, pool.jobs

    together, later, jobs = asyncio.run(scenario())
    assert all(r == {"seat": 0, "made": 1} for r in together)  # one job for three askers
    assert later == together[0]
    assert jobs == 2  # seat 0 once, seat 1 once
