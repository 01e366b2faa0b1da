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

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from bito.server import games, ratings, refusals, shared, webtext
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

    # --- seats ----------------------------------------------------------------------------

    async def bind(self, request: Request, table_id: str, seat: int) -> None:
        """A seat taken while logged in belongs to the account."""
        username = await self.user(request)
        if username is not None:
            await self.call(AccountDB.own_seat, base_table(table_id), seat, username)


def install(app: FastAPI, accounts: Accounts, lobby: Callable[[], Lobby],
            address: Callable[[Request], str], via_https: Callable[[Request], bool]) -> None:
    """Add the accounts' pages and API to ``app``. ``address`` gives a request's client
    address (trusted proxies applied) and ``via_https`` whether the page reached its user
    over https."""
    s = accounts.settings

    def secure(request: Request) -> bool:
        return s.secure_cookies == "always" or (s.secure_cookies == "auto"
                                                and via_https(request))

    @app.exception_handler(AccountError)
    async def refused(request: Request, exc: AccountError) -> JSONResponse:
        code, said = refusals.error_words(exc, webtext.language_of(request.headers))
        body: Json = {"error": said, "code": code}
        if exc.field:
            body["field"] = exc.field
        headers = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return JSONResponse(body, status_code=exc.status, headers=headers)

    async def body_of(request: Request) -> Json:
        try:
            body = await request.json()
        except ValueError:
            raise AccountError("the request body must be a JSON object") from None
        if not isinstance(body, dict):
            raise AccountError("the request body must be a JSON object")
        return body

    @app.post("/api/account/register")
    async def register(request: Request) -> Response:
        client = address(request)
        wait = await accounts.registrations.wait(lobby().storage, client,
                                                 s.registrations_per_hour, 3600)
        if wait:
            raise AccountError(f"too many new accounts from this address; try again in "
                               f"{wait} s", status=429, retry_after=wait)
        body = await body_of(request)
        username = check_username(body.get("username"))
        password = check_password(body.get("password"), username)
        hashed = await accounts.work(accounts.hasher.hash, password)
        if not await accounts.call(AccountDB.add_account, username, hashed):
            raise AccountError(f"username: {username!r} is taken", "username", 409)
        await accounts.registrations.add(lobby().storage, client)
        return await accounts.login_response(username, secure(request))

    async def not_locked_out(username: str, client: str, name_field: str | None,
                             address_field: str | None) -> str:
        """Refuse while too many logins failed lately for this username or this address
        (the error names ``name_field`` or ``address_field``); returns the username's key
        in the failure counts. One check for the login form and for a password confirmed
        in a signed-in session, so neither is a faster way to guess."""
        name_key = "user:" + username.lower()[:40]
        for key, limit, what, named in (
                (name_key, s.failures_per_username, "this username", name_field),
                ("addr:" + client, s.failures_per_address, "this address", address_field)):
            wait = await accounts.failures.wait(lobby().storage, key, limit, s.login_window)
            if wait:
                raise AccountError(f"too many failed logins for {what}; try again in "
                                   f"{wait} s", named, 429, wait)
        return name_key

    async def verified(name_key: str, client: str, stored: str | None,
                       password: str) -> bool:
        """The password checked against ``stored`` (None: an unknown name, which costs the
        same hashing work, so timing tells nothing); a refusal is counted against the
        username and the address, a success clears the username's count."""
        from argon2.exceptions import VerificationError

        try:
            ok = bool(await accounts.work(accounts.verify, stored, password))
        except VerificationError:
            ok = False
        except Exception:  # a stored hash that does not parse: a refusal, never a 500
            ok = False
        ok = ok and stored is not None
        db = lobby().storage
        if ok:
            await accounts.failures.clear(db, name_key)
        else:
            await accounts.failures.add(db, name_key)
            await accounts.failures.add(db, "addr:" + client)
        return ok

    @app.post("/api/account/login")
    async def login(request: Request) -> Response:

        client = address(request)
        body = await body_of(request)
        username, password = body.get("username"), body.get("password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise AccountError("username and password: expected texts",
                               "username" if not isinstance(username, str) else "password")
        if len(password) > PASSWORD_MAX:
            raise AccountError(f"password: at most {PASSWORD_MAX} characters", "password")
        name_key = await not_locked_out(username, client, "username", None)
        found = (await accounts.call(AccountDB.account, username)
                 if USERNAME.fullmatch(username) else None)
        stored = found[1] if found else None
        if not await verified(name_key, client, stored, password):
            raise AccountError("wrong username or password", "password", 401)
        assert found is not None and stored is not None
        username = found[0]  # typed in any case, logged in as registered
        if accounts.hasher.check_needs_rehash(stored):
            await accounts.call(AccountDB.set_password_hash, username, await accounts.work(
                accounts.hasher.hash, password))
        return await accounts.login_response(username, secure(request))

    @app.post("/api/account/logout")
    async def logout(request: Request) -> Response:
        value = request.cookies.get(COOKIE)
        if value:
            await accounts.call(AccountDB.drop_session, digest(value))
        response = JSONResponse({"username": None})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                               secure=secure(request))
        return response

    async def confirm(request: Request, username: str, password: Any, field: str) -> None:
        """The account's own password again, before a change that cannot be undone from a
        stolen cookie alone. Counted with failed logins (same keys, same limits), so a held
        session gives no faster way to guess the password than the login form."""

        if not isinstance(password, str):
            raise AccountError(f"{field}: expected a text", field)
        if len(password) > PASSWORD_MAX:
            raise AccountError(f"password: at most {PASSWORD_MAX} characters", field)
        client = address(request)
        name_key = await not_locked_out(username, client, field, field)
        try:
            stored = await accounts.call(AccountDB.password_hash, username)
        except Exception:  # an unreadable hash: a refusal, never a 500
            stored = None
        if not await verified(name_key, client, stored, password):
            raise AccountError(f"{field}: wrong password", field, 403)

    async def signed_in(request: Request) -> str:
        username = await accounts.user(request)
        if username is None:
            raise AccountError("log in first", status=401)
        return username

    def signed_out(request: Request, body: Json) -> Response:
        response = JSONResponse(body)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                               secure=secure(request))
        return response

    @app.post("/api/account/password")
    async def change_password(request: Request) -> Response:
        """A new password: the current one first; every other session ends (a password
        changed because it leaked must lock the thief out), this device gets a new one."""
        username = await signed_in(request)
        body = await body_of(request)
        await confirm(request, username, body.get("current"), "current")
        password = check_password(body.get("password"), username)
        hashed = await accounts.work(accounts.hasher.hash, password)
        await accounts.call(AccountDB.set_password_hash, username, hashed)
        await accounts.call(AccountDB.drop_sessions_of, username)
        return await accounts.login_response(username, secure(request))

    @app.post("/api/account/logout-everywhere")
    async def logout_everywhere(request: Request) -> Response:
        """Every session of the account ends, this one too (a lost phone, a shared computer).
        Seats stay the account's: logging in again anywhere takes them back."""
        username = await signed_in(request)
        ended = await accounts.call(AccountDB.drop_sessions_of, username)
        return signed_out(request, {"username": None, "sessions_ended": ended})

    @app.post("/api/account/delete")
    async def delete_account(request: Request) -> Response:
        """The account goes, with its sessions, ratings and profile; its seats become guest
        seats (the device holding a seat's token plays on, as a guest). The tables' records
        and replays keep the names as played: they are what happened at those tables."""
        username = await signed_in(request)
        body = await body_of(request)
        await confirm(request, username, body.get("password"), "password")
        await accounts.call(AccountDB.delete_account, username)
        return signed_out(request, {"username": None, "deleted": username})

    @app.get("/api/account/me")
    async def me(request: Request) -> Json:
        return {"username": await accounts.user(request)}

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
                "you": await accounts.user(request), "rows": [_row(r) for r in board]}

    @app.get("/api/players/{username}")
    async def profile(username: str) -> Json:
        if not USERNAME.fullmatch(username) or \
                await accounts.call(AccountDB.password_hash, username) is None:
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
                "ratings": [_row(r) for r in
                            await accounts.call(AccountDB.ratings_of, username)],
                "games": games_out}

    for path in ("/account", "/leaderboard", "/u/{username}"):
        app.add_api_route(path, people_page, methods=["GET"])


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


def _row(r: Rating) -> Json:
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
