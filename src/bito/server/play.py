"""The game at a table: the deal and every move, each stored before it is shown.

A move is applied, written to the database, and only then broadcast. On a shared database
another process may have stored a move under the same number first: the table is read again
and the player asked to look and choose again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

from bito.games.protocol import decider
from bito.server import games
from bito.server.botpool import BotPool
from bito.server.db import Database
from bito.server.storage import MoveConflict
from bito.server.table import Room, RoomError, log_entry

log = logging.getLogger("bito.server")

#: add-ons told when a game ends, after its last move is stored (the ratings); a hook may be
#: a coroutine function (awaited before the final frame goes out)
EndHook = Callable[[Room], Awaitable[None] | None]


class Play:
    """Deals and moves. ``refresh`` reads a room again from the database, ``schedule`` arms
    its next move's driver, ``show`` sends its frames; ``end_hooks`` are told a game's
    end (a failing hook is logged and never stops the table)."""

    def __init__(self, storage: Database, pool: BotPool,
                 refresh: Callable[[Room], Awaitable[bool]],
                 schedule: Callable[[Room], None],
                 show: Callable[[Room], Coroutine[Any, Any, None]],
                 end_hooks: list[EndHook]) -> None:
        self.storage = storage
        self.pool = pool
        self.refresh = refresh
        self.schedule = schedule
        self.show = show
        self.end_hooks = end_hooks
        self.moves = 0  # moves this process stored (the metrics' moves/s)

    async def act(self, room: Room, seat: int, text: str) -> None:
        """A person's move, in notation."""
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
            await self.apply(room, action, "move")

    async def deal(self, room: Room) -> None:
        """Deal the table's game with a fresh seed and start its clock (the caller holds the
        room's lock): after the ready-check, or at once for a rematch. On a shared database
        the deal is a conditional update: if another process dealt first, show its deal."""
        seed = games.fresh_seed()
        if not await self.storage.start_game(room.id, seed):  # dealt by another process
            await self.refresh(room)
            return
        room.table.seed, room.table.status = seed, "playing"
        room.state = games.new_state(room.setup)
        self.schedule(room)

    async def apply(self, room: Room, action: Any, how: str) -> None:
        """Apply, persist, then broadcast (the caller holds the room's lock)."""
        state = room.state
        seat = state.to_act
        new = state.apply(action)
        outcome = games.outcome_json(new) if new.is_over else None
        try:
            await self.storage.append_action(room.id, len(room.actions) + 1, seat, str(action),
                                             how, outcome, seed=room.table.seed)
        except MoveConflict:  # another process moved first: show the table as it is
            await self.refresh(room)
            asyncio.get_running_loop().create_task(self.show(room))
            raise RoomError("the table moved on meanwhile: look again and choose") from None
        room.log.append(log_entry(state, seat, action, how))
        room.state = new
        room.actions.append(action)
        self.moves += 1
        if outcome is not None:
            room.table.status, room.table.outcome = "over", outcome
            self.pool.forget(room.id)
            for hook in self.end_hooks:
                try:
                    done = hook(room)
                    if done is not None:
                        await done
                except Exception:
                    log.exception("table %s: an end-of-game hook failed", room.id)
        self.schedule(room)
        await self.show(room)

    async def guarded_apply(self, room: Room, action: Any, how: str) -> None:
        """A task's move. Another process's move under the same number (a lease that
        changed hands) is not a failure: the room has been read again and goes on."""
        with contextlib.suppress(RoomError):
            await self.apply(room, action, how)
