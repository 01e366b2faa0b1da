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

SCHEMA = """
CREATE TABLE IF NOT EXISTS bito_tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    settings TEXT NOT NULL,
    status TEXT NOT NULL,
    outcome TEXT,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS bito_seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    bot TEXT NOT NULL,
    token TEXT NOT NULL,
    ready INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS bito_actions (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    how TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


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


class Storage:
    """One database connection shared by the server's event loop (calls are short)."""

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
            self.conn: Any = psycopg.connect(url)
            self.mark = "%s"
        else:
            path = url.removeprefix("sqlite:///").removeprefix("sqlite://")
            self.conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA busy_timeout=5000")
            self.mark = "?"
            self._errors = ()
        with self._lock:
            self._script(SCHEMA)

    # --- plumbing -------------------------------------------------------------------------

    def _sql(self, sql: str) -> str:
        return sql if self.mark == "?" else sql.replace("?", self.mark)

    def _script(self, script: str) -> None:
        self._begin()
        cur = self.conn.cursor()
        for stmt in script.split(";"):
            if stmt.strip():
                cur.execute(stmt)
        self._commit()

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

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """Run the statements as one transaction: all of them are stored, or none. A lost
        PostgreSQL connection is opened again and the transaction retried once (it was not
        committed, so nothing is written twice)."""
        with self._lock:
            try:
                self._transaction(statements)
            except self._errors:
                self._reconnect()
                self._transaction(statements)

    def _transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        self._begin()
        try:
            cur = self.conn.cursor()
            for sql, params in statements:
                cur.execute(self._sql(sql), params)
        except BaseException:
            if not getattr(self.conn, "closed", False):
                self.conn.rollback() if self.mark != "?" else self.conn.execute("ROLLBACK")
            raise
        self._commit()

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

    # --- tables ---------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [(
            "INSERT INTO bito_tables (id, spec, players, seed, settings, status, outcome, "
            "created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (row.id, row.spec, row.players, row.seed, json.dumps(row.settings), row.status,
             None, row.created))]
        for s in row.seats:
            statements.append(self._seat_insert(row.id, s))
        self._write(statements)

    @staticmethod
    def _seat_insert(table_id: str, s: SeatRow) -> tuple[str, tuple[Any, ...]]:
        return ("INSERT INTO bito_seats (table_id, seat, name, kind, bot, token, ready) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (table_id, s.seat, s.name, s.kind, s.bot, s.token, int(s.ready)))

    def save_seat(self, table_id: str, s: SeatRow) -> None:
        self._write([("UPDATE bito_seats SET name = ?, kind = ?, bot = ?, token = ?, ready = ? "
                      "WHERE table_id = ? AND seat = ?",
                      (s.name, s.kind, s.bot, s.token, int(s.ready), table_id, s.seat))])

    def set_status(self, table_id: str, status: str, seed: int | None = None,
                   outcome: dict[str, Any] | None = None) -> None:
        if seed is None:
            self._write([("UPDATE bito_tables SET status = ?, outcome = ? WHERE id = ?",
                          (status, json.dumps(outcome) if outcome else None, table_id))])
        else:
            self._write([("UPDATE bito_tables SET status = ?, seed = ? WHERE id = ?",
                          (status, seed, table_id))])

    def load_table(self, table_id: str) -> TableRow | None:
        rows = self._read("SELECT id, spec, players, seed, settings, status, outcome, created "
                          "FROM bito_tables WHERE id = ?", (table_id,))
        if not rows:
            return None
        table = self._table(rows[0])
        for r in self._read("SELECT seat, name, kind, bot, token, ready FROM bito_seats "
                            "WHERE table_id = ? ORDER BY seat", (table_id,)):
            table.seats.append(SeatRow(int(r[0]), r[1], r[2], r[3], r[4], bool(r[5])))
        return table

    @staticmethod
    def _table(r: tuple[Any, ...]) -> TableRow:
        return TableRow(id=r[0], spec=r[1], players=int(r[2]), seed=int(r[3]),
                        settings=json.loads(r[4]), status=r[5],
                        outcome=json.loads(r[6]) if r[6] else None, created=float(r[7]))

    def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        marks = ", ".join("?" for _ in statuses)
        return [r[0] for r in self._read(
            f"SELECT id FROM bito_tables WHERE status IN ({marks}) ORDER BY created", statuses)]

    # --- actions --------------------------------------------------------------------------

    def append_action(self, table_id: str, n: int, seat: int, action: str, how: str,
                      outcome: dict[str, Any] | None = None) -> None:
        """Store action number ``n`` (and the end of the game with the last one) in one
        transaction. A second writer of the same ``n`` fails on the primary key."""
        statements: list[tuple[str, tuple[Any, ...]]] = [(
            "INSERT INTO bito_actions (table_id, n, seat, action, how, at) "
            "VALUES (?, ?, ?, ?, ?, ?)", (table_id, n, seat, action, how, time.time()))]
        if outcome is not None:
            statements.append(("UPDATE bito_tables SET status = 'over', outcome = ? "
                               "WHERE id = ?", (json.dumps(outcome), table_id)))
        self._write(statements)

    def last_action_at(self, table_id: str) -> float | None:
        """When the table's latest move was stored (None before the first): the clock of
        the player to act ran from then, and keeps running across a restart."""
        rows = self._read("SELECT MAX(at) FROM bito_actions WHERE table_id = ?", (table_id,))
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def load_actions(self, table_id: str) -> list[tuple[int, str, str]]:
        """(seat, action text, how) of every stored action, in order."""
        return [(int(r[0]), r[1], r[2]) for r in self._read(
            "SELECT seat, action, how FROM bito_actions WHERE table_id = ? ORDER BY n",
            (table_id,))]
