"""Every table of this server: the :class:`Lobby`, composed of one part per concern.

A :class:`~bito.server.table.Room` is the live copy of one stored table. Every change goes
through the room's lock, is written to the database, and only then broadcast. The parts,
each a small object that gets only what it uses:

* :mod:`~bito.server.holding` — which tables this process drives (the lease side);
* :mod:`~bito.server.presence` — who is connected, on every process;
* :mod:`~bito.server.seats` — opening a table, joining, the ready-check, seats changed;
* :mod:`~bito.server.play` — the deal and the moves, stored before shown;
* :mod:`~bito.server.clock` — the driver of each move: a person's clock or a bot's turn;
* :mod:`~bito.server.tablebots` — the bots a table may seat, their names and decisions;
* :mod:`~bito.server.broadcast` — the frames each connection is shown;
* :mod:`~bito.server.sync` — every process showing every table as stored.

The Lobby owns the rooms, the database and the add-ons' hooks, wires the parts together and
offers their verbs to the app and the add-ons (``lobby.act``, ``lobby.frame``...).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from bito.server import games
from bito.server.botpool import BotPool
from bito.server.broadcast import AttachHook, Broadcast, FrameHook, dump, log_for
from bito.server.clock import Clock
from bito.server.db import Database, PostgresDatabase, ThreadedDatabase
from bito.server.holding import Handover, Holding
from bito.server.play import EndHook, Play
from bito.server.presence import PRESENCE_LIFE, PRESENCE_RENEW, Presence
from bito.server.render import Json
from bito.server.seats import Seats
from bito.server.storage import Storage
from bito.server.sync import Sync
from bito.server.table import (
    DUMMY,
    LOG_LENGTH,
    MAX_PLAYERS,
    REARM,
    Connection,
    Room,
    RoomError,
    Settings,
    check_name,
)
from bito.server.tablebots import BOT_NAMES, TableBots, admitted_bots, bot_name

#: the names other modules have always imported from here
__all__ = ["BOT_NAMES", "DUMMY", "LOG_LENGTH", "MAX_PLAYERS", "PRESENCE_LIFE", "PRESENCE_RENEW",
           "REARM", "Connection", "Lobby", "Room", "RoomError", "Settings", "admitted_bots",
           "bot_name", "check_name", "dump", "log_for"]

Handler = Callable[[Room, Json], Coroutine[Any, Any, None]]


class Lobby:
    """Every room of this server, backed by one database.

    On a database several processes share (PostgreSQL), ``held`` is set: this process
    drives the clock and bots only of the tables it holds a lease on, and reads a table
    again whenever another process's change notice names it (:meth:`Sync.changed`)."""

    def __init__(self, storage: Storage | Database, settings: Settings | None = None,
                 bots: BotPool | None = None) -> None:
        self.storage: Database = (ThreadedDatabase(storage) if isinstance(storage, Storage)
                                  else storage)
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        self.bots = bots or BotPool(self.settings.bot_workers or None,
                                    self.settings.bot_time_cap)
        #: events published without being stored (see :meth:`publish`), by kind
        self.handlers: dict[str, Handler] = {}
        #: add-ons' fields in every state frame (the rematch's votes and match score);
        #: registered by the app, so this module imports none of them
        self.frame_hooks: list[FrameHook] = []
        #: add-ons' greetings to a new connection, after its first frame (the chat's)
        self.attach_hooks: list[AttachHook] = []
        #: add-ons told when a game ends, after its last move is stored (the ratings)
        self.end_hooks: list[EndHook] = []

        # the parts; a part that needs one built later gets a call that looks it up then
        self.holding = Holding()
        self.presence = Presence(self.holding, self.publish, self._show)
        self.table_bots = TableBots(self.settings, self.bots, self._move)
        self.clock = Clock(self.settings, self.storage, self.holding.owns, self.table_bots,
                           self._move)
        self.broadcasts = Broadcast(self.settings, self.presence.connected,
                                    self.presence.announce, self._forget,
                                    self.frame_hooks, self.attach_hooks)
        self.sync = Sync(self.storage, self.rooms, self.holding, self.bots,
                         self.clock.schedule, self.clock.show_elsewhere,
                         self._ask_presence, self.broadcasts.broadcast)
        self.play = Play(self.storage, self.bots, self.sync.refresh, self.clock.schedule,
                         self.broadcasts.broadcast, self.end_hooks)
        self.seats = Seats(self.storage, self.settings, self.holding, self.rooms,
                           self.table_bots, refresh=self.sync.refresh,
                           stored_seats=self.sync.stored_seats, deal=self.play.deal,
                           schedule=self.clock.schedule, announce=self.presence.announce,
                           show=self.broadcasts.broadcast)
        self.handover = Handover(self.rooms, self.sync.load, self.sync.refresh,
                                 self.storage.last_action_at, self.clock.schedule)
        self.handlers["presence"] = self.presence.heard

        # the verbs the app and the add-ons use, each one part's
        self.owns = self.holding.owns
        self.bot_levels = self.table_bots.levels
        self.check_bot = self.table_bots.check
        self.create, self.open_table = self.seats.create, self.seats.open_table
        self.join, self.kick, self.ready = self.seats.join, self.seats.kick, self.seats.ready
        self.seat_bot, self.back = self.seats.seat_bot, self.seats.back
        self.renew_token = self.seats.renew_token
        self.act, self.deal = self.play.act, self.play.deal
        self.frame, self.broadcast = self.broadcasts.frame, self.broadcasts.broadcast
        self.attach, self.detach = self.broadcasts.attach, self.broadcasts.detach
        self.seat_of = self.sync.seat_of

    # --- the lease keeper's names for this process and the tables it drives ------------------

    @property
    def held(self) -> set[str] | None:
        """The tables this process drives (None: every table, the one-process default)."""
        return self.holding.held

    @held.setter
    def held(self, tables: set[str] | None) -> None:
        self.holding.held = tables

    @property
    def origin(self) -> str:
        """This process's name in leases and notices."""
        return self.holding.origin

    @origin.setter
    def origin(self, name: str) -> None:
        self.holding.origin = name

    @property
    def moves(self) -> int:
        """Moves this process stored (the metrics' moves/s)."""
        return self.play.moves

    # --- the rooms --------------------------------------------------------------------------

    async def resume(self) -> int:
        """Load every unfinished table from the database and restart its clock and bots.
        Returns the number of games resumed mid-play. With leases (several processes) the
        lease keeper adopts tables instead (:meth:`Handover.adopt`): none is resumed here."""
        if self.holding.shared:
            return 0
        resumed = 0
        for table_id in await self.storage.table_ids(("waiting", "playing")):
            room = await self.sync.load(table_id)
            if room is not None and room.state is not None:
                resumed += 1
                self.clock.schedule(room)
        return resumed

    async def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None and 0 < len(table_id) <= 64:
            room = await self.sync.load(table_id)
        if room is None:
            raise RoomError(f"no table {table_id!r}")
        return room

    async def public_tables(self) -> list[Json]:
        if self.holding.shared:  # tables opened on other processes are listed too
            for table_id in await self.storage.table_ids(("waiting",)):
                if table_id not in self.rooms:
                    await self.sync.load(table_id)
        out = []
        for room in self.rooms.values():
            t = room.table
            if t.settings.get("public") and t.status == "waiting":
                out.append({"id": t.id, "variant": t.spec, "players": t.players,
                            "open": sum(s.kind == "open" for s in t.seats),
                            "host": t.seats[0].name, "game": games.describe(t.spec),
                            "deck": games.deck_size(t.spec), "timer": t.settings.get("timer")})
        return out

    # --- events that are not stored (chat lines, presence) ------------------------------------

    async def publish(self, table_id: str, kind: str, data: Json) -> None:
        """Send an event that is not stored (a chat line...) to the table's connections on
        every process: here through ``handlers[kind]`` at once, elsewhere through the
        database's notices. A handler is ``async (room, data) -> None``."""
        handler = self.handlers.get(kind)
        room = self.rooms.get(table_id)
        if handler is not None and room is not None:
            await handler(room, data)
        if self.holding.shared and isinstance(self.storage, PostgresDatabase):
            await self.storage.publish(table_id, kind, data)

    def event(self, table_id: str, kind: str, data: Json) -> None:
        """Another process published ``kind`` for the table (see :meth:`publish`)."""
        handler = self.handlers.get(kind)
        room = self.rooms.get(table_id)
        if handler is not None and room is not None:
            asyncio.get_running_loop().create_task(handler(room, data))

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
            self.presence.forget(room)
        self.bots.close()

    # --- the calls between parts built in turn ------------------------------------------------

    async def _move(self, room: Room, action: Any, how: str) -> None:
        await self.play.guarded_apply(room, action, how)

    async def _show(self, room: Room) -> None:
        await self.broadcasts.broadcast(room)

    async def _ask_presence(self, room: Room) -> None:
        await self.presence.announce(room, ask=True)

    def _forget(self, table_id: str) -> None:
        self.rooms.pop(table_id, None)
