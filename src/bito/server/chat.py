"""Talking at the table: short text messages and quick reactions.

A client sends ``{"type": "chat", "text": "..."}`` or ``{"type": "chat", "reaction": "👍"}``
(one of :data:`REACTIONS`); the table receives ``{"type": "chat", "id": ID, "sender": NAME,
"seat": N, "text": "..."}`` (``"reaction": true`` for a reaction, whose text is the emoji;
``id`` tells the same line apart when it is heard twice, live and from the backlog). Everything is
plain text: the server never interprets it and the page draws it with ``textContent``, so a
``<b>`` arrives as the four characters it is.

Who hears whom is the host's choice, made when the table is created (``spectator_chat``):

* ``"separate"`` (the default): the players' chat goes to everybody at the table; the
  spectators talk among themselves, and players never see it (nobody at the table is
  distracted, or given hints, by the audience);
* ``"off"``: spectators can neither write nor read the chat.

Chat is not part of the game: the records and the replays never hold what people said. The
database keeps only the last :data:`BACKLOG` lines of a match (all its deals), for at most a
day (:mod:`bito.server.shared`), because a page opened or reloaded through another process
of a cluster must be sent the talk it missed; each process keeps them in memory as a cache
and sends them to a connection that opens (a reloaded page, a reconnect, the next deal of a
rematch), each to those who could hear it. The rate limit counts the stored lines, so a
speaker gets the same allowance whichever process his messages reach. Muting a player is
the browser's business (a list kept in the page), as nobody else needs to know.
"""

from __future__ import annotations

import secrets
from collections import deque
from typing import Any

from bito.server import shared
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


def match_key(room: Room) -> str:
    """Whose talk a line belongs to: the match (every deal of a rematch is one talk)."""
    match = room.table.settings.get("match")
    base = match.get("base") if isinstance(match, dict) else None
    return str(base) if base else room.id


async def chat(lobby: Lobby, room: Room, conn: Connection, message: Json) -> None:
    """Check one chat message and send it to those who may hear it, on every process that
    has sockets at the table (:meth:`Lobby.publish`; :func:`deliver` is its handler)."""
    setting = room.table.settings.get("spectator_chat", "separate")
    if conn.seat is None and setting == "off":
        raise ChatError("type", "the host switched the spectators' chat off at this table")
    text, reaction = clean_text(message)
    sender = ("spectator" if conn.seat is None
              else check_name(room.table.seats[conn.seat].name or f"seat {conn.seat}"))
    frame: Json = {"type": "chat", "id": secrets.token_urlsafe(9), "sender": sender,
                   "seat": conn.seat, "text": text}
    if reaction:
        frame["reaction"] = True
    if conn.seat is None:
        frame["spectators"] = True  # said among the spectators only
    # stored first: at most RATE_COUNT lines in RATE_WINDOW seconds per seat (a spectator:
    # per address), counted over every process; a refused line is not stored
    wait = await shared.say(lobby.storage, match_key(room), speaker(conn), frame, RATE_COUNT,
                            RATE_WINDOW, BACKLOG)
    if wait:
        raise ChatError("text", f"chat: at most {RATE_COUNT} messages in "
                        f"{RATE_WINDOW:.0f} seconds; wait {max(wait, 0.1):.0f} s")
    lobby.handlers.setdefault("chat", deliver)  # a lobby made without the app, in tests
    await lobby.publish(room.id, "chat", frame)


async def deliver(room: Room, frame: Json) -> None:
    """A chat line, said here or on another process: kept for late-comers and sent to the
    connections here that may hear it."""
    kept = backlog(room)
    if all(line.get("id") != frame.get("id") for line in kept):
        kept.append(frame)
    for other in [c for c in room.conns if hears(room, c, frame)]:
        try:
            await other.send(frame)
        except Exception:  # a closed socket: the broadcast that follows forgets it
            continue


def backlog(room: Room) -> deque[Json]:
    """The table's recent messages as this process knows them (the cache of the stored
    lines, read once by :func:`greet`)."""
    kept: deque[Json] = room.extra.setdefault("chat_backlog", deque(maxlen=BACKLOG))
    return kept


def hears(room: Room, conn: Connection, frame: Json) -> bool:
    """Whether ``conn`` may read ``frame``: a spectators' message only spectators; the
    players' messages everybody, but spectators not when their chat is off."""
    if frame.get("spectators"):
        return conn.seat is None
    return conn.seat is not None or room.table.settings.get("spectator_chat") != "off"


def greet(lobby: Lobby) -> Any:
    """The attach hook: a new connection is sent the recent messages it may read. The first
    connection to a table on this process reads them from the database (said through
    another process, or before a restart); lines heard meanwhile are kept too."""

    async def recent_lines(room: Room, conn: Connection) -> None:
        if not room.extra.get("chat_read"):
            stored = await shared.chat_lines(lobby.storage, match_key(room), BACKLOG)
            room.extra["chat_read"] = True
            ids = {line.get("id") for line in stored}
            kept = backlog(room)
            merged = stored + [line for line in kept if line.get("id") not in ids]
            kept.clear()
            kept.extend(merged[-BACKLOG:])
        for frame in list(backlog(room)):
            if hears(room, conn, frame):
                await conn.send(frame)

    return recent_lines


def frame_fields(room: Room, seat: int | None) -> Json:
    """The frame hook: the host's spectator setting, so the page can say who hears whom."""
    del seat
    return {"spectator_chat": room.table.settings.get("spectator_chat", "separate")}
