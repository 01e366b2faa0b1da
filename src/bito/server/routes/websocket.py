"""The websocket of a table (``/ws/{table}``): one per player or spectator.

The seat's token comes as a subprotocol (``bito.token.<token>``, next to ``bito``), never in
the URL. Spectators are bounded per table and per address on every process. Frames go out
through a queue, so a slow reader never holds up the table; a connection that floods, stops
reading or sends a frame past the limit is closed with a code saying why (the seat stays).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from bito.server import refusals, shared, webtext
from bito.server.broadcast import dump
from bito.server.db import DatabaseUnavailable
from bito.server.limits import MAX_FRAME, TOO_BIG_CLOSE, frame_refusal
from bito.server.messages import handle
from bito.server.render import Json
from bito.server.rooms import Connection, Lobby, Room, RoomError

SUBPROTOCOL = "bito"
TOKEN_PROTOCOL = "bito.token."
QUEUE_LIMIT = 200  # frames waiting for a client that does not read
FLOOD_CLOSE = 1008  # "policy violation": the close code for a flooding or non-reading client


def add(app: FastAPI, lobby: Callable[[], Lobby], address: Callable[[Any, Any], str],
        owner: Callable[[], str]) -> None:
    """The websocket route. ``address`` gives a client's address (trusted proxies applied),
    ``owner`` this process's name on its spectators' rows (:mod:`bito.server.shared`)."""
    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        offered = [p.strip() for p in
                   websocket.headers.get("sec-websocket-protocol", "").split(",") if p.strip()]
        await websocket.accept(subprotocol=SUBPROTOCOL if SUBPROTOCOL in offered else None)
        lang = webtext.language_of(websocket.headers)

        async def refuse(message: str, code: int, field: str | None = None) -> None:
            said = refusals.error_words(message, lang)
            frame: Json = {"type": "error", "code": said[0], "message": said[1]}
            if field:
                frame["field"] = field
            await websocket.send_json(frame)
            await websocket.close(code=code)

        if "token" in websocket.query_params:
            await refuse("seat tokens are not accepted in URLs: offer the websocket "
                         f"subprotocol {TOKEN_PROTOCOL}<token> (next to {SUBPROTOCOL!r})",
                         4400, "token")
            return
        token = next((p[len(TOKEN_PROTOCOL):] for p in offered
                      if p.startswith(TOKEN_PROTOCOL)), None)
        try:
            room = await lobby().get(table_id)
        except RoomError as e:
            await refuse(str(e), 4404)
            return
        seat = await lobby().seat_of(room, token)
        if token and seat is None:
            await refuse("this seat token is not valid at this table", 4403, "token")
            return
        client = address(websocket.client, websocket.headers)
        limits = lobby().settings
        watcher = ""
        if seat is None:  # a spectator: bounded per table and per address, on every process
            try:
                over, watcher = await shared.watch(
                    lobby().storage, owner(), room.id, client, limits.spectators_per_table,
                    limits.spectators_per_address)
            except DatabaseUnavailable as e:
                await refuse(str(e), 1011)
                return
            if over == "table":
                await refuse(f"this table has {limits.spectators_per_table} spectators, the "
                             "most it takes; try again later", FLOOD_CLOSE)
                return
            if over == "address":
                await refuse(f"at most {limits.spectators_per_address} spectator connections "
                             "from one address; close one to open another", FLOOD_CLOSE)
                return
        try:
            await _serve_socket(lobby(), room, seat, websocket, client, lang)
        finally:
            if watcher:
                with contextlib.suppress(Exception):  # its row runs out by itself anyway
                    await shared.unwatch(lobby().storage, watcher)


async def _serve_socket(lobby: Lobby, room: Room, seat: int | None,
                        websocket: WebSocket, address: str = "", lang: str = "en") -> None:
    """Read a client's messages until it leaves; frames go out through a queue so that a slow
    reader never holds up the table."""
    queue: asyncio.Queue[Json | str | None] = asyncio.Queue()

    async def send(frame: Json | str) -> None:
        if queue.qsize() > QUEUE_LIMIT:
            raise ConnectionError("client does not read its frames")
        queue.put_nowait(frame)

    async def writer() -> None:
        while True:
            frame = await queue.get()
            if frame is None:
                return
            # a broadcast frame comes serialised (once per viewpoint); a reply as a dict
            await websocket.send_text(frame if isinstance(frame, str) else dump(frame))

    conn = Connection(seat, send, address, lang)
    writer_task = asyncio.create_task(writer())
    await lobby.attach(room, conn)
    recent: list[float] = []
    cut_off = ""  # why the server, not the client, ends the connection
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, data = message.get("text"), message.get("bytes")
            size = len(data) if data else len(text) if text else 0
            if text and size > MAX_FRAME // 4:  # up to 4 bytes a character: count them
                size = len(text.encode("utf-8", "surrogatepass"))
            if size > MAX_FRAME:  # the server in front let it through: refused here
                await send(frame_refusal(size))
                cut_off = "too big"
                break
            now = time.monotonic()
            recent = [t for t in recent if now - t < 1.0]
            recent.append(now)
            if len(recent) > lobby.settings.rate_limit:  # a flood: drop this client only
                code, said = refusals.error_words(f"more than {lobby.settings.rate_limit} "
                                                 "messages a second; reconnect to go on", lang)
                await send({"type": "error", "code": code, "message": said})
                cut_off = "flood"
                break
            reply = await handle(lobby, room, conn.seat, message.get("text"), conn)
            if reply is not None:
                await send(reply)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except ConnectionError:  # the client stopped reading its frames
        cut_off = "not reading"
    finally:
        await lobby.detach(room, conn)
        queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer_task, 1.0)
        writer_task.cancel()
        if cut_off:  # a proper close frame with the reason (a flood has had its error frame)
            with contextlib.suppress(Exception):
                await websocket.close(code=TOO_BIG_CLOSE if cut_off == "too big"
                                      else FLOOD_CLOSE, reason=cut_off)

