"""The seats of a table: opening it, joining, the ready-check, bots seated by the host, a
seat freed, handed back or moved to another device.

A seat's change (Ready, a new token, a seat taken back from the bot, a seat freed or given to
a bot) is written before it is made in memory: a write refused while the database is away
leaves the seat as the database has it, so the old token still works and the person may
simply ask again, and a restart finds what the players saw.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bito.errors import BitoError
from bito.server import games
from bito.server.db import Database
from bito.server.holding import Holding
from bito.server.refusals import error_words
from bito.server.storage import SeatRow, TableRow
from bito.server.table import DUMMY, MAX_PLAYERS, Room, RoomError, Settings, check_name, ready_left
from bito.server.tablebots import TableBots, bot_seat

Step = Callable[[Room], Awaitable[Any]]


class Seats:
    """Who sits where. ``refresh`` reads a room again, ``stored_seats`` does so only on a
    shared database (before a seat's change), ``deal`` deals once everyone is ready,
    ``schedule`` arms the next move, ``announce`` tells other processes who is connected
    here, ``show`` redraws the table."""

    def __init__(self, storage: Database, settings: Settings, holding: Holding,
                 rooms: dict[str, Room], bots: TableBots, *, refresh: Step,
                 stored_seats: Step, deal: Step, schedule: Callable[[Room], None],
                 announce: Step, show: Step) -> None:
        self.storage = storage
        self.settings = settings
        self.holding = holding
        self.rooms = rooms
        self.bots = bots
        self.refresh = refresh
        self.stored_seats = stored_seats
        self.deal = deal
        self.schedule = schedule
        self.announce = announce
        self.show = show

    async def create(self, *, variant: str, rules_text: str | None, deck: int | None,
                     players: int, name: str, seats: list[str], public: bool,
                     timer: float | None, extra: dict[str, Any] | None = None
                     ) -> tuple[Room, str]:
        """A new table; the creator sits in seat 0 and is its host. ``seats`` says, for seats
        1.., "open" (for a friend) or a bot's name; ``extra`` adds the add-ons' checked table
        settings (the chat's spectator setting). Returns the room and the host's token."""
        from bito.bots import bot_names

        spec = games.resolve_spec(variant, rules_text, deck)
        if not 2 <= players <= MAX_PLAYERS:
            raise RoomError(f"players: {players} is not between 2 and {MAX_PLAYERS}")
        # Deal once now so a seat count the deck cannot serve is refused at creation.
        try:
            games.new_state(games.Setup(spec, players, 0))
        except BitoError:
            raise
        except Exception as e:  # an engine that cannot deal this game must not crash us
            raise RoomError(f"variant: {spec} cannot be dealt here ({e})") from None
        if len(seats) > players - 1:
            raise RoomError(f"seats: {len(seats)} choices for {players - 1} other seats")
        seats = seats + ["open"] * (players - 1 - len(seats))
        dummy = games.dummy_seat(spec, players)
        if dummy == 0:
            raise RoomError("dummy.seat: the host sits at seat 0; seat the dummy elsewhere")
        if dummy > 0:
            seats[dummy - 1] = DUMMY  # #57: a seat nobody takes; its controller plays it
        if timer is not None and not 5 <= timer <= 600:
            raise RoomError("timer: choose between 5 and 600 seconds")
        table = TableRow(id=secrets.token_urlsafe(9), spec=spec, players=players, seed=0,
                         settings={"public": bool(public),
                                   "timer": timer if timer is not None else self.settings.timer,
                                   **(extra or {})},
                         status="waiting", outcome=None, created=time.time())
        host = check_name(name)
        table.seats.append(SeatRow(0, host, "human", self.settings.default_bot,
                                   secrets.token_urlsafe(24), False))
        for i, choice in enumerate(seats, start=1):
            if choice == DUMMY:
                table.seats.append(SeatRow(i, "Dummy", "bot", self.settings.default_bot,
                                           secrets.token_urlsafe(24), True))
            elif choice == "open":
                table.seats.append(SeatRow(i, "", "open", self.settings.default_bot, "", False))
            elif choice in bot_names():
                self.bots.check(choice, "seats")
                table.seats.append(bot_seat(i, choice))
            else:
                raise RoomError(f"seats: {choice!r} is neither 'open' nor a bot "
                                f"({', '.join(self.bots.levels())})")
        room = await self.open_table(table)
        return room, table.seats[0].token

    async def open_table(self, table: TableRow) -> Room:
        """Store a new table and keep its room here. On a shared database the process that
        opens a table first holds its lease and drives it (a rematch's next deal too, which
        the add-on builds itself and more than one process may open); a later opener
        shows the table as stored and leaves the driving to the first
        (:meth:`bito.server.holding.Holding.owns`)."""
        driven = await self.storage.create_table(
            table, owner=self.holding.origin if self.holding.shared else None)
        room = self.rooms.get(table.id)
        if room is None:
            room = self.rooms[table.id] = Room(table)
        if self.holding.shared:
            if driven:
                self.holding.hold(table.id)  # its creator's process drives it
            else:
                async with room.lock:
                    await self.refresh(room)
        return room

    async def join(self, room: Room, name: str) -> tuple[int, str]:
        async with room.lock:
            if room.table.status != "waiting":
                raise RoomError("this game has started; you can watch it")
            free = [s for s in room.table.seats if s.kind == "open"]
            if not free:
                raise RoomError("the table is full; you can watch it")
            clean = check_name(name)
            while True:  # another process may fill a seat meanwhile: take the next
                row = SeatRow(free[0].seat, clean, "human", free[0].bot,
                              secrets.token_urlsafe(24), False)
                if await self.storage.claim_seat(room.id, row):
                    break
                await self.refresh(room)
                free = [s for s in room.table.seats if s.kind == "open"]
                if room.table.status != "waiting" or not free:
                    raise RoomError("the table filled up meanwhile; you can watch it")
            room.table.seats[row.seat] = seat = row
            room.seated_at[seat.seat] = time.monotonic()
        await self.show(room)
        return seat.seat, seat.token

    async def kick(self, room: Room, seat: int, target: int) -> None:
        """The host frees a person's seat before the deal: one who has not pressed Ready
        within ``ready_timeout`` seconds of sitting down (a stranger who joined a public table
        and went quiet). His token stops working; the seat is open again."""
        async with room.lock:
            await self.stored_seats(room)
            if seat != 0:
                raise RoomError("only the host (seat 0) may free a seat")
            if room.table.status != "waiting":
                raise RoomError("the game has already started: a seat can be freed only "
                                "before the deal")
            if not 1 <= target < room.table.players:
                raise RoomError(f"seat: choose a seat from 1 to {room.table.players - 1}")
            row = room.table.seats[target]
            if row.kind != "human":
                raise RoomError(f"seat {target} has no person to free (a bot's seat is "
                                "opened with {\"type\": \"bot\", \"bot\": null})")
            if row.ready:
                raise RoomError(f"seat {target}: {row.name} is ready; only a seat that never "
                                "pressed Ready can be freed")
            left = ready_left(room, target, self.settings)
            if left > 0:
                raise RoomError(f"seat {target}: {row.name} still has {left:.0f} s to press "
                                "Ready")
            freed = SeatRow(target, "", "open", self.settings.default_bot, "", False)
            await self.storage.save_seat(room.id, freed)  # stored first, see the module
            room.table.seats[target] = freed
            room.seated_at.pop(target, None)
            gone = [c for c in room.conns if c.seat == target]
        for conn in gone:  # his connections watch from now on
            conn.seat = None
        await self.announce(room)
        for conn in gone:
            with contextlib.suppress(Exception):
                code, said = error_words("the host freed your seat: you did not press "
                                         "Ready in time; you are watching now", conn.lang)
                await conn.send({"type": "error", "request": "kick", "code": code,
                                 "message": said})
        await self.show(room)

    async def ready(self, room: Room, seat: int) -> None:
        async with room.lock:
            await self.stored_seats(room)
            if room.table.status != "waiting":
                raise RoomError("the game has already started")
            row = room.table.seats[seat]
            await self.storage.save_seat(room.id, replace(row, ready=True))
            row.ready = True
            if self.holding.shared:  # another process may have seen the other Readies
                await self.refresh(room)
            if room.table.status == "waiting" and all(s.kind != "open" and s.ready
                                                      for s in room.table.seats):
                await self.deal(room)
        await self.show(room)

    async def seat_bot(self, room: Room, seat: int, target: int, bot: str | None) -> None:
        """The host fills an open seat with a bot (``bot``) or opens a bot's seat again."""
        async with room.lock:
            await self.stored_seats(room)
            if seat != 0:
                raise RoomError("only the host (seat 0) may seat bots")
            if room.table.status != "waiting":
                raise RoomError("the game has already started")
            if not 1 <= target < room.table.players:
                raise RoomError(f"seat: choose a seat from 1 to {room.table.players - 1}")
            row = room.table.seats[target]
            if room.state is None and target == games.dummy_seat(room.table.spec,
                                                                 room.table.players):
                raise RoomError(f"seat {target} is the dummy's (#57): its controller plays it")
            if bot is None:
                if row.kind != "bot":
                    raise RoomError(f"seat {target} is not a bot's")
                row = SeatRow(target, "", "open", self.settings.default_bot, "", False)
            else:
                if row.kind == "human":
                    raise RoomError(f"seat {target} is taken by {row.name}")
                self.bots.check(bot, "bot")
                row = bot_seat(target, bot)
            await self.storage.save_seat(room.id, row)
            room.table.seats[target] = row
        await self.show(room)

    async def renew_token(self, room: Room, seat: int, notice: str) -> str:
        """Give a person's seat a fresh token (its owner goes on from another device): the
        old token stops working, and connections holding it are sent ``notice`` and watch
        from then on. Returns the new token."""
        async with room.lock:
            row = room.table.seats[seat]
            if row.kind not in ("human", "away"):
                raise RoomError(f"seat {seat} is not a person's")
            token = secrets.token_urlsafe(24)
            await self.storage.save_seat(room.id, replace(row, token=token))
            row.token = token  # only now: a failed write leaves the old token working
            gone = [c for c in room.conns if c.seat == seat]
        for conn in gone:
            conn.seat = None
        await self.announce(room)
        for conn in gone:
            code, said = error_words(notice, conn.lang)
            with contextlib.suppress(Exception):
                await conn.send({"type": "error", "request": "moved", "field": "token",
                                 "code": code, "message": said})
        await self.show(room)
        return row.token

    async def back(self, room: Room, seat: int) -> None:
        async with room.lock:
            await self.stored_seats(room)
            row = room.table.seats[seat]
            if row.kind == "away":
                await self.storage.save_seat(room.id, replace(row, kind="human"))
                row.kind = "human"
                room.timeouts[seat] = 0
                self.schedule(room)
        await self.show(room)

