"""The database as the event loop sees it: every call awaited, none blocking the loop.

* SQLite (the one-process default): the synchronous :class:`~bito.server.storage.Storage`
  runs in one dedicated thread, so there is one writer connection and the loop never waits
  for a commit (:class:`ThreadedDatabase`).
* PostgreSQL: psycopg's :class:`~psycopg_pool.AsyncConnectionPool`; one table's commit holds
  one pooled connection, never the others' (:class:`PostgresDatabase`). It is also the
  shared state of several processes: leases say which process drives a table's clock and
  bots, and ``NOTIFY`` tells every process that a table changed (see ``bito.server.lease``).
  The notices leave after the writes' commits, gathered by one :class:`Notifier` per
  process, never inside a move's own transaction (see there why).

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
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bito.errors import BitoError
from bito.server.storage import (
    CLAIM_SEAT,
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
NOTICE_BYTES = 7900  # a NOTIFY payload's limit is 8,000 bytes; a batch is split below that
NOTICE_GATHER = 0.003  # seconds the notifier waits for more changes to share one notice
#: Pooled connections a process may open. 10 queued a fifth of the calls at 200 tables
#: (459 of 2,204 in 5 s waited 72 ms on average); 20 per process, plus its listener and its
#: notifier, lets three processes stay under PostgreSQL's default 100 connections.
POOL_SIZE = 20
LEASE_FOR = 3.0  # seconds a table's lease lasts unless renewed (see bito.server.lease)
NOW = "EXTRACT(EPOCH FROM clock_timestamp())::float8"  # the database's clock: one for all
#: Take a table's lease: a new one, one of ours, or one that ran out.
TAKE_LEASE = (f"INSERT INTO bito_leases (table_id, owner, expires) VALUES (?, ?, {NOW} + ?) "
              "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
              "expires = EXCLUDED.expires "
              f"WHERE bito_leases.owner = EXCLUDED.owner OR bito_leases.expires < {NOW}")


#: A test's hook (the cluster's fault test): the path of a file holding a number of
#: milliseconds that every PostgreSQL call of this process waits, holding its connection, as
#: on a slow or overloaded database. Read at most every half second; absent or empty: none.
SLOW_FILE = "BITO_TEST_DB_DELAY_FILE"


class Slowdown:
    """The delay :data:`SLOW_FILE` asks for (0 when it is not set: the normal case)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.delay = 0.0
        self.read_at = -1.0

    def seconds(self) -> float:
        if not self.path:
            return 0.0
        now = time.monotonic()
        if now - self.read_at >= 0.5:
            self.read_at = now
            try:
                with open(self.path) as f:
                    self.delay = max(0.0, float(f.read().strip() or 0)) / 1000
            except (OSError, ValueError):
                self.delay = 0.0
        return self.delay


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

    async def load_seats(self, table_id: str) -> list[SeatRow]:
        return await self._call(self.storage.load_seats, table_id)

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        return await self._call(self.storage.table_ids, statuses)

    async def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                            outcome: dict[str, Any] | None = None,
                            seed: int | None = None) -> None:
        """One process owns every table: its game is the stored one (``seed`` unused)."""
        del seed
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


class Notifier:
    """One process's change notices, sent after the writes they announce have committed.

    Why not ``pg_notify`` inside the write: PostgreSQL serialises every transaction that
    notifies, from its commit record to its end, WAL flush included (about 5 ms a commit on
    the shared machine), so at a few hundred moves a second every move queued behind the
    others' flushes (p99 0.6-0.8 s at 200 tables). Here a move's statement stays durable
    (synchronous commit) and announces nothing; once its commit has answered, the change is
    handed to this notifier, which gathers the changes of the last few milliseconds
    (:data:`NOTICE_GATHER`) and sends them on its own connection as one statement of
    ``pg_notify`` calls, each payload under :data:`NOTICE_BYTES`. That connection runs with
    ``synchronous_commit = off`` (set once for the session: the connection does nothing
    else, so it is the same as ``SET LOCAL`` in each of its transactions, one round trip
    fewer), so a notice holds PostgreSQL's notify lock for microseconds, not a flush.

    The order other processes rely on holds: a change is queued only after its commit
    answered, so whoever receives the notice finds the change in the database; one table's
    changes are queued in the order they committed (each under the room's lock) and a batch
    keeps that order.

    Losing a notice is harmless, which is what makes the asynchronous commit safe:
    * the database crashes after the notice's commit answered but before its WAL was
      flushed: the notices were already handed to the listeners at commit (delivery does
      not wait for the flush), and if they were not read, the listeners' connections die
      with the database and :class:`~bito.server.lease.Keeper` reads every table in memory
      again when it listens again (``Sync.changed_all``); the changes themselves were
      committed synchronously and are there;
    * the notice's statement fails (the connection or the database lost): the batch is kept
      and sent again once a connection is back, so nothing is dropped; a notice received
      twice only makes a process read the table once more;
    * and for moves, the lease keeper counts each table's stored moves every second and
      reads again a table still behind at two counts in a row (``Sync.look_after``).
    """

    def __init__(self, url: str, origin: str, gather: float = NOTICE_GATHER) -> None:
        self.url = url
        self.origin = origin
        self.gather = gather
        self.pending: list[dict[str, Any]] = []
        self.sending = 0  # changes taken from ``pending`` and not yet sent
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.sent = 0  # pg_notify payloads sent (each notice a listener receives)
        self.announced = 0  # changes announced in them

    def start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Send what is still queued (for a second at most), then stop."""
        task, self.task = self.task, None
        if task is None:
            return
        end = time.monotonic() + 1.0
        while (self.pending or self.sending) and time.monotonic() < end and not task.done():
            await asyncio.sleep(0.01)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

    def announce(self, entry: dict[str, Any]) -> None:
        """Queue one committed change: ``{"t": table id, ...}`` (see
        :meth:`bito.server.lease.Keeper.notice` for the fields)."""
        self.pending.append(entry)
        self.wake.set()

    def payloads(self, entries: list[dict[str, Any]]) -> list[str]:
        """The entries as JSON payloads ``{"o": origin, "b": [entries]}``, each under
        :data:`NOTICE_BYTES`, the entries' order kept. An entry too long alone (it never is:
        a move's text is left out past 1,000 characters and an event is refused past the
        limit by :meth:`PostgresDatabase.publish`) is sent as the bare table id, which makes
        the listeners read the table."""
        head = json.dumps({"o": self.origin, "b": []}, ensure_ascii=False)
        room = NOTICE_BYTES - len(head.encode())
        out: list[str] = []
        batch: list[str] = []
        size = 0
        for entry in entries:
            text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
            if len(text.encode()) > room:
                text = json.dumps({"t": entry["t"]}, ensure_ascii=False)
            cost = len(text.encode()) + 1
            if batch and size + cost > room:
                out.append(self._wrap(batch))
                batch, size = [], 0
            batch.append(text)
            size += cost
        if batch:
            out.append(self._wrap(batch))
        return out

    def _wrap(self, texts: list[str]) -> str:
        return ('{"o":' + json.dumps(self.origin, ensure_ascii=False) + ',"b":['
                + ",".join(texts) + "]}")

    async def _run(self) -> None:
        import psycopg

        conn: Any = None
        delay = 0.05
        while True:
            await self.wake.wait()
            await asyncio.sleep(self.gather)  # let the changes of the next moments join in
            self.wake.clear()
            batch, self.pending = self.pending, []
            if not batch:
                continue
            self.sending = len(batch)
            try:
                if conn is None or conn.closed:
                    conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                    await conn.execute("SET synchronous_commit = off")
                texts = self.payloads(batch)
                calls = ", ".join(["pg_notify(%s, %s)"] * len(texts))
                params: list[str] = []
                for text in texts:
                    params += [CHANNEL, text]
                await conn.execute(f"SELECT {calls}", params)
                self.sent += len(texts)
                self.announced += len(batch)
                self.sending = 0
                delay = 0.05
            except asyncio.CancelledError:
                self.pending[:0] = batch
                self.sending = 0
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
                raise
            except Exception as e:  # kept, in order, for the next try
                self.pending[:0] = batch
                self.sending = 0
                self.wake.set()
                log.warning("change notices: %s; sending again in %.2f s",
                            str(e).strip() or type(e).__name__, delay)
                if conn is not None:
                    with contextlib.suppress(Exception):
                        await conn.close()
                conn = None
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


#: A move and, with the last one, the game's end: one statement (see ``append_action``).
#: The move is stored only if the table was dealt with the seed the mover's game was dealt
#: from: a process showing another deal than the stored one never stores a move of it.
STORE_MOVE = ("WITH stored AS (INSERT INTO bito_actions (table_id, n, seat, action, how, at) "
              "SELECT %s, %s, %s, %s, %s, %s WHERE EXISTS (SELECT 1 FROM bito_tables "
              "WHERE id = %s AND (%s::bigint IS NULL OR seed = %s::bigint)) "
              "ON CONFLICT (table_id, n) DO NOTHING RETURNING n), "
              "ended AS (UPDATE bito_tables SET status = 'over', outcome = %s "
              "WHERE id = %s AND %s AND EXISTS (SELECT 1 FROM stored) RETURNING id) "
              "SELECT n FROM stored")


class PostgresDatabase:
    """PostgreSQL through an async connection pool, with retries and change notices."""

    shared = True

    def __init__(self, url: str, *, origin: str = "", retry_for: float = 10.0,
                 max_size: int = POOL_SIZE) -> None:
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
        self.notices = Notifier(url, origin)
        self.latency = 0.0
        self.observe: Callable[[float], None] | None = None
        self.slowdown = Slowdown(os.environ.get(SLOW_FILE))

    async def open(self) -> None:
        from bito.server.migrations import migrate_postgres

        await asyncio.to_thread(migrate_postgres, self.url)
        await self.pool.open(wait=True, timeout=30.0)
        self.notices.start()

    async def close(self) -> None:
        await self.notices.stop()
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
                    slow = self.slowdown.seconds()
                    if slow:
                        await asyncio.sleep(slow)
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

    async def publish(self, table_id: str, kind: str, data: dict[str, Any]) -> None:
        """An event that is not stored, for every other process, with the next batch of
        notices (``NOTIFY`` payloads are limited to 8,000 bytes: a chat line, not a
        record)."""
        entry = {"t": table_id, "k": kind, "d": data}
        size = len(json.dumps({"o": self.origin, "b": [entry]}, ensure_ascii=False).encode())
        if size > NOTICE_BYTES:
            raise BitoError(f"{kind}: too long to send to the other processes")
        self.notices.announce(entry)

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
                     **what: Any) -> list[int]:
        """The statements in one transaction; once committed, and only if one of them
        changed a row, the other processes are told (``what``: which part changed, see
        :meth:`bito.server.lease.Keeper.notice`). A write that changed nothing (a seat
        someone else took first) announces nothing: a notice only ever tells what the
        database holds."""
        async def work(conn: Any) -> list[int]:
            counts = []
            for sql, params in statements:
                cur = await conn.execute(_pg(sql), params)
                counts.append(cur.rowcount)
            return counts

        counts = await self.run(work)
        if any(c > 0 for c in counts):  # nothing changed, nothing to tell (a lost race)
            self.notices.announce({"t": table_id, **what})
        return counts

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
        await self._write(table_id, [(UPDATE_SEAT, seat_update_params(table_id, seat))],
                          s=seat.seat)

    async def claim_seat(self, table_id: str, seat: SeatRow) -> bool:
        counts = await self._write(table_id, [(CLAIM_SEAT, seat_update_params(table_id, seat))],
                                   s=seat.seat)
        return counts[0] > 0

    async def start_game(self, table_id: str, seed: int) -> bool:
        """Deal the table with ``seed`` if it is still waiting. True when the table is
        dealt with ``seed`` now: by this call, or by an earlier try of it whose answer was
        lost with the connection (the retry then finds its own seed stored). False when
        another process dealt first: then nothing is announced, and the winner's notice
        carries the seed that counts. Only the seed stored is ever announced; a process
        that heard a losing seed would show a game the database does not hold."""
        async def work(conn: Any) -> int | None:
            cur = await conn.execute(_pg(START_GAME) + " RETURNING seed", (seed, table_id))
            row = await cur.fetchone()
            if row is not None:
                return int(row[0])
            cur = await conn.execute("SELECT seed FROM bito_tables WHERE id = %s "
                                     "AND status <> 'waiting'", (table_id,))
            row = await cur.fetchone()
            return int(row[0]) if row is not None else None

        stored = await self.run(work)
        if stored != seed:
            return False
        self.notices.announce({"t": table_id, "g": seed})
        return True

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

    async def load_seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats alone (see :meth:`Storage.load_seats`)."""
        return [seat_of(r) for r in await self._read(SELECT_SEATS, (table_id,))]

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        rows = await self._read("SELECT id FROM bito_tables WHERE status = ANY(?) "
                                "ORDER BY created", (list(statuses),))
        return [r[0] for r in rows]

    async def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                            outcome: dict[str, Any] | None = None,
                            seed: int | None = None) -> None:
        """Move ``n`` (and the game's end with the last move) in one transaction; see
        :meth:`Storage.append_action`. With ``seed`` (the deal the mover's game comes
        from), the move is stored only if the table was dealt with it: otherwise
        :class:`MoveConflict`, and the mover reads the table again. The other processes
        are told once it has committed (:class:`Notifier`), with the move itself, so they
        play it on without a read."""
        at = time.time()

        async def work(conn: Any) -> None:
            # The move and the game's end with the last one as one statement in autocommit:
            # one round trip a move instead of four (the pool's check, BEGIN, the insert,
            # COMMIT), each of which is a wait for the event loop. A statement is atomic by
            # itself; the end happens only if the move's row was inserted. No notice here:
            # see Notifier.
            await conn.set_autocommit(True)
            try:
                cur = await conn.execute(STORE_MOVE, (
                    table_id, n, seat, action, how, at, table_id, seed, seed,
                    json.dumps(outcome) if outcome is not None else None, table_id,
                    outcome is not None))
                if not await cur.fetchall():  # stored before: by this very write (an answer
                    cur = await conn.execute(_pg(STORED_ACTION), (table_id, n))  # lost)?
                    check_stored(n, seat, action, list(await cur.fetchall()))
            finally:
                if not conn.closed:
                    await conn.set_autocommit(False)

        await self.run(work)
        if len(action) < 1000:
            self.notices.announce({"t": table_id,
                                   "m": {"n": n, "s": seat, "a": action, "h": how, "at": at}})
        else:
            self.notices.announce({"t": table_id})

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
