"""What each connection of a table is shown: the frames, drawn once per viewpoint.

Each connection receives the view of its own seat (or the public view, for a spectator),
never the state itself; a move that hides cards reaches the other seats in its public form.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Awaitable, Callable

from bito.games.protocol import decider
from bito.server import games
from bito.server.render import Json, render_public, render_view
from bito.server.table import LOG_LENGTH, Connection, Room, Settings, ready_left

#: add-ons' fields in every state frame: ``hook(room, seat)`` returns them
FrameHook = Callable[[Room, int | None], Json]
#: add-ons' greetings to a new connection, after its first frame
AttachHook = Callable[[Room, Connection], Awaitable[None]]


class Broadcast:
    """The frames of every table here. ``connected`` says which seats are online (on any
    process), ``announce`` tells the other processes when that changed here, ``forget``
    drops a finished table nobody watches any more."""

    def __init__(self, settings: Settings, connected: Callable[[Room], set[int]],
                 announce: Callable[[Room], Awaitable[None]], forget: Callable[[str], None],
                 frame_hooks: list[FrameHook], attach_hooks: list[AttachHook]) -> None:
        self.settings = settings
        self.connected = connected
        self.announce = announce
        self.forget = forget
        self.frame_hooks = frame_hooks
        self.attach_hooks = attach_hooks

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
                    out["ready_in"] = round(ready_left(room, row.seat, self.settings), 1)
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
            await self.announce(room)
            await self.broadcast(room)

    async def detach(self, room: Room, conn: Connection) -> None:
        with contextlib.suppress(ValueError):
            room.conns.remove(conn)
        if conn.seat is not None:
            await self.announce(room)
        if room.table.status == "over" and not room.conns:
            self.forget(room.id)  # finished and unwatched: the database keeps it
            return
        if conn.seat is not None:
            await self.broadcast(room)


def dump(frame: Json) -> str:
    """A frame as the text sent on the socket (once per viewpoint, see ``broadcast``)."""
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate would kill the socket's writer: escape it
        text = json.dumps(frame, separators=(",", ":"))
    return text


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
