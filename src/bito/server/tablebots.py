"""The bots at a table: which levels a table may seat, their names, and their turns.

A bot's decision runs in a worker process of the :class:`~bito.server.botpool.BotPool`,
awaited outside the table's lock, so the table still answers its people while a bot thinks;
a pool that fails or runs out of time gives a fallback move, never a stall.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from bito.errors import BitoError
from bito.games.protocol import decider
from bito.server import games
from bito.server.botpool import BotPool, fallback_action
from bito.server.storage import SeatRow
from bito.server.table import Room, RoomError, Settings

log = logging.getLogger("bito.server")

#: Bots' first names, one per seat, so that "Bot Vera (strong) is the fool" says which bot.
BOT_NAMES = ("Boris", "Vera", "Gleb", "Nina", "Oleg", "Lida", "Yuri", "Zoya", "Ilya", "Masha",
             "Pasha", "Dasha")

#: a task's move: applied unless the table moved on meanwhile (see Play.guarded_apply)
Move = Callable[[Room, Any, str], Awaitable[None]]


def admitted_bots(settings: Settings) -> list[str]:
    """The bot names tables may seat under ``settings``: ``--bot-levels``, or every bot but
    ``analysis`` (its search has no time limit)."""
    from bito.bots import bot_names

    if settings.bot_levels is None:
        return [b for b in bot_names() if b != "analysis"]
    return [b for b in bot_names() if b in settings.bot_levels]


def bot_name(seat: int, bot: str) -> str:
    """A bot's display name: a first name of its own at this table, and its level."""
    return f"Bot {BOT_NAMES[(seat - 1) % len(BOT_NAMES)]} ({bot})"


def bot_seat(seat: int, bot: str) -> SeatRow:
    """A seat given to the bot ``bot`` (always ready)."""
    return SeatRow(seat, bot_name(seat, bot), "bot", bot, secrets.token_urlsafe(24), True)


class TableBots:
    """The bots' side of every table: ``pool`` decides, ``move`` plays the decision."""

    def __init__(self, settings: Settings, pool: BotPool, move: Move) -> None:
        self.settings = settings
        self.pool = pool
        self.move = move

    def levels(self) -> list[str]:
        """The bots a table may seat here (``--bot-levels``)."""
        return admitted_bots(self.settings)

    def check(self, bot: str, field: str) -> None:
        from bito.bots import bot_names

        if bot in self.levels():
            return
        if bot in bot_names():
            raise RoomError(f"{field}: {bot!r} bots are not offered on this server "
                            f"(offered: {', '.join(self.levels())})")
        raise RoomError(f"{field}: {bot!r} is not one of {', '.join(self.levels())}")

    async def turn(self, room: Room, n: int, delay: float) -> None:
        """Move ``n + 1`` of the table, a bot's (or an away player's) after ``delay``."""
        await asyncio.sleep(delay)
        async with room.lock:
            if len(room.actions) != n or room.state is None or room.state.is_over:
                return
            state, bot = room.state, room.table.seats[decider(room.state)].bot
        # The decision runs in a worker process, outside the table's lock: the table still
        # answers its people (a refused early move, a reconnect) while a bot thinks.
        action = await self.decision(room, state, bot, n)
        async with room.lock:
            if len(room.actions) != n or room.state is not state:
                return  # the table moved on meanwhile (a player took his seat back...)
            await self.move(room, action, "bot")

    async def decision(self, room: Room, state: Any, bot: str, n: int) -> Any:
        """The move of the bot ``bot`` for the seat to act, from that seat's view only,
        decided in the bot pool; a fallback move if the pool fails or runs out of time."""
        seat = state.to_act
        if bot not in self.levels():  # stored before --bot-levels changed
            bot = self.settings.default_bot
        actions = list(room.actions[:n])
        setup = room.setup

        def past() -> list[Any]:
            return games.seat_views(setup, actions, seat)

        try:
            text = await self.pool.decide((room.id, seat), bot, room.table.seed + seat,
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
