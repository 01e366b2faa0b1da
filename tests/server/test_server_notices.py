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
import contextlib
import json
import time
from collections.abc import Callable
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


async def _heard(listener: Any, seconds: float,
                 enough: Callable[[list[dict[str, Any]]], bool] | None = None,
                 ) -> list[dict[str, Any]]:
    """The notices a listening connection receives within ``seconds``, or until
    ``enough`` of them have come (then a further moment, for any that should not come)."""
    out: list[dict[str, Any]] = []
    async with contextlib.aclosing(listener.notifies(timeout=seconds)) as notes:
        async for note in notes:
            out.append(json.loads(note.payload))
            if enough is not None and enough(out):
                break
        else:
            return out
    return out + await _heard(listener, 0.3)


async def _sent(notifier: Notifier, changes: int) -> None:
    """Wait (30 s at most) until ``notifier`` has sent ``changes`` changes: its first
    notice also opens its connection, which takes a while on a loaded machine."""
    async with asyncio.timeout(30):
        while notifier.announced < changes:
            await asyncio.sleep(0.01)


def test_a_move_is_stored_before_and_without_its_notice(cluster: Cluster) -> None:
    """The move's statement has no ``pg_notify``: the move is committed (another connection
    reads it) while the notifier holds its notice back (here for as long as the test likes:
    it gathers for an hour), and nothing arrives meanwhile; once the notifier sends, one
    notice arrives, with the move in it. The table's own notice is sent before the test
    listens (on a loaded machine it came late, and was taken for the move's)."""
    import psycopg

    assert "notify" not in STORE_MOVE.lower()
    url = cluster.fresh_database("quietmove")

    async def run() -> tuple[list[Any], list[dict[str, Any]], list[dict[str, Any]],
                             list[dict[str, Any]], list[dict[str, Any]]]:
        db = PostgresDatabase(url, origin="mover")
        notifier = db.notices = Notifier(url, "mover", gather=0.05)
        await db.open()
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            await db.create_table(_table("q1"))
            await _sent(notifier, 1)  # the table's own notice, before anybody listens
            await listener.execute(f"LISTEN {CHANNEL}")
            notifier.gather = 3600.0  # the move's notice waits until the test lets it go
            await db.append_action("q1", 1, 0, "7d", "move")
            with psycopg.connect(url) as other:  # committed: another session reads it
                stored = other.execute("SELECT n, action FROM bito_actions WHERE "
                                       "table_id = 'q1'").fetchall()
            early = await _heard(listener, 0.4)  # the notifier is still gathering
            held = list(notifier.pending)
            await notifier.stop()  # its gathering cut short, the notice kept to send
            notifier.gather = 0.05
            notifier.start()
            late = await _heard(listener, 30, lambda out: len(out) >= 1)
            return stored, early, held, late, notifier.pending
        finally:
            await listener.close()
            await db.close()

    stored, early, held, late, left = asyncio.run(run())
    assert stored == [(1, "7d")]
    assert early == []
    assert [change["t"] for change in held] == ["q1"] and left == []
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
            # the tables' own notices are sent before anybody listens (one heard late was
            # taken for a move's)
            await _sent(db.notices, len(tables))
            await listener.execute(f"LISTEN {CHANNEL}")

            async def play(table: str) -> None:
                for n in range(1, 6):
                    await db.append_action(table, n, n % 2, f"m{n}", "move")

            await asyncio.gather(*(play(t) for t in tables))
            return await _heard(listener, 30, lambda out: sum(
                len(notice["b"]) for notice in out) >= 5 * len(tables)), db.notices
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
