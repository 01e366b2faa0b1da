"""Account names are public, and guessing them is bounded (issue 31; docs/web.md, "Account
names are public").

A profile (``/api/players/NAME``) answers whether a name exists, and registering a taken
name must say so. Neither is hidden; what bounds enumeration is a per-address count of
*probes* (a profile not found, a name found taken at registration) over an hour, shared by
every process through the database. Looking up players who exist (links from the
leaderboard, a replay) costs nothing. Past the limit the address gets 429 with
``Retry-After`` on both endpoints, in its language; another address is not affected.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from bito.server.accounts import AccountSettings
from server_kit import ServerThread, scripted

PROBES = 3
PASSWORD = "correct horse 42"
CYRILLIC = re.compile("[а-яё]", re.I)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    # loopback is the trusted proxy, so each test client is its own X-Forwarded-For address
    srv = ServerThread(str(tmp_path / "names.sqlite3"),
                       scripted(trusted_proxies=("127.0.0.1",)),
                       AccountSettings(name_probes_per_hour=PROBES, registrations_per_hour=50))
    yield srv
    srv.stop()


def client(server: ServerThread, address: str, lang: str = "en") -> httpx.Client:
    return httpx.Client(base_url=server.base, timeout=30, headers={
        "X-Forwarded-For": address, "Accept-Language": lang})


def refused(r: httpx.Response, russian: bool = False) -> None:
    """The probe limit's answer: 429, its code, a wait, the request's language."""
    assert r.status_code == 429, r.text
    assert r.json()["code"] == "too_many_probes", r.json()
    assert int(r.headers["Retry-After"]) > 0
    assert bool(CYRILLIC.search(r.json()["error"])) == russian, r.json()


def test_profiles_of_players_who_exist_cost_nothing_and_misses_are_bounded(
        server: ServerThread) -> None:
    first = client(server, "10.0.0.1")
    assert first.post("/api/account/register", json={
        "username": "alice", "password": PASSWORD}).status_code == 200
    browsing = client(server, "10.0.0.2")
    for _ in range(PROBES * 2):  # a name that exists: as often as one likes
        assert browsing.get("/api/players/alice").status_code == 200
    for i in range(PROBES):
        r = browsing.get(f"/api/players/nobody{i}")
        assert r.status_code == 404 and r.json()["code"] == "no_player", r.text
    refused(browsing.get("/api/players/nobody9"))
    refused(browsing.get("/api/players/alice"))  # the address waits, whatever it asks
    # registering is a probe too: the same address is refused there as well
    refused(browsing.post("/api/account/register", json={"username": "bob",
                                                         "password": PASSWORD}))
    # another address is not affected
    assert client(server, "10.0.0.3").get("/api/players/alice").status_code == 200


@pytest.mark.parametrize("russian", [False, True])
def test_registering_taken_names_counts_as_probing(server: ServerThread,
                                                   russian: bool) -> None:
    owner = client(server, "10.0.1.1")
    for name in ("carol", "dave", "erin"):
        assert owner.post("/api/account/register", json={
            "username": name, "password": PASSWORD}).status_code == 200
    guesser = client(server, "10.0.1.2", "ru-RU" if russian else "en")
    for name in ("carol", "dave", "erin"):
        r = guesser.post("/api/account/register", json={"username": name,
                                                        "password": PASSWORD})
        assert r.status_code == 409, r.text
    refused(guesser.post("/api/account/register", json={"username": "frank",
                                                        "password": PASSWORD}), russian)
    refused(guesser.get("/api/players/carol"), russian)
    # a login tells nothing either way: wrong name and wrong password get one answer
    wrong_name = client(server, "10.0.1.3").post("/api/account/login", json={
        "username": "nobody", "password": PASSWORD})
    wrong_password = client(server, "10.0.1.4").post("/api/account/login", json={
        "username": "carol", "password": PASSWORD + "x"})
    assert wrong_name.status_code == wrong_password.status_code == 401
    assert wrong_name.json() == wrong_password.json()
