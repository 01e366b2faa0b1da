"""What an operator and a load balancer ask a running server: is it alive, is it ready, how
busy is it, and its logs as JSON lines.

* ``GET /healthz``: the process answers (its event loop runs). A liveness probe: restart the
  process when this fails.
* ``GET /readyz``: the database answers and its schema is at the version this code needs
  (the migrations are done). A readiness probe: send no players here while this fails.
* ``GET /metrics``: Prometheus text (``prometheus-client``), one registry per app so that
  several apps in one process (the tests) keep their own numbers: tables and connections in
  this process's memory, tables it drives, moves stored (rate() gives moves/s), the bot
  queue's depth, each bot decision's time and each database call's time (histograms).
* ``GET /internal/tables``: each table in this process's memory as this process shows it
  (status, number of moves, a fingerprint of the deal and of the position, whether this
  process drives it), for an operator or a test to compare every process with the
  database. Off unless the ``BITO_INSPECT_KEY`` environment variable is set, and then
  only for requests whose ``X-Bito-Inspect`` header holds that key (404 otherwise): no
  player ever reaches it, and it names no card and no seed.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
import time
from typing import TYPE_CHECKING, Any

from bito.server.migrations import LATEST

if TYPE_CHECKING:
    from collections.abc import Iterator

    from fastapi import FastAPI

    from bito.server.rooms import Lobby

READY_TIMEOUT = 2.0  # seconds /readyz waits for the database
INSPECT_KEY = "BITO_INSPECT_KEY"  # the environment variable that opens /internal/tables
INSPECT_HEADER = "X-Bito-Inspect"


def deal_digest(seed: int) -> str:
    """A fingerprint of a deal's seed (the seed itself stays on the server)."""
    return hashlib.sha256(f"bito-deal:{seed}".encode()).hexdigest()[:16]


def inspect_tables(lobby: Lobby) -> dict[str, Any]:
    """Each table in memory as this process shows it (see ``/internal/tables``)."""
    from bito.server.render import position_digest

    tables: dict[str, Any] = {}
    for room in list(lobby.rooms.values()):
        dealt = room.state is not None
        tables[room.id] = {
            "status": room.table.status, "n": len(room.actions),
            "deal": deal_digest(room.table.seed) if dealt else None,
            "position": position_digest(room.state, room.actions) if dealt else None,
            "driving": lobby.owns(room)}
    return {"origin": lobby.origin, "driving": len(lobby.held or ()), "tables": tables}


def add_routes(app: FastAPI, lobby: Any) -> None:
    """The three routes; ``lobby()`` returns the app's :class:`Lobby` once it has started."""
    from fastapi.responses import JSONResponse, Response

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", response_model=None)
    async def readyz() -> JSONResponse:
        try:
            current: Lobby = lobby()
        except KeyError:
            return JSONResponse({"ready": False, "reason": "starting"}, status_code=503)
        start = time.perf_counter()
        try:
            version = await asyncio.wait_for(current.storage.schema(), READY_TIMEOUT)
        except Exception as e:  # unreachable, restarting, timed out: not ready
            return JSONResponse({"ready": False, "reason": f"database: {type(e).__name__}: "
                                 f"{str(e).strip()[:200]}"}, status_code=503)
        ms = round((time.perf_counter() - start) * 1000, 1)
        if version < LATEST:
            return JSONResponse({"ready": False, "reason": f"schema at version {version}, "
                                 f"this server needs {LATEST}"}, status_code=503)
        return JSONResponse({"ready": True, "schema": version, "database_ms": ms})

    async def internal_tables(request: Any) -> JSONResponse:
        key = os.environ.get(INSPECT_KEY, "")
        given = request.headers.get(INSPECT_HEADER, "")
        if not key or not secrets.compare_digest(key.encode(), given.encode()):
            return JSONResponse({"error": "not found"}, status_code=404)
        try:
            current: Lobby = lobby()
        except KeyError:
            return JSONResponse({"error": "starting"}, status_code=503)
        return JSONResponse(inspect_tables(current))

    app.add_route("/internal/tables", internal_tables, methods=["GET"],
                  include_in_schema=False)

    @app.get("/metrics")
    async def metrics() -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        registry = app.state.metrics
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


class _Collector:
    """The numbers read from the lobby at scrape time."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

        lobby = self.lobby
        tables = GaugeMetricFamily("bito_tables", "Tables in this process's memory",
                                   labels=["status"])
        counts: dict[str, int] = {"waiting": 0, "playing": 0, "over": 0}
        for room in list(lobby.rooms.values()):
            counts[room.table.status] = counts.get(room.table.status, 0) + 1
        for status, n in sorted(counts.items()):
            tables.add_metric([status], n)
        yield tables
        driven = len(lobby.held) if lobby.held is not None else counts["playing"]
        yield GaugeMetricFamily("bito_tables_driven",
                                "Tables whose clock and bots this process drives",
                                value=driven)
        yield GaugeMetricFamily("bito_connections", "Open websockets (players, spectators)",
                                value=sum(len(r.conns) for r in list(lobby.rooms.values())))
        yield CounterMetricFamily("bito_moves", "Moves this process stored",
                                  value=lobby.moves)
        yield GaugeMetricFamily("bito_bot_queue_depth",
                                "Bot decisions waiting for or running on a worker",
                                value=lobby.bots.queued)
        yield CounterMetricFamily("bito_bot_failures",
                                  "Bot decisions that failed (a fallback move was played)",
                                  value=lobby.bots.failures)


def install_metrics(app: FastAPI, lobby: Lobby) -> None:
    """A registry for this app, fed by the lobby, its bot pool and its database."""
    from prometheus_client import CollectorRegistry, Histogram

    registry = CollectorRegistry()
    registry.register(_Collector(lobby))
    decision = Histogram("bito_bot_decision_seconds", "Time of one bot decision",
                         registry=registry,
                         buckets=(.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10))
    database = Histogram("bito_db_seconds", "Time of one database call (with retries)",
                         registry=registry,
                         buckets=(.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 5, 10))
    lobby.bots.observe = decision.observe
    lobby.storage.observe = database.observe
    app.state.metrics = registry


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, and the
    traceback when there is one, for a log collector to read without parsing prose."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def json_logging(level: int = logging.INFO) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` (uvicorn's ``log_config``) writing every logger,
    bito's and uvicorn's, as JSON lines on standard error."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "json",
                                "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["stderr"], "level": logging.getLevelName(level)},
        "loggers": {name: {"handlers": [], "propagate": True}
                    for name in ("uvicorn", "uvicorn.error", "uvicorn.access")},
    }
