"""Leases that settle (issue 31, item 3): the tables spread evenly over the processes alive,
and stay put while the database is slow.

Before: every process took every orphaned table it saw at its renewal, so the first to
renew after a failure drove them all (three processes ended driving 7 / 35 / 418 tables),
and it read them one after the other between two renewals, so on a slow database its own
leases ran out meanwhile and the tables went round the processes (each taken over 4-6
times). Now each process takes its share (the unfinished tables over the processes
alive), hands over what is past it, renews on a connection of its own and reads the
tables it took beside the renewals.

Three processes in one event loop (each with its own pool, notifier and lease keeper) on
a throw-away PostgreSQL; 45 tables opened on the first:

* within a few renewals the three drive 15 each (most/fewest within 1.5);
* with every database call slowed by 150 ms for 8 s, no table changes hands;
* one process dies without a word (its leases left to run out): the two others share its
  tables, nothing undriven;
* a fourth process starts: it gets its share, most/fewest within 1.5 again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import pytest

pytest.importorskip("psycopg")

from lobby_kit import Process, until
from pg_kit import Cluster

from bito.server.lease import LEASE_FOR, RENEW_EVERY
from bito.server.storage import SeatRow, TableRow

TABLES = 45
SLOW = 0.15  # seconds each database call waits while the database is slow


class _Slow:
    """A stand-in for the slow-database hook (``BITO_TEST_DB_DELAY_FILE``)."""

    def __init__(self) -> None:
        self.delay = 0.0

    def seconds(self) -> float:
        return self.delay


def _table(i: int) -> TableRow:
    return TableRow(id=f"bal{i:03d}", spec="podkidnoy", players=2, seed=0,
                    settings={"public": False, "timer": 120}, status="waiting",
                    outcome=None, created=time.time(),
                    seats=[SeatRow(0, "Host", "human", "heuristic", f"tok{i}", False),
                           SeatRow(1, "", "open", "heuristic", "", False)])


def _driven(procs: list[Process]) -> list[int]:
    return [len(p.lobby.held or ()) for p in procs]


def _even(procs: list[Process]) -> bool:
    counts = _driven(procs)
    return sum(counts) == TABLES and min(counts) > 0 and max(counts) <= 1.5 * min(counts)


def _owners(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT owner, COUNT(*) FROM bito_leases WHERE expires > "
                            "EXTRACT(EPOCH FROM clock_timestamp()) GROUP BY owner").fetchall()
    return {str(r[0]): int(r[1]) for r in rows}


def test_tables_spread_evenly_and_stay_put_on_a_slow_database(
        cluster: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    url = cluster.fresh_database("balance")
    caplog.set_level(logging.INFO, logger="bito.server")

    def count(words: str) -> int:
        return sum(words in r.getMessage() for r in caplog.records)

    async def run() -> dict[str, Any]:
        procs = [Process(url, f"proc-{k}") for k in range(3)]
        slow = [_Slow() for _ in procs]
        for p, hook in zip(procs, slow, strict=True):
            p.db.slowdown = hook  # type: ignore[assignment]
            await p.start()
        out: dict[str, Any] = {}
        try:
            for i in range(TABLES):
                await procs[0].lobby.open_table(_table(i))
            t0 = time.monotonic()
            out["spread"] = await until(lambda: _even(procs), 10 * RENEW_EVERY)
            out["spread_in"] = time.monotonic() - t0
            out["spread_counts"] = _driven(procs)

            for hook in slow:
                hook.delay = SLOW
            moved = count("taken over by this process") + count("driven by another")
            await asyncio.sleep(8)
            for hook in slow:
                hook.delay = 0.0
            out["moved_while_slow"] = (count("taken over by this process")
                                       + count("driven by another") - moved)
            out["slow_counts"] = _driven(procs)

            dead, procs = procs[2], procs[:2]
            await dead.die()
            died = time.monotonic()
            out["shared"] = await until(lambda: _even(procs), LEASE_FOR + 10 * RENEW_EVERY)
            out["shared_in"] = time.monotonic() - died
            out["shared_counts"] = _driven(procs)
            out["owners_after_death"] = _owners(url)

            late = Process(url, "proc-late")
            await late.start()
            procs.append(late)
            t0 = time.monotonic()
            out["joined"] = await until(lambda: _even(procs), 15 * RENEW_EVERY)
            out["joined_in"] = time.monotonic() - t0
            out["joined_counts"] = _driven(procs)
            out["owners_at_end"] = _owners(url)
        finally:
            for p in procs:
                await p.stop()
        return out

    got = asyncio.run(run())
    print(f"spread over 3 in {got['spread_in']:.1f} s: {got['spread_counts']}; while slow "
          f"{got['slow_counts']} ({got['moved_while_slow']} changes of hands); after a death "
          f"{got['shared_counts']} in {got['shared_in']:.1f} s; with a late process "
          f"{got['joined_counts']} in {got['joined_in']:.1f} s")
    assert got["spread"], got
    assert got["moved_while_slow"] == 0, got
    assert got["shared"], got
    assert sum(got["owners_after_death"].values()) == TABLES, got
    assert got["joined"], got
    assert sorted(got["owners_at_end"].values()) == sorted(got["joined_counts"]), got
