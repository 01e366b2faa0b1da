"""The accounts' own routes: registering, logging in and out, the password, every session
ended, the account deleted, and who is logged in. Failed logins are counted per username and
per address (a password confirmed in a session too), registrations per address
(:class:`bito.server.accounts.AccountSettings`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from bito.server import refusals, webtext
from bito.server.accountdb import AccountDB
from bito.server.accounts import (
    COOKIE,
    PASSWORD_MAX,
    USERNAME,
    AccountError,
    Accounts,
    Json,
    body_of,
    check_password,
    check_username,
    digest,
)
from bito.server.rooms import Lobby


def add(app: FastAPI, accounts: Accounts, lobby: Callable[[], Lobby],
            address: Callable[[Request], str], via_https: Callable[[Request], bool]) -> None:
    """Add the accounts' API to ``app``. ``address`` gives a request's client
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

    @app.post("/api/account/register")
    async def register(request: Request) -> Response:
        client = address(request)
        wait = await accounts.registrations.wait(lobby().storage, client,
                                                 s.registrations_per_hour, 3600)
        if wait:
            raise AccountError(f"too many new accounts from this address; try again in "
                               f"{wait} s", status=429, retry_after=wait)
        await accounts.not_probing(lobby().storage, client)
        body = await body_of(request)
        username = check_username(body.get("username"))
        password = check_password(body.get("password"), username)
        hashed = await accounts.work(accounts.hasher.hash, password)
        if not await accounts.call(AccountDB.add_account, username, hashed):
            await accounts.probed(lobby().storage, client)
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
