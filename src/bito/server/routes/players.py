"""Players in public: the leaderboard of a game family, a player's profile (ratings and
recent games) and the accounts' pages. Names are public, as on any game server (docs/web.md
says why and what bounds guessing them)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, Request

from bito.server import games, ratings
from bito.server.accountdb import AccountDB
from bito.server.accounts import USERNAME, AccountError, Accounts, Json, people_page, player_row
from bito.server.rooms import Lobby


def add(app: FastAPI, accounts: Accounts, lobby: Callable[[], Lobby],
        address: Callable[[Request], str]) -> None:
    """The players' routes (``lobby`` gives the app's lobby once it runs, ``address`` a
    request's client address, trusted proxies applied)."""
    @app.get("/api/leaderboard")
    async def leaderboard(request: Request, family: str | None = None) -> Json:
        from bito.games.family import FAMILIES

        families = await accounts.call(AccountDB.families)
        chosen = family or (families[0] if families else "durak")
        if chosen not in FAMILIES:
            raise AccountError(f"family: not a game family (one of {', '.join(FAMILIES)})",
                               "family")
        board = await accounts.call(ratings.leaderboard, chosen, lobby().bot_levels())
        return {"family": chosen, "families": sorted(set(families) | {chosen}),
                "you": await accounts.user(request), "rows": [player_row(r) for r in board]}

    @app.get("/api/players/{username}")
    async def profile(username: str, request: Request) -> Json:
        client = address(request)
        await accounts.not_probing(lobby().storage, client)
        if not USERNAME.fullmatch(username) or \
                await accounts.call(AccountDB.password_hash, username) is None:
            await accounts.probed(lobby().storage, client)
            raise AccountError(f"no player {username[:20]!r}", "username", 404)
        games_out = []
        for table_id, seat, family, result, before, after, at in \
                await accounts.call(AccountDB.recent_games, username):
            row = await lobby().storage.load_table(table_id)
            games_out.append({
                "table": table_id, "seat": int(seat), "family": family, "result": result,
                "change": round(float(after) - float(before), 2), "at": float(at),
                "game": games.describe(row.spec) if row is not None else None,
                "players": [x.name for x in row.seats] if row is not None else [],
                "replay": f"/replay/{table_id}"})
        return {"username": username,
                "ratings": [player_row(r) for r in
                            await accounts.call(AccountDB.ratings_of, username)],
                "games": games_out}

    for path in ("/account", "/leaderboard", "/u/{username}"):
        app.add_api_route(path, people_page, methods=["GET"])
