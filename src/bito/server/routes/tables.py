"""Opening and joining tables over HTTP: a new table, a quick match, a seat taken, the
table as a seat (or a spectator) sees it. One address may open only so many tables an hour,
counted on every process."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from bito.server import chat, refusals, shared, webtext
from bito.server.accounts import Accounts
from bito.server.quickmatch import quick_match
from bito.server.render import Json
from bito.server.rooms import Lobby
from bito.server.routes.inputs import field_of, read_body, token_of

CREATED = "table:"  # the key of a table's creation among an address's events


def add(app: FastAPI, lobby: Callable[[], Lobby], accounts: Accounts,
        address: Callable[[Any, Any], str]) -> None:
    """The tables' routes. ``address`` gives a client's address (trusted proxies applied);
    a seat taken while logged in is the account's (``accounts.bind``)."""
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
        body = await read_body(request)
        room, token = await lobby().create(
            variant=field_of(body, "variant", str, "podkidnoy"),
            rules_text=field_of(body, "rules", str, None),
            deck=field_of(body, "deck", int, None),
            players=field_of(body, "players", int, 2),
            name=field_of(body, "name", str, ""),
            seats=field_of(body, "seats", list, []),
            public=field_of(body, "public", bool, False),
            timer=field_of(body, "timer", (int, float), None),
            extra=chat.table_setting(field_of(body, "spectator_chat", str, None)))
        await shared.add_address_event(lobby().storage, CREATED + client)
        await accounts.bind(request, room.id, 0)
        return {"table": room.id, "seat": 0, "token": token, "link": f"/t/{room.id}"}

    @app.post("/api/quickmatch", response_model=None)
    async def quickmatch(request: Request) -> Json | JSONResponse:
        """Join the first public waiting table of this game, seats and deck, or open one
        (which counts as a table created by this address)."""
        client = address(request.client, request.headers)
        body = await read_body(request)
        wait = await creation_wait(client)
        room, seat, token, new = await quick_match(
            lobby(), variant=field_of(body, "variant", str, "podkidnoy"),
            rules_text=field_of(body, "rules", str, None), deck=field_of(body, "deck", int, None),
            players=field_of(body, "players", int, 2), name=field_of(body, "name", str, ""),
            timer=field_of(body, "timer", (int, float), None),
            extra=chat.table_setting(field_of(body, "spectator_chat", str, None)),
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
        body = await read_body(request)
        room = await lobby().get(table_id)
        seat, token = await lobby().join(room, field_of(body, "name", str, ""))
        await accounts.bind(request, room.id, seat)
        return {"table": room.id, "seat": seat, "token": token}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str, request: Request) -> Json:
        room = await lobby().get(table_id)
        return lobby().frame(room, await lobby().seat_of(room, token_of(request)))

