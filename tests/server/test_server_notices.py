"""Change notices leave after the commits they announce (issue 18): a move's own statement
stores the move and notifies nobody, so PostgreSQL's notify lock (held from a notifying
commit to its end, WAL flush included) never queues the moves; one notifier per process
gathers the changes of a few milliseconds into one ``NOTIFY``, on its own connection with
``synchronous_commit = off``.

Real parts: a throw-away PostgreSQL cluster of Debian's package and a ``LISTEN``ing
connection of the test's own, standing for another process. That another *server* hears
them is test_server_leases.py's and test_server_cluster.py's to show (moves, joins and
Readies made through one process reach the sockets of another).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest

pytest.importorskip("psycopg")

from pg_kit import Cluster

from bito.server.db import CHANNEL, NOTICE_BYTES, STORE_MOVE, Notifier, PostgresDatabase
from bito.server.storage import SeatRow, TableRow


def _table(table_id: str) -> TableRow:
    return TableRow(id=table_id, spec="podkidnoy", players=2, seed=7,
                    settings={"public": False, "timer": 30}, status="playing", outcome=None,
                    created=time.time(),
                    seats=[SeatRow(0, "Alice", "human", "heuristic", "tok-a", True),
                           SeatRow(1, "Bob", "human", "heuristic", "tok-b", True)])


async def _heard(listener: Any, seconds: float) -> list[dict[str, Any]]:
    """The notices a listening connection receives within ``seconds``."""
    out: list[dict[str, Any]] = []
    async for note in listener.notifies(timeout=seconds):
        out.append(json.loads(note.payload))
    return out


def test_a_move_is_stored_before_and_without_its_notice(cluster: Cluster) -> None:
    """The move's statement has no ``pg_notify``; the move is committed (another connection
    reads it) while its notice is still waiting in the notifier, which here gathers for a
    whole second so the gap can be seen; then the notice arrives, with the move in it."""
    import psycopg

    assert "notify" not in STORE_MOVE.lower()
    url = cluster.fresh_database("quietmove")

    async def run() -> tuple[list[Any], list[dict[str, Any]], list[dict[str, Any]]]:
        db = PostgresDatabase(url, origin="mover")
        db.notices = Notifier(url, "mover", gather=1.0)
        await db.open()
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            await db.create_table(_table("q1"))
            await _heard(listener, 0.0)
            await listener.execute(f"LISTEN {CHANNEL}")
            await _heard(listener, 1.5)  # the table's own notice, gathered for a second
            await db.append_action("q1", 1, 0, "7d", "move")
            with psycopg.connect(url) as other:  # committed: another session reads it
                stored = other.execute("SELECT n, action FROM bito_actions WHERE "
                                       "table_id = 'q1'").fetchall()
            early = await _heard(listener, 0.4)  # the notifier is still gathering
            late = await _heard(listener, 3.0)
            return stored, early, late
        finally:
            await listener.close()
            await db.close()

    stored, early, late = asyncio.run(run())
    assert stored == [(1, "7d")]
    assert early == []
    assert len(late) == 1 and late[0]["o"] == "mover"
    assert late[0]["b"] == [{"t": "q1", "m": {"n": 1, "s": 0, "a": "7d", "h": "move",
                                              "at": late[0]["b"][0]["m"]["at"]}}]


def test_a_burst_of_moves_on_several_tables_is_announced_in_fewer_notices(
        cluster: Cluster) -> None:
    """Six tables make five moves each at the same time: every move is announced, each
    table's in the order stored, in fewer notices than moves (the notifier gathers 50 ms
    here, so the count does not hang on the machine's speed)."""
    import psycopg

    url = cluster.fresh_database("burst")
    tables = [f"b{i}" for i in range(6)]

    async def run() -> tuple[list[dict[str, Any]], Notifier]:
        db = PostgresDatabase(url, origin="burst")
        db.notices = Notifier(url, "burst", gather=0.05)
        await db.open()
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            for t in tables:
                await db.create_table(_table(t))
            await listener.execute(f"LISTEN {CHANNEL}")
            await _heard(listener, 0.3)  # the tables' own notices

            async def play(table: str) -> None:
                for n in range(1, 6):
                    await db.append_action(table, n, n % 2, f"m{n}", "move")

            await asyncio.gather(*(play(t) for t in tables))
            return await _heard(listener, 2.0), db.notices
        finally:
            await listener.close()
            await db.close()

    notices, notifier = asyncio.run(run())
    moves: dict[str, list[int]] = {t: [] for t in tables}
    for notice in notices:
        assert notice["o"] == "burst"
        for change in notice["b"]:
            moves[change["t"]].append(change["m"]["n"])
    assert moves == {t: [1, 2, 3, 4, 5] for t in tables}
    assert 1 <= len(notices) < 30, len(notices)
    assert notifier.announced == 30 + len(tables) and notifier.sent < notifier.announced


def test_a_batch_too_long_for_one_notice_is_split_in_order() -> None:
    """PostgreSQL refuses a payload of 8,000 bytes or more: a batch is cut into payloads
    under the limit, every change kept, in order; a change too long alone (never made by
    bito, which leaves a long move's text out) still names its table."""
    notifier = Notifier("postgresql://unused", "p:1:abc")
    entries: list[dict[str, Any]] = [
        {"t": f"table{i:03d}", "m": {"n": i, "s": i % 4, "a": "6h 7h/8h " * 5, "h": "move",
                                     "at": 1.5 + i}} for i in range(300)]
    entries.append({"t": "huge", "k": "chat", "d": {"text": "ы" * 9000}})
    payloads = notifier.payloads(entries)
    assert len(payloads) > 1
    assert all(len(p.encode()) < NOTICE_BYTES for p in payloads)
    got = [change for p in payloads for change in json.loads(p)["b"]]
    assert got[:-1] == entries[:-1]
    assert got[-1] == {"t": "huge"}
    assert {json.loads(p)["o"] for p in payloads} == {"p:1:abc"}
