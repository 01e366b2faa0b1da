"""Who is connected to a table, counted on every process.

A seat's *offline* mark must be right wherever its frame is drawn, and a player's socket may
sit on any process behind the proxy. Each process announces the seats connected to it when
that changes (and every :data:`PRESENCE_RENEW` seconds, the lease keeper's renewal); an
announcement counts for :data:`PRESENCE_LIFE` seconds, so a process killed with ``kill -9``
stops counting that long after its last word. On one process nothing is announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable

from bito.errors import BitoError
from bito.server.holding import Holding
from bito.server.render import Json
from bito.server.table import Room

#: Seconds between a process's announcements of the seats connected to it, and how long an
#: announcement counts: a process killed with ``kill -9`` stops announcing, and its seats
#: are shown offline everywhere within PRESENCE_LIFE seconds (each room wakes when the
#: oldest announcement it counts runs out, see :meth:`Presence.heard`).
PRESENCE_RENEW = 5.0
PRESENCE_LIFE = 15.0

Publish = Callable[[str, str, Json], Awaitable[None]]
Show = Callable[[Room], Awaitable[None]]


class Presence:
    """The seats connected here and elsewhere. ``publish`` sends an unstored event to every
    process (:meth:`bito.server.rooms.Lobby.publish`); ``show`` redraws a table's frames."""

    def __init__(self, holding: Holding, publish: Publish, show: Show) -> None:
        self.holding = holding
        self.publish = publish
        self.show = show

    def connected(self, room: Room) -> set[int]:
        """The seats with a connection open on any process (a seat's *offline* mark)."""
        here = {c.seat for c in room.conns if c.seat is not None}
        if room.elsewhere:
            now = time.monotonic()
            for seats, until in room.elsewhere.values():
                if until > now:
                    here |= seats
        return here

    async def announce(self, room: Room, again: bool = False, ask: bool = False) -> None:
        """Tell the other processes which seats are connected here, when that changed
        (``again``: in any case, a renewal; ``ask``: and ask them to tell theirs)."""
        if not self.holding.shared:
            return
        here = frozenset(c.seat for c in room.conns if c.seat is not None)
        if here == room.announced and not (again and here) and not ask:
            return
        room.announced = here
        with contextlib.suppress(BitoError):  # the database away: the renewal says it again
            await self.publish(room.id, "presence", {"o": self.holding.origin,
                                                     "seats": sorted(here), "ask": ask})

    async def heard(self, room: Room, data: Json) -> None:
        """Another process announced the seats connected to it (:meth:`announce`); the
        frames change only when the marks shown do. The room is woken when the oldest
        announcement it counts runs out, so a killed process's seats go offline
        :data:`PRESENCE_LIFE` seconds after its last word, not at some later renewal."""
        origin = str(data.get("o", ""))
        if not origin or origin == self.holding.origin:
            return
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, int) for s in seats):
            return
        before = self.connected(room)
        if seats:
            room.elsewhere[origin] = (frozenset(seats), time.monotonic() + PRESENCE_LIFE)
        else:
            room.elsewhere.pop(origin, None)
        self._arm(room)
        if data.get("ask") and room.announced:
            await self.announce(room, again=True)
        if self.connected(room) != before:
            await self.show(room)

    def _arm(self, room: Room) -> None:
        """Arm the room's wake-up for when the first announcement it counts runs out."""
        if room.presence_timer is not None:
            room.presence_timer.cancel()
            room.presence_timer = None
        if not room.elsewhere:
            return
        loop = asyncio.get_running_loop()
        first = min(until for _, until in room.elsewhere.values())
        room.presence_timer = loop.call_later(max(0.0, first - time.monotonic()) + 0.01,
                                              self._due, room)

    def _due(self, room: Room) -> None:
        asyncio.get_running_loop().create_task(self._ran_out(room))

    async def _ran_out(self, room: Room) -> None:
        """Forget what other processes said too long ago (a process killed without a word):
        its seats are shown offline now."""
        room.presence_timer = None
        now = time.monotonic()
        gone = [o for o, (_, until) in room.elsewhere.items() if until <= now]
        for origin in gone:
            del room.elsewhere[origin]
        self._arm(room)
        if gone:
            await self.show(room)

    async def renew(self, rooms: Iterable[Room]) -> None:
        """Say again which seats are connected here (what others said runs out by itself,
        see :meth:`heard`)."""
        for room in list(rooms):
            if room.announced:
                await self.announce(room, again=True)

    @staticmethod
    def forget(room: Room) -> None:
        """The room closes: its wake-up is not needed any more."""
        if room.presence_timer is not None:
            room.presence_timer.cancel()
