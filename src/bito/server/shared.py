"""What several server processes must agree on besides the tables, kept in the database.

Behind a load balancer without sticky sessions, a person's next request may reach any
process, so nothing a later request depends on may live in one process's memory:

* **One-use tickets** (a record's download link, a seat moved to another device): a row with
  an expiry, taken by ``DELETE ... RETURNING``, so two processes redeeming one ticket at the
  same moment cannot both succeed.
* **Per-address events** (tables created an hour, failed logins per address and per
  username, new accounts an hour): one row per event, counted over the window, so nobody
  gets N times his allowance by spreading his requests over N processes.
* **Spectators** connected on any process: one row per connection, renewed by its process
  (a process killed with ``kill -9`` stops renewing, and its rows stop counting after
  :data:`WATCH_LIFE` seconds). The caps per table and per address count every process.
* **Chat lines**: the last lines of a match, so a page opened through another process is
  sent the talk it missed; each process keeps them in memory as a cache
  (:mod:`bito.server.chat`). The rate limit counts the speaker's stored lines.

A check and the write it guards run in one transaction under a lock (on PostgreSQL an
advisory lock named for the key; on SQLite every write transaction already waits for the
one before), so a limit holds when two processes are asked at the same instant. SQLite is
the one-process case of the same code: the same statements, the same answers.

Times are seconds since the epoch on the writing process's clock: the machines of a cluster
must agree on the time within a few seconds (NTP), which every limit here tolerates.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any, Protocol

from bito.server.storage import Exchanged

Json = dict[str, Any]

WATCH_LIFE = 60.0  # seconds a spectator's row counts unless its process renews it
WATCH_RENEW = 20.0  # seconds between renewals
EVENTS_KEPT_FOR = 86400.0  # seconds an address event is kept (every window is shorter)
CHAT_KEPT_FOR = 86400.0  # seconds a chat line is kept at most (only the last few are sent)


class Exchanging(Protocol):
    """The one call this module needs of a database (:mod:`bito.server.db`)."""

    async def exchange(self, statements: list[tuple[str, tuple[Any, ...]]],
                       lock: str | None = None) -> Exchanged: ...


# --- tickets --------------------------------------------------------------------------------

async def issue_ticket(db: Exchanging, kind: str, table_id: str, seat: int, token: str,
                       life: float, most: int = 10_000) -> str | None:
    """A new ticket of ``kind`` for the seat (``token``: the seat's token now, so a ticket
    issued before the seat moved again can be refused); None when ``most`` tickets are
    waiting already (a flood)."""
    now = time.time()
    ticket = secrets.token_urlsafe(18)
    (_, (inserted, _)) = await db.exchange([
        ("DELETE FROM bito_tickets WHERE expires < ?", (now,)),
        ("INSERT INTO bito_tickets (ticket, kind, table_id, seat, token, expires) "
         "SELECT ?, ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM bito_tickets) < ?",
         (ticket, kind, table_id, seat, token, now + life, most)),
    ], lock="bito:tickets")
    return ticket if inserted > 0 else None


async def redeem_ticket(db: Exchanging, kind: str, ticket: str,
                        ) -> tuple[str, int, str] | None:
    """(table, seat, token when issued) of a ticket of ``kind`` still valid, which is used
    up by this call, whichever process asks; None for a used, expired or unknown one."""
    ((_, rows),) = await db.exchange([
        ("DELETE FROM bito_tickets WHERE ticket = ? AND kind = ? "
         "RETURNING table_id, seat, token, expires", (ticket, kind))])
    if not rows or float(rows[0][3]) < time.time():
        return None
    return str(rows[0][0]), int(rows[0][1]), str(rows[0][2])


# --- events per address ---------------------------------------------------------------------

async def address_wait(db: Exchanging, key: str, limit: int, window: float) -> int:
    """Seconds until ``key`` (a kind of event and an address, ``table:10.0.0.7``) may have
    another event (0: now), counting its events of the last ``window`` seconds on every
    process. Events older than the window are dropped on the way."""
    now = time.time()
    (_, (_, rows)) = await db.exchange([
        ("DELETE FROM bito_address_events WHERE address_key = ? AND at <= ?",
         (key, now - window)),
        ("SELECT COUNT(*), MIN(at) FROM bito_address_events WHERE address_key = ?", (key,)),
    ], lock="bito:address:" + key)
    count, first = int(rows[0][0]), rows[0][1]
    if count < limit or first is None:
        return 0
    return max(1, int(window - (now - float(first))) + 1)


async def add_address_event(db: Exchanging, key: str) -> None:
    """Count one event of ``key`` (see :func:`address_wait`). Events older than any
    window are dropped on the way, so keys never asked about again (a guesser's made-up
    usernames) do not pile up."""
    now = time.time()
    await db.exchange([
        ("DELETE FROM bito_address_events WHERE at < ?", (now - EVENTS_KEPT_FOR,)),
        ("INSERT INTO bito_address_events (address_key, at) VALUES (?, ?)", (key, now))])


async def clear_address_events(db: Exchanging, key: str) -> None:
    """Forget the events of ``key`` (a login that succeeded clears its name's failures)."""
    await db.exchange([("DELETE FROM bito_address_events WHERE address_key = ?", (key,))])


# --- spectators -----------------------------------------------------------------------------

async def watch(db: Exchanging, owner: str, table_id: str, address: str, per_table: int,
                per_address: int) -> tuple[str | None, str]:
    """Admit a spectator connection: (None, its id) or (the limit it hits, ``"table"`` or
    ``"address"``, and an empty id). Counted over every process's live spectators."""
    now = time.time()
    watcher = secrets.token_urlsafe(12)
    (_, (_, at_table), (inserted, _)) = await db.exchange([
        ("DELETE FROM bito_watchers WHERE expires < ?", (now,)),
        ("SELECT COUNT(*) FROM bito_watchers WHERE table_id = ?", (table_id,)),
        ("INSERT INTO bito_watchers (id, owner, table_id, address, expires) "
         "SELECT ?, ?, ?, ?, ? WHERE (SELECT COUNT(*) FROM bito_watchers WHERE table_id = ?) "
         "< ? AND (SELECT COUNT(*) FROM bito_watchers WHERE address = ?) < ?",
         (watcher, owner, table_id, address, now + WATCH_LIFE, table_id, per_table, address,
          per_address)),
    ], lock="bito:watchers")
    if inserted > 0:
        return None, watcher
    return ("table" if int(at_table[0][0]) >= per_table else "address"), ""


async def unwatch(db: Exchanging, watcher: str) -> None:
    await db.exchange([("DELETE FROM bito_watchers WHERE id = ?", (watcher,))])


async def renew_watchers(db: Exchanging, owner: str, gone: bool = False) -> None:
    """Keep this process's spectators counted for another :data:`WATCH_LIFE` seconds
    (``gone``: the process is stopping, forget them at once)."""
    if gone:
        await db.exchange([("DELETE FROM bito_watchers WHERE owner = ?", (owner,))])
    else:
        await db.exchange([("UPDATE bito_watchers SET expires = ? WHERE owner = ?",
                            (time.time() + WATCH_LIFE, owner))])


# --- chat -----------------------------------------------------------------------------------

async def say(db: Exchanging, match: str, speaker: str, frame: Json, count: int,
              window: float, keep: int) -> float:
    """Store a chat line of ``match`` unless ``speaker`` said ``count`` lines in the last
    ``window`` seconds (on any process): 0 when stored, else the seconds to wait. Only the
    last ``keep`` lines of a match are kept, none older than :data:`CHAT_KEPT_FOR`."""
    now = time.time()
    line = str(frame["id"])
    (_, (_, recent), (inserted, _), _) = await db.exchange([
        ("DELETE FROM bito_chat WHERE at < ?", (now - CHAT_KEPT_FOR,)),
        ("SELECT MIN(at) FROM (SELECT at FROM bito_chat WHERE table_id = ? AND speaker = ? "
         "AND at > ? ORDER BY at DESC LIMIT ?) AS recent", (match, speaker, now - window,
                                                           count)),
        ("INSERT INTO bito_chat (id, table_id, speaker, at, frame) SELECT ?, ?, ?, ?, ? "
         "WHERE (SELECT COUNT(*) FROM bito_chat WHERE table_id = ? AND speaker = ? "
         "AND at > ?) < ?",
         (line, match, speaker, now, json.dumps(frame, ensure_ascii=False), match, speaker,
          now - window, count)),
        ("DELETE FROM bito_chat WHERE table_id = ? AND id NOT IN (SELECT id FROM bito_chat "
         "WHERE table_id = ? ORDER BY at DESC LIMIT ?)", (match, match, keep)),
    ], lock="bito:chat:" + match)
    if inserted > 0:
        return 0.0
    oldest = recent[0][0] if recent else None
    return max(0.1, window - (now - float(oldest))) if oldest is not None else 0.1


async def chat_lines(db: Exchanging, match: str, keep: int) -> list[Json]:
    """The last ``keep`` lines of ``match``, oldest first."""
    ((_, rows),) = await db.exchange([
        ("SELECT frame FROM bito_chat WHERE table_id = ? ORDER BY at DESC LIMIT ?",
         (match, keep))])
    lines: list[Json] = []
    for (text,) in reversed(rows):
        try:
            frame = json.loads(text)
        except ValueError:
            continue
        if isinstance(frame, dict):
            lines.append(frame)
    return lines
