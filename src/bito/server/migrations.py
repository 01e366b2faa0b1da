"""The database's schema as numbered steps, applied once each and in order, under a lock.

Every step is recorded in ``bito_schema_version``; a process starting on a database applies
only the steps it has not seen. Several processes starting together on one fresh database
(a cluster restarted at once) take turns: PostgreSQL through a session advisory lock,
SQLite through ``BEGIN IMMEDIATE`` (one writer at a time). Without the lock two processes
racing through ``CREATE TABLE IF NOT EXISTS`` collide on PostgreSQL's catalogue.

A small runner rather than Alembic or yoyo: neither is installed with the web extra, the
schema is a handful of tables, and the steps are plain SQL both back ends read. A new
step is appended to :data:`STEPS` and never edited once released.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

#: The advisory lock's key (any constant shared by every bito process): "bito" in ASCII.
LOCK_KEY = 0x6269746F


@dataclass(frozen=True)
class Step:
    version: int
    summary: str
    statements: tuple[str, ...]


STEPS: tuple[Step, ...] = (
    # IF NOT EXISTS: databases made before the steps existed already hold these tables.
    Step(1, "tables, seats and moves", (
        """CREATE TABLE IF NOT EXISTS bito_tables (
            id TEXT PRIMARY KEY,
            spec TEXT NOT NULL,
            players INTEGER NOT NULL,
            seed BIGINT NOT NULL,
            settings TEXT NOT NULL,
            status TEXT NOT NULL,
            outcome TEXT,
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS bito_seats (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            kind TEXT NOT NULL,
            bot TEXT NOT NULL,
            token TEXT NOT NULL,
            ready INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat))""",
        """CREATE TABLE IF NOT EXISTS bito_actions (
            table_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            how TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, n))""",
    )),
    # Which process drives a table's clock and bots, until when (seconds since the epoch, on
    # the database's clock, so machines whose clocks differ still agree).
    Step(2, "table leases", (
        """CREATE TABLE IF NOT EXISTS bito_leases (
            table_id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS bito_leases_owner ON bito_leases (owner)",
        "CREATE INDEX IF NOT EXISTS bito_tables_status ON bito_tables (status)",
    )),
    # Accounts (bito.server.accounts): users, sessions (as SHA-256 of the cookie), which
    # account owns which seat, ratings per game family and the games that moved them.
    Step(3, "accounts, sessions, seat owners, ratings", (
        """CREATE TABLE IF NOT EXISTS bito_accounts (
            username TEXT PRIMARY KEY,
            password_hash TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS bito_sessions (
            token_hash TEXT PRIMARY KEY,
            username TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE IF NOT EXISTS bito_seat_owners (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            username TEXT NOT NULL,
            PRIMARY KEY (table_id, seat))""",
        """CREATE TABLE IF NOT EXISTS bito_ratings (
            player TEXT NOT NULL,
            family TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (player, family))""",
        """CREATE TABLE IF NOT EXISTS bito_rated_games (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            family TEXT NOT NULL,
            result TEXT NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, seat))""",
    )),
    # What several processes must agree on besides the tables (bito.server.shared): one-use
    # tickets (a record's download, a seat moved to another device), per-address events
    # (tables created), spectators connected on any process, and the chat's recent lines.
    # Times are seconds since the epoch on the writing process's clock.
    Step(4, "tickets, address events, spectators, chat lines", (
        """CREATE TABLE IF NOT EXISTS bito_tickets (
            ticket TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            token TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS bito_tickets_expires ON bito_tickets (expires)",
        """CREATE TABLE IF NOT EXISTS bito_address_events (
            address_key TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS bito_address_events_key ON bito_address_events "
        "(address_key, at)",
        "CREATE INDEX IF NOT EXISTS bito_address_events_at ON bito_address_events (at)",
        """CREATE TABLE IF NOT EXISTS bito_watchers (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            table_id TEXT NOT NULL,
            address TEXT NOT NULL,
            expires DOUBLE PRECISION NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS bito_watchers_table ON bito_watchers (table_id)",
        "CREATE INDEX IF NOT EXISTS bito_watchers_address ON bito_watchers (address)",
        """CREATE TABLE IF NOT EXISTS bito_chat (
            id TEXT PRIMARY KEY,
            table_id TEXT NOT NULL,
            speaker TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            frame TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS bito_chat_table ON bito_chat (table_id, at)",
        "CREATE INDEX IF NOT EXISTS bito_chat_at ON bito_chat (at)",
    )),
    # Game reviews (bito.server.review): one per finished table and reviewed seat, as the
    # review's JSON, stored once made so that no process makes it again.
    Step(5, "game reviews", (
        """CREATE TABLE IF NOT EXISTS bito_reviews (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            playouts INTEGER NOT NULL,
            review TEXT NOT NULL,
            made DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (table_id, seat))""",
    )),
)

LATEST = STEPS[-1].version
#: The accounts' step, for :mod:`bito.server.accountdb`.
ACCOUNTS_STEP = STEPS[2]

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS bito_schema_version (
    version INTEGER PRIMARY KEY,
    summary TEXT NOT NULL,
    applied DOUBLE PRECISION NOT NULL)"""


def when_free(work: Callable[[], T], seconds: float = 30.0) -> T:
    """``work()``, tried again while SQLite says the database is locked. A busy timeout does
    not cover every case: a connection switching the file to WAL, or reading while another
    recovers the log, is refused at once; several servers starting on one fresh file meet
    exactly these moments."""
    import sqlite3
    import time

    end = time.monotonic() + seconds
    pause = 0.02
    while True:
        try:
            return work()
        except sqlite3.OperationalError as e:
            if ("locked" not in str(e) and "busy" not in str(e)) or time.monotonic() > end:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


def migrate_sqlite(conn: Any) -> int:
    """Apply the missing steps to a SQLite connection in autocommit mode
    (``isolation_level=None``), waiting its turn while another process holds the file.
    Returns the version reached."""
    return when_free(lambda: _migrate_sqlite_once(conn))


def _migrate_sqlite_once(conn: Any) -> int:
    import time

    conn.execute("BEGIN IMMEDIATE")  # the write lock, held until COMMIT
    try:
        conn.execute(VERSION_TABLE)
        done = {int(r[0]) for r in conn.execute("SELECT version FROM bito_schema_version")}
        for step in STEPS:
            if step.version in done:
                continue
            for sql in step.statements:
                conn.execute(sql)
            conn.execute("INSERT INTO bito_schema_version (version, summary, applied) "
                         "VALUES (?, ?, ?)", (step.version, step.summary, time.time()))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return LATEST


def migrate_postgres(url: str) -> int:
    """Apply the missing steps to the PostgreSQL database at ``url``, each in its own
    transaction, holding the advisory lock meanwhile. Returns the version reached."""
    import time

    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            conn.execute(VERSION_TABLE)
            done = {int(r[0]) for r in
                    conn.execute("SELECT version FROM bito_schema_version").fetchall()}
            for step in STEPS:
                if step.version in done:
                    continue
                with conn.transaction():
                    for sql in step.statements:
                        conn.execute(sql)
                    conn.execute("INSERT INTO bito_schema_version (version, summary, applied) "
                                 "VALUES (%s, %s, %s)",
                                 (step.version, step.summary, time.time()))
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return LATEST


SCHEMA_VERSION = "SELECT MAX(version) FROM bito_schema_version"


def schema_version(rows: list[tuple[Any, ...]]) -> int:
    """The version a ``SELECT MAX(version)`` answer names (0: no step applied)."""
    return int(rows[0][0]) if rows and rows[0][0] is not None else 0
