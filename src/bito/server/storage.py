"""Where tables and their moves live: a SQLite file by default, PostgreSQL by URL.

The database is the truth; the rooms in memory are a cache of it. A table is one row (variant
spec, seats, seed, settings, status), its seats are rows, and every applied action is a row
committed *before* anybody is told about it. After a crash (even ``kill -9``) the server deals
the same game from the seed and replays the action rows, so no game is ever lost.

SQLite runs in WAL mode: a committed transaction survives the process being killed. Both
back ends speak the same SQL; only the placeholder style differs.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from bito.errors import BitoError
from bito.server.migrations import (
    SCHEMA_VERSION,
    migrate_postgres,
    migrate_sqlite,
    schema_version,
    when_free,
)


class MoveConflict(BitoError):
    """Another writer stored a different move under this move number first (another process
    that drove the table, or a person's move racing a bot's): the table must be read again."""


#: Storing move ``n``: a second writer of the same ``n`` changes nothing (checked after).
INSERT_ACTION = ("INSERT INTO bito_actions (table_id, n, seat, action, how, at) "
                 "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, n) DO NOTHING")
STORED_ACTION = "SELECT seat, action FROM bito_actions WHERE table_id = ? AND n = ?"
SET_OUTCOME = "UPDATE bito_tables SET status = 'over', outcome = ? WHERE id = ?"
#: Dealing: only a waiting table starts (two processes seeing the last Ready race here).
START_GAME = ("UPDATE bito_tables SET status = 'playing', seed = ? "
              "WHERE id = ? AND status = 'waiting'")
INSERT_TABLE = ("INSERT INTO bito_tables (id, spec, players, seed, settings, status, outcome, "
                "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")
INSERT_SEAT = ("INSERT INTO bito_seats (table_id, seat, name, kind, bot, token, ready) "
               "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, seat) DO NOTHING")
UPDATE_SEAT = ("UPDATE bito_seats SET name = ?, kind = ?, bot = ?, token = ?, ready = ? "
               "WHERE table_id = ? AND seat = ?")
#: Taking an open seat: only if it is still open (two joins racing on two processes).
CLAIM_SEAT = UPDATE_SEAT + " AND kind = 'open'"
SELECT_TABLE = ("SELECT id, spec, players, seed, settings, status, outcome, created "
                "FROM bito_tables WHERE id = ?")
SELECT_SEATS = ("SELECT seat, name, kind, bot, token, ready FROM bito_seats "
                "WHERE table_id = ? ORDER BY seat")
SELECT_ACTIONS = ("SELECT seat, action, how FROM bito_actions WHERE table_id = ? AND n > ? "
                  "ORDER BY n")
LAST_ACTION_AT = "SELECT MAX(at) FROM bito_actions WHERE table_id = ?"


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str  # "open" (waiting for a player), "human" or "bot"
    bot: str  # the bot that plays it (always set: it also covers a timed-out human)
    token: str
    ready: bool


@dataclass
class TableRow:
    id: str
    spec: str
    players: int
    seed: int
    settings: dict[str, Any]
    status: str  # "waiting", "playing", "over"
    outcome: dict[str, Any] | None
    created: float
    seats: list[SeatRow] = field(default_factory=list)


#: each statement's row count and rows, from one transaction (:meth:`Storage.exchange`)
Exchanged = list[tuple[int, list[tuple[Any, ...]]]]
#: (the table or None, its moves after a point as (seat, text, how), the last move's time)
Snapshot = tuple[TableRow | None, list[tuple[int, str, str]], float | None]


def seat_params(table_id: str, s: SeatRow) -> tuple[Any, ...]:
    """The parameters of :data:`INSERT_SEAT`."""
    return (table_id, s.seat, s.name, s.kind, s.bot, s.token, int(s.ready))


def seat_update_params(table_id: str, s: SeatRow) -> tuple[Any, ...]:
    """The parameters of :data:`UPDATE_SEAT` and :data:`CLAIM_SEAT`."""
    return (s.name, s.kind, s.bot, s.token, int(s.ready), table_id, s.seat)


def table_params(row: TableRow) -> tuple[Any, ...]:
    """The parameters of :data:`INSERT_TABLE`."""
    return (row.id, row.spec, row.players, row.seed, json.dumps(row.settings), row.status,
            None, row.created)


def table_of(r: tuple[Any, ...]) -> TableRow:
    """A :class:`TableRow` (without seats) from a :data:`SELECT_TABLE` row."""
    return TableRow(id=r[0], spec=r[1], players=int(r[2]), seed=int(r[3]),
                    settings=json.loads(r[4]), status=r[5],
                    outcome=json.loads(r[6]) if r[6] else None, created=float(r[7]))


def seat_of(r: tuple[Any, ...]) -> SeatRow:
    return SeatRow(int(r[0]), r[1], r[2], r[3], r[4], bool(r[5]))


def check_stored(n: int, seat: int, action: str, stored: list[tuple[Any, ...]]) -> None:
    """After an insert that changed nothing: the same move already stored is a retry of a
    write whose answer was lost (fine); another move is a conflict."""
    if stored and (int(stored[0][0]), stored[0][1]) == (seat, action):
        return
    raise MoveConflict(f"move {n} of this table was stored by another writer")


class Storage:
    """One synchronous database connection (behind a lock). The server reaches SQLite
    through it from one thread (:class:`bito.server.db.ThreadedDatabase`); tests and tools
    read either back end with it directly."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._lock = threading.Lock()
        if url.startswith(("postgresql://", "postgres://")):
            try:
                import psycopg
            except ImportError:
                raise RuntimeError("PostgreSQL needs psycopg: pip install 'bito[web]'") from None
            self._errors: tuple[type[BaseException], ...] = (psycopg.OperationalError,
                                                              psycopg.InterfaceError)
            migrate_postgres(url)
            self.conn: Any = psycopg.connect(url)
            self.mark = "%s"
        else:
            path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute("PRAGMA busy_timeout=5000")  # first: others may be starting
            when_free(lambda: self.conn.execute("PRAGMA journal_mode=WAL"))
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.mark = "?"
            self._errors = ()
            with self._lock:
                migrate_sqlite(self.conn)

    # --- plumbing -------------------------------------------------------------------------

    def _sql(self, sql: str) -> str:
        return sql if self.mark == "?" else sql.replace("?", self.mark)

    def _begin(self) -> None:
        if self.mark == "?":
            self.conn.execute("BEGIN IMMEDIATE")

    def _commit(self) -> None:
        self.conn.commit() if self.mark != "?" else self.conn.execute("COMMIT")

    def _reconnect(self) -> None:
        """A PostgreSQL server that restarted, or a connection an administrator or a network
        cut, must not take the tables down with it: open a fresh connection."""
        import psycopg

        with contextlib.suppress(Exception):  # already broken: nothing to close
            self.conn.close()
        self.conn = psycopg.connect(self.url)

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[int]:
        """Run the statements as one transaction: all of them are stored, or none. A lost
        PostgreSQL connection is opened again and the transaction retried once (every
        write is idempotent, so a commit whose answer was lost is not stored twice).
        Returns each statement's row count."""
        with self._lock:
            try:
                return self._transaction(statements)
            except self._errors:
                self._reconnect()
                return self._transaction(statements)

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> list[int]:
        self._begin()
        counts = []
        try:
            cur = self.conn.cursor()
            for sql, params in statements:
                cur.execute(self._sql(sql), params)
                counts.append(cur.rowcount)
        except BaseException:
            if not getattr(self.conn, "closed", False):
                self.conn.rollback() if self.mark != "?" else self.conn.execute("ROLLBACK")
            raise
        self._commit()
        return counts

    def _read(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._query(sql, params)
            except self._errors:
                self._reconnect()
                return self._query(sql, params)

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        cur = self.conn.cursor()
        cur.execute(self._sql(sql), params)
        rows = list(cur.fetchall())
        if self.mark != "?":
            self.conn.commit()
        return rows

    def close(self) -> None:
        with self._lock:
            self.conn.close()

    def exchange(self, statements: list[tuple[str, tuple[Any, ...]]]) -> Exchanged:
        """The statements as one transaction; each one's row count and the rows it
        returned (a ``SELECT``, or ``RETURNING``). Not retried: the caller's statements need
        not be idempotent (see :mod:`bito.server.shared`)."""
        with self._lock:
            self._begin()
            out: Exchanged = []
            try:
                cur = self.conn.cursor()
                for sql, params in statements:
                    cur.execute(self._sql(sql), params)
                    rows = list(cur.fetchall()) if cur.description is not None else []
                    out.append((cur.rowcount, rows))
            except BaseException:
                if not getattr(self.conn, "closed", False):
                    self.conn.rollback() if self.mark != "?" else self.conn.execute("ROLLBACK")
                raise
            self._commit()
            return out

    def ping(self) -> None:
        self._read("SELECT 1")

    def schema(self) -> int:
        """The schema version the database is at."""
        return schema_version(self._read(SCHEMA_VERSION))

    # --- tables ---------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        self._write([(INSERT_TABLE, table_params(row))]
                    + [(INSERT_SEAT, seat_params(row.id, s)) for s in row.seats])

    def save_seat(self, table_id: str, s: SeatRow) -> None:
        self._write([(UPDATE_SEAT, seat_update_params(table_id, s))])

    def claim_seat(self, table_id: str, s: SeatRow) -> bool:
        """Give the open seat ``s.seat`` to ``s``; False if somebody took it first."""
        return self._write([(CLAIM_SEAT, seat_update_params(table_id, s))])[0] > 0

    def start_game(self, table_id: str, seed: int) -> bool:
        """Deal with ``seed``; False if the table had already started."""
        return self._write([(START_GAME, (seed, table_id))])[0] > 0

    def set_status(self, table_id: str, status: str, seed: int | None = None,
                   outcome: dict[str, Any] | None = None) -> None:
        if seed is None:
            self._write([("UPDATE bito_tables SET status = ?, outcome = ? WHERE id = ?",
                          (status, json.dumps(outcome) if outcome else None, table_id))])
        else:
            self._write([("UPDATE bito_tables SET status = ?, seed = ? WHERE id = ?",
                          (status, seed, table_id))])

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._read(SELECT_TABLE, (table_id,))
        if not rows:
            return None
        table = table_of(rows[0])
        table.seats = self.load_seats(table_id)
        return table

    def load_seats(self, table_id: str) -> list[SeatRow]:
        """The table's seats alone: all another process reads after a seat changed."""
        return [seat_of(r) for r in self._read(SELECT_SEATS, (table_id,))]

    def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        marks = ", ".join("?" for _ in statuses)
        return [r[0] for r in self._read(
            f"SELECT id FROM bito_tables WHERE status IN ({marks}) ORDER BY created", statuses)]

    # --- actions --------------------------------------------------------------------------

    def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                      outcome: dict[str, Any] | None = None) -> None:
        """Store action number ``n`` (and the end of the game with the last one) in one
        transaction. The same move stored again changes nothing; another move under the
        same ``n`` raises :class:`MoveConflict`."""
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (INSERT_ACTION, (table_id, n, seat, action, how, time.time()))]
        if outcome is not None:
            statements.append((SET_OUTCOME, (json.dumps(outcome), table_id)))
        if self._write(statements)[0] == 0:
            check_stored(n, seat, action, self._read(STORED_ACTION, (table_id, n)))

    def snapshot(self, table_id: str, after: int) -> Snapshot:
        """The table, its moves after the first ``after`` and when the last was stored:
        what a process reads to catch up with a change made elsewhere."""
        return (self.load_table(table_id), self.load_actions(table_id, after),
                self.last_action_at(table_id))

    def last_action_at(self, table_id: str) -> float | None:
        """When the table's latest move was stored (None before the first): the clock of
        the player to act ran from then, and keeps running across a restart."""
        rows = self._read(LAST_ACTION_AT, (table_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def load_actions(self, table_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        """(seat, action text, how) of every stored action after the first ``after``, in
        order."""
        return [(int(r[0]), r[1], r[2]) for r in self._read(SELECT_ACTIONS, (table_id, after))]
