"""The table's driver: a person's clock, or the bot's turn, for every move still to play.

When a person's clock runs out the inactivity rules move for him
(:func:`bito.server.games.silent_action`: a defender takes, a thrower passes, otherwise a
bot's move); after ``timeouts_to_bot`` timeouts in a row the seat is handed to a bot until
its player says he is back. Whatever fails (the database restarting mid-move), the table is
never left without a driver: the turn is tried again after :data:`~bito.server.table.REARM`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bito.games.protocol import decider
from bito.server import games
from bito.server.db import Database, DatabaseUnavailable
from bito.server.storage import SeatRow
from bito.server.table import REARM, Room, Settings, move_timer
from bito.server.tablebots import Move, TableBots

log = logging.getLogger("bito.server")


class Clock:
    """Arms each table's next move. ``owns`` says whether this process drives a table;
    ``move`` plays a task's move (see :meth:`bito.server.play.Play.guarded_apply`)."""

    def __init__(self, settings: Settings, storage: Database, owns: Callable[[Room], bool],
                 bots: TableBots, move: Move) -> None:
        self.settings = settings
        self.storage = storage
        self.owns = owns
        self.bots = bots
        self.move = move

    def schedule(self, room: Room, rearm: float | None = None) -> None:
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
            room.task = asyncio.create_task(self._drive(room, n, lambda: self.bots.turn(
                room, n, delay)))
        else:
            timer = move_timer(room, self.settings)
            now = time.time()
            if since is not None:  # resumed mid-turn: the clock ran while the server was down
                timer = max(min(timer, self.settings.resume_grace), timer - (now - since))
            if rearm is not None:  # the time ran out already; the move failed
                timer = rearm
            room.deadline = now + timer
            room.task = asyncio.create_task(self._drive(room, n, lambda: self._clock(
                room, n, timer)))

    def show_elsewhere(self, room: Room, since: float | None) -> None:
        """The clock of a table driven by another process: only when it runs out is shown
        here (from ``since``, the last move's time; None: now)."""
        room.deadline = (since or time.time()) + move_timer(room, self.settings)

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
                self.schedule(room, rearm=REARM)

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
            action = await self.bots.decision(room, state, row.bot, n)
        async with room.lock:
            if len(room.actions) != n or room.state is not state:
                return
            await self.move(room, action, "timeout")
            if len(room.actions) == n + 1:
                room.timeouts[seat] = count
