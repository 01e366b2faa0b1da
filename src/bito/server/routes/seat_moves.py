"""A seat that follows its owner: taken on another device while logged in, made the
account's, or moved by a guest with a single-use link (and its QR code). The old device's
connection is told and watches from then on; a seat token never appears in a URL."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request

from bito.server import shared
from bito.server.accountdb import AccountDB
from bito.server.accounts import (
    MOVED,
    PEOPLE,
    TOKEN_HEADER,
    AccountError,
    Accounts,
    Json,
    base_table,
    body_of,
    qr_svg,
)
from bito.server.rooms import Lobby


def add(app: FastAPI, accounts: Accounts, lobby: Callable[[], Lobby]) -> None:
    """The seats' routes (``lobby`` gives the app's lobby once it runs)."""
    s = accounts.settings

    @app.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, request: Request) -> Json:
        """The account's seat at this table, on this device: a fresh token (the device that
        had the seat is told and watches)."""
        username = await accounts.user(request)
        if username is None:
            raise AccountError("log in to take your seat on this device", status=401)
        room = await lobby().get(table_id)
        owners = await accounts.call(AccountDB.owners, base_table(room.id))
        owned = [seat for seat, who in owners.items()
                 if who == username and room.table.seats[seat].kind in PEOPLE]
        if not owned:
            raise AccountError("your account has no seat at this table", status=404)
        token = await lobby().renew_token(room, owned[0], MOVED)
        return {"table": room.id, "seat": owned[0], "token": token}

    @app.post("/api/tables/{table_id}/own")
    async def own(table_id: str, request: Request) -> Json:
        """The seat whose token came in the header becomes the logged-in account's (a guest
        who logs in after sitting down): from then on it follows the account."""
        username = await accounts.user(request)
        if username is None:
            raise AccountError("log in first", status=401)
        room = await lobby().get(table_id)
        seat = room.seat_of_token(request.headers.get(TOKEN_HEADER))
        if seat is None:
            raise AccountError(f"send your seat's token in the {TOKEN_HEADER} header",
                               status=403)
        await accounts.call(AccountDB.own_seat, base_table(room.id), seat, username)
        return {"table": room.id, "seat": seat, "username": username}

    @app.post("/api/tables/{table_id}/move")
    async def move(table_id: str, request: Request) -> Json:
        """A personal "continue on another device" link for the seat whose token came in the
        header: single use, short-lived, for this seat only."""
        room = await lobby().get(table_id)
        token = request.headers.get(TOKEN_HEADER)
        seat = room.seat_of_token(token)
        if seat is None or token is None:
            raise AccountError(f"send your seat's token in the {TOKEN_HEADER} header to get "
                               "a link for your seat", status=403)
        # in the database: the new device's request may reach another process
        ticket = await shared.issue_ticket(lobby().storage, "move", room.id, seat, token,
                                           s.transfer_life)
        if ticket is None:
            raise AccountError("too many links waiting; try again in a minute", status=429,
                               retry_after=60)
        link = f"{str(request.base_url).rstrip('/')}/t/{room.id}#continue={ticket}"
        return {"link": link, "expires_in": s.transfer_life, "qr_svg": qr_svg(link)}

    @app.post("/api/tables/{table_id}/continue")
    async def resume_here(table_id: str, request: Request) -> Json:
        body = await body_of(request)
        ticket = body.get("ticket")
        if not isinstance(ticket, str) or not ticket:
            raise AccountError("ticket: expected the text after #continue= in the link",
                               "ticket")
        held = await shared.redeem_ticket(lobby().storage, "move", ticket[:100])
        room = await lobby().get(table_id)
        if held is None or held[0] != room.id:
            raise AccountError("this link is not valid (used already, expired, or for "
                               "another table)", "ticket", 403)
        _, seat, token = held
        if room.seat_of_token(token) != seat:  # the seat moved since: the link is void
            raise AccountError("this link is not valid any more: the seat has moved since",
                               "ticket", 403)
        new = await lobby().renew_token(room, seat, MOVED)
        return {"table": room.id, "seat": seat, "token": new}
