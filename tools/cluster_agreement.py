"""Do several server processes agree on one PostgreSQL? Two measurements (issue 31).

Processes here are :class:`~bito.server.rooms.Lobby` objects in one event loop, each with
its own connection pool, notifier and lease keeper (what one ``bito serve`` process has of
the cluster, without the web server), on a throw-away PostgreSQL cluster of Debian's
package (``tests/server/pg_kit.py``). Run it against any source tree with ``PYTHONPATH``.

``race``: four people press Ready at once at each table, each on another process; counts
the deals tried and lost, and the tables some process shows otherwise than the database
stores 0.3 s and 3 s after (a split brain: before issue 31, the loser of the race
announced its own seed and a process still waiting could deal from it for good).

``leases``: tables made on one process; every database call slowed and each pool kept busy
(as moves would keep it), then the busiest process dies without a word; counts take-overs
(and per table-hour), leases lost, and the tables each process drives before and after.

    PYTHONPATH=src python tools/cluster_agreement.py race --tables 30 --batch 10 --processes 4
    PYTHONPATH=src python tools/cluster_agreement.py leases --tables 60 --slow-ms 200 \\
        --busy 30 --seconds 40
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / "server")]

from lobby_kit import Process  # noqa: E402
from pg_kit import Cluster  # noqa: E402

from bito.server import games  # noqa: E402
from bito.server.db import PostgresDatabase  # noqa: E402
from bito.server.render import render_open  # noqa: E402
from bito.server.storage import SeatRow, TableRow  # noqa: E402


def _digest(state: Any, actions: list[Any]) -> str:
    text = json.dumps([render_open(state), [str(a) for a in actions]], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _table(i: int, players: int) -> TableRow:
    return TableRow(id=f"t{i:04d}", spec="podkidnoy", players=players, seed=0,
                    settings={"public": False, "timer": 120}, status="waiting",
                    outcome=None, created=time.time(),
                    seats=[SeatRow(s, f"P{s}", "human", "heuristic", f"tok{i}-{s}", False)
                           for s in range(players)])



async def race(url: str, tables: int, batch: int, processes: int) -> str:
    procs = [Process(url, f"p{k}") for k in range(processes)]
    deals: list[bool] = []
    for p in procs:
        real = p.db.start_game

        async def counted(table_id: str, seed: int, real: Any = real) -> bool:
            ok = bool(await real(table_id, seed))
            deals.append(ok)
            return ok

        p.db.start_game = counted  # type: ignore[method-assign]
        await p.start()
    split = {"0.3 s": 0, "3 s": 0}
    try:
        import psycopg

        for start in range(0, tables, batch):
            ids = [f"t{i:04d}" for i in range(start, min(tables, start + batch))]
            for table_id in ids:
                await procs[0].lobby.open_table(_table(int(table_id[1:]), 4))
                for p in procs[1:]:
                    await p.lobby.get(table_id)

            async def press(table_id: str) -> None:
                await asyncio.gather(*(
                    procs[s % processes].lobby.ready(procs[s % processes].lobby.rooms[table_id],
                                                     s) for s in range(4)),
                    return_exceptions=True)

            await asyncio.gather(*(press(t) for t in ids))
            for wait, when in ((0.3, "0.3 s"), (2.7, "3 s")):
                await asyncio.sleep(wait)
                with psycopg.connect(url) as conn:
                    seeds = dict(conn.execute("SELECT id, seed FROM bito_tables WHERE "
                                              "status <> 'waiting'").fetchall())
                for table_id in ids:
                    if table_id not in seeds:
                        split[when] += 1
                        continue
                    want = _digest(games.new_state(games.Setup("podkidnoy", 4,
                                                               seeds[table_id])), [])
                    rooms = [p.lobby.rooms[table_id] for p in procs]
                    if any(r.state is None or _digest(r.state, r.actions) != want
                           for r in rooms):
                        split[when] += 1
    finally:
        for p in procs:
            await p.stop()
    return (f"{tables} tables, {batch} at once, {processes} processes: deals tried "
            f"{len(deals)}, lost their race {deals.count(False)}; tables some process shows "
            f"otherwise than stored: {split['0.3 s']} after 0.3 s, {split['3 s']} after 3 s")


class _Counter(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.taken = self.lost = 0

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        self.taken += "taken over by this process" in message
        self.lost += "driven by another process now" in message


class _Slow:
    def __init__(self, seconds: float) -> None:
        self.delay = seconds

    def seconds(self) -> float:
        return self.delay


async def leases(url: str, tables: int, slow: float, busy: int, seconds: float) -> str:
    counter = _Counter()
    logging.getLogger("bito.server").addHandler(counter)
    procs = [Process(url, f"p{k}") for k in range(3)]
    for p in procs:
        p.db.slowdown = _Slow(slow)  # type: ignore[assignment]  # (a tree without it: unused)
        real = p.db.run

        async def run(work: Any, retry_for: float | None = None, real: Any = real) -> Any:
            async def slowed(conn: Any, work: Any = work) -> Any:
                await asyncio.sleep(slow)
                return await work(conn)
            return await real(slowed, retry_for)

        p.db.run = run  # type: ignore[method-assign]
        await p.start()
    for i in range(tables):
        await procs[0].lobby.open_table(_table(i, 2))
    await asyncio.sleep(3)
    stop = asyncio.Event()

    async def keep_busy(db: PostgresDatabase) -> None:
        async def work(conn: Any) -> None:
            await conn.execute("SELECT pg_sleep(0.02)")
        while not stop.is_set():
            try:
                await db.run(work)
            except Exception:
                await asyncio.sleep(0.1)

    tasks = [asyncio.create_task(keep_busy(p.db)) for p in procs for _ in range(busy)]
    before = [len(p.lobby.held or ()) for p in procs]
    counter.taken = counter.lost = 0
    victim = max(procs, key=lambda p: len(p.lobby.held or ()))
    for task in victim.keeper.tasks:  # dies without a word: its leases run out
        task.cancel()
    conn = getattr(victim.keeper, "conn", None)
    if conn is not None:
        await conn.close()
    await victim.db.pool.close()
    procs.remove(victim)
    started = time.monotonic()
    await asyncio.sleep(seconds)
    stop.set()
    for task in tasks:
        task.cancel()
    after = [len(p.lobby.held or ()) for p in procs]
    took = time.monotonic() - started
    for p in procs:
        await p.stop()
    per_hour = counter.taken / (tables * took / 3600)
    return (f"{tables} tables, calls slowed {slow * 1000:.0f} ms, {busy} busy tasks a "
            f"process, {took:.0f} s after the busiest died: take-overs {counter.taken} "
            f"({per_hour:.0f} per table-hour), leases lost {counter.lost}; driven before "
            f"the death {before}, after {after}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("race", help="four Readies at once on several processes")
    r.add_argument("--tables", type=int, default=30)
    r.add_argument("--batch", type=int, default=10)
    r.add_argument("--processes", type=int, default=4)
    sl = sub.add_parser("leases", help="take-overs on a slow database after a death")
    sl.add_argument("--tables", type=int, default=60)
    sl.add_argument("--slow-ms", type=float, default=200)
    sl.add_argument("--busy", type=int, default=30)
    sl.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    pg = Cluster()
    try:
        url = pg.fresh_database("agreement")
        if args.what == "race":
            print(asyncio.run(race(url, args.tables, args.batch, args.processes)))
        else:
            print(asyncio.run(leases(url, args.tables, args.slow_ms / 1000, args.busy,
                                     args.seconds)))
    finally:
        pg.destroy()


if __name__ == "__main__":
    main()
