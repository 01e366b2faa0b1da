"""What a table leaves behind: its record (a download, by a single-use ticket), its replay,
and the review of a seat's own game. During play only a seated player sees anything, and only
what his seat saw; once the game is over everything is public."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from bito.server import games, rematch, shared
from bito.server.broadcast import log_for
from bito.server.render import Json, render_open, render_view
from bito.server.review import Reviews
from bito.server.rooms import Lobby, Room, RoomError
from bito.server.routes.inputs import TOKEN_HEADER, token_of

TICKET_LIFE = 60.0  # seconds a download ticket works (once)


def add(app: FastAPI, lobby: Callable[[], Lobby]) -> None:
    """The records' routes (``lobby`` gives the app's lobby once it runs)."""
    @app.post("/api/tables/{table_id}/ticket", response_model=None)
    async def ticket(table_id: str, request: Request) -> Json | JSONResponse:
        """A download link's ticket: single use, for TICKET_LIFE seconds, for the record of
        the seat whose token came in the header."""
        room = await lobby().get(table_id)
        seat = await lobby().seat_of(room, token_of(request))
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
        token = token_of(request)
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
        seat = await lobby().seat_of(room, token_of(request))
        if seat is None:
            return JSONResponse({"error": "a review is of your own seat: send your seat's "
                                          f"token in the {TOKEN_HEADER} header"},
                                status_code=403)
        def record_text() -> str:  # only when no review is stored yet
            rec = games.full_record(room.setup, room.actions, room.names(),
                                    people=rematch.people(room))
            if rec is None:
                raise RoomError("records are not written for this game family yet")
            text: str = rec.to_jsonl()
            return text

        made = await reviews.review(lobby().bots, lobby().storage, room.id, seat, record_text)
        if made is None:
            return JSONResponse({"error": "the review could not be made just now; try again "
                                          "in a minute"}, status_code=503)
        return made

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, request: Request) -> Any:
        room = await lobby().get(table_id)
        token = token_of(request)
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

