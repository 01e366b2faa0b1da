"""Where accounts, sessions, seat owners and ratings live: the same database as the tables,
through a connection of its own.

Kept apart from :mod:`bito.server.storage`: the accounts are an add-on of the web app. Their
tables are step 3 of the numbered schema (:mod:`bito.server.migrations`), applied under the
migration lock whichever opens the database first, the tables' storage or :class:`AccountDB`;
:func:`accounts_schema` returns that step's SQL as one text.

A session is stored only as the SHA-256 of its cookie value and a password only as its
argon2 hash, so a copy of the database lets nobody log in.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any, Literal

from bito.server.migrations import (
    ACCOUNTS_STEP,
    migrate_postgres,
    migrate_sqlite,
    when_free,
)

Dialect = Literal["sqlite", "postgresql"]


def accounts_schema(dialect: Dialect = "sqlite") -> str:
    """The SQL creating the accounts' and ratings' tables (idempotent), for ``dialect``.
    Both dialects accept the same text today; the parameter is there so a migration runner
    asks for the dialect it runs and the text may diverge later without a new entry point."""
    if dialect not in ("sqlite", "postgresql"):
        raise ValueError(f"dialect: {dialect!r} is not 'sqlite' or 'postgresql'")
    return ";\n".join(ACCOUNTS_STEP.statements) + ";\n"


@dataclass(frozen=True)
class Rating:
    """A stored rating: openskill's ``mu`` and ``sigma`` and the games it counts."""

    player: str
    family: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        """The cautious estimate the leaderboard sorts by (mu - 3 sigma, openskill's own
        ordinal), so one lucky game does not top the board."""
        return self.mu - 3 * self.sigma


class AccountDB:
    """One connection for the accounts' tables; calls are short and serialised by a lock."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock = threading.Lock()
        self.postgres = url.startswith(("postgresql://", "postgres://"))
        self.conn: Any = self.connect()
        # the schema through the numbered steps, under their lock: several processes opening
        # one fresh PostgreSQL database together must not race through CREATE TABLE
        if self.postgres:
            migrate_postgres(self.url)
        else:
            migrate_sqlite(self.conn)

    def connect(self) -> Any:
        if self.postgres:
            import psycopg

            return psycopg.connect(self.url)
        path = self.url.removeprefix("sqlite:///").removeprefix("sqlite://")
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        when_free(lambda: conn.execute("PRAGMA journal_mode=WAL"))
        conn.execute("PRAGMA busy_timeout=5000")
        return conn

    def sql(self, text: str) -> str:
        return text.replace("?", "%s") if self.postgres else text

    def write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        """The statements as one transaction (a lost PostgreSQL connection is reopened and
        the uncommitted transaction run once more)."""
        with self.lock:
            try:
                self.transaction(statements)
            except Exception as e:
                if not self.lost(e):
                    raise
                self.reconnect()
                self.transaction(statements)

    def lost(self, error: BaseException) -> bool:
        """Whether ``error`` says the PostgreSQL connection is gone (a restart ends it with
        ``AdminShutdown``, a subclass of ``OperationalError``), so a fresh one may succeed."""
        if not self.postgres:
            return False
        import psycopg

        return isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError))

    def reconnect(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        self.conn = self.connect()

    def transaction(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        if not self.postgres:
            self.conn.execute("BEGIN IMMEDIATE")
        try:
            cur = self.conn.cursor()
            for text, params in statements:
                cur.execute(self.sql(text), params)
        except BaseException:
            with contextlib.suppress(Exception):
                self.conn.rollback() if self.postgres else self.conn.execute("ROLLBACK")
            raise
        self.conn.commit() if self.postgres else self.conn.execute("COMMIT")

    def read(self, text: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query (a lost PostgreSQL connection is reopened and the query
        asked once more: a read changes nothing, so asking twice is safe)."""
        with self.lock:
            try:
                return self.query(text, params)
            except Exception as e:
                if not self.lost(e):
                    raise
                self.reconnect()
                return self.query(text, params)

    def query(self, text: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        cur = self.conn.cursor()
        cur.execute(self.sql(text), params)
        rows = list(cur.fetchall())
        if self.postgres:
            self.conn.commit()
        return rows

    def close(self) -> None:
        with self.lock, contextlib.suppress(Exception):
            self.conn.close()

    # --- accounts and sessions --------------------------------------------------------------

    def password_hash(self, username: str) -> str | None:
        rows = self.read("SELECT password_hash FROM bito_accounts WHERE username = ?",
                         (username,))
        return str(rows[0][0]) if rows else None

    def account(self, username: str) -> tuple[str, str] | None:
        """(the name as registered, its password hash) for a name typed in any case."""
        rows = self.read("SELECT username, password_hash FROM bito_accounts WHERE "
                         "LOWER(username) = LOWER(?)", (username,))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    def add_account(self, username: str, password_hash: str) -> bool:
        """False when the name is taken (compared without case: ``Alice`` and ``alice`` are
        one player to the people reading the leaderboard)."""
        if self.read("SELECT 1 FROM bito_accounts WHERE LOWER(username) = LOWER(?)",
                     (username,)):
            return False
        try:
            self.write([("INSERT INTO bito_accounts (username, password_hash, created) "
                         "VALUES (?, ?, ?)", (username, password_hash, time.time()))])
        except Exception as e:  # a race with another registration of the same name
            if "unique" in str(e).lower() or "primary" in str(e).lower():
                return False
            raise
        return True

    def set_password_hash(self, username: str, password_hash: str) -> None:
        self.write([("UPDATE bito_accounts SET password_hash = ? WHERE username = ?",
                     (password_hash, username))])

    def add_session(self, token_hash: str, username: str, expires: float) -> None:
        self.write([("DELETE FROM bito_sessions WHERE expires < ?", (time.time(),)),
                    ("INSERT INTO bito_sessions (token_hash, username, expires) "
                     "VALUES (?, ?, ?)", (token_hash, username, expires))])

    def session_user(self, token_hash: str, now: float) -> str | None:
        rows = self.read("SELECT username, expires FROM bito_sessions WHERE token_hash = ?",
                         (token_hash,))
        if not rows:
            return None
        if float(rows[0][1]) <= now:
            self.drop_session(token_hash)
            return None
        return str(rows[0][0])

    def drop_session(self, token_hash: str) -> None:
        self.write([("DELETE FROM bito_sessions WHERE token_hash = ?", (token_hash,))])

    def drop_sessions_of(self, username: str, keep: str | None = None) -> int:
        """Sign ``username`` out everywhere (but the session ``keep``, the device asking);
        how many sessions ended."""
        gone = [r for r in self.read("SELECT token_hash FROM bito_sessions WHERE username = ?",
                                     (username,)) if str(r[0]) != keep]
        self.write([("DELETE FROM bito_sessions WHERE username = ? AND token_hash <> ?",
                     (username, keep or ""))])
        return len(gone)

    def delete_account(self, username: str) -> None:
        """The account, its sessions, its seats' ownership, its ratings and its rated-game
        rows, in one transaction. The tables' own records are not touched: they keep the
        names as they were played (a record is what happened at that table)."""
        self.write([
            ("DELETE FROM bito_sessions WHERE username = ?", (username,)),
            ("DELETE FROM bito_seat_owners WHERE username = ?", (username,)),
            ("DELETE FROM bito_ratings WHERE player = ?", (username,)),
            ("DELETE FROM bito_rated_games WHERE player = ?", (username,)),
            ("DELETE FROM bito_accounts WHERE username = ?", (username,)),
        ])

    # --- seats owned by accounts ------------------------------------------------------------

    def own_seat(self, table_id: str, seat: int, username: str) -> None:
        self.write([("DELETE FROM bito_seat_owners WHERE table_id = ? AND seat = ?",
                     (table_id, seat)),
                    ("INSERT INTO bito_seat_owners (table_id, seat, username) VALUES (?, ?, ?)",
                     (table_id, seat, username))])

    def owners(self, table_id: str) -> dict[int, str]:
        return {int(r[0]): str(r[1]) for r in self.read(
            "SELECT seat, username FROM bito_seat_owners WHERE table_id = ?", (table_id,))}

    # --- ratings ----------------------------------------------------------------------------

    def rating(self, player: str, family: str) -> Rating | None:
        rows = self.read("SELECT mu, sigma, games FROM bito_ratings WHERE player = ? AND "
                         "family = ?", (player, family))
        if not rows:
            return None
        return Rating(player, family, float(rows[0][0]), float(rows[0][1]), int(rows[0][2]))

    def is_rated(self, table_id: str) -> bool:
        return bool(self.read("SELECT 1 FROM bito_rated_games WHERE table_id = ?", (table_id,)))

    def store_game(self, table_id: str, family: str, after: list[Rating],
                   rows: list[tuple[int, str, str, float, float]]) -> None:
        """A rated game in one transaction: the new ratings, and per seat (seat, player,
        result, mu before, mu after)."""
        now = time.time()
        statements: list[tuple[str, tuple[Any, ...]]] = []
        for r in after:
            statements.append(("DELETE FROM bito_ratings WHERE player = ? AND family = ?",
                               (r.player, r.family)))
            statements.append(("INSERT INTO bito_ratings (player, family, mu, sigma, games) "
                               "VALUES (?, ?, ?, ?, ?)",
                               (r.player, r.family, r.mu, r.sigma, r.games)))
        for seat, player, result, before, later in rows:
            statements.append(("INSERT INTO bito_rated_games (table_id, seat, player, family, "
                               "result, mu_before, mu_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (table_id, seat, player, family, result, before, later, now)))
        self.write(statements)

    def ratings_of(self, player: str) -> list[Rating]:
        return [Rating(player, str(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in self.read(
            "SELECT family, mu, sigma, games FROM bito_ratings WHERE player = ? "
            "ORDER BY family", (player,))]

    def leaderboard(self, family: str, limit: int = 100) -> list[Rating]:
        rows = self.read("SELECT player, mu, sigma, games FROM bito_ratings WHERE family = ? "
                         "AND games > 0", (family,))
        board = [Rating(str(r[0]), family, float(r[1]), float(r[2]), int(r[3])) for r in rows]
        board.sort(key=lambda r: (-r.ordinal, r.player))
        return board[:limit]

    def families(self) -> list[str]:
        return [str(r[0]) for r in self.read(
            "SELECT DISTINCT family FROM bito_ratings WHERE games > 0 ORDER BY family")]

    def recent_games(self, player: str, limit: int = 20) -> list[tuple[Any, ...]]:
        """(table, seat, family, result, mu before, mu after, at), newest first."""
        return self.read("SELECT table_id, seat, family, result, mu_before, mu_after, at "
                         "FROM bito_rated_games WHERE player = ? ORDER BY at DESC LIMIT ?",
                         (player, limit))
