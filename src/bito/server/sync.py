"""Every process shows every table as the database stores it.

On a database several processes share, each change is stored first and announced in a
notice (:class:`bito.server.lease.Keeper` hears them): a move is played on from its notice,
a deal dealt from its seed, a seat's change read from the seats, anything else by reading the
whole table. A copy that disagrees with what is stored (another seed, a move never stored)
is rebuilt from the database, and the lease keeper's periodic look (:meth:`Sync.look_after`)
catches a notice that never came.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bito.errors import BitoError
from bito.server import games
from bito.server.botpool import BotPool
from bito.server.db import Database, DatabaseUnavailable
from bito.server.holding import Holding
from bito.server.render import Json
from bito.server.storage import SeatRow
from bito.server.table import REARM, Room, count_timeout, log_entry

log = logging.getLogger("bito.server")

Show = Callable[[Room], Awaitable[None]]


class Sync:
    """The rooms in memory against the database. ``schedule`` arms a room's next move here,
    ``show_elsewhere`` shows the clock of a table another process drives, ``ask_presence``
    asks the other processes who is connected to a table just read, ``show`` redraws it."""

    def __init__(self, storage: Database, rooms: dict[str, Room], holding: Holding,
                 pool: BotPool, schedule: Callable[[Room], None],
                 show_elsewhere: Callable[[Room, float | None], None],
                 ask_presence: Show, show: Show) -> None:
        self.storage = storage
        self.rooms = rooms
        self.holding = holding
        self.pool = pool
        self.schedule = schedule
        self.show_elsewhere = show_elsewhere
        self.ask_presence = ask_presence
        self.show = show

    def look_after(self, table_id: str, stored: int, seed: int | None = None,
                   status: str | None = None, known: int | None = None) -> None:
        """The lease keeper's periodic check of a table in memory against the database:
        ``stored`` moves, dealt with ``seed``, at ``status`` (None: not looked at), while
        this process knew ``known`` moves just before the database was asked.

        * This copy holds what the database does not (another seed, more moves): it was
          dealt or moved from something that was never stored, and is read again at once
          (:meth:`refresh` rebuilds it from the database).
        * It is behind (a notice lost while the database restarted): read again if it is
          still behind at the next look (a notice may simply be on its way).
        * Up to date, held, still to play and with no bot or clock armed: the driver is
          armed again. A table must never wait for a bot that nobody runs.
        """
        room = self.rooms.get(table_id)
        if room is None:
            return
        if known is None:
            known = len(room.actions)
        if room.state is not None and (
                stored < known or (seed is not None and status not in (None, "waiting")
                                   and seed != room.table.seed)):
            log.warning("table %s: this process shows a game the database does not hold "
                        "(%d moves stored, %d known here; dealt %s); rebuilding it",
                        table_id, stored, known,
                        "alike" if seed in (None, room.table.seed) else "differently")
            room.behind, room.undealt = 0, False
            self.changed(table_id)
            return
        if room.state is None:
            if status in ("playing", "over"):  # dealt elsewhere, and not heard of here
                if room.undealt:
                    log.warning("table %s: dealt in the database, not here; reading it "
                                "again", table_id)
                    room.undealt = False
                    self.changed(table_id)
                else:
                    room.undealt = True
            else:
                room.undealt = False
            return
        room.undealt = False
        if room.table.status != "playing":
            return
        if stored > len(room.actions):
            # a notice may simply be on its way: only a gap seen a tick ago too means it
            # was lost (the listening connection down while the database restarted)
            if room.behind and len(room.actions) < room.behind:
                log.warning("table %s: %d moves stored, %d known here; reading it again",
                            table_id, stored, len(room.actions))
                room.behind = 0
                self.changed(table_id)
            else:
                room.behind = stored
            return
        room.behind = 0
        if room.state.is_over or not self.holding.owns(room) or room.refreshing \
                or stored < len(room.actions):
            return
        if room.task is None or room.task.done():
            log.warning("table %s: no bot or clock was armed for move %d; armed again",
                        table_id, len(room.actions) + 1)
            self.schedule(room)

    def changed(self, table_id: str, change: Json | None = None) -> None:
        """Another process changed the table (``change``: what its notice says changed, see
        :meth:`bito.server.lease.Keeper.notice`; None: anything). Bring the room up to date
        with the least reading and show it to this process's connections: a move is played
        on from the notice, a seat's change reads the seats, a deal deals from the notice's
        seed, anything else reads the whole table. Notices arriving meanwhile are applied
        in the same task, in order."""
        room = self.rooms.get(table_id)
        if room is None:
            return
        if change is None or not change.keys() & {"m", "s", "g"}:
            room.stale = True
        else:
            room.incoming.append(change)
        if room.refreshing:
            return
        room.refreshing = True
        asyncio.get_running_loop().create_task(self._follow(room))

    def changed_all(self) -> None:
        """Notices may have been missed (the listening connection was lost): read every
        table in memory again."""
        for table_id in list(self.rooms):
            self.changed(table_id)

    async def seat_of(self, room: Room, token: str | None) -> int | None:
        """The seat whose token this is. A token this process does not know yet may be a
        seat just taken on another process (its notice still on the way): the table is
        read again once before the token is refused."""
        seat = room.seat_of_token(token)
        if seat is None and token and self.holding.shared:
            async with room.lock:
                await self.refresh(room)
            seat = room.seat_of_token(token)
        return seat

    async def _follow(self, room: Room) -> None:
        try:
            while room.stale or room.incoming:
                changes, room.incoming = room.incoming, []
                stale, room.stale = room.stale, False
                try:
                    async with room.lock:
                        if stale or not await self._take_changes(room, changes):
                            await self.refresh(room)
                    await self.show(room)
                except DatabaseUnavailable:
                    room.stale = True
                    await asyncio.sleep(REARM)
        except Exception:
            log.exception("table %s: reading it again failed", room.id)
        finally:
            room.refreshing = False

    async def _take_changes(self, room: Room, changes: list[Json]) -> bool:
        """Apply other processes' noticed changes in order (the caller holds the lock);
        False when one cannot be applied from its notice (read the whole table then)."""
        seats = False
        for change in changes:
            if "m" in change:
                move = change["m"]
                if not isinstance(move, dict) or not self._catch_up(room, move):
                    return False
            elif "g" in change:
                if not self._dealt(room, change["g"]):
                    return False
            else:
                seats = True
        if seats:
            self.take_seats(room, await self.storage.load_seats(room.id))
        return True

    def take_seats(self, room: Room, seats: list[SeatRow]) -> bool:
        """The seats as stored now; whether who plays a seat (a person, a bot) changed. A
        seat taken elsewhere starts its ready-check here now."""
        before = [s.kind for s in room.table.seats]
        seated = {s.seat for s in room.table.seats if s.kind != "open"}
        for s in seats:
            if s.kind == "human" and s.seat not in seated:
                room.seated_at[s.seat] = time.monotonic()
        room.table.seats = seats
        if before == [s.kind for s in seats]:
            return False
        if self.holding.owns(room) and room.state is not None:  # a bot's seat now, or a person's
            self.schedule(room)
        return True

    def _dealt(self, room: Room, seed: Any) -> bool:
        """Another process dealt the table with ``seed`` (the caller holds the lock)."""
        if room.table.status != "waiting":
            # dealt here already (read since): with this seed, or this copy is not the
            # stored game and the table is read again (see refresh)
            return room.state is not None and room.table.seed == seed
        if not isinstance(seed, int) or isinstance(seed, bool):
            return False
        room.table.seed, room.table.status = seed, "playing"
        room.state, room.actions, room.log = games.new_state(room.setup), [], []
        room.clock_since = None
        if self.holding.owns(room):
            self.schedule(room)
        else:
            self.show_elsewhere(room, None)
        return True

    def _catch_up(self, room: Room, move: dict[str, Any]) -> bool:
        """Play on the move another process stored, as its notice tells it (the caller holds
        the lock); False when it is not simply the next move here (read the table then). A
        move this process already has (read with the table meanwhile) is passed over: move
        ``n`` of a table is stored once."""
        state = room.state
        try:
            n, seat, text, how = int(move["n"]), int(move["s"]), str(move["a"]), str(move["h"])
            at = float(move["at"])
        except (KeyError, TypeError, ValueError):
            return False
        if state is not None and 0 < n <= len(room.actions):
            return True
        if state is None or state.is_over or n != len(room.actions) + 1 or state.to_act != seat:
            return False
        try:
            action = games.find_action(state, text)
        except BitoError:
            return False
        new = state.apply(action)
        room.log.append(log_entry(state, seat, action, how))
        room.state = new
        room.actions.append(action)
        count_timeout(room, seat, how)
        room.clock_since = at
        if new.is_over:
            room.table.status, room.table.outcome = "over", games.outcome_json(new)
            self.pool.forget(room.id)
        if self.holding.owns(room):
            self.schedule(room)
        elif not new.is_over:
            self.show_elsewhere(room, at)
        return True

    async def refresh(self, room: Room) -> bool:
        """Bring the room up to the database (the caller holds its lock): seats, status and
        the moves stored since. Returns whether who acts, or how, may have changed.

        The last move known here is read again with the ones after it, and the stored seed
        with the table: a copy dealt from another seed, or whose last move is not the one
        stored under its number (or is not stored at all), is not the stored game, and is
        rebuilt from the database rather than played on (:meth:`_rebuild`)."""
        known = len(room.actions)
        table, stored, last_at = await self.storage.snapshot(room.id, max(0, known - 1))
        if table is None:
            return False
        before = (len(room.actions), room.table.status, [s.kind for s in room.table.seats])
        seated = {s.seat for s in room.table.seats if s.kind != "open"}
        for s in table.seats:  # a seat taken elsewhere starts its ready-check here now
            if s.kind == "human" and s.seat not in seated:
                room.seated_at[s.seat] = time.monotonic()
        agrees = room.state is None or table.status == "waiting" or (
            table.seed == room.table.seed and self._last_move_agrees(room, stored))
        seed_here = room.table.seed
        room.table = table
        rebuilt = False
        if table.status == "waiting" and room.state is not None:  # never stored: dropped
            room.state, room.actions, room.log, rebuilt = None, [], [], True
        if table.status != "waiting":
            if agrees and room.state is None:
                room.state, room.actions, room.log = games.new_state(room.setup), [], []
            if agrees:
                try:
                    for seat, text, how in stored[1:] if known else stored:
                        action = games.find_action(room.state, text)
                        room.log.append(log_entry(room.state, seat, action, how))
                        room.state = room.state.apply(action)
                        room.actions.append(action)
                        count_timeout(room, seat, how)
                except BitoError:
                    agrees = False
            if not agrees:
                log.warning("table %s: the game here (dealt from %s seed, %d moves) is not "
                            "the one stored (%d moves); rebuilt from the database", room.id,
                            "the stored" if seed_here == table.seed else "another",
                            known, max(0, known - 1) + len(stored))
                await self._rebuild(room)
                rebuilt = True
            room.clock_since = last_at
            if room.state.is_over:
                self.pool.forget(room.id)
        moved = rebuilt or before != (len(room.actions), table.status,
                                      [s.kind for s in table.seats])
        if not self.holding.owns(room) and room.state is not None and not room.state.is_over:
            # the clock is driven elsewhere; show when it runs out all the same
            self.show_elsewhere(room, room.clock_since)
        elif moved:
            self.schedule(room)
        return moved

    @staticmethod
    def _last_move_agrees(room: Room, stored: list[tuple[int, str, str]]) -> bool:
        """Whether the database's move under the number of the last move known here (the
        first of ``stored``) is that move (no moves known here: nothing to compare)."""
        if not room.actions:
            return True
        if not stored or not room.log:
            return False
        seat, text, _ = stored[0]
        return seat == room.log[-1].get("seat") and text == str(room.actions[-1])

    async def _rebuild(self, room: Room) -> None:
        """Deal the room again from the stored seed and replay every stored move (the
        caller holds its lock and has just read ``room.table``): what this process showed
        is dropped, bots' memories of it too."""
        self.pool.forget(room.id)
        stored = await self.storage.load_actions(room.id)
        self.replay(room, stored)

    def replay(self, room: Room, stored: list[tuple[int, str, str]]) -> None:
        """The room's state, moves, log and timeouts from its stored deal and moves."""
        states, room.actions = games.replay_states(room.setup, [a for _, a, _ in stored])
        room.state = states[-1]
        room.log = [log_entry(before, seat, action, how)
                    for (seat, _, how), action, before
                    in zip(stored, room.actions, states, strict=False)]
        room.timeouts = {}
        for seat, _, how in stored:
            count_timeout(room, seat, how)

    async def stored_seats(self, room: Room) -> None:
        """Before changing a seat (the caller holds the lock): with several processes, read
        the table as stored, so a seat changed on another process a moment ago (its notice
        still on the way) is not written back as it was."""
        if self.holding.shared:
            await self.refresh(room)

    async def load(self, table_id: str) -> Room | None:
        """Read a table into memory (None: no such table); a room already here is kept."""
        table = await self.storage.load_table(table_id)
        if table is None:
            return None
        room = Room(table)
        if table.status != "waiting":
            self.replay(room, await self.storage.load_actions(table_id))
            room.clock_since = await self.storage.last_action_at(table_id)
            if not self.holding.owns(room) and not room.state.is_over:  # driven elsewhere
                self.show_elsewhere(room, room.clock_since)
        self.rooms.setdefault(table_id, room)
        if self.holding.shared and self.rooms[table_id] is room and room.table.status != "over":
            await self.ask_presence(room)  # who is connected elsewhere?
        return self.rooms[table_id]

