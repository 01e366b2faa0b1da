"""Talking at the table: short text messages and quick reactions.

A client sends ``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "reaction": "👍"}``
(one of :data:`REACTIONS`); the table receives ``{"type": "chat", "sender": NAME, "seat": N,
"text": "..."}`` (``"reaction": true`` for a reaction, whose text is the emoji). Everything is
plain text: the server never interprets it and the page draws it with ``textContent``, so a
``<b>`` arrives as the four characters it is.

Who hears whom is the host's choice, made when the table is created (``spectator_chat``):

* ``"separate"`` (the default): the players' chat goes to everybody at the table; the
  spectators talk among themselves, and players never see it (nobody at the table is
  distracted, or given hints, by the audience);
* ``"off"``: spectators can neither write nor read the chat.

Chat is not stored with the game: the database, the records and the replays never hold what
people said. The server keeps only the last :data:`BACKLOG` messages of a table in memory and
sends them to a connection that opens (a reloaded page, a reconnect, the next deal of a
rematch), each to those who could hear it. Muting a player is the browser's business (a list
kept in the page), as nobody else needs to know.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from bito.server.rooms import Connection, Lobby, Room, RoomError, check_name

Json = dict[str, Any]

MAX_TEXT = 200  # characters in one message
RATE_COUNT = 5  # messages ...
RATE_WINDOW = 10.0  # ... in this many seconds, per seat (a spectator: per address)
REACTIONS = ("👍", "👎", "😂", "😮", "😢", "🔥", "👏", "🃏")
SPECTATOR_CHAT = ("separate", "off")
BACKLOG = 30  # recent messages a new connection is sent (in memory only)


class ChatError(RoomError):
    """A chat message refused; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def table_setting(value: Any) -> dict[str, Any]:
    """The checked ``spectator_chat`` choice of a new table, as its settings keep it."""
    if value is None:
        value = "separate"
    if value not in SPECTATOR_CHAT:
        raise RoomError(f"spectator_chat: choose {' or '.join(SPECTATOR_CHAT)} (got {value!r})")
    return {"spectator_chat": value}


def clean_text(message: Json) -> tuple[str, bool]:
    """The message's text and whether it is a reaction, or :class:`ChatError` naming the
    field. Line breaks and tabs become spaces; other control characters are refused."""
    reaction, text = message.get("reaction"), message.get("text")
    if reaction is not None:
        if reaction not in REACTIONS:
            raise ChatError("reaction", f"reaction: one of {' '.join(REACTIONS)}")
        return str(reaction), True
    if not isinstance(text, str):
        raise ChatError("text", '"chat" needs "text" (up to 200 characters) or "reaction"')
    clean = " ".join(text.split())
    if not clean:
        raise ChatError("text", "text: the message is empty")
    if len(clean) > MAX_TEXT:
        raise ChatError("text", f"text: at most {MAX_TEXT} characters ({len(clean)} sent)")
    if not clean.isprintable():
        raise ChatError("text", "text: control characters are not allowed")
    return clean, False


def speaker(conn: Connection) -> str:
    """Whom the rate limit counts: the seat, or a spectator's address. Not the connection,
    so closing the socket and opening another does not give a fresh allowance."""
    return f"seat:{conn.seat}" if conn.seat is not None else f"address:{conn.address}"


def check_rate(room: Room, conn: Connection, now: float) -> None:
    """At most :data:`RATE_COUNT` messages in :data:`RATE_WINDOW` seconds per seat (a
    spectator: per address); the error says how long to wait. A refused message does not
    count."""
    sent: dict[str, list[float]] = room.extra.setdefault("chat_sent", {})
    key = speaker(conn)
    recent = [t for t in sent.get(key, []) if now - t < RATE_WINDOW]
    if len(recent) >= RATE_COUNT:
        wait = RATE_WINDOW - (now - recent[0])
        raise ChatError("text", f"chat: at most {RATE_COUNT} messages in "
                        f"{RATE_WINDOW:.0f} seconds; wait {max(wait, 0.1):.0f} s")
    recent.append(now)
    for old in [k for k, times in sent.items()  # speakers quiet for a whole window
                if k != key and all(now - t >= RATE_WINDOW for t in times)]:
        del sent[old]
    sent[key] = recent


async def chat(lobby: Lobby, room: Room, conn: Connection, message: Json) -> None:
    """Check one chat message and send it to those who may hear it, on every process that
    has sockets at the table (:meth:`Lobby.publish`; :func:`deliver` is its handler)."""
    setting = room.table.settings.get("spectator_chat", "separate")
    if conn.seat is None and setting == "off":
        raise ChatError("type", "the host switched the spectators' chat off at this table")
    text, reaction = clean_text(message)
    check_rate(room, conn, time.monotonic())
    sender = ("spectator" if conn.seat is None
              else check_name(room.table.seats[conn.seat].name or f"seat {conn.seat}"))
    frame: Json = {"type": "chat", "sender": sender, "seat": conn.seat, "text": text}
    if reaction:
        frame["reaction"] = True
    if conn.seat is None:
        frame["spectators"] = True  # said among the spectators only
    lobby.handlers.setdefault("chat", deliver)  # a lobby made without the app, in tests
    await lobby.publish(room.id, "chat", frame)


async def deliver(room: Room, frame: Json) -> None:
    """A chat line, said here or on another process: kept for late-comers and sent to the
    connections here that may hear it."""
    backlog(room).append(frame)
    for other in [c for c in room.conns if hears(room, c, frame)]:
        try:
            await other.send(frame)
        except Exception:  # a closed socket: the broadcast that follows forgets it
            continue


def backlog(room: Room) -> deque[Json]:
    """The table's recent messages (kept in memory, never stored)."""
    kept: deque[Json] = room.extra.setdefault("chat_backlog", deque(maxlen=BACKLOG))
    return kept


def hears(room: Room, conn: Connection, frame: Json) -> bool:
    """Whether ``conn`` may read ``frame``: a spectators' message only spectators; the
    players' messages everybody, but spectators not when their chat is off."""
    if frame.get("spectators"):
        return conn.seat is None
    return conn.seat is not None or room.table.settings.get("spectator_chat") != "off"


async def greet(room: Room, conn: Connection) -> None:
    """The attach hook: a new connection is sent the recent messages it may read."""
    for frame in list(backlog(room)):
        if hears(room, conn, frame):
            await conn.send(frame)


def frame_fields(room: Room, seat: int | None) -> Json:
    """The frame hook: the host's spectator setting, so the page can say who hears whom."""
    del seat
    return {"spectator_chat": room.table.settings.get("spectator_chat", "separate")}
