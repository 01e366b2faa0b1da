"""The ``bito serve`` subcommand: its options and how it starts the app under uvicorn."""

from __future__ import annotations

import argparse
import sys
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
        from bito.server.app import MAX_FRAME, create_app
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
    app = create_app(args.db, settings, AccountSettings(
        session_life=args.session_days * 86400, secure_cookies=args.secure_cookies))
    extra: dict[str, Any] = {}
    if getattr(args, "log_format", "text") == "json":
        from bito.server.health import json_logging

        extra["log_config"] = json_logging()
    else:
        print(_("bito: open {url} (games stored in {db})").format(
            url=f"http://{args.host}:{args.port}", db=args.db), file=sys.stderr, flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **extra,
                ws_max_size=MAX_FRAME,
                # uvicorn would believe X-Forwarded-For from 127.0.0.1 by itself; the app
                # decides whom to believe (--trusted-proxy)
                proxy_headers=False)
    return 0
