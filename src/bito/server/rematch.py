"""Between games: a rematch at the same table, and the match's running score.

When a deal is over each person at the table answers ``{"type": "rematch", "agree": true}``
(or ``false``: he leaves); bots agree by themselves. When every person has agreed, the next
deal starts at once with the same seats, names and seat tokens: the fool deals and the first
attacker follows the game's ``next_game_leader`` rule (VARIANTS.md §1.8, read by the engine
from the match context :func:`bito.server.games.next_match` gives). One refusal, or one person
who never answers, means no deal.

Each deal of a match is a table of its own in the database (``<first table>.<deal number>``),
so every deal keeps its own record, replay and download link, and a restart resumes a rematch
like any other game. The frames of a finished deal name the next one (``rematch.next``) and
the page follows it, so the link people shared keeps leading to the match. The score (how many
times each seat was the fool, and the draws) travels in every frame as ``match``.

With several processes on one database (issue 18) the people of one table may be connected
to different processes: each answer is published (:meth:`Lobby.publish`, kind ``rematch``) so
every process counts every answer, and each process that hears the last one opens the next
deal. The database makes that one table and one deal: storing a table twice stores it once,
the first opener holds its lease and deals, the others show it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from bito.server import games
from bito.server.rooms import Lobby, Room, RoomError
from bito.server.storage import SeatRow, TableRow

Json = dict[str, Any]

log = logging.getLogger("bito.server")

#: the seat kinds that are people (an "away" seat's bot covers for a person, who must agree)
PEOPLE = ("human", "away")


def match_of(room: Room) -> Json:
    """The match this deal belongs to, as its table's settings keep it (a first deal: {})."""
    return dict(room.table.settings.get("match") or {})


def score(room: Room) -> Json:
    """The running score after this deal (counted in once it is over): the deal's number, the
    times each seat was the fool, and the draws."""
    match = match_of(room)
    players = room.table.players
    fools = list(match.get("fools") or [0] * players)
    draws = int(match.get("draws") or 0)
    outcome = room.table.outcome if room.table.status == "over" else None
    if outcome is not None:
        loser = outcome.get("loser")
        if outcome.get("draw") or loser is None:
            draws += 1
        elif isinstance(loser, int) and 0 <= loser < players:
            fools[loser] += 1
    return {"deal": int(match.get("deal") or 1), "fools": fools, "draws": draws}


def people(room: Room) -> list[int]:
    return [s.seat for s in room.table.seats if s.kind in PEOPLE]


def next_candidate(room: Room) -> str:
    """The id the next deal's table has (or will have)."""
    match = match_of(room)
    return f"{match.get('base', room.id)}.{int(match.get('deal') or 1) + 1}"


def next_id(lobby: Lobby, room: Room) -> str | None:
    """The table of the next deal, if this process knows it was dealt. The frame hook cannot
    wait for the database: :func:`look_up_next` reads it there (after a restart, or when
    another process dealt it)."""
    value = room.extra.get("next")
    if value is None and next_candidate(room) in lobby.rooms:
        value = room.extra["next"] = next_candidate(room)
    return value if isinstance(value, str) else None


async def look_up_next(lobby: Lobby, room: Room) -> str | None:
    """The table of the next deal, read from the database once a deal is over."""
    if next_id(lobby, room) is None and room.table.status == "over":
        candidate = next_candidate(room)
        if await lobby.storage.load_table(candidate) is not None:
            room.extra["next"] = candidate
    return next_id(lobby, room)


def greet(lobby: Lobby) -> Any:
    """The attach hook: a connection to a finished deal whose next deal this process has not
    seen (a restart, another process dealt it) looks it up, and the table is shown again
    if it was found."""

    async def found_next(room: Room, conn: Any) -> None:
        del conn
        if room.table.status == "over" and next_id(lobby, room) is None \
                and await look_up_next(lobby, room) is not None:
            await lobby.broadcast(room)

    return found_next


def frame_fields(lobby: Lobby) -> Any:
    """The frame hook: the match score always, the rematch's answers once the deal is over."""

    def fields(room: Room, seat: int | None) -> Json:
        del seat
        out: Json = {"match": score(room)}
        if room.table.status == "over":
            votes: dict[int, bool] = room.extra.get("rematch_votes", {})
            out["rematch"] = {
                "agreed": sorted(s for s, yes in votes.items() if yes),
                "declined": sorted(s for s, yes in votes.items() if not yes),
                "waiting": [s for s in people(room) if s not in votes],
                "next": next_id(lobby, room),
            }
        return out

    return fields


async def answer(lobby: Lobby, room: Room, seat: int, agree: bool) -> None:
    """A person's answer to a rematch; the next deal starts when every person agreed."""
    async with room.lock:
        if room.table.status != "over":
            raise RoomError("a rematch can be agreed only once the game is over")
        following = await look_up_next(lobby, room)
        if following is not None:
            raise RoomError(f"the rematch has started: /t/{following}")
        if seat not in people(room):
            raise RoomError(f"seat {seat} is not a person's")
    if "rematch" not in lobby.handlers:  # a lobby made without the app, in tests
        lobby.handlers["rematch"] = heard(lobby)
    await lobby.publish(room.id, "rematch", {"seat": seat, "agree": agree})


def heard(lobby: Lobby) -> Any:
    """The ``rematch`` event's handler, on the process that took the answer and on every
    other: count it, and open the next deal once every person agreed. The data is checked
    (it may come from another process's notice)."""

    async def count(room: Room, data: Json) -> None:
        following, seat, agree = data.get("next"), data.get("seat"), data.get("agree")
        if isinstance(following, str):  # another process dealt it: show the way there
            room.extra["next"] = following
        elif isinstance(seat, int) and isinstance(agree, bool):
            async with room.lock:
                votes: dict[int, bool] = room.extra.setdefault("rematch_votes", {})
                votes[seat] = agree
                if (room.table.status == "over" and next_id(lobby, room) is None
                        and all(votes.get(s) for s in people(room))):
                    new = await _start_next(lobby, room)
                    if lobby.owns(new):
                        await lobby.publish(room.id, "rematch", {"next": new.id})
        await lobby.broadcast(room)

    return count


async def _start_next(lobby: Lobby, room: Room) -> Room:
    """Deal the next deal of the match at a table of its own with the same seats."""
    old = room.table
    match = match_of(room)
    base = str(match.get("base", old.id))
    number = int(match.get("deal") or 1) + 1
    tally = score(room)
    context = games.next_match(room.state) if room.state is not None else None
    settings = {k: v for k, v in old.settings.items() if k != "match"}
    settings["match"] = {"base": base, "deal": number, "previous": old.id,
                         "context": list(context) if context is not None else None,
                         "fools": tally["fools"], "draws": tally["draws"]}
    table = TableRow(id=f"{base}.{number}", spec=old.spec, players=old.players, seed=0,
                     settings=settings, status="waiting", outcome=None, created=time.time())
    for s in old.seats:  # the same people, names and tokens; an absent player's bot stays
        kind = "human" if s.kind == "away" else s.kind
        table.seats.append(SeatRow(s.seat, s.name, kind, s.bot, s.token, True))
    new = await lobby.open_table(table)  # stored, and leased to this process
    if "chat_backlog" in room.extra:  # the talk goes on at the next deal (one match's talk)
        new.extra["chat_backlog"] = room.extra["chat_backlog"]
    if lobby.owns(new):  # another process opened it first: it deals
        async with new.lock:
            if new.table.status == "waiting":
                await lobby.deal(new)
    room.extra["next"] = table.id
    return new
