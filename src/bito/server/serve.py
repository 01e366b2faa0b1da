"""The ``bito serve`` subcommand: its options and how it starts the app under uvicorn."""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import sys
from collections.abc import Callable
from typing import Any

from bito.i18n import _

DEFAULT_DB = "bito-server.sqlite3"


def add_serve_parser(sub: Any, fmt: type[argparse.HelpFormatter]) -> None:
    serve = sub.add_parser(
        "serve", help="play in the browser with friends and bots", formatter_class=fmt,
        description="Start the web app: create a table, share its link, fill empty seats "
                    "with bots, play. Games are stored as they are played and resume after a "
                    "restart. Needs the web extra: pip install 'bito[web]'.",
        epilog="examples:\n  bito serve\n  bito serve --port 8080 --db games.sqlite3\n"
               "  bito serve --db postgresql://bito@localhost/bito\n"
               "  bito serve --host 0.0.0.0 --timer 20")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 for your LAN)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", default=DEFAULT_DB, metavar="PATH|URL",
                       help="a SQLite file (default %(default)s) or a postgresql:// URL")
    serve.add_argument("--timer", type=float, default=30.0, metavar="S",
                       help="default seconds per move before the inactivity rules act "
                            "(default 30; each table may choose its own)")
    serve.add_argument("--bot-delay", type=float, default=0.6, metavar="S",
                       help="pause before a bot moves, so people can follow (default 0.6)")
    serve.add_argument("--timeouts-to-bot", type=int, default=3, metavar="N",
                       help="timeouts in a row that hand a seat to a bot (default 3)")
    serve.add_argument("--tables-per-hour", type=int, default=60, metavar="N",
                       help="new tables one client address may create in an hour "
                            "(default 60)")
    serve.add_argument("--bot-levels", default=None, metavar="NAMES",
                       help="comma-separated bots tables may seat (default: every bot but "
                            "analysis, whose search has no time limit)")
    serve.add_argument("--bot-workers", type=int, default=0, metavar="N",
                       help="worker processes deciding bot moves, also the most bot "
                            "decisions at once (default: one per core but one, at least 1)")
    serve.add_argument("--bot-time-cap", type=float, default=5.0, metavar="S",
                       help="seconds a bot decision may take; after it a fallback move is "
                            "played (default 5)")
    serve.add_argument("--ready-timeout", type=float, default=60.0, metavar="S",
                       help="seconds a seated person has to press Ready before the host may "
                            "free his seat (default 60)")
    serve.add_argument("--spectators-per-table", type=int, default=100, metavar="N",
                       help="spectator connections one table accepts (default 100)")
    serve.add_argument("--spectators-per-address", type=int, default=10, metavar="N",
                       help="spectator connections one client address may hold (default 10)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                       help="a reverse proxy whose X-Forwarded-For is believed for the "
                            "client's address (repeatable; default none)")
    serve.add_argument("--secure-cookies", choices=("auto", "always", "never"),
                       default="auto",
                       help="mark the login cookie Secure: auto (when served over https, or "
                            "a trusted proxy says https in X-Forwarded-Proto), always, never")
    serve.add_argument("--session-days", type=float, default=30.0, metavar="D",
                       help="days a login lasts (default 30)")
    serve.add_argument("--log-format", choices=("text", "json"), default="text",
                       help="text for people, json for a log collector: one JSON object a "
                            "line (default text)")
    serve.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from bito.server.accounts import AccountSettings
        from bito.server.app import create_app
        from bito.server.limits import MAX_FRAME
        from bito.server.rooms import Settings
    except ImportError as e:
        print("bito serve: " + _("error: {why} (install the web extra: pip install "
                                 "'bito[web]')").format(why=e), file=sys.stderr)
        return 2
    from bito.bots import bot_names

    levels = None
    if args.bot_levels is not None:
        levels = tuple(b.strip() for b in args.bot_levels.split(",") if b.strip())
        unknown = [b for b in levels if b not in bot_names()]
        if unknown or not levels:
            print("bito serve: " + _("error: --bot-levels: {names} (bots: {bots})").format(
                names=", ".join(unknown) or _("none given"), bots=", ".join(bot_names())),
                file=sys.stderr)
            return 2
    if (args.bot_workers < 0 or args.bot_time_cap <= 0 or args.ready_timeout <= 0
            or args.spectators_per_table < 0 or args.spectators_per_address < 0):
        print("bito serve: " + _("error: --bot-time-cap and --ready-timeout must be positive, "
                                 "--bot-workers and the spectator limits not negative"),
              file=sys.stderr)
        return 2
    if (args.timer <= 0 or args.bot_delay < 0 or args.timeouts_to_bot < 1
            or args.tables_per_hour < 1):
        print("bito serve: " + _("error: --timer must be positive, --bot-delay not negative, "
                                 "--timeouts-to-bot and --tables-per-hour at least 1"),
              file=sys.stderr)
        return 2
    settings = Settings(timer=args.timer, bot_delay=args.bot_delay,
                        timeouts_to_bot=args.timeouts_to_bot,
                        tables_per_hour=args.tables_per_hour, bot_levels=levels,
                        bot_workers=args.bot_workers, bot_time_cap=args.bot_time_cap,
                        ready_timeout=args.ready_timeout,
                        spectators_per_table=args.spectators_per_table,
                        spectators_per_address=args.spectators_per_address,
                        trusted_proxies=tuple(args.trusted_proxy))
    if args.session_days <= 0:
        print("bito serve: " + _("error: --session-days must be positive"), file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        return _refuse(f"--port: {args.port} is not a port (0 to 65535; 0 picks a free one)")
    problem = database_problem(args.db)
    if problem:
        return _refuse(f"--db: {problem}")
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as e:
        return _refuse(f"--host/--port: cannot listen on {args.host}:{args.port} "
                       f"({e.strerror or e})")
    app = create_app(args.db, settings, AccountSettings(
        session_life=args.session_days * 86400, secure_cookies=args.secure_cookies))
    extra: dict[str, Any] = {}
    if getattr(args, "log_format", "text") == "json":
        from bito.server.health import json_logging

        extra["log_config"] = json_logging()
    config = uvicorn.Config(app, log_level="warning", **extra, ws_max_size=MAX_FRAME,
                            # uvicorn would believe X-Forwarded-For from 127.0.0.1 by
                            # itself; the app decides whom to believe (--trusted-proxy)
                            proxy_headers=False)
    server = uvicorn.Server(config)
    port = sock.getsockname()[1]

    def listening() -> None:
        if "log_config" not in extra:
            print(_("bito: open {url} (games stored in {db})").format(
                url=f"http://{_shown_host(args.host)}:{port}", db=args.db), file=sys.stderr,
                flush=True)

    failed = asyncio.run(_serve(server, sock, listening))
    if failed is not None:
        return _refuse(failed)
    return 0


def _refuse(why: str) -> int:
    """One line on stderr, exit 2: what ``bito serve`` was given cannot be served."""
    print("bito serve: " + _("error: {why}").format(why=why), file=sys.stderr, flush=True)
    return 2


def _shown_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def database_problem(url: str) -> str | None:
    """Why the database at ``url`` cannot be used (None: it can), said before anything
    listens: a SQLite file that cannot be opened or created, a PostgreSQL URL that is
    malformed or leads nowhere."""
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg
        except ImportError:
            return "PostgreSQL needs psycopg: pip install 'bito[web]'"
        try:
            psycopg.connect(url, connect_timeout=5).close()
        except Exception as e:  # a bad URL, a refused connection, a wrong password
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            return f"cannot reach the PostgreSQL database ({first})"
        return None
    from bito.server.storage import Storage

    try:
        Storage(url).close()
    except Exception as e:  # no such directory, no permission, not a database
        return f"cannot open {url} as a SQLite database ({str(e).strip() or type(e).__name__})"
    return None


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound and listening, so that a port in use or an address that
    is not this machine's is said at once, in one line, and the address printed is the one
    that listens (port 0: the free port picked)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class _StartupQuiet(logging.Filter):
    """Keeps uvicorn's traceback of a failed start-up off the terminal (the one line of
    :func:`run_serve` says it); every later record passes."""

    def __init__(self, server: Any) -> None:
        super().__init__()
        self.server = server

    def filter(self, record: logging.LogRecord) -> bool:
        return bool(self.server.started) or record.levelno < logging.ERROR


async def _serve(server: Any, sock: socket.socket, listening: Callable[[], None]
                 ) -> str | None:
    """Run the server on ``sock``; call ``listening`` once it accepts connections. Returns
    why it could not start (None: it ran, and has stopped)."""
    quiet = _StartupQuiet(server)
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addFilter(quiet)
    try:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.wait({task}, timeout=0.05)
        if server.started:
            listening()
        await task
    finally:
        uvicorn_log.removeFilter(quiet)
        sock.close()
    if not server.started:
        error = getattr(server.config.app.state, "startup_error", None)
        return f"the server could not start ({error or 'see the log above'})"
    return None
