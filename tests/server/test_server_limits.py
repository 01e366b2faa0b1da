"""Limits and hygiene of the web server (issue 18, item 4), over real websockets: malformed
messages, spectator caps, broadcasts that cost one frame per viewpoint, the ready-check's
time-out and the host's kick, seat tokens kept out of URLs, and the per-address limit behind a
trusted proxy."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from websockets.sync.client import connect

from bito.record import load_record
from bito.server.app import _networks, client_address
from server_kit import Client, ServerThread, create_table, join, scripted


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "limits.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def test_malformed_messages_get_an_error_naming_the_field_and_keep_the_connection(
        server: ServerThread, caplog: pytest.LogCaptureFixture) -> None:
    t = create_table(server.http, players=2, seats=["open"])
    alice = Client(server.base, t["table"], t["token"])
    alice.state()
    deep = '{"type":"act","action":' + "[" * 2000 + "]" * 2000 + "}"
    cases = [
        ('{"type":"\\ud800"}', "type", "lone surrogate"),
        ('{"type":"act","action":"7\\udfff"}', "action", "lone surrogate"),
        ('{"type":"ping","x":{"\\ud800":1}}', "x", "lone surrogate"),
        ("[" * 2000 + "]" * 2000, "message", "nested too deeply"),
        (deep, "message", "nested too deeply"),
        ('{"type":"act","action":[[[[[["7d"]]]]]]}', "action", "nested too deeply"),
        ('{"type":5}', "type", "expected a text"),
        ('{"type":"act","action":5}', "action", '"act" needs "action"'),
        ('{"type":"bot","seat":true,"bot":"random"}', "seat", '"bot" needs "seat"'),
        ('{"type":"bot","seat":1,"bot":7}', "bot", '"bot" needs "bot"'),
        ('{"type":"kick","seat":"one"}', "seat", '"kick" needs "seat"'),
        ('{"action":"7d"}', "type", '"type"'),
        ("null", "message", '"type"'),
        ("x" * 100_000, "message", "message too long"),
        ('{"type":"' + "z" * 3000 + '"}', "type", "unknown message type"),
    ]
    for text, field, words in cases:
        alice.send(text)
        error = alice.error()
        assert error["field"] == field, (text[:40], error)
        assert words in error["message"], (text[:40], error)
        assert len(error["message"]) < 200
        alice.send({"type": "ping"})  # the connection is kept and still answers
        assert alice.wait(lambda m: m["type"] == "pong")
    assert not alice.closed.is_set()
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    alice.close()


def test_spectators_are_capped_per_table_and_per_address(tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "watch.sqlite3"),
                       scripted(spectators_per_table=3, spectators_per_address=2,
                                trusted_proxies=("127.0.0.1",)))
    try:
        t = create_table(srv.http, players=2, seats=["open"])
        table = t["table"]
        mine = [Client(srv.base, table) for _ in range(2)]
        for c in mine:
            c.state()
        third = Client(srv.base, table)
        error = third.error()
        assert "at most 2 spectator connections from one address" in error["message"]
        assert third.closed.wait(5) and third.ws.close_code == 1008
        # another address (through the trusted proxy) may watch, up to the table's cap
        other = Client(srv.base, table, headers={"X-Forwarded-For": "10.1.2.3"})
        other.state()
        fourth = Client(srv.base, table, headers={"X-Forwarded-For": "10.9.9.9"})
        assert "this table has 3 spectators, the most it takes" in fourth.error()["message"]
        # seated players do not count; a spectator who leaves frees his place
        host = Client(srv.base, table, t["token"])
        assert host.state()["you"] == 0
        mine[0].close()
        time.sleep(0.3)
        again = Client(srv.base, table)
        assert again.state()["type"] == "state"
        for c in (mine[1], other, host, again):
            c.close()
    finally:
        srv.stop()


def test_a_broadcast_draws_one_frame_per_viewpoint_and_spectators_cost_nothing(
        tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "audience.sqlite3"),
                       scripted(timer=60, bot_delay=0, spectators_per_address=100,
                                spectators_per_table=100))
    try:
        t = create_table(srv.http, players=2, seats=["open"])
        table = t["table"]
        bob = join(srv.http, table, "Bob")
        alice = Client(srv.base, table, t["token"])
        b = Client(srv.base, table, bob["token"])
        alice.state()
        b.state()
        time.sleep(0.3)
        before = len(alice.messages)
        audience = [Client(srv.base, table) for _ in range(40)]
        for c in audience:
            c.state()
        time.sleep(0.3)
        # forty spectators came: the players were sent nothing (they see no spectator)
        assert len(alice.messages) == before
        lobby = srv.app.state.lobby
        drawn: list[int | None] = []
        real = lobby.broadcasts.frame  # the part that draws the frames

        def counting(room, seat, full=True):  # type: ignore[no-untyped-def]
            drawn.append(seat)
            return real(room, seat, full)

        lobby.broadcasts.frame = counting
        alice.send({"type": "ready"})
        b.send({"type": "ready"})
        for c in audience:
            c.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        # two broadcasts (a Ready, the deal) to 42 sockets: each draws 3 viewpoints, once
        assert sorted(drawn, key=str) == sorted([0, 1, None] * 2, key=str), drawn
        for c in (*audience, alice, b):
            c.close()
    finally:
        srv.stop()


#: The ready-check's length in the test below: never waited for (the test moves the seats'
#: sitting-down time back instead), so no step of the test races it. At 1 s, a loaded
#: machine's three websocket handshakes took longer, and the host's kick that must be
#: refused ("Bob still has ...") freed the seat.
READY_TIMEOUT = 60.0


def test_the_host_frees_a_seat_that_never_readied_after_the_ready_timeout(
        tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "ready.sqlite3"), scripted(ready_timeout=READY_TIMEOUT))
    try:
        t = create_table(srv.http, players=3, seats=["open", "open"])
        table = t["table"]
        bob = join(srv.http, table, "Bob")
        carol = join(srv.http, table, "Carol")
        host = Client(srv.base, table, t["token"])
        b = Client(srv.base, table, bob["token"])
        c = Client(srv.base, table, carol["token"])
        frame = host.state()
        assert 0 < frame["seats"][1]["ready_in"] <= READY_TIMEOUT
        c.send({"type": "ready"})
        host.wait(lambda m: m["type"] == "state" and m["seats"][2]["ready"])
        host.send({"type": "kick", "seat": 1})
        assert "Bob still has" in host.error()["message"]
        b.send({"type": "kick", "seat": 2})
        assert "only the host" in b.error()["message"]
        # the ready-check's time passes: Bob and Carol sat down that long ago
        seated_at = srv.app.state.lobby.rooms[table].seated_at
        for seat in (1, 2):
            seated_at[seat] -= READY_TIMEOUT
        host.send({"type": "kick", "seat": 2})
        assert "Carol is ready" in host.error()["message"]
        host.send({"type": "kick", "seat": 1})
        freed = host.wait(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "open")
        assert freed["seats"][2]["kind"] == "human"
        assert "freed your seat" in b.error()["message"]
        b.send({"type": "ready"})
        assert "spectators can only watch" in b.error()["message"]
        gone = Client(srv.base, table, bob["token"])  # his token no longer works
        assert "not valid" in gone.error()["message"]
        # the seat is open again: a new player takes it, everybody is ready, the cards go out
        dave = join(srv.http, table, "Dave")
        assert dave["seat"] == 1
        d = Client(srv.base, table, dave["token"])
        d.send({"type": "ready"})
        host.send({"type": "ready"})
        host.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        host.send({"type": "kick", "seat": 1})
        assert "only before the deal" in host.error()["message"]
        for x in (host, b, c, d):
            x.close()
    finally:
        srv.stop()


def test_seat_tokens_never_travel_in_urls(server: ServerThread) -> None:
    http = server.http
    t = create_table(http, players=2, seats=["random"])
    table = t["table"]
    url = server.base.replace("http", "ws", 1) + f"/ws/{table}?token={t['token']}"
    with connect(url, open_timeout=10) as ws:
        text = ws.recv(timeout=10)
        assert "not accepted in URLs" in str(text) and '"field":"token"' in str(text)
    r = http.get(f"/api/tables/{table}", params={"token": t["token"]})
    assert r.status_code == 400 and "X-Bito-Token" in r.json()["error"]
    header = {"X-Bito-Token": t["token"]}
    assert http.get(f"/api/tables/{table}", headers=header).json()["you"] == 0
    alice = Client(server.base, table, t["token"])
    alice.send({"type": "ready"})
    alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    # the download link during play: a single-use ticket, asked for with the header
    assert http.post(f"/api/tables/{table}/ticket").status_code == 403
    got = http.post(f"/api/tables/{table}/ticket", headers=header).json()
    assert t["token"] not in got["link"] and got["expires_in"] <= 60
    r = http.get(got["link"])
    assert r.status_code == 200
    assert load_record(r.text).censored_for == 0
    assert http.get(got["link"]).status_code == 403  # used up
    other = create_table(http, players=2, seats=["random"])
    stray = http.post(f"/api/tables/{table}/ticket", headers=header).json()["ticket"]
    assert http.get(f"/api/tables/{other['table']}/record",
                    params={"ticket": stray}).status_code == 403
    alice.close()


def test_the_creation_limit_reads_x_forwarded_for_only_from_trusted_proxies(
        tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "proxy.sqlite3"),
                       scripted(tables_per_hour=2, trusted_proxies=("127.0.0.0/8",)))
    try:
        def make(forwarded: str) -> int:
            r = srv.http.post("/api/tables", json={"name": "A", "players": 2},
                              headers={"X-Forwarded-For": forwarded})
            return r.status_code

        assert [make("10.0.0.1"), make("10.0.0.1"), make("10.0.0.1")] == [200, 200, 429]
        assert make("10.0.0.2") == 200  # another client behind the same proxy
        # a client cannot escape by writing a fake address at the left of the header
        assert make("6.6.6.6, 10.0.0.1") == 429
    finally:
        srv.stop()
    srv = ServerThread(str(tmp_path / "direct.sqlite3"), scripted(tables_per_hour=2))
    try:  # no trusted proxy: the header is ignored, the socket's address counts
        codes = [srv.http.post("/api/tables", json={"name": "A", "players": 2},
                               headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                 for i in range(3)]
        assert codes == [200, 200, 429]
    finally:
        srv.stop()


def test_client_address_walks_the_forwarded_chain_from_the_right() -> None:
    proxies = _networks(("10.0.0.0/8", "192.168.1.5"))
    assert client_address("192.168.1.5", "1.2.3.4", proxies) == "1.2.3.4"
    assert client_address("192.168.1.5", "9.9.9.9, 1.2.3.4, 10.0.0.7", proxies) == "1.2.3.4"
    assert client_address("8.8.8.8", "1.2.3.4", proxies) == "8.8.8.8"  # not a proxy
    assert client_address("10.0.0.1", None, proxies) == "10.0.0.1"
    assert client_address("10.0.0.1", "10.0.0.2", proxies) == "10.0.0.1"
    with pytest.raises(ValueError, match="--trusted-proxy"):
        _networks(("not-an-address",))


def test_deep_nesting_gets_the_same_answer_whatever_the_recursion_limit(
        server: ServerThread) -> None:
    """A process that raised its recursion limit parses 2,000 levels with json.loads; the
    answer to a deeply nested message must not depend on that (it is refused unparsed)."""
    import sys

    t = create_table(server.http, players=2, seats=["open"])
    alice = Client(server.base, t["table"], t["token"])
    alice.state()
    answers = []
    original = sys.getrecursionlimit()
    try:
        for limit in (original, 20_000):
            sys.setrecursionlimit(limit)
            alice.send('{"type":"act","action":' + "[" * 2000 + "]" * 2000 + "}")
            answers.append(alice.error())
    finally:
        sys.setrecursionlimit(original)
    assert answers[0] == answers[1]
    assert answers[0]["field"] == "message" and "nested too deeply" in answers[0]["message"]
