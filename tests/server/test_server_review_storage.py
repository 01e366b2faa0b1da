"""The browser's game review is stored with the game (issue 36, item 2): made once in the bot
workers, kept in the database (SQLite and PostgreSQL), served from there by any process and
after a restart without a second job; two processes making it at once store one copy. The
records the server writes say which seats were people, so ``bito review`` on a downloaded
record reviews them by default. Rules in play: podkidnoy (VARIANTS.md #3); small playout
budgets, no clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from pg_kit import Cluster

from bito.record import load_record
from bito.review import review_record
from bito.server.db import open_database
from bito.server.review import Reviews, store_review, stored_review
from server_kit import Client, ServerThread, create_table, scripted

PLAYOUTS = 60  # per decision: the test checks where the review lives, not its verdicts


class Jobs:
    """Counts the jobs an app's bot pool is given (each one a review made)."""

    def __init__(self, server: ServerThread) -> None:
        self.count = 0
        pool = server.app.state.lobby.bots
        real = pool.job

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await real(*args, **kwargs)

        pool.job = counted
        server.app.state.reviews.playouts = PLAYOUTS


def _serve(db: str) -> tuple[ServerThread, Jobs]:
    server = ServerThread(db, scripted(timer=120, bot_delay=0.0))
    return server, Jobs(server)


def _finished_game(server: ServerThread) -> dict[str, Any]:
    """Alice (seat 0, a person playing her first legal move) against the heuristic bot."""
    t = create_table(server.http, players=2, seats=["heuristic"])
    alice = Client(server.base, t["table"], t["token"])
    alice.state()
    alice.send({"type": "ready"})
    frame = alice.wait(lambda m: m["type"] == "state" and "view" in m, timeout=300)
    while frame["status"] != "over":
        view = frame["view"]
        if view["to_act"] == 0 and view["legal"]:
            alice.send({"type": "act", "action": view["legal"][0]["text"]})
        # a bot worker starting on a loaded machine may take a while: wait for its move
        frame = alice.wait(lambda m, n=frame["n"]: m["type"] == "state" and m["n"] > n,
                           timeout=300)
    alice.close()
    return t


def _review(server: ServerThread, t: dict[str, Any]) -> Any:
    r = server.http.get(f"/api/tables/{t['table']}/review",
                        headers={"X-Bito-Token": t["token"]}, timeout=300)
    assert r.status_code == 200, r.text
    return r.json()


def _made_then_served_elsewhere(db: str, together: bool) -> None:
    """Made through one app; then read through a fresh one: after the first stopped (a
    restart), or beside it (``together``: another process on the same database)."""
    first, jobs = _serve(db)
    second = None
    try:
        t = _finished_game(first)
        made = _review(first, t)
        assert jobs.count == 1
        assert made["seats"] == [0] and made["playouts"] == PLAYOUTS and made["moves"]
        assert _review(first, t) == made and jobs.count == 1  # asked again: read, not made
        # nobody but the seat's owner is given it
        assert first.http.get(f"/api/tables/{t['table']}/review").status_code == 403
        if not together:
            first.stop()
        second, again = _serve(db)
        assert _review(second, t) == made
        assert again.count == 0  # from the database: no bot ran
    finally:
        for server in (first, second):
            if server is not None:
                server.stop()


def test_a_review_made_before_a_restart_is_served_from_sqlite(tmp_path: Path) -> None:
    _made_then_served_elsewhere(str(tmp_path / "games.sqlite3"), together=False)


def test_a_review_made_by_one_process_is_served_by_another_from_postgresql(
        cluster: Cluster) -> None:
    _made_then_served_elsewhere(cluster.fresh_database("review_elsewhere"), together=True)


# --- two processes at once ---------------------------------------------------------------------

class SlowPool:
    """A stand-in bot pool whose every job answers a different review after a pause."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.jobs = 0

    async def job(self, key: Any, job: dict[str, Any], cap: float) -> tuple[str, Any]:
        self.jobs += 1
        await asyncio.sleep(0.2)
        return ("ok", {"seat": job["seat"], "made_by": self.name})


def _two_processes_at_once(url: str) -> None:
    """Two processes' ``Reviews`` over one database, asked together three times each: one
    job per process at most, one copy stored, and every answer is that copy."""
    async def scenario() -> tuple[list[Any], list[int], Any]:
        dbs = [open_database(url, origin=f"p{i}") for i in range(2)]
        for db in dbs:
            await db.open()
        try:
            pools = [SlowPool("one"), SlowPool("two")]
            reviews = [Reviews(), Reviews()]
            asks = [reviews[i].review(pools[i], dbs[i], "t1", 0, lambda: "record")
                    for i in (0, 1) for _ in range(3)]
            answers = await asyncio.gather(*asks)
            stored = await stored_review(dbs[1], "t1", 0)
            # a late copy changes nothing
            late = await store_review(dbs[0], "t1", 0, 1, {"seat": 0, "made_by": "late"})
            assert late == stored
            return list(answers), [p.jobs for p in pools], stored
        finally:
            for db in dbs:
                await db.close()

    answers, jobs, stored = asyncio.run(scenario())
    assert stored is not None and stored["made_by"] in ("one", "two")
    assert all(a == stored for a in answers)
    assert jobs[0] <= 1 and jobs[1] <= 1 and sum(jobs) >= 1


def test_two_processes_store_one_review_on_sqlite(tmp_path: Path) -> None:
    _two_processes_at_once(str(tmp_path / "games.sqlite3"))


def test_two_processes_store_one_review_on_postgresql(cluster: Cluster) -> None:
    _two_processes_at_once(cluster.fresh_database("review_race"))


def test_a_failed_job_stores_nothing_and_the_next_ask_makes_it(tmp_path: Path) -> None:
    class Failing:
        def __init__(self) -> None:
            self.jobs = 0

        async def job(self, key: Any, job: dict[str, Any], cap: float) -> Any:
            self.jobs += 1
            return None if self.jobs == 1 else ("ok", {"seat": 0, "try": self.jobs})

    async def scenario() -> tuple[Any, Any, Any]:
        db = open_database(str(tmp_path / "games.sqlite3"))
        await db.open()
        try:
            pool, reviews = Failing(), Reviews()
            first = await reviews.review(pool, db, "t", 0, lambda: "record")
            between = await stored_review(db, "t", 0)
            second = await reviews.review(pool, db, "t", 0, lambda: "record")
            return first, between, second
        finally:
            await db.close()

    first, between, second = asyncio.run(scenario())
    assert first is None and between is None
    assert second == {"seat": 0, "try": 2}


# --- the server's records name the people ---------------------------------------------------

@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    server = ServerThread(str(tmp_path / "games.sqlite3"), scripted(timer=120, bot_delay=0.0))
    try:
        yield server
    finally:
        server.stop()


def test_a_downloaded_record_names_the_people_and_bito_review_reviews_them(
        served: ServerThread) -> None:
    t = _finished_game(served)
    r = served.http.get(f"/api/tables/{t['table']}/record")
    assert r.status_code == 200, r.text
    record = load_record(r.text)
    assert record.header["people"] == [0]  # Alice; seat 1 was the heuristic bot
    review = review_record(record, playouts=PLAYOUTS)
    assert review.seats == [0]
    assert review.moves and all(m.seat == 0 for m in review.moves)
