"""A table in play, as this process holds it: its stored row, its state and its connections.

:class:`Room` is the data every part of the server works on (:mod:`bito.server.rooms` says
which part does what); it has no behaviour beyond reading itself. :class:`Settings` are the
server-wide defaults, :class:`RoomError` a request the table cannot grant.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bito.errors import BitoError
from bito.server import games
from bito.server.render import Json
from bito.server.storage import TableRow

MAX_PLAYERS = 12
LOG_LENGTH = 20
DUMMY = "\0dummy"  # the seat choice create() gives a playing dummy's seat (#57)
REARM = 1.0  # seconds before a bot's or a clock's move is tried again after a failure


class RoomError(BitoError):
    """A request the table cannot grant (reported to the client, never fatal)."""


@dataclass(eq=False)
class Connection:
    """One open websocket: its seat (None for a spectator) and how to send it a frame."""

    seat: int | None
    send: Callable[[Json | str], Awaitable[None]]  # a frame, or one already serialised
    address: str = ""  # the client's address (behind a trusted proxy: the forwarded one)
    lang: str = "en"  # the language of its error frames (bito.server.webtext)


@dataclass(frozen=True)
class Settings:
    """Server-wide defaults; a table may choose its own move timer."""

    timer: float = 30.0  # seconds a human has for a move
    bot_delay: float = 0.6  # a pause before a bot moves, so people can follow
    timeouts_to_bot: int = 3  # timeouts in a row that hand a seat to a bot
    default_bot: str = "heuristic"
    rate_limit: int = 200  # messages a second one connection may send (a person sends a few)
    tables_per_hour: int = 60  # tables one client address may create in an hour
    resume_grace: float = 10.0  # least time left on a clock after a restart (to reconnect)
    #: the bot levels tables may seat (None: every bot but ``analysis``, which has no cap)
    bot_levels: tuple[str, ...] | None = None
    bot_workers: int = 0  # worker processes deciding bot moves (0: one per core but one)
    bot_time_cap: float = 5.0  # seconds a bot decision may take before a fallback move
    ready_timeout: float = 60.0  # seconds to press Ready before the host may free the seat
    spectators_per_table: int = 100  # spectator connections at one table
    spectators_per_address: int = 10  # spectator connections from one client address
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For is believed


@dataclass(eq=False)
class Room:
    table: TableRow
    state: Any = None
    actions: list[Any] = field(default_factory=list)
    log: list[Json] = field(default_factory=list)
    conns: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    deadline: float | None = None
    timeouts: dict[int, int] = field(default_factory=dict)
    #: after a restart: when the turn in progress began (its clock keeps that start)
    clock_since: float | None = None
    #: before the deal: when each person sat down (the ready-check's clock starts there)
    seated_at: dict[int, float] = field(default_factory=dict)
    #: what the table's add-ons keep per table (the chat's, the rematch's), by add-on name
    extra: dict[str, Any] = field(default_factory=dict)
    #: a notice asked for the whole table to be read again (see
    #: :meth:`bito.server.sync.Sync.changed`)
    stale: bool = False
    #: other processes' changes noticed and not yet applied, in the order they committed
    incoming: list[Json] = field(default_factory=list)
    refreshing: bool = False
    #: the moves stored, as the lease keeper's last look found them while this room was
    #: behind (0: it was not): still behind at the next look, a notice was lost
    behind: int = 0
    #: the lease keeper's last look found the table dealt in the database and not here
    undealt: bool = False
    #: seats with a connection on another process, by process: (seats, until when, on the
    #: monotonic clock) as its last announcement said (see :class:`bito.server.presence.Presence`)
    elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    #: the seats this process last announced as connected here (None: never announced)
    announced: frozenset[int] | None = None
    #: wakes the room when the first of ``elsewhere`` runs out (see
    #: :class:`bito.server.presence.Presence`)
    presence_timer: asyncio.TimerHandle | None = None

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def setup(self) -> games.Setup:
        match = (self.table.settings.get("match") or {}).get("context")
        return games.Setup(self.table.spec, self.table.players, self.table.seed,
                           tuple(match) if match else None)

    def seat_of_token(self, token: str | None) -> int | None:
        if not token:
            return None
        for s in self.table.seats:
            if s.kind != "open" and secrets.compare_digest(s.token, token):
                return s.seat
        return None

    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]


def move_timer(room: Room, settings: Settings) -> float:
    """Seconds a person has for a move at this table (its own timer, else the server's)."""
    return float(room.table.settings.get("timer") or settings.timer)


def count_timeout(room: Room, seat: int, how: str) -> None:
    """Timeouts in a row, as the clock counted them."""
    if how == "timeout":
        room.timeouts[seat] = room.timeouts.get(seat, 0) + 1
    elif how == "move":
        room.timeouts[seat] = 0


def check_name(name: str) -> str:
    """A player's name as shown at the table: 1-24 printable characters."""
    clean = " ".join(str(name).split())
    if not 1 <= len(clean) <= 24 or not clean.isprintable():
        raise RoomError("name: give 1 to 24 printable characters")
    return clean


def ready_left(room: Room, seat: int, settings: Settings) -> float:
    """Seconds before the host may free ``seat`` for not pressing Ready (0: now). A seat
    loaded from the database (a restart) counts from when it was loaded."""
    since = room.seated_at.setdefault(seat, time.monotonic())
    return max(0.0, settings.ready_timeout - (time.monotonic() - since))


def log_entry(before: Any, seat: int, action: Any, how: str) -> Json:
    """One move of the room's log. A move that hides cards (Cheat's face-down card) also
    keeps the form the other seats see, under ``others``; :func:`bito.server.broadcast.log_for`
    hands each connection the right one."""
    from bito.games.family import seen_by
    from bito.server.render import action_json, move_label

    seen = seen_by(before, action, seat)  # #58: the card turned up
    entry = action_json(seen, move_label(before, seat, seen))  # Cheat's "put down", not "play"
    entry.update(seat=seat, how=how)
    public = seen_by(before, action, None)
    if public is not action:
        masked = action_json(public)
        masked.update(seat=seat, how=how)
        entry["others"] = masked
    return entry
