"""Several ``bito serve`` processes on one PostgreSQL database: who drives which table, and
how every process hears of every change.

* **Leases.** A row of ``bito_leases`` says which process drives a table's clock and bots,
  until when (the database's clock). Every :data:`RENEW_EVERY` seconds each process renews
  its leases for :data:`LEASE_FOR` seconds, on a connection of its own (never queued behind
  the moves), and takes its share of the unfinished tables whose lease has run out (their
  process died) or that have none: a dead process's tables are driven again within
  ``LEASE_FOR + RENEW_EVERY`` seconds, shared among the living. A process past its share
  hands the excess over, so a process started later gets its share too (see
  :meth:`Keeper.tick`). A process that finds a lease gone to another stops that table's
  clock and bots; two drivers for a moment cannot store a move twice (the move number is a
  primary key).
* **Change notices.** Once a write has committed, its process announces it on ``NOTIFY
  bito``: one notifier per process gathers the changes of a few milliseconds into one
  notice (:class:`~bito.server.db.Notifier`, which says why the notice is not part of the
  write). Each process ``LISTEN``s on one connection of its own; a notice names what
  changed, so a move, a join or a Ready on process A reaches the sockets on process B with
  the least reading: a move is played on from the notice itself, a seat's change reads the
  seats only, a deal is dealt from the notice's seed (:meth:`Keeper.notice`). A notice is
  sent only for a write that changed a row and carries what was stored: the process that
  lost a race to deal announces nothing (its seed was never stored). After that
  connection is lost, every table in memory is read again (notices sent meanwhile are
  gone).
* **Presence.** Every :data:`~bito.server.presence.PRESENCE_RENEW` seconds the keeper has the
  lobby say again which seats are connected here (:meth:`Presence.renew`), so a
  seat's *offline* mark counts every process's connections; what another process said
  runs out by itself (:meth:`Presence.heard`), so a killed process's seats go offline.
* **Looking after.** Every renewal also reads each table in memory as stored (seed,
  status, number of moves): a copy dealt from another seed or holding moves the database
  lacks is rebuilt from the database at once, a process still behind at two renewals in a
  row (a notice lost) reads the table again, and a held table still to play with no bot or
  clock armed is armed again. A lease this process holds therefore always means a driver
  here, whatever an outage interrupted, and no copy outlives a disagreement with the
  database by more than a renewal.

PostgreSQL's own ``LISTEN/NOTIFY`` rather than Redis: the database is already shared, a
notice leaves only after the change committed (never a notice for a rolled-back move), and
a batch of changes fits the 8,000-byte limit of a payload (split when it does not).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from bito.server.db import CHANNEL, LEASE_FOR, NOW, DatabaseUnavailable, PostgresDatabase
from bito.server.presence import PRESENCE_RENEW

if TYPE_CHECKING:
    from bito.server.rooms import Lobby

log = logging.getLogger("bito.server")

T = TypeVar("T")

RENEW_EVERY = 1.0  # seconds between renewals

RENEW = f"UPDATE bito_leases SET expires = {NOW} + %s WHERE owner = %s RETURNING table_id"
#: The unfinished tables nobody drives: no lease (handed over to balance the processes, or
#: never leased), or one that ran out (its process died or stalled).
ORPHANS = ("FROM bito_tables WHERE status IN ('waiting', 'playing') "
           f"AND id NOT IN (SELECT table_id FROM bito_leases WHERE expires >= {NOW})")
#: Of those, the ones nobody has taken for a while (their process stopped renewing, or
#: handed them over and the process meant to take them is stalled): they must be driven
#: again soon, whatever the shares say.
STRANDED_AFTER = 2.0  # seconds after a lease ran out
STRANDED = (" AND id IN (SELECT table_id FROM bito_leases "
            f"WHERE expires < {NOW} - {STRANDED_AFTER})")
COUNT_STRANDED = "SELECT COUNT(*) " + ORPHANS + STRANDED


def adopt_sql(stranded_only: bool) -> str:
    """Take up to a number of orphaned tables, at random (two processes adopting at once
    rarely reach for the same rows); for a share, leaving out the ones this process has
    just handed over."""
    return (f"INSERT INTO bito_leases (table_id, owner, expires) "
            f"SELECT id, %s, {NOW} + %s " + ORPHANS
            + (STRANDED if stranded_only else " AND id <> ALL(%s)")
            + " ORDER BY random() LIMIT %s "
            "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
            f"expires = EXCLUDED.expires WHERE bito_leases.expires < {NOW} "
            "RETURNING table_id")


ADOPT, ADOPT_STRANDED = adopt_sql(False), adopt_sql(True)
UNFINISHED = "SELECT COUNT(*) FROM bito_tables WHERE status IN ('waiting', 'playing')"
#: The processes alive on this database: each names its lease connection ``bito-keeper
#: <id>`` (PostgreSQL drops a killed process's connections at once; a paused one's stay).
KEEPER_NAME = "bito-keeper "
LIVE = ("SELECT COUNT(DISTINCT application_name) FROM pg_stat_activity "
        "WHERE datname = current_database() AND application_name LIKE %s")
#: A lease handed over runs out now: a process under its share takes it at its next renewal.
HAND_OVER = f"UPDATE bito_leases SET expires = {NOW} WHERE owner = %s AND table_id = ANY(%s)"
ADOPTING = 8  # tables read and armed at once after a take-over
SHED_PAUSE = 10.0  # seconds a table handed over is not taken back by the same process
#: Each table in memory as stored: its seed, status and number of moves. A process that
#: missed a notice, shows a game the database does not hold, or left a table with no bot or
#: clock armed is found at the next renewal (see :meth:`Keeper.tick`).
STORED_TABLES = ("SELECT t.id, t.seed, t.status, COALESCE((SELECT MAX(a.n) FROM bito_actions a "
                 "WHERE a.table_id = t.id), 0) FROM bito_tables t WHERE t.id = ANY(%s)")
FORGET_OVER = ("DELETE FROM bito_leases WHERE owner = %s AND table_id IN "
               "(SELECT id FROM bito_tables WHERE status = 'over')")


def process_name() -> str:
    """This process's name in leases and notices: host, pid and a random tail (a pid is
    reused after a restart; the tail tells the two lives apart)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Keeper:
    """The lease renewer and the notice listener of one process."""

    def __init__(self, lobby: Lobby, db: PostgresDatabase) -> None:
        self.lobby = lobby
        self.db = db
        self.origin = db.origin
        lobby.origin = self.origin
        lobby.held = set()
        self.tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()  # the listener is connected (for the tests)
        #: the leases' own connection: renewals never queue behind the moves for a pooled
        #: one (a busy pool made them late, and late renewals hand tables back and forth)
        self.conn: Any = None
        self.name = KEEPER_NAME + hashlib.sha1(self.origin.encode()).hexdigest()[:16]
        self.adopting: dict[str, asyncio.Task[None]] = {}
        self.adopt_slots = asyncio.Semaphore(ADOPTING)
        self.shed: dict[str, float] = {}  # tables handed over for balance: until when
        self.live = 1  # processes on the database at the last renewal
        self.fair = 0  # this process's fair share of the unfinished tables then

    async def start(self) -> None:
        await self.tick()
        self.tasks = [asyncio.create_task(self._renew_loop()),
                      asyncio.create_task(self._listen_loop())]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.listening.wait(), 10)

    async def stop(self) -> None:
        """Stop driving and hand the tables over at once (no wait for leases to run out)."""
        for task in [*self.tasks, *self.adopting.values()]:
            task.cancel()
        for task in [*self.tasks, *self.adopting.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
        held = self.lobby.held or set()
        for table_id in list(held):
            self.lobby.handover.release(table_id)
        held.clear()

        async def work(conn: Any) -> None:
            await conn.execute("DELETE FROM bito_leases WHERE owner = %s", (self.origin,))

        with contextlib.suppress(Exception):
            await self.db.run(work, retry_for=2.0)

    async def _leases(self, work: Callable[[Any], Awaitable[T]]) -> T:
        """``work(connection)`` in one transaction on the leases' own connection, opened
        again if it was lost; :class:`DatabaseUnavailable` if it cannot be done within a
        lease's life."""
        import psycopg

        try:
            async with asyncio.timeout(LEASE_FOR):
                if self.conn is None or self.conn.closed:
                    self.conn = await psycopg.AsyncConnection.connect(
                        self.db.url, application_name=self.name)
                slow = self.db.slowdown.seconds()  # the fault test's slow database
                if slow:
                    await asyncio.sleep(slow)
                async with self.conn.transaction():
                    return await work(self.conn)
        except (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError) as e:
            if self.conn is not None:
                with contextlib.suppress(Exception):
                    await self.conn.close()
            self.conn = None
            raise DatabaseUnavailable(f"the database is not answering the leases "
                                      f"({str(e).strip() or type(e).__name__})") from None

    async def tick(self) -> None:
        """Renew our leases, learn which we lost, take tables nobody drives, hand over the
        ones past our share, and look after the tables in memory.

        Whatever an outage did, a lease this process holds means a driver here: a lease
        whose taking was committed but whose answer was lost (the database going down
        mid-commit) comes back in the renewal and is adopted then; an adoption that failed
        is tried again at the next tick rather than left held and undriven; and a held
        table whose moves in the database are ahead of memory (a notice missed) or that
        has no bot or clock armed is read again or armed again (:meth:`Sync.look_after`).

        Balance: each process takes orphaned tables up to its fair share (the unfinished
        tables over the processes alive, :data:`LIVE`); one holding more than its share and
        a tenth hands the excess over (its leases run out at once, its drivers stop) for
        the others to take, and does not take those back as a share for
        :data:`SHED_PAUSE` seconds. A table nobody took for :data:`STRANDED_AFTER` seconds
        after its lease ran out (a paused process still counts as alive, so its share is
        nobody's) is taken by each process renewing, its part of them, share or not. A
        process started later so gets its share within a few renewals, and the tables of
        a killed one are shared out.
        The renewal itself is this connection's first statement, not queued behind the
        moves, and adopting (reading each table) runs beside the renewals, never between
        them: a slow database delays neither the next renewal nor the leases' life.
        """
        held = self.lobby.held
        assert held is not None
        in_memory = sorted(self.lobby.rooms)
        # the moves known here before the database is asked: a copy sound now is never
        # ahead of what the database answers next
        known = {t: len(self.lobby.rooms[t].actions) for t in in_memory}
        now = time.monotonic()
        self.shed = {t: until for t, until in self.shed.items() if until > now}
        shed = sorted(self.shed)

        async def work(conn: Any) -> tuple[set[str], set[str], set[str],
                                           dict[str, tuple[int, str, int]]]:
            cur = await conn.execute(RENEW, (LEASE_FOR, self.origin))
            renewed = {r[0] for r in await cur.fetchall()}
            cur = await conn.execute(LIVE, (KEEPER_NAME + "%",))
            live = max(1, int((await cur.fetchone())[0]))
            cur = await conn.execute(UNFINISHED)
            fair = math.ceil(int((await cur.fetchone())[0]) / live)
            adopted: set[str] = set()
            if fair > len(renewed):  # our share, of any orphans
                cur = await conn.execute(ADOPT, (self.origin, LEASE_FOR, shed,
                                                 fair - len(renewed)))
                adopted = {r[0] for r in await cur.fetchall()}
            cur = await conn.execute(COUNT_STRANDED)
            stranded = math.ceil(int((await cur.fetchone())[0]) / live)
            if stranded:  # our part of a stalled process's tables, share or not
                cur = await conn.execute(ADOPT_STRANDED, (self.origin, LEASE_FOR, stranded))
                adopted |= {r[0] for r in await cur.fetchall()}
            over = len(renewed | adopted) - fair
            given: set[str] = set()
            if live > 1 and over > max(1, fair // 10):
                # by id: an arbitrary choice, but the same one at every renewal
                given = set(sorted(renewed - adopted - self.adopting.keys())[:over])
                if given:
                    await conn.execute(HAND_OVER, (self.origin, sorted(given)))
            await conn.execute(FORGET_OVER, (self.origin,))
            cur = await conn.execute(STORED_TABLES, (in_memory,))
            stored = {str(r[0]): (int(r[1]), str(r[2]), int(r[3]))
                      for r in await cur.fetchall()}
            self.live, self.fair = live, fair
            return renewed, adopted, given, stored

        renewed, adopted, given, stored = await self._leases(work)
        mine = renewed | adopted
        for table_id in sorted(given):
            self.shed[table_id] = time.monotonic() + SHED_PAUSE
            held.discard(table_id)
            self.lobby.handover.release(table_id)
        if given:
            log.info("handed %d table(s) over to balance the processes (%d alive, a "
                     "share of %d)", len(given), self.live, self.fair)
        for table_id in held - mine - given:
            log.warning("table %s: driven by another process now", table_id)
            held.discard(table_id)
            self.lobby.handover.release(table_id)
        fresh = mine - held - given
        for table_id in sorted(fresh):
            held.add(table_id)  # before adopt: the room is driven only if this process owns it
            log.warning("table %s: taken over by this process", table_id)
            if table_id not in self.adopting:
                self.adopting[table_id] = asyncio.create_task(self._adopt(table_id))
        for table_id in in_memory:
            if table_id not in fresh and table_id not in self.adopting and table_id in stored:
                seed, status, moves = stored[table_id]
                self.lobby.sync.look_after(table_id, moves, seed, status, known[table_id])

    async def _adopt(self, table_id: str) -> None:
        """Read a table just taken over and drive it (beside the renewals, a few at once)."""
        try:
            async with self.adopt_slots:
                if table_id in (self.lobby.held or ()):
                    await self.lobby.handover.adopt(table_id)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the lease stays ours: the next tick adopts it again
            (self.lobby.held or set()).discard(table_id)
            log.warning("table %s: could not take it over (%s); trying again in %.0f s",
                        table_id, str(e).strip() or type(e).__name__, RENEW_EVERY)
        finally:
            self.adopting.pop(table_id, None)

    async def _renew_loop(self) -> None:
        presence = time.monotonic()
        while True:
            await asyncio.sleep(RENEW_EVERY)
            if time.monotonic() - presence >= PRESENCE_RENEW:
                presence = time.monotonic()
                try:  # which seats are connected here, for the other processes' frames
                    await self.lobby.presence.renew(self.lobby.rooms.values())
                except Exception:
                    log.exception("presence: renewal failed")
            try:
                await self.tick()
            except DatabaseUnavailable as e:
                log.warning("leases: %s", e)
            except Exception:
                log.exception("leases: renewal failed")

    async def _listen_loop(self) -> None:
        import psycopg

        delay = 0.1
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.db.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    delay = 0.1
                    if not first:  # notices sent while we were away are lost: read again
                        self.lobby.sync.changed_all()
                    first = False
                    async for note in conn.notifies():
                        self.notice(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.listening.clear()
                log.warning("change notices: %s; listening again in %.1f s",
                            str(e).strip() or type(e).__name__, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)

    def notice(self, payload: str) -> None:
        """One notice of another process: ``{"o": origin, "b": [change, ...]}``, each change
        ``{"t": table id}`` plus what changed, in the order it was committed:

        * ``"m": {"n", "s", "a", "h", "at"}``: move ``n`` (played on here without a read);
        * ``"s": seat``: that seat changed (the seats are read again, nothing else);
        * ``"g": seed``: the table was dealt with that seed;
        * ``"k": kind, "d": data``: an event that is not stored (:meth:`Lobby.publish`);
        * nothing more: anything else (the table is read again).

        A single change ``{"t", "o", ...}`` (what processes of the previous version send
        during a rolling upgrade) is read the same way."""
        try:
            data = json.loads(payload)
            origin = str(data.get("o", ""))
            changes = data.get("b", [data])
            if not isinstance(changes, list):
                return
        except (ValueError, KeyError, TypeError, AttributeError):
            return
        if origin == self.origin:
            return
        for change in changes:
            if not isinstance(change, dict) or "t" not in change:
                continue
            table_id = str(change["t"])
            if "k" in change:  # an event that is not stored (Lobby.publish)
                if isinstance(change.get("d"), dict):
                    self.lobby.event(table_id, str(change["k"]), change["d"])
                continue
            self.lobby.sync.changed(table_id, change)
