"""Quick match: sit at the first public table waiting for a game like yours, or open one.

A table fits when it is public, still waiting for players, has an open seat, and plays the
same resolved game (variant, house rules and deck, as one canonical spec) with the same number
of seats. The move timer is not part of the fit: the table's host chose it. When nothing
fits, a new public table is opened with every other seat open for the next quick-matcher.
"""

from __future__ import annotations

from typing import Any

from bito.server import games
from bito.server.rooms import Lobby, Room


def fitting(lobby: Lobby, spec: str, players: int) -> Room | None:
    """The oldest public waiting table of this game and size with a seat free."""
    best: Room | None = None
    for room in lobby.rooms.values():
        t = room.table
        if (t.settings.get("public") and t.status == "waiting" and t.spec == spec
                and t.players == players and any(s.kind == "open" for s in t.seats)
                and (best is None or t.created < best.table.created)):
            best = room
    return best


async def quick_match(lobby: Lobby, *, variant: str, rules_text: str | None, deck: int | None,
                      players: int, name: str, timer: float | None,
                      extra: dict[str, Any] | None = None, may_open: bool = True
                      ) -> tuple[Room | None, int, str, bool]:
    """Join a fitting table or open one (unless ``may_open`` is false: the address has made
    its tables for the hour; then the room is None). Returns the room, the seat, its token
    and whether the table is new."""
    spec = games.resolve_spec(variant, rules_text, deck)
    room = fitting(lobby, spec, players)
    if room is not None:
        seat, token = await lobby.join(room, name)
        return room, seat, token, False
    if not may_open:
        return None, -1, "", False
    room, token = await lobby.create(variant=spec, rules_text=None, deck=None,
                                     players=players, name=name,
                                     seats=["open"] * (players - 1), public=True, timer=timer,
                                     extra=extra)
    return room, 0, token, True
