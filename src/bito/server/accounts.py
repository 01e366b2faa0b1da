"""Optional accounts, seats that follow their owner, and moving a guest's seat to another
device.

Guest play stays one click: nothing here is needed to play. An account is a username and a
password hashed with argon2 (argon2-cffi); logging in sets a session cookie that is
HTTP-only, ``SameSite=Strict`` and ``Secure`` when the page is served over https (directly,
or by a trusted proxy that says so in ``X-Forwarded-Proto``; ``--secure-cookies`` forces it
either way). Sessions expire; failed logins are limited per client address and per username
(HTTP 429 with ``Retry-After``).

A seat taken while logged in belongs to the account (at every deal of its match): opening
the table on another device while logged in (``POST /api/tables/<t>/claim``) gives that
device a fresh seat token, and the old device's connection is told and watches from then on.

A guest moves his seat with a personal link: ``POST /api/tables/<t>/move`` (with his token in
the header) returns a link holding a single-use ticket that works for a short time, and its
QR code as SVG. The ticket sits in the link's fragment (``#continue=...``), which browsers
never send to a server, so it cannot land in an access log or a Referer header; the page
posts it to ``/api/tables/<t>/continue``, which gives the new device a fresh seat token and
turns the old one off. The seat token itself never appears in a URL.

Nothing here logs a password, a session value, a seat token or a ticket.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import html
import logging
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import unquote

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from bito.server import games, ratings, shared, webtext
from bito.server.accountdb import AccountDB, Rating
from bito.server.rooms import Lobby, Room, RoomError

Json = dict[str, Any]
T = TypeVar("T")

COOKIE = "bito_session"
TOKEN_HEADER = "X-Bito-Token"
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
PASSWORD_MIN, PASSWORD_MAX = 8, 128
#: a few passwords everybody tries first; longer lists belong to a real breach corpus
COMMON = frozenset({"password", "password1", "12345678", "123456789", "1234567890",
                    "qwertyuiop", "qwerty123", "iloveyou", "11111111", "00000000",
                    "abcdefgh", "abc12345", "letmein1", "durak123", "passw0rd"})
PEOPLE = ("human", "away")
HASHING_AT_ONCE = 2
MOVED = ("your seat now continues on another device; this page watches from here on "
         "(open the table there, or log in here again to take it back)")


@dataclass(frozen=True)
class AccountSettings:
    """The accounts' knobs (``bito serve`` flags)."""

    session_life: float = 30 * 86400.0  # seconds a login lasts
    secure_cookies: str = "auto"  # "auto" (https or a trusted proxy's word), "always", "never"
    login_window: float = 300.0  # seconds over which failed logins are counted
    failures_per_username: int = 5  # failed logins for one username within the window
    failures_per_address: int = 20  # failed logins from one client address within the window
    registrations_per_hour: int = 10  # new accounts from one client address
    #: names probed from one client address in an hour: profiles not found and
    #: registrations of a taken name (what guessing the names of accounts costs)
    name_probes_per_hour: int = 30
    transfer_life: float = 120.0  # seconds a "continue on another device" link works


class AccountError(RoomError):
    """A request the accounts refuse; ``field`` names the part at fault, ``status`` the
    HTTP status."""

    def __init__(self, message: str, field: str | None = None, status: int = 400,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.status = status
        self.retry_after = retry_after


#: secrets a library could print (uvicorn's websockets at DEBUG prints the handshake's
#: subprotocols, which carry the seat token; a cookie header carries the session; the access
#: log prints a download link's ``?ticket=``)
SECRET = re.compile(r"(bito\.token\.|bito_session=|#continue=|ticket=)[A-Za-z0-9_\-]+")
#: the loggers whose lines a server writes (uvicorn's do not propagate to the root)
SERVER_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets",
                  "websockets.server", "bito", "bito.server")


class Redact(logging.Filter):
    """Blanks seat tokens, session values and transfer tickets out of a log line, whatever
    the log level: at DEBUG the websocket layer prints handshake headers."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        clean = SECRET.sub(lambda m: m.group(1) + "***", text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


def redact_logs() -> None:
    """Put :class:`Redact` on the server's loggers (once)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, Redact) for f in logger.filters):
            logger.addFilter(Redact())


def check_username(username: Any) -> str:
    if not isinstance(username, str):
        raise AccountError("username: expected a text", "username")
    if not USERNAME.fullmatch(username):
        raise AccountError("username: 3 to 20 characters, letters, digits, _ or -",
                           "username")
    return username


def check_password(password: Any, username: str) -> str:
    """A password worth hashing: long enough to resist guessing, short enough not to make
    hashing a denial of service, and not the name or a famous first guess."""
    if not isinstance(password, str):
        raise AccountError("password: expected a text", "password")
    if len(password) < PASSWORD_MIN:
        raise AccountError(f"password: at least {PASSWORD_MIN} characters", "password")
    if len(password) > PASSWORD_MAX:
        raise AccountError(f"password: at most {PASSWORD_MAX} characters", "password")
    if password.lower() == username.lower() or password.lower() in COMMON \
            or len(set(password)) < 3:
        raise AccountError("password: too easy to guess (not the username, a common "
                           "password or one repeated character)", "password")
    return password


class Throttle:
    """Events per key in a sliding window (failed logins, registrations), counted in the
    database (:mod:`bito.server.shared`), so a guesser spreading his attempts over the
    processes of a cluster gets the allowance of one."""

    def __init__(self, kind: str) -> None:
        self.kind = kind  # the keys' prefix among the address events

    async def wait(self, db: shared.Exchanging, key: str, limit: int, window: float) -> int:
        """Seconds until ``key`` may try again (0: now)."""
        return await shared.address_wait(db, f"{self.kind}:{key}", limit, window)

    async def add(self, db: shared.Exchanging, key: str) -> None:
        await shared.add_address_event(db, f"{self.kind}:{key}")

    async def clear(self, db: shared.Exchanging, key: str) -> None:
        await shared.clear_address_events(db, f"{self.kind}:{key}")


def digest(value: str) -> str:
    """How a session is stored: its SHA-256, never the cookie's value."""
    return hashlib.sha256(value.encode()).hexdigest()


def base_table(table_id: str) -> str:
    """The match a table belongs to (a rematch's deal ``Xy3k.2`` is ``Xy3k``'s): a seat owned
    at the first deal stays owned at every later one."""
    return table_id.split(".")[0]


@dataclass
class Accounts:
    """The accounts' state in one server process."""

    db_url: str
    settings: AccountSettings = field(default_factory=AccountSettings)
    db: AccountDB | None = None
    failures: Throttle = field(default_factory=lambda: Throttle("login"))
    registrations: Throttle = field(default_factory=lambda: Throttle("register"))
    probes: Throttle = field(default_factory=lambda: Throttle("names"))
    hasher: Any = None
    unknown: str | None = None  # the hash verified for an unknown username
    #: argon2 work at once: each hash takes 64 MiB and ~0.3 s of a core (measured at load
    #: 5 on the 2-core machine), so a burst of logins waits in line instead of eating memory
    hashing: asyncio.Semaphore | None = None
    #: the one thread every accounts' database call runs in: the connection is synchronous
    #: (SQLite, or one psycopg connection), and a slow or stuck query must hold no other
    #: table or connection, only the accounts' calls queued behind it
    thread: concurrent.futures.ThreadPoolExecutor | None = None

    def open(self, lobby: Lobby) -> None:
        from argon2 import PasswordHasher

        redact_logs()
        self.db = AccountDB(self.db_url)
        self.thread = concurrent.futures.ThreadPoolExecutor(1, "bito-accounts")
        self.hasher = PasswordHasher()
        lobby.end_hooks.append(self.game_over)

    def close(self) -> None:
        if self.thread is not None:
            self.thread.shutdown(wait=True)  # a rating being stored is finished first
        if self.db is not None:
            self.db.close()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(store, *args)`` in the accounts' database thread, awaited: the event loop
        never waits for the accounts' database (issue 18, item 2)."""
        store = self.store
        if self.thread is None:
            raise RoomError("accounts are not open yet")
        return await asyncio.get_running_loop().run_in_executor(self.thread, fn, store, *args)

    @property
    def store(self) -> AccountDB:
        if self.db is None:
            raise RoomError("accounts are not open yet")
        return self.db

    async def work(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run an argon2 call in a thread, a few at a time, off the event loop."""
        if self.hashing is None:
            self.hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        async with self.hashing:
            return await asyncio.to_thread(fn, *args)

    def verify(self, stored: str | None, password: str) -> bool:
        """argon2's check (raises on a mismatch). An unknown username is checked against a
        hash of nothing anybody knows, so it costs the same time as a known one."""
        if stored is None and self.unknown is None:
            self.unknown = self.hasher.hash(secrets.token_urlsafe(16))
        return bool(self.hasher.verify(stored or self.unknown, password))

    # --- sessions -------------------------------------------------------------------------

    async def user(self, request: Request) -> str | None:
        value = request.cookies.get(COOKIE)
        if not value or len(value) > 100:
            return None
        return await self.call(AccountDB.session_user, digest(value), time.time())

    async def login_response(self, username: str, secure: bool) -> Response:
        value = secrets.token_urlsafe(32)
        life = self.settings.session_life
        await self.call(AccountDB.add_session, digest(value), username, time.time() + life)
        response = JSONResponse({"username": username, "expires_in": life})
        response.set_cookie(COOKIE, value, max_age=int(max(1, life)), httponly=True,
                            samesite="strict", secure=secure, path="/")
        return response

    # --- the end of a game: ratings -------------------------------------------------------

    async def game_over(self, room: Room) -> None:
        """Rate the game, its reads and its write together in the accounts' thread (only
        this table waits for it: the final frame goes out once the ratings are stored, so a
        player who opens the leaderboard at once sees his game counted)."""
        table_id, base = room.id, base_table(room.id)
        family, outcome = games.family(room.table.spec), room.table.outcome
        seats = [(s.kind, s.bot) for s in room.table.seats]

        def rate(store: AccountDB) -> None:
            owners = store.owners(base)
            if owners:
                ratings.rate_game(store, table_id, family, seats, owners, outcome)

        await self.call(rate)

    # --- names ----------------------------------------------------------------------------

    async def not_probing(self, db: shared.Exchanging, client: str) -> None:
        """Refuse an address that probed too many names lately (see docs/web.md, "Account
        names are public"): each probe answers only whether one name exists, and past the
        limit the address waits, on every process."""
        wait = await self.probes.wait(db, client, self.settings.name_probes_per_hour, 3600)
        if wait:
            raise AccountError(f"too many names looked up from this address; try again in "
                               f"{wait} s", status=429, retry_after=wait)

    async def probed(self, db: shared.Exchanging, client: str) -> None:
        """A name was looked up that told the asker something he could not see elsewhere:
        no such player, or a name taken at registration."""
        await self.probes.add(db, client)

    # --- seats ----------------------------------------------------------------------------

    async def bind(self, request: Request, table_id: str, seat: int) -> None:
        """A seat taken while logged in belongs to the account."""
        username = await self.user(request)
        if username is not None:
            await self.call(AccountDB.own_seat, base_table(table_id), seat, username)


async def body_of(request: Request) -> Json:
    """A request's JSON object, or the accounts' refusal."""
    try:
        body = await request.json()
    except ValueError:
        raise AccountError("the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise AccountError("the request body must be a JSON object")
    return body


def people_page(request: Request) -> Response:
    """The accounts' page, its ``<title>`` and ``lang`` already in the reader's language, so
    the tab and a screen reader announce the right words before any script runs."""
    from fastapi.responses import HTMLResponse

    lang = webtext.language_of(request.headers)
    path = request.url.path
    if path == "/account":
        title = webtext.text(lang, "account.page_title")
    elif path == "/leaderboard":
        title = webtext.text(lang, "leaders.page_title")
    elif path.startswith("/u/"):
        title = webtext.text(lang, "profile.page_title", name=unquote(path[3:])[:20])
    else:
        title = webtext.text(lang, "people.title")
    page = (resources.files("bito.server") / "static" / "people.html").read_text("utf-8")
    page = page.replace('<html lang="en">', f'<html lang="{html.escape(lang)}">', 1)
    page = re.sub(r"<title>[^<]*</title>", lambda _: f"<title>{html.escape(title)}</title>",
                  page, count=1)
    return HTMLResponse(page, headers={"Vary": "Accept-Language, Cookie"})


def player_row(r: Rating) -> Json:
    bot = r.player.startswith(ratings.BOT_PREFIX)
    return {"player": r.player[len(ratings.BOT_PREFIX):] if bot else r.player, "bot": bot,
            "family": r.family, "mu": round(r.mu, 2), "sigma": round(r.sigma, 2),
            "rating": round(r.ordinal, 2), "games": r.games,
            "link": None if bot else f"/u/{r.player}"}


def qr_svg(link: str) -> str:
    """The link as a QR code, drawn as inline SVG on the server (no script on the page)."""
    import segno

    code = segno.make(link, error="m")
    return str(code.svg_inline(scale=4, dark="#111", light="#fff", omitsize=True))
