"""Several server processes in one event loop, for the tests of what they agree on: each
:class:`Process` has what one ``bito serve`` process has of the cluster (its own pool,
notifier, lease keeper and lobby), and no web server: the tests call the lobby itself."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from bito.server.db import Notifier, PostgresDatabase
from bito.server.lease import Keeper
from bito.server.rooms import Lobby, Settings


class Process:
    """What one ``bito serve`` process holds of the cluster: a pool, a notifier, a lease
    keeper and a lobby (no web server: the test calls the lobby itself)."""

    def __init__(self, url: str, name: str, gather: float | None = None) -> None:
        self.db = PostgresDatabase(url, origin=name)
        if gather is not None:  # a slow notifier: its notices leave ``gather`` s late
            self.db.notices = Notifier(url, name, gather=gather)
        self.lobby = Lobby(self.db, Settings(bot_workers=1, timer=120))
        self.keeper = Keeper(self.lobby, self.db)

    async def start(self) -> None:
        await self.db.open()
        await self.keeper.start()

    async def stop(self) -> None:
        await self.keeper.stop()
        await self.lobby.close()
        await self.db.close()

    async def die(self) -> None:
        """As ``kill -9`` leaves it: no more renewals, its connections gone, its leases
        left to run out."""
        for task in [*self.keeper.tasks, *self.keeper.adopting.values()]:
            task.cancel()
        if self.keeper.conn is not None:
            await self.keeper.conn.close()
        await self.db.notices.stop()
        await self.db.pool.close()
        await self.lobby.close()




async def until(test: Callable[[], bool], seconds: float) -> bool:
    """Whether ``test()`` holds within ``seconds`` (looked at every 20 ms)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        await asyncio.sleep(0.02)
    return test()
