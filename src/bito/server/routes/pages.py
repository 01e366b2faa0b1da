"""The pages and the facts they start from: the static files, the page of a table and of a
replay, the texts in the reader's language, the games offered and the public tables."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from bito.errors import BitoError
from bito.server import games, webtext
from bito.server.render import Json
from bito.server.rooms import Lobby

STATIC = resources.files("bito.server") / "static"


def add(app: FastAPI, lobby: Callable[[], Lobby]) -> None:
    """The pages' routes (``lobby`` gives the app's lobby once it runs)."""
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

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
