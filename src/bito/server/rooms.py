"""Tables in play: the seats, the state, the clock, the bots, and who is watching.

A :class:`Room` is the live copy of one stored table. Every change goes through the room's
lock, is written to the database, and only then broadcast: each connection receives the view
of its own seat (or the public view, for a spectator), never the state itself.

The clock and the bots are asyncio tasks owned by the room; a bot's decision itself runs in a
worker process of the :class:`~bito.server.botpool.BotPool`, awaited outside the room's lock,
so no bot ever holds up the event loop. When a human's clock runs out the
inactivity rules move for him (:func:`bito.server.games.silent_action`: a defender takes, a
thrower passes, otherwise a bot's move); after ``timeouts_to_bot`` timeouts in a row the seat
is handed to a bot until its player says he is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any

from bito.errors import BitoError
from bito.games.protocol import decider
from bito.server import games
from bito.server.botpool import BotPool, fallback_action
from bito.server.db import Database, DatabaseUnavailable, PostgresDatabase, ThreadedDatabase
from bito.server.refusals import error_words
from bito.server.render import Json, render_public, render_view
from bito.server.storage import MoveConflict, SeatRow, Storage, TableRow

log = logging.getLogger("bito.server")

MAX_PLAYERS = 12
LOG_LENGTH = 20
DUMMY = "\0dummy"  # the seat choice create() gives a playing dummy's seat (#57)
REARM = 1.0  # seconds before a bot's or a clock's move is tried again after a failure
#: Seconds between a process's announcements of the seats connected to it, and how long an
#: announcement counts: a process killed with ``kill -9`` stops announcing, and its seats
#: are shown offline everywhere within PRESENCE_LIFE seconds (each room wakes when the
#: oldest announcement it counts runs out, see :meth:`Lobby.presence`).
PRESENCE_RENEW = 5.0
PRESENCE_LIFE = 15.0


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
    #: a notice asked for the whole table to be read again (see :meth:`Lobby.changed`)
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
    #: monotonic clock) as its last announcement said (see :meth:`Lobby.presence`)
    elsewhere: dict[str, tuple[frozenset[int], float]] = field(default_factory=dict)
    #: the seats this process last announced as connected here (None: never announced)
    announced: frozenset[int] | None = None
    #: wakes the room when the first of ``elsewhere`` runs out (see :meth:`Lobby.presence`)
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


class Lobby:
    """Every room of this server, backed by one database.

    On a database several processes share (PostgreSQL), ``leases`` is set: this process
    drives the clock and bots only of the tables it holds a lease on, and reads a table
    again whenever another process's change notice names it (:meth:`changed`).

    A seat's change (Ready, a new token, a seat taken back from the bot, a seat freed or
    given to a bot) is written before it is made in memory: a write refused while the
    database is away leaves the seat as the database has it, so the old token still works
    and the person may simply ask again, and a restart finds what the players saw."""

    def __init__(self, storage: Storage | Database, settings: Settings | None = None,
                 bots: BotPool | None = None) -> None:
        self.storage: Database = (ThreadedDatabase(storage) if isinstance(storage, Storage)
                                  else storage)
        self.settings = settings or Settings()
        self.rooms: dict[str, Room] = {}
        #: the tables this process drives (None: every table, the one-process default)
        self.held: set[str] | None = None
        self.origin = ""  # this process's name in leases and notices
        self.moves = 0  # moves this process stored (the metrics' moves/s)
        #: events published without being stored (see :meth:`publish`), by kind
        self.handlers: dict[str, Callable[[Room, Json], Coroutine[Any, Any, None]]] = {}
        self.bots = bots or BotPool(self.settings.bot_workers or None,
                                    self.settings.bot_time_cap)
        self.handlers["presence"] = self.presence
        #: add-ons' fields in every state frame: ``hook(room, seat)`` returns them (the
        #: rematch's votes and match score); registered by the app, so this module imports
        #: none of them
        self.frame_hooks: list[Callable[[Room, int | None], Json]] = []
        #: add-ons' greetings to a new connection, after its first frame (the chat's recent
        #: messages)
        self.attach_hooks: list[Callable[[Room, Connection], Awaitable[None]]] = []
        #: add-ons told when a game ends, after its last move is stored (the ratings); a
        #: hook may be a coroutine function (awaited before the final frame goes out); a
        #: failing hook is logged and never stops the table
        self.end_hooks: list[Callable[[Room], Awaitable[None] | None]] = []

    def bot_levels(self) -> list[str]:
        """The bots a table may seat here (``--bot-levels``)."""
        return admitted_bots(self.settings)

    def check_bot(self, bot: str, field: str) -> None:
        from bito.bots import bot_names

        if bot in self.bot_levels():
            return
        if bot in bot_names():
            raise RoomError(f"{field}: {bot!r} bots are not offered on this server "
                            f"(offered: {', '.join(self.bot_levels())})")
        raise RoomError(f"{field}: {bot!r} is not one of {', '.join(self.bot_levels())}")

    # --- start-up and lookup --------------------------------------------------------------

    def owns(self, room: Room) -> bool:
        """Whether this process drives the room's clock and bots."""
        return self.held is None or room.id in self.held

    async def resume(self) -> int:
        """Load every unfinished table from the database and restart its clock and bots.
        Returns the number of games resumed mid-play. With leases (several processes) the
        lease keeper adopts tables instead (:meth:`adopt`): none is resumed here."""
        if self.held is not None:
            return 0
        resumed = 0
        for table_id in await self.storage.table_ids(("waiting", "playing")):
            room = await self._load(table_id)
            if room is not None and room.state is not None:
                resumed += 1
                self._schedule(room)
        return resumed

    async def adopt(self, table_id: str) -> None:
        """This process has just taken the table's lease: read it and drive it."""
        room = self.rooms.get(table_id)
        if room is None:
            room = await self._load(table_id)
            if room is None:
                return
        else:
            async with room.lock:
                await self._refresh(room)
                room.clock_since = await self.storage.last_action_at(table_id)
        async with room.lock:
            if room.task is None or room.task.done():
                self._schedule(room)

    def release(self, table_id: str) -> None:
        """Another process drives the table now: stop its clock and bots here."""
        room = self.rooms.get(table_id)
        if room is not None and room.task is not None:
            room.task.cancel()
            room.task = None

    def look_after(self, table_id: str, stored: int, seed: int | None = None,
                   status: str | None = None, known: int | None = None) -> None:
        """The lease keeper's periodic check of a table in memory against the database:
        ``stored`` moves, dealt with ``seed``, at ``status`` (None: not looked at), while
        this process knew ``known`` moves just before the database was asked.

        * This copy holds what the database does not (another seed, more moves): it was
          dealt or moved from something that was never stored, and is read again at once
          (:meth:`_refresh` rebuilds it from the database).
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
        if room.state.is_over or not self.owns(room) or room.refreshing \
                or stored < len(room.actions):
            return
        if room.task is None or room.task.done():
            log.warning("table %s: no bot or clock was armed for move %d; armed again",
                        table_id, len(room.actions) + 1)
            self._schedule(room)

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
        if seat is None and token and self.held is not None:
            async with room.lock:
                await self._refresh(room)
            seat = room.seat_of_token(token)
        return seat

    async def publish(self, table_id: str, kind: str, data: Json) -> None:
        """Send an event that is not stored (a chat line...) to the table's connections on
        every process: here through ``handlers[kind]`` at once, elsewhere through the
        database's notices. A handler is ``async (room, data) -> None``."""
        handler = self.handlers.get(kind)
        room = self.rooms.get(table_id)
        if handler is not None and room is not None:
            await handler(room, data)
        if self.held is not None and isinstance(self.storage, PostgresDatabase):
            await self.storage.publish(table_id, kind, data)

    # --- who is connected, on every process ------------------------------------------------

    def connected(self, room: Room) -> set[int]:
        """The seats with a connection open on any process (a seat's *offline* mark)."""
        here = {c.seat for c in room.conns if c.seat is not None}
        if room.elsewhere:
            now = time.monotonic()
            for seats, until in room.elsewhere.values():
                if until > now:
                    here |= seats
        return here

    async def announce_presence(self, room: Room, again: bool = False, ask: bool = False,
                                ) -> None:
        """Tell the other processes which seats are connected here, when that changed
        (``again``: in any case, a renewal; ``ask``: and ask them to tell theirs)."""
        if self.held is None:
            return
        here = frozenset(c.seat for c in room.conns if c.seat is not None)
        if here == room.announced and not (again and here) and not ask:
            return
        room.announced = here
        with contextlib.suppress(BitoError):  # the database away: the renewal says it again
            await self.publish(room.id, "presence", {"o": self.origin, "seats": sorted(here),
                                                     "ask": ask})

    async def presence(self, room: Room, data: Json) -> None:
        """Another process announced the seats connected to it (:meth:`announce_presence`);
        the frames change only when the marks shown do. The room is woken when the oldest
        announcement it counts runs out, so a killed process's seats go offline
        :data:`PRESENCE_LIFE` seconds after its last word, not at some later renewal."""
        origin = str(data.get("o", ""))
        if not origin or origin == self.origin:
            return
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, int) for s in seats):
            return
        before = self.connected(room)
        if seats:
            room.elsewhere[origin] = (frozenset(seats), time.monotonic() + PRESENCE_LIFE)
        else:
            room.elsewhere.pop(origin, None)
        self._presence_timer(room)
        if data.get("ask") and room.announced:
            await self.announce_presence(room, again=True)
        if self.connected(room) != before:
            await self.broadcast(room)

    def _presence_timer(self, room: Room) -> None:
        """Arm the room's wake-up for when the first announcement it counts runs out."""
        if room.presence_timer is not None:
            room.presence_timer.cancel()
            room.presence_timer = None
        if not room.elsewhere:
            return
        loop = asyncio.get_running_loop()
        first = min(until for _, until in room.elsewhere.values())
        room.presence_timer = loop.call_later(max(0.0, first - time.monotonic()) + 0.01,
                                              self._presence_due, room)

    def _presence_due(self, room: Room) -> None:
        asyncio.get_running_loop().create_task(self._presence_ran_out(room))

    async def _presence_ran_out(self, room: Room) -> None:
        """Forget what other processes said too long ago (a process killed without a word):
        its seats are shown offline now."""
        room.presence_timer = None
        now = time.monotonic()
        gone = [o for o, (_, until) in room.elsewhere.items() if until <= now]
        for origin in gone:
            del room.elsewhere[origin]
        self._presence_timer(room)
        if gone:
            await self.broadcast(room)

    async def renew_presence(self) -> None:
        """Say again which seats are connected here (what others said runs out by itself,
        see :meth:`presence`)."""
        for room in list(self.rooms.values()):
            if room.announced:
                await self.announce_presence(room, again=True)

    def event(self, table_id: str, kind: str, data: Json) -> None:
        """Another process published ``kind`` for the table (see :meth:`publish`)."""
        handler = self.handlers.get(kind)
        room = self.rooms.get(table_id)
        if handler is not None and room is not None:
            asyncio.get_running_loop().create_task(handler(room, data))

    async def _follow(self, room: Room) -> None:
        try:
            while room.stale or room.incoming:
                changes, room.incoming = room.incoming, []
                stale, room.stale = room.stale, False
                try:
                    async with room.lock:
                        if stale or not await self._take_changes(room, changes):
                            await self._refresh(room)
                    await self.broadcast(room)
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
            self._take_seats(room, await self.storage.load_seats(room.id))
        return True

    def _take_seats(self, room: Room, seats: list[SeatRow]) -> bool:
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
        if self.owns(room) and room.state is not None:  # a bot's seat now, or a person's
            self._schedule(room)
        return True

    def _dealt(self, room: Room, seed: Any) -> bool:
        """Another process dealt the table with ``seed`` (the caller holds the lock)."""
        if room.table.status != "waiting":
            # dealt here already (read since): with this seed, or this copy is not the
            # stored game and the table is read again (see _refresh)
            return room.state is not None and room.table.seed == seed
        if not isinstance(seed, int) or isinstance(seed, bool):
            return False
        room.table.seed, room.table.status = seed, "playing"
        room.state, room.actions, room.log = games.new_state(room.setup), [], []
        room.clock_since = None
        if self.owns(room):
            self._schedule(room)
        else:
            timer = float(room.table.settings.get("timer") or self.settings.timer)
            room.deadline = time.time() + timer
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
        room.log.append(self._log_entry(state, seat, action, how))
        room.state = new
        room.actions.append(action)
        self._count_timeout(room, seat, how)
        room.clock_since = at
        if new.is_over:
            room.table.status, room.table.outcome = "over", games.outcome_json(new)
            self.bots.forget(room.id)
        if self.owns(room):
            self._schedule(room)
        elif not new.is_over:
            timer = float(room.table.settings.get("timer") or self.settings.timer)
            room.deadline = at + timer
        return True

    async def _refresh(self, room: Room) -> bool:
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
                        room.log.append(self._log_entry(room.state, seat, action, how))
                        room.state = room.state.apply(action)
                        room.actions.append(action)
                        self._count_timeout(room, seat, how)
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
                self.bots.forget(room.id)
        moved = rebuilt or before != (len(room.actions), table.status,
                                      [s.kind for s in table.seats])
        if not self.owns(room) and room.state is not None and not room.state.is_over:
            # the clock is driven elsewhere; show when it runs out all the same
            timer = float(table.settings.get("timer") or self.settings.timer)
            room.deadline = (room.clock_since or time.time()) + timer
        elif moved:
            self._schedule(room)
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
        self.bots.forget(room.id)
        stored = await self.storage.load_actions(room.id)
        self._replay(room, stored)

    def _replay(self, room: Room, stored: list[tuple[int, str, str]]) -> None:
        """The room's state, moves, log and timeouts from its stored deal and moves."""
        states, room.actions = games.replay_states(room.setup, [a for _, a, _ in stored])
        room.state = states[-1]
        room.log = [self._log_entry(before, seat, action, how)
                    for (seat, _, how), action, before
                    in zip(stored, room.actions, states, strict=False)]
        room.timeouts = {}
        for seat, _, how in stored:
            self._count_timeout(room, seat, how)

    async def _stored_seats(self, room: Room) -> None:
        """Before changing a seat (the caller holds the lock): with several processes, read
        the table as stored, so a seat changed on another process a moment ago (its notice
        still on the way) is not written back as it was."""
        if self.held is not None:
            await self._refresh(room)

    @staticmethod
    def _count_timeout(room: Room, seat: int, how: str) -> None:
        """Timeouts in a row, as the clock counted them."""
        if how == "timeout":
            room.timeouts[seat] = room.timeouts.get(seat, 0) + 1
        elif how == "move":
            room.timeouts[seat] = 0

    async def _load(self, table_id: str) -> Room | None:
        table = await self.storage.load_table(table_id)
        if table is None:
            return None
        room = Room(table)
        if table.status != "waiting":
            self._replay(room, await self.storage.load_actions(table_id))
            room.clock_since = await self.storage.last_action_at(table_id)
            if not self.owns(room) and not room.state.is_over:  # its clock runs elsewhere
                timer = float(table.settings.get("timer") or self.settings.timer)
                room.deadline = (room.clock_since or time.time()) + timer
        self.rooms.setdefault(table_id, room)
        if self.held is not None and self.rooms[table_id] is room and room.table.status != "over":
            await self.announce_presence(room, ask=True)  # who is connected elsewhere?
        return self.rooms[table_id]

    async def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None and 0 < len(table_id) <= 64:
            room = await self._load(table_id)
        if room is None:
            raise RoomError(f"no table {table_id!r}")
        return room

    async def public_tables(self) -> list[Json]:
        if self.held is not None:  # tables opened on other processes are listed too
            for table_id in await self.storage.table_ids(("waiting",)):
                if table_id not in self.rooms:
                    await self._load(table_id)
        out = []
        for room in self.rooms.values():
            t = room.table
            if t.settings.get("public") and t.status == "waiting":
                out.append({"id": t.id, "variant": t.spec, "players": t.players,
                            "open": sum(s.kind == "open" for s in t.seats),
                            "host": t.seats[0].name, "game": games.describe(t.spec),
                            "deck": games.deck_size(t.spec), "timer": t.settings.get("timer")})
        return out

    # --- creating and joining -------------------------------------------------------------

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
                self.check_bot(choice, "seats")
                table.seats.append(self._bot_seat(i, choice))
            else:
                raise RoomError(f"seats: {choice!r} is neither 'open' nor a bot "
                                f"({', '.join(self.bot_levels())})")
        room = await self.open_table(table)
        return room, table.seats[0].token

    async def open_table(self, table: TableRow) -> Room:
        """Store a new table and keep its room here. On a shared database the process that
        opens a table first holds its lease and drives it (a rematch's next deal too, which
        the add-on builds itself and more than one process may open); a later opener
        shows the table as stored and leaves the driving to the first (:meth:`owns`)."""
        driven = await self.storage.create_table(
            table, owner=self.origin if self.held is not None else None)
        room = self.rooms.get(table.id)
        if room is None:
            room = self.rooms[table.id] = Room(table)
        if self.held is not None:
            if driven:
                self.held.add(table.id)  # its creator's process drives it
            else:
                async with room.lock:
                    await self._refresh(room)
        return room

    @staticmethod
    def _bot_seat(seat: int, bot: str) -> SeatRow:
        return SeatRow(seat, bot_name(seat, bot), "bot", bot, secrets.token_urlsafe(24), True)

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
                await self._refresh(room)
                free = [s for s in room.table.seats if s.kind == "open"]
                if room.table.status != "waiting" or not free:
                    raise RoomError("the table filled up meanwhile; you can watch it")
            room.table.seats[row.seat] = seat = row
            room.seated_at[seat.seat] = time.monotonic()
        await self.broadcast(room)
        return seat.seat, seat.token

    async def kick(self, room: Room, seat: int, target: int) -> None:
        """The host frees a person's seat before the deal: one who has not pressed Ready
        within ``ready_timeout`` seconds of sitting down (a stranger who joined a public table
        and went quiet). His token stops working; the seat is open again."""
        async with room.lock:
            await self._stored_seats(room)
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
            left = self.ready_left(room, target)
            if left > 0:
                raise RoomError(f"seat {target}: {row.name} still has {left:.0f} s to press "
                                "Ready")
            freed = SeatRow(target, "", "open", self.settings.default_bot, "", False)
            await self.storage.save_seat(room.id, freed)  # stored first, see Lobby
            room.table.seats[target] = freed
            room.seated_at.pop(target, None)
            gone = [c for c in room.conns if c.seat == target]
        for conn in gone:  # his connections watch from now on
            conn.seat = None
        await self.announce_presence(room)
        for conn in gone:
            with contextlib.suppress(Exception):
                code, said = error_words("the host freed your seat: you did not press "
                                         "Ready in time; you are watching now", conn.lang)
                await conn.send({"type": "error", "request": "kick", "code": code,
                                 "message": said})
        await self.broadcast(room)

    def ready_left(self, room: Room, seat: int) -> float:
        """Seconds before the host may free ``seat`` for not pressing Ready (0: now). A seat
        loaded from the database (a restart) counts from when it was loaded."""
        since = room.seated_at.setdefault(seat, time.monotonic())
        return max(0.0, self.settings.ready_timeout - (time.monotonic() - since))

    # --- messages from a seat -------------------------------------------------------------

    async def ready(self, room: Room, seat: int) -> None:
        async with room.lock:
            await self._stored_seats(room)
            if room.table.status != "waiting":
                raise RoomError("the game has already started")
            row = room.table.seats[seat]
            await self.storage.save_seat(room.id, replace(row, ready=True))
            row.ready = True
            if self.held is not None:  # another process may have seen the other Readies
                await self._refresh(room)
            if room.table.status == "waiting" and all(s.kind != "open" and s.ready
                                                      for s in room.table.seats):
                await self.deal(room)
        await self.broadcast(room)

    async def seat_bot(self, room: Room, seat: int, target: int, bot: str | None) -> None:
        """The host fills an open seat with a bot (``bot``) or opens a bot's seat again."""
        async with room.lock:
            await self._stored_seats(room)
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
                self.check_bot(bot, "bot")
                row = self._bot_seat(target, bot)
            await self.storage.save_seat(room.id, row)
            room.table.seats[target] = row
        await self.broadcast(room)

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
        await self.announce_presence(room)
        for conn in gone:
            code, said = error_words(notice, conn.lang)
            with contextlib.suppress(Exception):
                await conn.send({"type": "error", "request": "moved", "field": "token",
                                 "code": code, "message": said})
        await self.broadcast(room)
        return row.token

    async def act(self, room: Room, seat: int, text: str) -> None:
        async with room.lock:
            state = room.state
            if state is None:
                raise RoomError("the game has not started yet: press Ready")
            if state.is_over:
                raise RoomError("the game is over")
            if decider(state) != seat:  # on a playing dummy's turn, its controller (#57)
                who = room.table.seats[decider(state)].name
                raise RoomError(f"not your turn: {who} (seat {decider(state)}) is to act")
            action = games.find_action(state, text)
            row = room.table.seats[seat]
            if row.kind == "away":  # playing again takes the seat back from the bot
                await self.storage.save_seat(room.id, replace(row, kind="human"))
                row.kind = "human"
            room.timeouts[seat] = 0
            await self._apply(room, action, "move")

    async def back(self, room: Room, seat: int) -> None:
        async with room.lock:
            await self._stored_seats(room)
            row = room.table.seats[seat]
            if row.kind == "away":
                await self.storage.save_seat(room.id, replace(row, kind="human"))
                row.kind = "human"
                room.timeouts[seat] = 0
                self._schedule(room)
        await self.broadcast(room)

    # --- the game -------------------------------------------------------------------------

    async def deal(self, room: Room) -> None:
        """Deal the table's game with a fresh seed and start its clock (the caller holds the
        room's lock): after the ready-check, or at once for a rematch. On a shared database
        the deal is a conditional update: if another process dealt first, show its deal."""
        seed = games.fresh_seed()
        if not await self.storage.start_game(room.id, seed):  # dealt by another process
            await self._refresh(room)
            return
        room.table.seed, room.table.status = seed, "playing"
        room.state = games.new_state(room.setup)
        self._schedule(room)

    async def _apply(self, room: Room, action: Any, how: str) -> None:
        """Apply, persist, then broadcast (the caller holds the room's lock)."""
        state = room.state
        seat = state.to_act
        new = state.apply(action)
        outcome = games.outcome_json(new) if new.is_over else None
        try:
            await self.storage.append_action(room.id, len(room.actions) + 1, seat, str(action),
                                             how, outcome, seed=room.table.seed)
        except MoveConflict:  # another process moved first: show the table as it is
            await self._refresh(room)
            asyncio.get_running_loop().create_task(self.broadcast(room))
            raise RoomError("the table moved on meanwhile: look again and choose") from None
        room.log.append(self._log_entry(state, seat, action, how))
        room.state = new
        room.actions.append(action)
        self.moves += 1
        if outcome is not None:
            room.table.status, room.table.outcome = "over", outcome
            self.bots.forget(room.id)
            for hook in self.end_hooks:
                try:
                    done = hook(room)
                    if done is not None:
                        await done
                except Exception:
                    log.exception("table %s: an end-of-game hook failed", room.id)
        self._schedule(room)
        await self.broadcast(room)

    @staticmethod
    def _log_entry(before: Any, seat: int, action: Any, how: str) -> Json:
        """One move of the log. A move that hides cards (Cheat's face-down card) also keeps
        the form the other seats see, under ``others``; :func:`log_for` hands each
        connection the right one."""
        from bito.games.family import seen_by
        from bito.server.render import action_json

        entry = action_json(seen_by(before, action, seat))  # #58: the card turned up
        entry.update(seat=seat, how=how)
        public = seen_by(before, action, None)
        if public is not action:
            masked = action_json(public)
            masked.update(seat=seat, how=how)
            entry["others"] = masked
        return entry

    def _schedule(self, room: Room, rearm: float | None = None) -> None:
        """Start the clock (a human to act) or the bot (a bot or an away player to act), if
        this process drives the table. ``rearm``: the move failed (the database was away)
        and is tried again after that many seconds."""
        current = asyncio.current_task()
        if room.task is not None and room.task is not current:
            room.task.cancel()
        room.task, room.deadline = None, None
        since, room.clock_since = room.clock_since, None
        state = room.state
        if state is None or state.is_over or not self.owns(room):
            return
        seat = decider(state)  # who makes this move (#57: a dummy's controller)
        row = room.table.seats[seat]
        n = len(room.actions)
        if row.kind in ("bot", "away"):
            delay = self.settings.bot_delay if rearm is None else rearm
            room.task = asyncio.create_task(self._drive(room, n, lambda: self._bot_turn(
                room, n, delay)))
        else:
            timer = float(room.table.settings.get("timer") or self.settings.timer)
            now = time.time()
            if since is not None:  # resumed mid-turn: the clock ran while the server was down
                timer = max(min(timer, self.settings.resume_grace), timer - (now - since))
            if rearm is not None:  # the time ran out already; the move failed
                timer = rearm
            room.deadline = now + timer
            room.task = asyncio.create_task(self._drive(room, n, lambda: self._clock(
                room, n, timer)))

    async def _drive(self, room: Room, n: int, turn: Callable[[], Awaitable[None]]) -> None:
        """One bot turn or clock: whatever fails (the database restarting mid-move), the
        table is never left without a driver; the turn is tried again."""
        try:
            await turn()
        except asyncio.CancelledError:
            raise
        except Exception as e:
            if isinstance(e, DatabaseUnavailable):
                log.warning("table %s: move %d not stored (%s); trying again in %.0f s",
                            room.id, n + 1, e, REARM)
            else:
                log.exception("table %s: move %d failed; trying again in %.0f s", room.id,
                              n + 1, REARM)
            if room.task is asyncio.current_task() and len(room.actions) == n:
                self._schedule(room, rearm=REARM)

    async def _bot_turn(self, room: Room, n: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with room.lock:
            if len(room.actions) != n or room.state is None or room.state.is_over:
                return
            state, bot = room.state, room.table.seats[decider(room.state)].bot
        # The decision runs in a worker process, outside the table's lock: the table still
        # answers its people (a refused early move, a reconnect) while a bot thinks.
        action = await self._bot_decision(room, state, bot, n)
        async with room.lock:
            if len(room.actions) != n or room.state is not state:
                return  # the table moved on meanwhile (a player took his seat back...)
            await self._guarded_apply(room, action, "bot")

    async def _bot_decision(self, room: Room, state: Any, bot: str, n: int) -> Any:
        """The move of the bot ``bot`` for the seat to act, from that seat's view only,
        decided in the bot pool; a fallback move if the pool fails or runs out of time."""
        seat = state.to_act
        if bot not in self.bot_levels():  # stored before --bot-levels changed
            bot = self.settings.default_bot
        actions = list(room.actions[:n])
        setup = room.setup

        def past() -> list[Any]:
            return games.seat_views(setup, actions, seat)

        try:
            text = await self.bots.decide((room.id, seat), bot, room.table.seed + seat,
                                          state.view(seat), past)
        except Exception:  # the pool itself failed: never a stall
            log.exception("table %s: the bot pool failed", room.id)
            text = None
        if text is not None:
            with contextlib.suppress(BitoError):
                return games.find_action(state, text)
            log.warning("table %s: bot %s chose %r, not a legal move; a fallback move is "
                        "played", room.id, bot, text)
        return fallback_action(state, room.table.seed + n)

    async def _clock(self, room: Room, n: int, timer: float) -> None:
        await asyncio.sleep(timer)
        async with room.lock:
            if len(room.actions) != n or room.state is None or room.state.is_over:
                return
            seat = decider(room.state)
            row = room.table.seats[seat]
            count = room.timeouts.get(seat, 0) + 1  # counted once the move is stored
            if count >= self.settings.timeouts_to_bot and row.kind == "human":
                await self.storage.save_seat(room.id, SeatRow(
                    row.seat, row.name, "away", row.bot, row.token, row.ready))
                row.kind = "away"
            state, action = room.state, games.silent_action(room.state)
        if action is None:  # a silent attacker: a bot leads for him, off the loop
            action = await self._bot_decision(room, state, row.bot, n)
        async with room.lock:
            if len(room.actions) != n or room.state is not state:
                return
            await self._guarded_apply(room, action, "timeout")
            if len(room.actions) == n + 1:
                room.timeouts[seat] = count

    async def _guarded_apply(self, room: Room, action: Any, how: str) -> None:
        """A task's move. Another process's move under the same number (a lease that
        changed hands) is not a failure: the room has been read again and goes on."""
        with contextlib.suppress(RoomError):
            await self._apply(room, action, how)

    # --- frames ---------------------------------------------------------------------------

    def frame(self, room: Room, seat: int | None, full: bool = True) -> Json:
        """What one connection is sent: the table's public facts and its seat's view. A
        ``full`` frame carries the recent moves (``log``); the others only the latest one
        (``last``), which the browser appends, so frames stay small."""
        t = room.table
        connected = self.connected(room)
        seats: list[Json] = [{"seat": s.seat, "name": s.name, "kind": s.kind,
                  "bot": s.bot if s.kind in ("bot", "away") else None,
                  "ready": s.ready, "connected": s.seat in connected or s.kind == "bot"}
                 for s in t.seats]
        if t.status == "waiting":  # the ready-check: when the host may free a quiet seat
            for row, out in zip(t.seats, seats, strict=True):
                if row.kind == "human" and not row.ready and row.seat != 0:
                    out["ready_in"] = round(self.ready_left(room, row.seat), 1)
        frame: Json = {
            "type": "state", "table": t.id, "variant": t.spec, "players": t.players,
            "status": t.status, "public": bool(t.settings.get("public")),
            "timer": t.settings.get("timer"), "seats": seats, "you": seat,
            "n": len(room.actions), "outcome": t.outcome,
            "deadline_in": (max(0.0, room.deadline - time.time())
                            if room.deadline is not None else None),
            "game": games.describe(t.spec),
        }
        for hook in self.frame_hooks:
            frame.update(hook(room, seat))
        if full:
            frame["log"] = log_for(room.log[-LOG_LENGTH:], seat)
        else:
            frame["last"] = log_for(room.log[-1:], seat)[0] if room.log else None
        if room.state is not None:
            state = room.state
            if seat is not None and not state.is_over and decider(state) == seat != state.to_act:
                # #57: the controller acts from the dummy's seat, seeing its hand and moves.
                frame["view"] = render_view(state.view(state.to_act))
                frame["playing_for"] = state.to_act
            else:
                frame["view"] = (render_public(state) if seat is None
                                 else render_view(state.view(seat)))
        return frame

    async def broadcast(self, room: Room) -> None:
        """Send every connection its frame. Each viewpoint (a seat, or the spectators) is
        drawn and serialised once, however many sockets share it: the cost grows with the
        number of seats, not with the audience."""
        frames: dict[int | None, str] = {}
        for conn in list(room.conns):
            if conn.seat not in frames:
                frames[conn.seat] = dump(self.frame(room, conn.seat, full=False))
            try:
                await conn.send(frames[conn.seat])
            except Exception:  # a closed socket: forget it, the player may reconnect
                with contextlib.suppress(ValueError):
                    room.conns.remove(conn)

    async def attach(self, room: Room, conn: Connection) -> None:
        """A new connection gets the full frame; the others learn it is connected."""
        room.conns.append(conn)
        await conn.send(self.frame(room, conn.seat))
        for hook in self.attach_hooks:
            await hook(room, conn)
        if conn.seat is not None:  # a spectator changes nothing anybody else sees
            await self.announce_presence(room)
            await self.broadcast(room)

    async def detach(self, room: Room, conn: Connection) -> None:
        with contextlib.suppress(ValueError):
            room.conns.remove(conn)
        if conn.seat is not None:
            await self.announce_presence(room)
        if room.table.status == "over" and not room.conns:
            self.rooms.pop(room.id, None)  # finished and unwatched: the database keeps it
            return
        if conn.seat is not None:
            await self.broadcast(room)

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
            if room.presence_timer is not None:
                room.presence_timer.cancel()
        self.bots.close()


def admitted_bots(settings: Settings) -> list[str]:
    """The bot names tables may seat under ``settings``: ``--bot-levels``, or every bot but
    ``analysis`` (its search has no time limit)."""
    from bito.bots import bot_names

    if settings.bot_levels is None:
        return [b for b in bot_names() if b != "analysis"]
    return [b for b in bot_names() if b in settings.bot_levels]


#: Bots' first names, one per seat, so that "Bot Vera (strong) is the fool" says which bot.
BOT_NAMES = ("Boris", "Vera", "Gleb", "Nina", "Oleg", "Lida", "Yuri", "Zoya", "Ilya", "Masha",
             "Pasha", "Dasha")


def bot_name(seat: int, bot: str) -> str:
    """A bot's display name: a first name of its own at this table, and its level."""
    return f"Bot {BOT_NAMES[(seat - 1) % len(BOT_NAMES)]} ({bot})"


def dump(frame: Json) -> str:
    """A frame as the text sent on the socket (once per viewpoint, see ``broadcast``)."""
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate would kill the socket's writer: escape it
        text = json.dumps(frame, separators=(",", ":"))
    return text


def check_name(name: str) -> str:
    """A player's name as shown at the table: 1-24 printable characters."""
    clean = " ".join(str(name).split())
    if not 1 <= len(clean) <= 24 or not clean.isprintable():
        raise RoomError("name: give 1 to 24 printable characters")
    return clean


def log_for(entries: list[Json], seat: int | None) -> list[Json]:
    """The log entries as ``seat`` (None: a spectator) may see them: its own hidden moves in
    full, everybody else's in their public form."""
    out = []
    for entry in entries:
        masked = entry.get("others")
        if masked is not None and entry.get("seat") != seat:
            out.append(masked)
        else:
            out.append({k: v for k, v in entry.items() if k != "others"})
    return out
