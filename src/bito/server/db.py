"""The database as the event loop sees it: every call awaited, none blocking the loop.

* SQLite (the one-process default): the synchronous :class:`~bito.server.storage.Storage`
  runs in one dedicated thread, so there is one writer connection and the loop never waits
  for a commit (:class:`ThreadedDatabase`).
* PostgreSQL: psycopg's :class:`~psycopg_pool.AsyncConnectionPool`; one table's commit holds
  one pooled connection, never the others' (:class:`PostgresDatabase`). It is also the
  shared state of several processes: leases say which process drives a table's clock and
  bots, and ``NOTIFY`` tells every process that a table changed (see ``bito.server.lease``).

Every write is idempotent (a table or seat inserted twice is ignored; move ``n`` of a table
is a primary key and the same move stored again changes nothing), so a write whose answer
was lost with the connection is retried without storing anything twice. A write retried
past ``retry_for`` seconds raises :class:`DatabaseUnavailable`: the person is told to try
again, and a bot's or a clock's move is re-armed by the room (``Lobby``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bito.errors import BitoError
from bito.server.storage import (
    CLAIM_SEAT,
    INSERT_ACTION,
    INSERT_SEAT,
    INSERT_TABLE,
    LAST_ACTION_AT,
    SELECT_ACTIONS,
    SELECT_SEATS,
    SELECT_TABLE,
    START_GAME,
    STORED_ACTION,
    UPDATE_SEAT,
    Exchanged,
    SeatRow,
    Snapshot,
    Storage,
    TableRow,
    check_stored,
    seat_of,
    seat_params,
    seat_update_params,
    table_of,
    table_params,
)

log = logging.getLogger("bito.server")

T = TypeVar("T")

#: The channel every process listens on; a payload is JSON {"t": table id, "o": origin}.
CHANNEL = "bito"
LEASE_FOR = 3.0  # seconds a table's lease lasts unless renewed (see bito.server.lease)
NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"  # the database's clock: one for all
#: Take a table's lease: a new one, one of ours, or one that ran out.
TAKE_LEASE = (f"INSERT INTO bito_leases (table_id, owner, expires) VALUES (?, ?, {NOW} + ?) "
              "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
              "expires = EXCLUDED.expires "
              f"WHERE bito_leases.owner = EXCLUDED.owner OR bito_leases.expires < {NOW}")


class DatabaseUnavailable(BitoError):
    """The database did not answer in time (restarting, unreachable). Nothing was lost: the
    move was not applied, and may be made again."""


class ThreadedDatabase:
    """A :class:`Storage` (SQLite, or PostgreSQL for tools) behind one worker thread."""

    shared = False  # one process owns every table: no leases, no cross-process events

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.url = storage.url
        self._thread = concurrent.futures.ThreadPoolExecutor(1, "bito-db")
        self.latency = 0.0  # seconds the last call took
        self.observe: Callable[[float], None] | None = None  # each call's seconds (metrics)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        start = time.perf_counter()
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, fn, *args)
        finally:
            self.latency = time.perf_counter() - start
            if self.observe is not None:
                self.observe(self.latency)

    async def open(self) -> None:
        return None

    async def schema(self) -> int:
        """The schema version the database is at (for /readyz)."""
        return await self._call(self.storage.schema)

    async def close(self) -> None:
        await self._call(self.storage.close)
        self._thread.shutdown(wait=False)

    async def ping(self) -> None:
        await self._call(self.storage.ping)

    async def create_table(self, row: TableRow, owner: str | None = None) -> bool:
        """Store a new table; True: this process drives it (always, with one process)."""
        await self._call(self.storage.create_table, row)
        return True

    async def save_seat(self, table_id: str, seat: SeatRow) -> None:
        await self._call(self.storage.save_seat, table_id, seat)

    async def claim_seat(self, table_id: str, seat: SeatRow) -> bool:
        return await self._call(self.storage.claim_seat, table_id, seat)

    async def start_game(self, table_id: str, seed: int) -> bool:
        return await self._call(self.storage.start_game, table_id, seed)

    async def load_table(self, table_id: str) -> TableRow | None:
        return await self._call(self.storage.load_table, table_id)

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        return await self._call(self.storage.table_ids, statuses)

    async def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                            outcome: dict[str, Any] | None = None) -> None:
        await self._call(self.storage.append_action, table_id, n, seat, action, how, outcome)

    async def last_action_at(self, table_id: str) -> float | None:
        return await self._call(self.storage.last_action_at, table_id)

    async def snapshot(self, table_id: str, after: int) -> Snapshot:
        return await self._call(self.storage.snapshot, table_id, after)

    async def load_actions(self, table_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        return await self._call(self.storage.load_actions, table_id, after)

    async def exchange(self, statements: list[tuple[str, tuple[Any, ...]]],
                       lock: str | None = None) -> Exchanged:
        """See :meth:`PostgresDatabase.exchange`; SQLite's ``BEGIN IMMEDIATE`` already
        makes every transaction wait for the one before, so ``lock`` needs nothing more."""
        del lock
        return await self._call(self.storage.exchange, statements)


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


class PostgresDatabase:
    """PostgreSQL through an async connection pool, with retries and change notices."""

    shared = True

    def __init__(self, url: str, *, origin: str = "", retry_for: float = 10.0,
                 max_size: int = 10) -> None:
        try:
            import psycopg
            from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout
        except ImportError:
            raise RuntimeError("PostgreSQL needs psycopg and psycopg-pool: "
                               "pip install 'bito[web]'") from None
        self.url = url
        self.origin = origin  # this process's name in notices (its own are skipped)
        self.retry_for = retry_for
        self._errors: tuple[type[BaseException], ...] = (
            psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout)
        # reconnect_timeout: the pool's own reconnection backs off to minutes over a long
        # outage; short chains of attempts, restarted by every waiting request (the
        # retries below, the lease keeper each second), find the database again at once.
        # No check of a connection each time it is taken (one more round trip for every
        # call, which on a loaded machine is one more wait for the event loop): after a
        # failure, run() checks every idle connection at once instead, so the connections a
        # restart killed are dropped together rather than found one retry at a time.
        self.pool = AsyncConnectionPool(url, min_size=1, max_size=max_size, open=False,
                                        timeout=2.0, reconnect_timeout=2.0)
        self._closed: type[BaseException] = PoolClosed
        self.latency = 0.0
        self.observe: Callable[[float], None] | None = None

    async def open(self) -> None:
        from bito.server.migrations import migrate_postgres

        await asyncio.to_thread(migrate_postgres, self.url)
        await self.pool.open(wait=True, timeout=30.0)

    async def close(self) -> None:
        await self.pool.close()

    async def run(self, work: Callable[[Any], Awaitable[T]],
                  retry_for: float | None = None) -> T:
        """``work(connection)`` in one transaction, retried with backoff (0.05 s doubling
        to 1 s) while the database is unreachable, for at most ``retry_for`` seconds."""
        end = time.monotonic() + (self.retry_for if retry_for is None else retry_for)
        delay = 0.05
        while True:
            start = time.perf_counter()
            try:
                async with self.pool.connection() as conn:
                    result = await work(conn)
                self.latency = time.perf_counter() - start
                if self.observe is not None:
                    self.observe(self.latency)
                return result
            except self._errors as e:
                if isinstance(e, self._closed):  # shutting down: nothing to wait for
                    raise DatabaseUnavailable("the server is shutting down") from None
                if time.monotonic() + delay > end:
                    raise DatabaseUnavailable(f"the database is not answering ({e}); "
                                              "nothing was lost, try again") from None
                log.warning("database: %s; retrying in %.2f s", str(e).strip() or
                            type(e).__name__, delay)
                with contextlib.suppress(Exception):  # drop the idle connections now dead
                    await self.pool.check()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def ping(self) -> None:
        async def work(conn: Any) -> None:
            await conn.execute("SELECT 1")

        await self.run(work, retry_for=0.0)

    async def schema(self) -> int:
        """The schema version the database is at (for /readyz)."""
        from bito.server.migrations import SCHEMA_VERSION, schema_version

        async def work(conn: Any) -> int:
            cur = await conn.execute(SCHEMA_VERSION)
            return schema_version(list(await cur.fetchall()))

        return await self.run(work, retry_for=0.0)

    async def _notify(self, conn: Any, table_id: str,
                      move: dict[str, Any] | None = None) -> None:
        """Tell every process (on commit, with the transaction) that the table changed. A
        move rides along (``m``), so a process that has the move before it plays it on
        without reading the database."""
        payload: dict[str, Any] = {"t": table_id, "o": self.origin}
        if move is not None:
            payload["m"] = move
        await conn.execute("SELECT pg_notify(%s, %s)",
                           (CHANNEL, json.dumps(payload, ensure_ascii=False)))

    async def publish(self, table_id: str, kind: str, data: dict[str, Any]) -> None:
        """An event that is not stored, for every other process (``NOTIFY`` payloads are
        limited to 8,000 bytes: a chat line, not a record)."""
        payload = json.dumps({"t": table_id, "o": self.origin, "k": kind, "d": data},
                             ensure_ascii=False)
        if len(payload.encode()) > 7900:
            raise BitoError(f"{kind}: too long to send to the other processes")

        async def work(conn: Any) -> None:
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

        await self.run(work)

    async def exchange(self, statements: list[tuple[str, tuple[Any, ...]]],
                       lock: str | None = None) -> Exchanged:
        """The statements in one transaction; each one's row count and rows. With ``lock``,
        the transaction first takes an advisory lock named by it, so a check and the write
        it guards (a count under a limit, then the insert) are atomic across processes.
        Retried like every call while the database is away; a transaction whose commit
        answer was lost may then run twice, which :mod:`bito.server.shared` allows for."""
        async def work(conn: Any) -> Exchanged:
            if lock is not None:
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (lock,))
            out: Exchanged = []
            for sql, params in statements:
                cur = await conn.execute(_pg(sql), params)
                rows = list(await cur.fetchall()) if cur.description is not None else []
                out.append((cur.rowcount, rows))
            return out

        return await self.run(work)

    async def _write(self, table_id: str, statements: list[tuple[str, tuple[Any, ...]]],
                     ) -> list[int]:
        async def work(conn: Any) -> list[int]:
            counts = []
            for sql, params in statements:
                cur = await conn.execute(_pg(sql), params)
                counts.append(cur.rowcount)
            await self._notify(conn, table_id)
            return counts

        return await self.run(work)

    async def _read(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        async def work(conn: Any) -> list[tuple[Any, ...]]:
            cur = await conn.execute(_pg(sql), params)
            return list(await cur.fetchall())

        return await self.run(work)

    async def create_table(self, row: TableRow, owner: str | None = None) -> bool:
        """The table, its seats and (with ``owner``) its lease, in one transaction. Returns
        whether ``owner`` holds the lease: False when another process opened the same table
        first (a rematch's next deal, dealt wherever every answer was heard) and drives it.
        Storing the same table twice stores it once."""
        statements = [(INSERT_TABLE, table_params(row))]
        statements += [(INSERT_SEAT, seat_params(row.id, s)) for s in row.seats]
        if owner is not None:
            statements.append((TAKE_LEASE, (row.id, owner, LEASE_FOR)))
        counts = await self._write(row.id, statements)
        return owner is None or counts[-1] > 0

    async def save_seat(self, table_id: str, seat: SeatRow) -> None:
        await self._write(table_id, [(UPDATE_SEAT, seat_update_params(table_id, seat))])

    async def claim_seat(self, table_id: str, seat: SeatRow) -> bool:
        counts = await self._write(table_id, [(CLAIM_SEAT, seat_update_params(table_id, seat))])
        return counts[0] > 0

    async def start_game(self, table_id: str, seed: int) -> bool:
        return (await self._write(table_id, [(START_GAME, (seed, table_id))]))[0] > 0

    async def load_table(self, table_id: str) -> TableRow | None:
        async def work(conn: Any) -> TableRow | None:
            cur = await conn.execute(_pg(SELECT_TABLE), (table_id,))
            row = await cur.fetchone()
            if row is None:
                return None
            table = table_of(row)
            cur = await conn.execute(_pg(SELECT_SEATS), (table_id,))
            table.seats = [seat_of(r) for r in await cur.fetchall()]
            return table

        return await self.run(work)

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        rows = await self._read("SELECT id FROM bito_tables WHERE status = ANY(?) "
                                "ORDER BY created", (list(statuses),))
        return [r[0] for r in rows]

    async def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                            outcome: dict[str, Any] | None = None) -> None:
        """Move ``n`` (and the game's end with the last move) in one transaction; see
        :meth:`Storage.append_action`."""
        at = time.time()
        move = {"n": n, "s": seat, "a": action, "h": how, "at": at}
        payload: dict[str, Any] = {"t": table_id, "o": self.origin}
        if len(action) < 1000:
            payload["m"] = move

        async def work(conn: Any) -> None:
            # The move, the game's end with the last one, and the notice, as one statement
            # in autocommit: one round trip a move instead of five (the pool's check,
            # BEGIN, the insert, the notice, COMMIT), each of which is a wait for the event
            # loop. A statement is atomic by itself; the end and the notice happen only if
            # the move's row was inserted.
            await conn.set_autocommit(True)
            try:
                cur = await conn.execute(
                    f"WITH stored AS ({_pg(INSERT_ACTION)} RETURNING n), "
                    "ended AS (UPDATE bito_tables SET status = 'over', outcome = %s "
                    "WHERE id = %s AND %s AND EXISTS (SELECT 1 FROM stored) RETURNING id) "
                    "SELECT pg_notify(%s, %s) FROM stored",
                    (table_id, n, seat, action, how, at,
                     json.dumps(outcome) if outcome is not None else None, table_id,
                     outcome is not None, CHANNEL, json.dumps(payload, ensure_ascii=False)))
                if not await cur.fetchall():  # stored before: by this very write (an answer
                    cur = await conn.execute(_pg(STORED_ACTION), (table_id, n))  # lost)?
                    check_stored(n, seat, action, list(await cur.fetchall()))
            finally:
                if not conn.closed:
                    await conn.set_autocommit(False)

        await self.run(work)

    async def snapshot(self, table_id: str, after: int) -> Snapshot:
        """See :meth:`Storage.snapshot`; one pooled connection, one transaction."""
        async def work(conn: Any) -> Snapshot:
            cur = await conn.execute(_pg(SELECT_TABLE), (table_id,))
            row = await cur.fetchone()
            if row is None:
                return None, [], None
            table = table_of(row)
            cur = await conn.execute(_pg(SELECT_SEATS), (table_id,))
            table.seats = [seat_of(r) for r in await cur.fetchall()]
            cur = await conn.execute(_pg(SELECT_ACTIONS), (table_id, after))
            actions = [(int(r[0]), r[1], r[2]) for r in await cur.fetchall()]
            cur = await conn.execute(_pg(LAST_ACTION_AT), (table_id,))
            last = await cur.fetchone()
            return table, actions, (float(last[0]) if last and last[0] is not None else None)

        return await self.run(work)

    async def last_action_at(self, table_id: str) -> float | None:
        rows = await self._read(LAST_ACTION_AT, (table_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    async def load_actions(self, table_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        return [(int(r[0]), r[1], r[2])
                for r in await self._read(SELECT_ACTIONS, (table_id, after))]


Database = ThreadedDatabase | PostgresDatabase


def open_database(url: str, origin: str = "") -> Database:
    """The database at ``url``: a ``postgresql://`` URL or a SQLite path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresDatabase(url, origin=origin)
    return ThreadedDatabase(Storage(url))
