"""Which tables this process drives: all of them alone, the ones it holds a lease on in a
cluster.

On a database several processes share (PostgreSQL) the lease keeper
(:class:`bito.server.lease.Keeper`) names this process (``origin``) and fills ``held``; a
table's clock and bots run only on the process holding it, and every process shows every
table. Alone (``held`` is None) this process drives every table.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bito.server.table import Room

Load = Callable[[str], Awaitable[Room | None]]
Refresh = Callable[[Room], Awaitable[bool]]
LastMoveAt = Callable[[str], Awaitable[float | None]]
Schedule = Callable[[Room], None]


class Holding:
    """The lease side of the tables in memory."""

    def __init__(self) -> None:
        #: the tables this process drives (None: every table, the one-process default)
        self.held: set[str] | None = None
        self.origin = ""  # this process's name in leases and notices

    @property
    def shared(self) -> bool:
        """Whether other processes share the database (and the tables)."""
        return self.held is not None

    def owns(self, room: Room) -> bool:
        """Whether this process drives the room's clock and bots."""
        return self.held is None or room.id in self.held

    def hold(self, table_id: str) -> None:
        """This process drives the table from now on (it opened it first)."""
        if self.held is not None:
            self.held.add(table_id)


class Handover:
    """Taking a table's driving on (a lease taken) or off (a lease lost). ``load`` reads a
    table into memory, ``refresh`` brings a room up to the database, ``schedule`` arms its
    clock or bot."""

    def __init__(self, rooms: dict[str, Room], load: Load, refresh: Refresh,
                 last_move_at: LastMoveAt, schedule: Schedule) -> None:
        self.rooms = rooms
        self.load = load
        self.refresh = refresh
        self.last_move_at = last_move_at
        self.schedule = schedule

    async def adopt(self, table_id: str) -> None:
        """This process has just taken the table's lease: read it and drive it."""
        room = self.rooms.get(table_id)
        if room is None:
            room = await self.load(table_id)
            if room is None:
                return
        else:
            async with room.lock:
                await self.refresh(room)
                room.clock_since = await self.last_move_at(table_id)
        async with room.lock:
            if room.task is None or room.task.done():
                self.schedule(room)

    def release(self, table_id: str) -> None:
        """Another process drives the table now: stop its clock and bots here."""
        room = self.rooms.get(table_id)
        if room is not None and room.task is not None:
            room.task.cancel()
            room.task = None
