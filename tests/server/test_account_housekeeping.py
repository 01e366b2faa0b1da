"""Account housekeeping (issue 19, item 1): change the password, sign out everywhere, delete
the account. Each asks for the password where a stolen cookie must not be enough, is counted
with failed logins, never logs a password, and refuses in the request's language."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from bito.server.accounts import AccountSettings
from server_kit import Client, ServerThread, create_table, join, play_to_end, scripted

PASSWORD = "correct horse 42"
NEW = "battery staple 77"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def start(tmp_path: Path, **fields: Any) -> ServerThread:
    return ServerThread(str(tmp_path / "housekeeping.sqlite3"),
                        scripted(timer=60, bot_delay=0), AccountSettings(**fields))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = start(tmp_path)
    yield srv
    srv.stop()


def device(server: ServerThread, headers: dict[str, str] | None = None) -> httpx.Client:
    """A client with its own cookie jar: one device."""
    return httpx.Client(base_url=server.base, timeout=10, headers=headers)


def signed_up(server: ServerThread, username: str = "alice") -> httpx.Client:
    d = device(server)
    r = d.post("/api/account/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return d


def login(d: httpx.Client, username: str, password: str) -> httpx.Response:
    return d.post("/api/account/login", json={"username": username, "password": password})


def me(d: httpx.Client) -> Any:
    return d.get("/api/account/me").json()["username"]


def test_changing_the_password_needs_the_current_one_and_signs_other_devices_out(
        server: ServerThread) -> None:
    phone = signed_up(server)
    laptop = device(server)
    assert login(laptop, "alice", PASSWORD).status_code == 200
    wrong = phone.post("/api/account/password", json={"current": "not it 123", "password": NEW})
    assert wrong.status_code == 403
    assert wrong.json()["code"] == "password_wrong" and wrong.json()["field"] == "current"
    weak = phone.post("/api/account/password", json={"current": PASSWORD, "password": "short"})
    assert weak.status_code == 400 and weak.json()["field"] == "password"
    assert me(laptop) == "alice"  # refused changes end nothing
    r = phone.post("/api/account/password", json={"current": PASSWORD, "password": NEW})
    assert r.status_code == 200, r.text
    assert me(phone) == "alice"  # this device keeps going, with a fresh session
    assert me(laptop) is None  # every other one is signed out
    assert login(device(server), "alice", PASSWORD).status_code == 401
    assert login(device(server), "alice", NEW).status_code == 200
    anonymous = device(server).post("/api/account/password",
                                    json={"current": PASSWORD, "password": NEW})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "own_login"


def test_wrong_current_passwords_count_with_failed_logins(tmp_path: Path) -> None:
    srv = start(tmp_path, failures_per_username=3, failures_per_address=50)
    try:
        d = signed_up(srv)
        for _ in range(3):
            r = d.post("/api/account/delete", json={"password": "guess guess 1"})
            assert r.status_code == 403
        r = d.post("/api/account/password", json={"current": PASSWORD, "password": NEW})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
        assert login(device(srv), "alice", PASSWORD).status_code == 429  # one count
        assert me(d) == "alice"  # nothing was deleted
    finally:
        srv.stop()


def test_sign_out_everywhere_ends_every_session(server: ServerThread) -> None:
    phone = signed_up(server)
    laptop = device(server)
    login(laptop, "alice", PASSWORD)
    bob = signed_up(server, "bobby")
    r = laptop.post("/api/account/logout-everywhere")
    assert r.status_code == 200 and r.json()["sessions_ended"] == 2
    assert me(phone) is None and me(laptop) is None
    assert me(bob) == "bobby"  # another account is untouched
    assert device(server).post("/api/account/logout-everywhere").status_code == 401


def test_deleting_an_account_frees_its_name_ratings_and_seats_but_not_the_records(
        server: ServerThread) -> None:
    alice, bob = signed_up(server), signed_up(server, "bobby")
    t = create_table(alice, name="Alice", players=2, seats=["open"], deck=24)
    joined = join(bob, t["table"], "Bob")
    ca, cb = (Client(server.base, t["table"], t["token"]),
              Client(server.base, t["table"], joined["token"]))
    ca.send({"type": "ready"})
    cb.send({"type": "ready"})
    play_to_end({0: ca, 1: cb})
    ca.close()
    cb.close()
    assert server.http.get("/api/players/alice").json()["ratings"]  # rated, before
    refused = alice.post("/api/account/delete", json={"password": "nope nope 1"},
                         headers={"Accept-Language": "ru"})
    assert refused.status_code == 403 and CYRILLIC.search(refused.json()["error"])
    r = alice.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json()["deleted"] == "alice"
    assert me(alice) is None
    assert server.http.get("/api/players/alice").status_code == 404
    family = server.http.get("/api/players/bobby").json()["ratings"][0]["family"]
    board = server.http.get("/api/leaderboard", params={"family": family}).json()
    players = [row["player"] for row in board["rows"]]
    assert "alice" not in players and "bobby" in players
    # The table's record keeps the names as played.
    record = server.http.get(f"/api/tables/{t['table']}/replay").json()
    assert "Alice" in str(record)
    # A newcomer taking the freed name inherits neither the ratings nor the seat.
    again = signed_up(server, "alice")
    assert again.get("/api/players/alice").json()["ratings"] == []
    assert again.post(f"/api/tables/{t['table']}/claim").status_code == 404
    # The seat is a guest seat now: its token still opens it.
    assert Client(server.base, t["table"], t["token"]).state()["you"] == 0


def test_no_password_in_any_log_line(server: ServerThread,
                                     caplog: pytest.LogCaptureFixture) -> None:
    names = ("", "bito", "bito.server", "uvicorn", "uvicorn.access", "uvicorn.error")
    for name in names:
        caplog.set_level(logging.DEBUG, logger=name or None)
    for name in names[1:]:  # uvicorn's loggers do not propagate to the root
        logging.getLogger(name).addHandler(caplog.handler)
    try:
        d = signed_up(server)
        d.post("/api/account/password", json={"current": "wrong guess 77", "password": NEW})
        d.post("/api/account/password", json={"current": PASSWORD, "password": NEW})
        d.post("/api/account/delete", json={"password": "another guess 5"})
        d.post("/api/account/delete", json={"password": NEW})
    finally:
        for name in names[1:]:
            logging.getLogger(name).removeHandler(caplog.handler)
    lines = [rec.getMessage() for rec in caplog.records
             if not rec.name.startswith(("httpx", "httpcore", "websockets.client"))]
    assert any("/api/account/delete" in line for line in lines)  # the access log was on
    for line in lines:
        for secret in (PASSWORD, NEW, "wrong guess 77", "another guess 5"):
            assert secret not in line, f"a password in a log line: {line!r}"


@pytest.mark.parametrize(("path", "key"), [("/account", "account.page_title"),
                                           ("/leaderboard", "leaders.page_title")])
def test_the_people_pages_title_is_in_the_readers_language_before_any_script(
        server: ServerThread, path: str, key: str) -> None:
    from bito.server import webtext

    for accept in ("ru-RU,ru;q=0.9", "en-GB"):
        page = server.http.get(path, headers={"Accept-Language": accept})
        lang = "ru" if accept.startswith("ru") else "en"
        assert page.status_code == 200
        assert f"<title>{webtext.text(lang, key)}</title>" in page.text
        assert f'<html lang="{lang}">' in page.text
    profile = server.http.get("/u/%3Cb%3E", headers={"Accept-Language": "ru"}).text
    assert "<title>" in profile and "<b>" not in profile  # a name in the path stays text
