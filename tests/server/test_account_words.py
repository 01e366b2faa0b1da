"""The accounts' words in both languages (issue 19 items 1 and 4 in the merged web app): every
refusal of the accounts' API has a stable code and is said in the request's language (the
``bito_lang`` cookie, else ``Accept-Language``), rate limits included; the seat-moved frame
is said in the old connection's language; and the lobby's game summaries and house rules
come by id in the page's language (the terminal's catalogue, ``msgctxt "summary"``)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from bito import i18n
from bito.rules import all_variants
from bito.rules.options import OPTION_SPECS
from bito.server import games, refusals
from bito.server.accounts import MOVED, AccountSettings
from server_kit import Client, ServerThread, create_table, scripted

CYRILLIC = re.compile("[а-яё]", re.I)
PASSWORD = "correct horse 42"
RU = {"Accept-Language": "ru-RU,ru;q=0.9"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "words.sqlite3"), scripted(timer=60, bot_delay=0),
                       AccountSettings(failures_per_username=2, registrations_per_hour=3))
    yield srv
    srv.stop()


def device(server: ServerThread, headers: Mapping[str, str] | None = None) -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=10, headers=headers)


def said(r: httpx.Response, status: int, code: str, russian: bool) -> str:
    """The refusal's words, after checking its status, code and language."""
    assert r.status_code == status, r.text
    body = r.json()
    assert body["code"] == code, body
    assert bool(CYRILLIC.search(body["error"])) == russian, body
    return str(body["error"])


@pytest.mark.parametrize("russian", [False, True])
def test_every_account_refusal_has_a_code_in_the_requests_language(server: ServerThread,
                                                                   russian: bool) -> None:
    # (a fixed Cookie header would hide the login cookie: the language by Accept-Language)
    http = device(server, RU if russian else {"Accept-Language": "en"})
    reg = "/api/account/register"
    body = {"username": "x", "password": PASSWORD}
    said(http.post(reg, json=body), 400, "username_shape", russian)
    r = http.post(reg, json={"username": 5, "password": PASSWORD})
    said(r, 400, "username_text", russian)
    assert r.json()["field"] == "username"
    said(http.post(reg, json={"username": "anna_wolf", "password": "short"}), 400,
         "password_short", russian)
    said(http.post(reg, json={"username": "anna_wolf", "password": "anna_wolf"}), 400,
         "password_easy", russian)
    said(http.post(reg, json={"username": "anna_wolf", "password": "p" * 200}), 400,
         "password_long", russian)
    assert http.post(reg, json={"username": "anna_wolf", "password": PASSWORD}).status_code == 200
    taken = said(device(server, http.headers).post(
        reg, json={"username": "ANNA_WOLF", "password": PASSWORD}), 409, "username_taken", russian)
    assert "ANNA_WOLF" in taken  # the field carried over into either language
    stranger = device(server, http.headers)
    wrong = {"username": "anna_wolf", "password": "wrong password"}
    said(stranger.post("/api/account/login", json=wrong), 401, "login_wrong", russian)
    said(stranger.post("/api/account/login", json=wrong), 401, "login_wrong", russian)
    limited = stranger.post("/api/account/login", json=wrong)
    said(limited, 429, "login_limit_username", russian)
    assert limited.json()["error"].count(limited.headers["Retry-After"]) == 1
    said(stranger.post("/api/account/login", json={"username": 1, "password": "x"}), 400,
         "login_texts", russian)
    # seats
    table = create_table(http)["table"]
    said(stranger.post(f"/api/tables/{table}/claim"), 401, "claim_login", russian)
    said(http.post(f"/api/tables/{create_table(stranger)['table']}/claim"), 404,
         "claim_no_seat", russian)
    said(stranger.post(f"/api/tables/{table}/own"), 401, "own_login", russian)
    said(http.post(f"/api/tables/{table}/own"), 403, "seat_token_header", russian)
    said(http.post(f"/api/tables/{table}/move"), 403, "seat_token_header", russian)
    said(http.post(f"/api/tables/{table}/continue", json={}), 400, "ticket_missing", russian)
    said(http.post(f"/api/tables/{table}/continue", json={"ticket": "nope"}), 403,
         "ticket_invalid", russian)
    said(http.post(f"/api/tables/{table}/continue", json=[1]), 400, "body", russian)
    # ratings
    said(http.get("/api/leaderboard?family=chess"), 400, "family", russian)
    said(http.get("/api/players/nobody_here"), 404, "no_player", russian)


def test_registrations_past_the_hourly_limit_are_refused_in_russian(
        server: ServerThread) -> None:
    http = device(server, {"Cookie": "bito_lang=ru"})
    for i in range(3):
        r = http.post("/api/account/register", json={"username": f"reg_{i}",
                                                     "password": PASSWORD})
        assert r.status_code == 200, r.text
    r = http.post("/api/account/register", json={"username": "reg_9", "password": PASSWORD})
    words = said(r, 429, "too_many_accounts", True)
    assert r.headers["Retry-After"] in words


def test_the_seat_moved_frame_is_said_in_the_old_connections_language(
        server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["open"])
    old = Client(server.base, t["table"], t["token"], headers={"Cookie": "bito_lang=ru"})
    old.state()
    link = server.http.post(f"/api/tables/{t['table']}/move",
                            headers={"X-Bito-Token": t["token"]}).json()["link"]
    moved = device(server).post(f"/api/tables/{t['table']}/continue",
                                json={"ticket": link.split("#continue=")[1]})
    assert moved.status_code == 200, moved.text
    told = old.wait(lambda m: m["type"] == "error" and m.get("request") == "moved")
    assert told["code"] == "moved" and CYRILLIC.search(told["message"])
    assert refusals.error_words(MOVED, "en") == ("moved", MOVED)  # English word for word
    old.close()


def test_the_lobby_gets_every_summary_and_option_help_in_russian(server: ServerThread) -> None:
    bundle = server.http.get("/i18n/web.json", headers=RU).json()
    terminal = i18n.catalogue("ru")["summaries"]
    with_summary = [v.id for v in all_variants() if v.summary]
    assert with_summary and all(bundle["summaries"][i] == terminal[i] for i in with_summary)
    assert all(CYRILLIC.search(bundle["summaries"][i]) for i in with_summary)
    helped = [k for k, spec in OPTION_SPECS.items() if spec.help]
    assert all(CYRILLIC.search(bundle["options"][k]) for k in helped)
    english = server.http.get("/i18n/web.json?lang=en").json()
    assert all(english["summaries"][v.id] == v.summary for v in all_variants() if v.summary)


def test_house_rules_come_with_their_ids() -> None:
    modifier = next(v for v in all_variants() if v.kind == "modifier")
    key, spec = next((k, s) for k, s in OPTION_SPECS.items() if s.help and k != "family")
    base = next(v for v in all_variants() if v.kind != "modifier" and v.family == "durak")
    described = games.describe(f"{base.id}+{modifier.id}+{key}=1+nonsense.key=2")
    assert described["rule_ids"] == [{"variant": modifier.id}, {"option": key, "value": "1"},
                                     {}]
    assert len(described["rules"]) == len(described["rule_ids"])
    assert spec.help in described["rules"][1]
