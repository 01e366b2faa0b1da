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
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

try:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError("bito serve needs the web extra: pip install 'bito[web]'") from e

from bito.errors import BitoError
from bito.server import chat, refusals, rematch, shared, webtext
from bito.server.accounts import Accounts, AccountSettings
from bito.server.db import DatabaseUnavailable, PostgresDatabase, open_database
from bito.server.health import add_routes, install_metrics
from bito.server.limits import MAX_BODY, BodyLimit
from bito.server.rooms import Lobby, Settings
from bito.server.routes import accounts as account_routes
from bito.server.routes import pages, players, records, seat_moves, tables, websocket

log = logging.getLogger("bito.server")


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

    def request_address(request: Request) -> str:
        return address(request.client, request.headers)

    # the routes, by concern (bito.server.routes)
    account_routes.add(app, accounts, lobby, request_address, via_https)
    seat_moves.add(app, accounts, lobby)
    players.add(app, accounts, lobby, request_address)
    pages.add(app, lobby)
    tables.add(app, lobby, accounts, address)
    records.add(app, lobby)
    websocket.add(app, lobby, address, lambda: owner)

    @app.exception_handler(BitoError)
    async def bito_error(request: Request, exc: BitoError) -> JSONResponse:
        status = (503 if isinstance(exc, DatabaseUnavailable)
                  else 404 if str(exc).startswith("no table") else 400)
        code, said = refusals.error_words(exc, webtext.language_of(request.headers))
        return JSONResponse({"error": said, "code": code}, status_code=status)

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



async def _renew_watchers(database: Any, owner: str) -> None:
    """Keep this process's spectators counted (bito.server.shared) while it runs."""
    while True:
        await asyncio.sleep(shared.WATCH_RENEW)
        try:
            await shared.renew_watchers(database, owner)
        except Exception as e:  # the database away: the next renewal tries again
            log.warning("spectators: could not renew (%s)", str(e).strip() or type(e).__name__)
