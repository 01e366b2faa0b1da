"""The web app: pages, a small JSON API, and one websocket per player or spectator.

Clients only ever send *intents* (``{"type": "act", "action": "Th>6h"}``); the server checks
the message's shape, the seat token and the move's legality, and replies with a clear error
when any of them fails. A bad message never closes anybody else's connection or table.

A seat's token never travels in a URL (URLs end up in logs, histories and Referer headers):
the websocket carries it as a subprotocol (``bito.token.<token>``, next to ``bito``), HTTP
requests in the ``X-Bito-Token`` header, and a download link holds a short-lived, single-use
ticket instead (``POST /api/tables/{table}/ticket``).

Messages a client may send over ``/ws/{table}``:

* ``{"type": "ready"}`` — the ready-check before the deal;
* ``{"type": "act", "action": TEXT}`` — a move in notation (see ``docs/notation.md``);
* ``{"type": "bot", "seat": N, "bot": NAME | null}`` — the host seats a bot or opens the seat;
* ``{"type": "back"}`` — take the seat back from the bot that covered for you;
* ``{"type": "kick", "seat": N}`` — the host frees, before the deal, the seat of a person who
  has not pressed Ready within the ready-check's time;
* ``{"type": "chat", "text": TEXT}`` or ``{"type": "chat", "reaction": EMOJI}`` — talk at
  the table (:mod:`bito.server.chat`; spectators too, if the host allowed it);
* ``{"type": "rematch", "agree": true | false}`` — once the deal is over: play the next deal
  at the same table, or leave (:mod:`bito.server.rematch`);
* ``{"type": "ping"}``.

The server sends ``{"type": "state", ...}`` frames (see :meth:`Lobby.frame`) and
``{"type": "error", "message": ..., "field": ...}`` replies (``field`` names the part of the
message at fault, when there is one). A connection that sends more than
``Settings.rate_limit`` messages a second, or stops reading its frames, gets an error frame
saying so and is closed with code 1008; the seat stays, and a reconnect goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import re
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
from bito.server import chat, games, refusals, rematch, shared, webtext
from bito.server.accounts import Accounts, AccountSettings, install
from bito.server.db import DatabaseUnavailable, PostgresDatabase, open_database
from bito.server.health import add_routes, install_metrics
from bito.server.limits import MAX_BODY, MAX_FRAME, TOO_BIG_CLOSE, BodyLimit, frame_refusal
from bito.server.quickmatch import quick_match
from bito.server.render import Json, render_open, render_view
from bito.server.review import Reviews
from bito.server.rooms import Connection, Lobby, Room, RoomError, Settings, dump, log_for

log = logging.getLogger("bito.server")

MAX_MESSAGE = 4096  # characters; a move is a few
MAX_DEPTH = 4  # nesting of a message (they are flat objects)
#: Text nested deeper than this is refused unparsed; between MAX_DEPTH and this, the parsed
#: message's check names the field at fault.
MAX_PARSED_DEPTH = 64
TOKEN_HEADER = "X-Bito-Token"
SUBPROTOCOL = "bito"
TOKEN_PROTOCOL = "bito.token."
TICKET_LIFE = 60.0  # seconds a download ticket works (once)
CREATED = "table:"  # the key of a table's creation among an address's events
QUEUE_LIMIT = 200  # frames waiting for a client that does not read
FLOOD_CLOSE = 1008  # "policy violation": the close code for a flooding or non-reading client
STATIC = resources.files("bito.server") / "static"


def create_app(db: str = "bito-server.sqlite3", settings: Settings | None = None,
               account_settings: AccountSettings | None = None) -> FastAPI:
    """The app over the database at ``db`` (a SQLite path or a ``postgresql://`` URL)."""
    holder: dict[str, Lobby] = {}
    accounts = Accounts(db, account_settings or AccountSettings())
    owner = ""  # this process's name on its spectators' rows (bito.server.shared)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        from bito.server.lease import Keeper, process_name

        nonlocal owner
        owner = process_name()
        database = open_database(db, origin=owner)
        try:
            await database.open()
        except Exception as e:  # said in one line by ``bito serve`` (serve._serve)
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            app.state.startup_error = f"database: {first}"
            raise
        lobby = Lobby(database, settings)
        lobby.frame_hooks += [rematch.frame_fields(lobby), chat.frame_fields]
        lobby.attach_hooks += [chat.greet(lobby), rematch.greet(lobby)]
        # chat lines and rematch answers reach every process's sockets
        lobby.handlers.update(chat=chat.deliver, rematch=rematch.heard(lobby))
        accounts.open(lobby)
        holder["lobby"] = lobby
        app.state.lobby = lobby
        install_metrics(app, lobby)
        # PostgreSQL: several processes may share it; leases say who drives which table
        keeper = Keeper(lobby, database) if isinstance(database, PostgresDatabase) else None
        app.state.keeper = keeper
        if keeper is not None:
            await keeper.start()
            warming = asyncio.create_task(lobby.bots.warm())  # ready to take tables over
        resumed = await lobby.resume()
        if resumed:
            log.warning("resumed %d game(s) from %s", resumed, db)
        log.info("serving; games stored in %s", re.sub(r"//[^@/]*@", "//", db.split("?")[0]))
        renewing = asyncio.create_task(_renew_watchers(database, owner))
        yield
        log.info("shutting down")
        renewing.cancel()
        with contextlib.suppress(Exception):
            await shared.renew_watchers(database, owner, gone=True)
        if keeper is not None:
            warming.cancel()
            await keeper.stop()  # hand the tables over at once
        await lobby.close()
        await lobby.storage.close()
        accounts.close()

    app = FastAPI(title="bito", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit, limit=MAX_BODY)  # with or without a proxy in front
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    def lobby() -> Lobby:
        return holder["lobby"]

    add_routes(app, lobby)  # /healthz, /readyz, /metrics

    trusted = _networks((settings or Settings()).trusted_proxies)

    def address(client: Any, headers: Any) -> str:
        return client_address(client.host if client else "",
                              headers.get("x-forwarded-for"), trusted)

    def via_https(request: Request) -> bool:
        """Whether the user reached us over https: directly, or through a trusted proxy
        that says so (only a trusted proxy's X-Forwarded-Proto is believed)."""
        if request.url.scheme == "https":
            return True
        host = request.client.host if request.client else ""
        proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        return proto == "https" and _trusted(host, trusted)

    install(app, accounts, lobby, lambda r: address(r.client, r.headers), via_https)


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
        status = (503 if isinstance(exc, DatabaseUnavailable)
                  else 404 if str(exc).startswith("no table") else 400)
        code, said = refusals.error_words(exc, webtext.language_of(request.headers))
        return JSONResponse({"error": said, "code": code}, status_code=status)

    @app.get("/i18n/web.json")
    async def web_texts(request: Request, lang: str | None = None) -> JSONResponse:
        """The page's texts in the chosen language (``?lang=`` for a preview, else the
        cookie, else ``Accept-Language``); ``Vary`` keeps caches from mixing languages."""
        chosen = webtext.choose_language(lang, None) if lang else \
            webtext.language_of(request.headers)
        return JSONResponse(webtext.bundle(chosen),
                            headers={"Vary": "Cookie, Accept-Language",
                                     "Content-Language": chosen})

    @app.get("/api/variants")
    async def variants() -> Json:
        from bito.rules.registry import all_variants

        def seats(v: Any) -> dict[str, Any]:
            try:
                low, high, partners = games.seat_range(v.id) if v.kind == "game" else (0, 0, 0)
            except BitoError:  # not one game (a tournament of several)
                return {}
            if not high:
                return {}
            return {"players": [low, high], "partners": partners}

        return {"variants": [{"id": v.id, "names": list(v.names), "summary": v.summary,
                              "family": v.family, "kind": v.kind,
                              "applies_to": list(v.applies_to), **seats(v)}
                             for v in all_variants()],
                "bots": lobby().bot_levels(), "default_bot": lobby().settings.default_bot,
                "timer": lobby().settings.timer}

    @app.get("/api/lobby")
    async def public_tables() -> Json:
        return {"tables": await lobby().public_tables()}

    async def creation_wait(client: str) -> int:
        """Seconds until ``client`` may create another table (0: now), counting its
        creations of the last hour on every process (the caller records a creation once
        it succeeds). One address flooding the server with tables would otherwise fill the
        database and the lobby for everyone."""
        return await shared.address_wait(lobby().storage, CREATED + client,
                                         lobby().settings.tables_per_hour, 3600)

    @app.post("/api/tables", response_model=None)
    async def create(request: Request) -> Json | JSONResponse:
        client = address(request.client, request.headers)
        wait = await creation_wait(client)
        if wait:
            code, said = refusals.error_words(
                f"too many new tables from this address: at most "
                f"{lobby().settings.tables_per_hour} an hour; try again in {wait} s",
                webtext.language_of(request.headers))
            return JSONResponse({"error": said, "code": code}, status_code=429,
                                headers={"Retry-After": str(wait)})
        body = await _body(request)
        room, token = await lobby().create(
            variant=_field(body, "variant", str, "podkidnoy"),
            rules_text=_field(body, "rules", str, None),
            deck=_field(body, "deck", int, None),
            players=_field(body, "players", int, 2),
            name=_field(body, "name", str, ""),
            seats=_field(body, "seats", list, []),
            public=_field(body, "public", bool, False),
            timer=_field(body, "timer", (int, float), None),
            extra=chat.table_setting(_field(body, "spectator_chat", str, None)))
        await shared.add_address_event(lobby().storage, CREATED + client)
        await accounts.bind(request, room.id, 0)
        return {"table": room.id, "seat": 0, "token": token, "link": f"/t/{room.id}"}

    @app.post("/api/quickmatch", response_model=None)
    async def quickmatch(request: Request) -> Json | JSONResponse:
        """Join the first public waiting table of this game, seats and deck, or open one
        (which counts as a table created by this address)."""
        client = address(request.client, request.headers)
        body = await _body(request)
        wait = await creation_wait(client)
        room, seat, token, new = await quick_match(
            lobby(), variant=_field(body, "variant", str, "podkidnoy"),
            rules_text=_field(body, "rules", str, None), deck=_field(body, "deck", int, None),
            players=_field(body, "players", int, 2), name=_field(body, "name", str, ""),
            timer=_field(body, "timer", (int, float), None),
            extra=chat.table_setting(_field(body, "spectator_chat", str, None)),
            may_open=not wait)
        if room is None:
            code, said = refusals.error_words(
                f"no table fits and too many new tables from this address: try again in "
                f"{wait} s", webtext.language_of(request.headers))
            return JSONResponse({"error": said, "code": code}, status_code=429,
                                headers={"Retry-After": str(wait)})
        if new:
            await shared.add_address_event(lobby().storage, CREATED + client)
        await accounts.bind(request, room.id, seat)
        return {"table": room.id, "seat": seat, "token": token, "link": f"/t/{room.id}",
                "created": new}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> Json:
        body = await _body(request)
        room = await lobby().get(table_id)
        seat, token = await lobby().join(room, _field(body, "name", str, ""))
        await accounts.bind(request, room.id, seat)
        return {"table": room.id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> Json:
        room = await lobby().get(table_id)
        return lobby().frame(room, await lobby().seat_of(room, _token(request)))

    @app.post("/api/tables/{table_id}/ticket", response_model=None)
    async def ticket(table_id: str, request: Request) -> Json | JSONResponse:
        """A download link's ticket: single use, for TICKET_LIFE seconds, for the record of
        the seat whose token came in the header."""
        room = await lobby().get(table_id)
        seat = await lobby().seat_of(room, _token(request))
        if seat is None:
            return JSONResponse({"error": f"send your seat's token in the {TOKEN_HEADER} "
                                          "header to get a download ticket"}, status_code=403)
        value = await shared.issue_ticket(lobby().storage, "record", room.id, seat,
                                          room.table.seats[seat].token, TICKET_LIFE)
        if value is None:
            raise RoomError("too many download tickets waiting; try again in a minute")
        return {"ticket": value, "expires_in": TICKET_LIFE,
                "link": f"/api/tables/{room.id}/record?ticket={value}"}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request, ticket: str | None = None) -> Response:
        room = await lobby().get(table_id)
        token = _token(request)
        if ticket is not None:
            held = await shared.redeem_ticket(lobby().storage, "record", ticket)
            if held is None or held[0] != room.id:
                return JSONResponse({"error": "this download ticket is not valid (used, "
                                              "expired or for another table)"},
                                    status_code=403)
            token = room.table.seats[held[1]].token
        if room.state is None:
            raise RoomError("the game has not started")
        rec = games.full_record(room.setup, room.actions, room.names(),
                                people=rematch.people(room))
        if rec is None:
            raise RoomError("records are not written for this game family yet")
        if room.state.is_over:
            text, name = rec.to_jsonl(), f"bito-{room.id}.jsonl"
        else:
            seat = await _seat_or_403(lobby(), room, token)
            if seat is None:
                return _forbidden()
            text, name = rec.censored(seat).to_jsonl(), f"bito-{room.id}-seat{seat}.jsonl"
        return PlainTextResponse(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="{name}"'})

    reviews = app.state.reviews = Reviews()

    @app.get("/api/tables/{table_id}/review", response_model=None)
    async def review(table_id: str, request: Request) -> Json | JSONResponse:
        """The game review of the asker's own seat (issue 36), once the game is over: made
        in the bot workers the first time, stored with the game after (bito.server.review)."""
        room = await lobby().get(table_id)
        if room.state is None or not room.state.is_over:
            raise RoomError("a game is reviewed once it is over")
        seat = await lobby().seat_of(room, _token(request))
        if seat is None:
            return JSONResponse({"error": "a review is of your own seat: send your seat's "
                                          f"token in the {TOKEN_HEADER} header"},
                                status_code=403)
        made = await reviews.review(
            lobby().bots, lobby().storage, room.id, seat,
            lambda: games.full_record(room.setup, room.actions, room.names(),
                                      people=rematch.people(room)).to_jsonl())
        if made is None:
            return JSONResponse({"error": "the review could not be made just now; try again "
                                          "in a minute"}, status_code=503)
        return made

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> Any:
        room = await lobby().get(table_id)
        token = _token(request)
        if room.state is None:
            raise RoomError("the game has not started")
        over = room.state.is_over
        seat = None if over else await _seat_or_403(lobby(), room, token)
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
                    lobby().storage, owner, room.id, client, limits.spectators_per_table,
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

    return app


def _networks(entries: tuple[str, ...]) -> list[Any]:
    """The trusted proxies as networks (an address, or a CIDR block)."""
    out = []
    for entry in entries:
        try:
            out.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy: {entry!r} is not an address or a network "
                             "(e.g. 10.0.0.0/8)") from None
    return out


def _trusted(host: str, networks: list[Any]) -> bool:
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def client_address(host: str, forwarded: str | None, trusted: list[Any]) -> str:
    """The client's address for per-address limits. ``X-Forwarded-For`` is believed only
    when the connection comes from a trusted proxy, and then read from the right: the first
    address not itself a trusted proxy is the client (whatever a client writes at the left
    of the header is ignored)."""
    if not forwarded or not _trusted(host, trusted):
        return host
    for hop in reversed([h.strip() for h in forwarded.split(",") if h.strip()]):
        if not _trusted(hop, trusted):
            return hop
    return host


def _token(request: Request) -> str | None:
    """The seat token of an HTTP request: from the header, never from the URL."""
    if "token" in request.query_params:
        raise RoomError(f"seat tokens are not accepted in URLs: send the {TOKEN_HEADER} "
                        "header (a download link takes a ticket: POST "
                        "/api/tables/<table>/ticket)")
    return request.headers.get(TOKEN_HEADER)


def _replay_frame(state: Any, seat: int | None, entry: Json | None) -> Json:
    frame = render_open(state) if seat is None else render_view(state.view(seat))
    frame["move"] = entry
    return frame


async def _seat_or_403(lobby: Lobby, room: Room, token: str | None) -> int | None:
    return await lobby.seat_of(room, token)


def _forbidden() -> JSONResponse:
    return JSONResponse({"error": "during play only a seated player may download, and only "
                                  f"the record of his own seat (send the {TOKEN_HEADER} "
                                  "header, or use a download ticket)"}, status_code=403)


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
            reply = await _handle(lobby, room, conn.seat, message.get("text"), conn)
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


KNOWN = ("act", "ready", "bot", "back", "kick", "chat", "rematch", "ping")


class MessageError(RoomError):
    """A message whose shape is wrong; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


async def _nowhere(frame: Json | str) -> None:
    """The sender of a message handled without a socket (nothing is sent back)."""
    del frame


def _bracket_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings skipped (one pass, no
    parsing; malformed text is left to the parser)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_shape(message: Any) -> None:
    """Refuse what a message must never hold: text that is not Unicode (a lone surrogate,
    which could not be sent back), or nesting deeper than :data:`MAX_DEPTH`. Iterative, so a
    deep message cannot exhaust the stack here. The error's field is the top-level key at
    fault (its message gives the whole path)."""
    stack: list[tuple[Any, str, int]] = [(message, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        field = path.split(".")[0].split("[")[0] or "message"
        if depth > MAX_DEPTH:
            raise MessageError(field, f"{path or 'the message'}: nested too deeply (a "
                               "message is a flat JSON object)")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise MessageError(field, f'{path or "the message"}: not valid text (a lone '
                                   "surrogate such as \\ud800)") from None
        elif isinstance(value, dict):
            for key, item in value.items():
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    raise MessageError(field, f"{path or 'the message'}: a key is not valid "
                                       "text (a lone surrogate)") from None
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                stack.append((item, f"{path}[{i}]", depth + 1))


async def _handle(lobby: Lobby, room: Room, seat: int | None, text: str | None,
                  conn: Connection | None = None) -> Json | None:
    """Check one message and carry it out; a problem comes back as an error reply: a stable
    ``code`` (``webtext.error_words``) and the message in the connection's language."""
    lang = conn.lang if conn is not None else "en"
    kind = None
    try:
        if text is None:
            raise MessageError("message", "send JSON text frames, not binary ones")
        if len(text) > MAX_MESSAGE:
            raise MessageError("message", f"message too long ({len(text)} characters; at "
                               f"most {MAX_MESSAGE})")
        if _bracket_depth(text) > MAX_PARSED_DEPTH:
            # Refused before parsing: how deep json.loads can go depends on the process's
            # recursion limit, and the answer must not.
            raise MessageError("message", "the message: nested too deeply (a message is a "
                               "flat JSON object)")
        try:
            message = json.loads(text)
        except json.JSONDecodeError as e:
            raise MessageError("message", f"not valid JSON: {e.msg.removesuffix(' at')} at "
                               f"column {e.colno}") from None
        except RecursionError:
            raise MessageError("message", "the message: nested too deeply (a message is a "
                               "flat JSON object)") from None
        # The shape first: a deep list must be named as such whatever the recursion limit
        # let json.loads read (a process that raised the limit parses 2,000 levels).
        _check_shape(message)
        if not isinstance(message, dict):
            raise MessageError("message", 'a message is a JSON object with a "type"')
        if "type" not in message:
            raise MessageError("type", 'a message is a JSON object with a "type"')
        if not isinstance(message["type"], str):
            raise MessageError("type", f'"type": expected a text (one of {", ".join(KNOWN)})')
        kind = message["type"]
        if kind not in KNOWN:
            shown = kind if len(kind) <= 20 else kind[:20] + "…"
            kind = None  # not echoed back as the request
            raise MessageError("type", f"unknown message type {shown!r} (known: "
                               f"{', '.join(KNOWN)})")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "chat":  # spectators may talk too, as the host chose
            await chat.chat(lobby, room, conn or Connection(seat, _nowhere), message)
            return None
        if seat is None:
            raise RoomError("spectators can only watch: join the table to play")
        if kind == "act":
            action = message.get("action")
            if not isinstance(action, str) or not action.strip():
                raise MessageError("action", '"act" needs "action": the move in notation, '
                                   'e.g. "7d"')
            await lobby.act(room, seat, action)
        elif kind == "ready":
            await lobby.ready(room, seat)
        elif kind == "back":
            await lobby.back(room, seat)
        elif kind == "bot":
            target, bot = message.get("seat"), message.get("bot")
            if not isinstance(target, int) or isinstance(target, bool):
                raise MessageError("seat", '"bot" needs "seat": a seat number')
            if bot is not None and not isinstance(bot, str):
                raise MessageError("bot", '"bot" needs "bot": a bot name, or null to open '
                                   'the seat')
            await lobby.seat_bot(room, seat, target, bot)
        elif kind == "rematch":
            agree = message.get("agree", True)
            if not isinstance(agree, bool):
                raise MessageError("agree", '"rematch" needs "agree": true (play the next '
                                   'deal) or false (leave)')
            await rematch.answer(lobby, room, seat, agree)
        elif kind == "kick":
            target = message.get("seat")
            if not isinstance(target, int) or isinstance(target, bool):
                raise MessageError("seat", '"kick" needs "seat": a seat number')
            await lobby.kick(room, seat, target)
        return None
    except MessageError as e:
        # the shape of a message is a programmer's matter (its code), said in the person's
        # language where the field and the problem are known
        return {"type": "error", "request": kind, "field": e.field, "code": "message",
                "message": webtext.message_words(str(e), lang)}
    except chat.ChatError as e:
        # a refused chat line is the person's own matter: said in his language
        code, said = refusals.error_words(str(e), lang)
        return {"type": "error", "request": kind, "field": e.field, "code": "chat",
                "message": said}
    except BitoError as e:
        code, said = refusals.error_words(e, lang)
        return {"type": "error", "request": kind, "code": code, "message": said}
    except Exception as e:  # never let one message take the server down
        log.exception("table %s: message failed", room.id)
        code, said = refusals.error_words(f"server error: {type(e).__name__}", lang)
        return {"type": "error", "request": kind, "code": code, "message": said}


async def _renew_watchers(database: Any, owner: str) -> None:
    """Keep this process's spectators counted (bito.server.shared) while it runs."""
    while True:
        await asyncio.sleep(shared.WATCH_RENEW)
        try:
            await shared.renew_watchers(database, owner)
        except Exception as e:  # the database away: the next renewal tries again
            log.warning("spectators: could not renew (%s)", str(e).strip() or type(e).__name__)
