"""The web app: pages, a small JSON API, and one websocket per player or spectator.

Clients only ever send *intents* (``{"type": "act", "action": "Th>6h"}``); the server checks
the message's shape, the seat token and the move's legality, and replies with a clear error
when any of them fails. A bad message never closes anybody else's connection or table.

Messages a client may send over ``/ws/{table}?token=...``:

* ``{"type": "ready"}`` — the ready-check before the deal;
* ``{"type": "act", "action": TEXT}`` — a move in notation (see ``docs/notation.md``);
* ``{"type": "bot", "seat": N, "bot": NAME | null}`` — the host seats a bot or opens the seat;
* ``{"type": "back"}`` — take the seat back from the bot that covered for you;
* ``{"type": "ping"}``.

The server sends ``{"type": "state", ...}`` frames (see :meth:`Lobby.frame`) and
``{"type": "error", "message": ...}`` replies. A connection that sends more than
``Settings.rate_limit`` messages a second, or stops reading its frames, gets an error frame
saying so and is closed with code 1008; the seat stays, and a reconnect goes on.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

try:
    from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
    from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
    from fastapi.staticfiles import StaticFiles
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("bito serve needs the web extra: pip install 'bito[web]'") from e

from bito.errors import BitoError
from bito.server import games
from bito.server.render import Json, render_open, render_view
from bito.server.rooms import Connection, Lobby, Room, RoomError, Settings, log_for
from bito.server.storage import Storage

log = logging.getLogger("bito.server")

MAX_MESSAGE = 4096  # characters; a move is a few
QUEUE_LIMIT = 200  # frames waiting for a client that does not read
FLOOD_CLOSE = 1008  # "policy violation": the close code for a flooding or non-reading client
STATIC = resources.files("bito.server") / "static"


def create_app(db: str = "bito-server.sqlite3", settings: Settings | None = None) -> FastAPI:
    """The app over the database at ``db`` (a SQLite path or a ``postgresql://`` URL)."""
    holder: dict[str, Lobby] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        lobby = Lobby(Storage(db), settings)
        holder["lobby"] = lobby
        app.state.lobby = lobby
        resumed = await lobby.resume()
        if resumed:
            log.warning("resumed %d game(s) from %s", resumed, db)
        yield
        await lobby.close()
        lobby.storage.close()

    app = FastAPI(title="bito", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    def lobby() -> Lobby:
        return holder["lobby"]

    def page(name: str) -> FileResponse:
        return FileResponse(str(STATIC / name), media_type="text/html")

    @app.get("/")
    async def index() -> FileResponse:
        return page("index.html")

    @app.get("/favicon.ico")
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/t/{table_id}")
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/replay/{table_id}")
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @app.exception_handler(BitoError)
    async def bito_error(request: Request, exc: BitoError) -> JSONResponse:
        status = 404 if str(exc).startswith("no table") else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    @app.get("/api/variants")
    async def variants() -> Json:
        from bito.rules.registry import all_variants

        return {"variants": [{"id": v.id, "names": list(v.names), "summary": v.summary,
                              "family": v.family, "kind": v.kind,
                              "applies_to": list(v.applies_to)} for v in all_variants()],
                "bots": lobby().bot_levels(), "default_bot": lobby().settings.default_bot,
                "timer": lobby().settings.timer}

    @app.get("/api/lobby")
    async def public_tables() -> Json:
        return {"tables": lobby().public_tables()}

    created: dict[str, collections.deque[float]] = {}

    @app.post("/api/tables", response_model=None)
    async def create(request: Request) -> Json | JSONResponse:
        client, now = request.client.host if request.client else "", time.monotonic()
        wait = _creation_wait(created, client, lobby().settings.tables_per_hour, now)
        if wait:
            return JSONResponse({"error": f"too many new tables from this address: at most "
                                 f"{lobby().settings.tables_per_hour} an hour; try again in "
                                 f"{wait} s"}, status_code=429,
                                headers={"Retry-After": str(wait)})
        body = await _body(request)
        room, token = lobby().create(
            variant=_field(body, "variant", str, "podkidnoy"),
            rules_text=_field(body, "rules", str, None),
            deck=_field(body, "deck", int, None),
            players=_field(body, "players", int, 2),
            name=_field(body, "name", str, ""),
            seats=_field(body, "seats", list, []),
            public=_field(body, "public", bool, False),
            timer=_field(body, "timer", (int, float), None))
        created.setdefault(client, collections.deque()).append(now)
        return {"table": room.id, "seat": 0, "token": token, "link": f"/t/{room.id}"}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Json:
        body = await _body(request)
        room = lobby().get(table_id)
        seat, token = await lobby().join(room, _field(body, "name", str, ""))
        return {"table": room.id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, token: str | None = None) -> Json:
        room = lobby().get(table_id)
        return lobby().frame(room, room.seat_of_token(token))

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, token: str | None = None) -> Response:
        room = lobby().get(table_id)
        if room.state is None:
            raise RoomError("the game has not started")
        rec = games.full_record(room.setup, room.actions, room.names())
        if rec is None:
            raise RoomError("records are not written for this game family yet")
        if room.state.is_over:
            text, name = rec.to_jsonl(), f"bito-{room.id}.jsonl"
        else:
            seat = _seat_or_403(room, token)
            if seat is None:
                return _forbidden()
            text, name = rec.censored(seat).to_jsonl(), f"bito-{room.id}-seat{seat}.jsonl"
        return PlainTextResponse(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, token: str | None = None) -> Any:
        room = lobby().get(table_id)
        if room.state is None:
            raise RoomError("the game has not started")
        over = room.state.is_over
        seat = None if over else _seat_or_403(room, token)
        if not over and seat is None:
            return _forbidden()
        state = games.new_state(room.setup)
        frames = [_replay_frame(state, seat, None)]
        # after the end every move is public; during play, the seat's own view of each
        entries = ([{k: v for k, v in e.items() if k != "others"} for e in room.log] if over
                   else log_for(room.log, seat))
        for entry, action in zip(entries, room.actions, strict=True):
            state = state.apply(action)
            frames.append(_replay_frame(state, seat, entry))
        return {"table": room.id, "variant": room.table.spec, "over": over, "seat": seat,
                "names": room.names(), "outcome": room.table.outcome, "frames": frames}

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            room = lobby().get(table_id)
        except RoomError as e:
            await websocket.send_json({"type": "error", "message": str(e)})
            await websocket.close(code=4404)
            return
        seat = room.seat_of_token(token)
        if token and seat is None:
            await websocket.send_json({"type": "error", "message":
                                       "this seat token is not valid at this table"})
            await websocket.close(code=4403)
            return
        await _serve_socket(lobby(), room, seat, websocket)

    return app


def _creation_wait(created: dict[str, collections.deque[float]], client: str, limit: int,
                   now: float) -> int:
    """Seconds until ``client`` may create another table (0: now), counting its creations
    in the last hour (the caller records a creation once it succeeds). One address flooding
    the server with tables would otherwise fill the database and the lobby for everyone."""
    times = created.setdefault(client, collections.deque())
    while times and now - times[0] >= 3600:
        times.popleft()
    if len(times) >= limit:
        return max(1, int(3600 - (now - times[0])) + 1)
    if len(created) > 10_000:  # forget addresses that have gone quiet
        for host in [h for h, t in created.items() if not t or now - t[-1] >= 3600]:
            del created[host]
    return 0


def _replay_frame(state: Any, seat: int | None, entry: Json | None) -> Json:
    frame = render_open(state) if seat is None else render_view(state.view(seat))
    frame["move"] = entry
    return frame


def _seat_or_403(room: Room, token: str | None) -> int | None:
    return room.seat_of_token(token)


def _forbidden() -> JSONResponse:
    return JSONResponse({"error": "during play only a seated player may download, and only "
                                  "the record of his own seat (pass ?token=)"}, status_code=403)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RoomError("the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise RoomError("the request body must be a JSON object")
    return body


def _field(body: dict[str, Any], key: str, kind: Any, default: Any) -> Any:
    value = body.get(key, default)
    if value is None or value == default:
        return value
    if isinstance(value, bool) and kind is not bool:
        raise RoomError(f"{key}: expected {_kind_name(kind)}, got true/false")
    if not isinstance(value, kind):
        raise RoomError(f"{key}: expected {_kind_name(kind)}")
    if kind is list and not all(isinstance(x, str) for x in value):
        raise RoomError(f"{key}: expected a list of texts")
    return value


def _kind_name(kind: Any) -> str:
    names = {str: "a text", int: "a whole number", bool: "true or false", list: "a list"}
    if isinstance(kind, tuple):
        return "a number"
    return names.get(kind, "another type")


async def _serve_socket(lobby: Lobby, room: Room, seat: int | None,
                        websocket: WebSocket) -> None:
    """Read a client's messages until it leaves; frames go out through a queue so that a slow
    reader never holds up the table."""
    queue: asyncio.Queue[Json | None] = asyncio.Queue()

    async def send(frame: Json) -> None:
        if queue.qsize() > QUEUE_LIMIT:
            raise ConnectionError("client does not read its frames")
        queue.put_nowait(frame)

    async def writer() -> None:
        while True:
            frame = await queue.get()
            if frame is None:
                return
            await websocket.send_text(json.dumps(frame, ensure_ascii=False,
                                                    separators=(",", ":")))

    conn = Connection(seat, send)
    writer_task = asyncio.create_task(writer())
    await lobby.attach(room, conn)
    recent: list[float] = []
    cut_off = ""  # why the server, not the client, ends the connection
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            now = time.monotonic()
            recent = [t for t in recent if now - t < 1.0]
            recent.append(now)
            if len(recent) > lobby.settings.rate_limit:  # a flood: drop this client only
                await send({"type": "error", "message": f"more than {lobby.settings.rate_limit}"
                            " messages a second; reconnect to go on"})
                cut_off = "flood"
                break
            reply = await _handle(lobby, room, seat, message.get("text"))
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
                await websocket.close(code=FLOOD_CLOSE, reason=cut_off)


KNOWN = ("act", "ready", "bot", "back", "ping")


async def _handle(lobby: Lobby, room: Room, seat: int | None, text: str | None) -> Json | None:
    """Check one message and carry it out; a problem comes back as an error reply."""
    kind = None
    try:
        if text is None:
            raise RoomError("send JSON text frames, not binary ones")
        if len(text) > MAX_MESSAGE:
            raise RoomError(f"message too long ({len(text)} characters; at most {MAX_MESSAGE})")
        try:
            message = json.loads(text)
        except json.JSONDecodeError as e:
            raise RoomError(f"not valid JSON: {e.msg} at column {e.colno}") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise RoomError('a message is a JSON object with a "type"')
        kind = message["type"]
        if kind not in KNOWN:
            raise RoomError(f"unknown message type {kind!r} (known: {', '.join(KNOWN)})")
        if kind == "ping":
            return {"type": "pong"}
        if seat is None:
            raise RoomError("spectators can only watch: join the table to play")
        if kind == "act":
            action = message.get("action")
            if not isinstance(action, str) or not action.strip():
                raise RoomError('"act" needs "action": the move in notation, e.g. "7d"')
            await lobby.act(room, seat, action)
        elif kind == "ready":
            await lobby.ready(room, seat)
        elif kind == "back":
            await lobby.back(room, seat)
        elif kind == "bot":
            target, bot = message.get("seat"), message.get("bot")
            if not isinstance(target, int) or isinstance(target, bool):
                raise RoomError('"bot" needs "seat": a seat number')
            if bot is not None and not isinstance(bot, str):
                raise RoomError('"bot" needs "bot": a bot name, or null to open the seat')
            await lobby.seat_bot(room, seat, target, bot)
        return None
    except BitoError as e:
        return {"type": "error", "request": kind, "message": str(e)}
    except Exception as e:  # never let one message take the server down
        log.exception("table %s: message failed", room.id)
        return {"type": "error", "request": kind, "message": f"server error: {type(e).__name__}"}
