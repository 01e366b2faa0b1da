"""The web server's protocol, end to end over real websockets (issue 8).

A real server runs in a thread on loopback with a SQLite file; clients are real websocket
clients that record every frame they receive, so the tests can check that no frame ever
shows a hidden card of another seat (to players, after a reconnect, to a spectator, and in
replays and records asked for during play).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from bito.cards import card_str, cards_of
from bito.record import load_record
from bito.rules.registry import all_variants
from bito.server import games
from bito.server.render import render_public, render_view
from bito.server.rooms import Settings
from server_kit import (
    CARD,
    Client,
    ServerThread,
    assert_no_leak,
    create_table,
    full_states,
    hidden_cards,
    join,
    play_to_end,
    scripted,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "games.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def test_friends_and_a_bot_play_a_whole_game_and_no_frame_leaks(server: ServerThread) -> None:
    http = server.http
    t = create_table(http, players=3, seats=["open", "heuristic"])
    table = t["table"]
    bob = join(http, table, "Bob")
    assert bob["seat"] == 1 and bob["token"] != t["token"]
    alice = Client(server.base, table, t["token"])
    b = Client(server.base, table, bob["token"])
    watcher = Client(server.base, table)
    first = alice.state()
    assert first["status"] == "waiting" and first["you"] == 0 and "view" not in first
    alice.send({"type": "ready"})
    b.send({"type": "ready"})
    dealt = alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    assert len(dealt["view"]["hand"]) == 6
    rng = random.Random(5)
    moves = {"count": 0}
    side: dict[str, object] = {}

    def pick(view: dict[str, object]) -> str:
        legal = view["legal"]
        assert isinstance(legal, list)
        return str(rng.choice(legal)["text"])

    def on_move(frame: dict[str, object]) -> None:
        moves["count"] += 1
        if moves["count"] == 6:  # mid-game: the censored record and the replay
            rec = http.get(f"/api/tables/{table}/record",
                           headers={"X-Bito-Token": bob["token"]})
            assert rec.status_code == 200
            side["record"] = rec.text
            assert http.get(f"/api/tables/{table}/record").status_code == 403
            rep = http.get(f"/api/tables/{table}/replay",
                           headers={"X-Bito-Token": bob["token"]})
            assert rep.status_code == 200 and rep.json()["seat"] == 1
            side["replay"] = rep.text
            assert http.get(f"/api/tables/{table}/replay").status_code == 403

    clients = {0: alice, 1: b}
    old_bob: list[Client] = []

    def on_move_and_reconnect(frame: dict[str, object]) -> None:
        on_move(frame)
        if moves["count"] == 10:  # Bob's tab closes and he opens the link again
            old_bob.append(clients[1])
            clients[1].close()
            again = Client(server.base, table, bob["token"])
            back = again.state()
            assert back["you"] == 1 and back["n"] >= frame["n"]  # type: ignore[operator]
            assert back["view"]["hand"]  # the same seat, with its cards
            clients[1] = again

    end = play_to_end(clients, pick=pick, on_move=on_move_and_reconnect)
    assert old_bob, "the game ended before the reconnect"

    assert end["outcome"] is not None and end["status"] == "over"
    states = full_states(http, table)
    assert states[-1].outcome.to_json() == end["outcome"]
    for client, seat in ((alice, 0), (b, 1), (clients[1], 1), (watcher, None)):
        client.close()
        assert assert_no_leak(client, states, seat) > 10
    # The censored record asked for mid-game shows Bob's own cards and nobody else's.
    record = load_record(str(side["record"]))
    assert record.censored_for == 1 and "seed" not in record.header
    assert record.views is not None and len(record.actions) >= 6
    for n, view in enumerate(record.views):
        assert not hidden_cards(states[n], 1) & set(re.findall(r"[2-9TJQKA][cdhs]", view)), n
    # The mid-game replay holds Bob's views only, frame n showing position n.
    frames = json.loads(str(side["replay"]))["frames"]
    assert len(frames) >= len(record.views)  # a bot may have moved between the two asks
    for n, frame in enumerate(frames):
        assert frame["seat"] == 1 and "hands" not in frame
        shown = set(CARD.findall(json.dumps(frame)))
        assert not hidden_cards(states[n], 1) & shown, n
        assert {c["c"] for c in frame["hand"]} == {
            card_str(c) for c in cards_of(states[n].hands[1])}
    # After the game anybody may replay it with every hand shown.
    open_replay = http.get(f"/api/tables/{table}/replay").json()
    assert open_replay["over"] and len(open_replay["frames"]) == len(states)
    assert [len(h) for h in open_replay["frames"][0]["hands"]] == [
        s.bit_count() for s in states[0].hands]


def test_bad_messages_get_clear_errors_and_harm_nobody(server: ServerThread) -> None:
    http = server.http
    t = create_table(http, players=2, seats=["open"])
    bob = join(http, t["table"], "Bob")
    other = create_table(http, players=2, seats=["random"])
    alice = Client(server.base, t["table"], t["token"])
    b = Client(server.base, t["table"], bob["token"])
    calm = Client(server.base, other["table"], other["token"])
    alice.state()
    cases = [
        ("not json", "not valid JSON"),
        ("[1, 2]", '"type"'),
        ({"kind": "act"}, '"type"'),
        ({"type": "dance"}, "unknown message type 'dance'"),
        ({"type": "act"}, '"act" needs "action"'),
        ({"type": "act", "action": "7d"}, "not started"),
        ({"type": "bot", "seat": "one", "bot": "random"}, '"seat"'),
        ({"type": "bot", "seat": 1, "bot": "random"}, "taken by Bob"),
        ("x" * 5000, "message too long"),
    ]
    for message, words in cases:
        alice.send(message)
        assert words in alice.error()["message"]
    b.send({"type": "bot", "seat": 1, "bot": "random"})
    assert "only the host" in b.error()["message"]
    alice.ws.send(b"\x00\x01")
    assert "text frames" in alice.error()["message"]
    alice.send({"type": "ready"})
    b.send({"type": "ready"})
    frame = b.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    mover, waiter = (alice, b) if frame["view"]["to_act"] == 0 else (b, alice)
    waiter.send({"type": "act", "action": "take"})
    assert "not your turn" in waiter.error()["message"]
    mover.send({"type": "act", "action": "7x"})
    assert "^" in mover.error()["message"]  # the notation error points at the character
    hand = mover.latest()["view"]["hand"]  # type: ignore[index]
    held = {c["c"] for c in hand}
    absent = next(f"{r}{s}" for r in "6789TJQKA" for s in "cdhs" if f"{r}{s}" not in held)
    mover.send({"type": "act", "action": absent})
    assert mover.error()["message"]  # the engine names the rule the move breaks
    # Spectators only watch; a wrong token is refused.
    spectator = Client(server.base, t["table"])
    spectator.state()
    spectator.send({"type": "act", "action": "take"})
    assert "spectators" in spectator.error()["message"]
    intruder = Client(server.base, t["table"], other["token"])
    assert "not valid" in intruder.error()["message"]
    # Nothing above disturbed either table: both still answer and play on.
    calm.send({"type": "ping"})
    assert calm.wait(lambda m: m["type"] == "pong")
    legal = mover.latest()["view"]["legal"]  # type: ignore[index]
    mover.send({"type": "act", "action": legal[0]["text"]})
    assert mover.wait(lambda m: m["type"] == "state" and m["n"] == 1)["n"] == 1
    for c in (alice, b, calm, spectator):
        c.close()


def test_seat_tokens_are_unguessable_and_bound_to_their_table(server: ServerThread) -> None:
    tables = [create_table(server.http, players=3, seats=["open", "open"]) for _ in range(3)]
    tokens = [t["token"] for t in tables]
    tokens += [join(server.http, t["table"], f"p{i}")["token"] for i, t in enumerate(tables)]
    assert len(set(tokens)) == len(tokens)
    assert all(len(tok) >= 32 for tok in tokens)  # 24 random bytes, URL-safe
    ids = [t["table"] for t in tables]
    assert len(set(ids)) == 3 and all(len(i) >= 12 for i in ids)
    r = server.http.get(f"/api/tables/{ids[0]}/record",
                        headers={"X-Bito-Token": tokens[1]})
    assert r.status_code in (400, 403)


def test_the_clock_applies_the_inactivity_rules(tmp_path: Path) -> None:
    """Two silent players: the attacker's time-out makes a bot's lead, the defender's a take,
    the thrower's a pass; after two time-outs in a row a seat is handed to a bot, and a
    player who says he is back gets it again."""
    srv = ServerThread(str(tmp_path / "clock.sqlite3"),
                       scripted(timer=0.15, bot_delay=0, timeouts_to_bot=2))
    try:
        t = create_table(srv.http, players=2, seats=["open"])
        bob = join(srv.http, t["table"], "Bob")
        alice = Client(srv.base, t["table"], t["token"])
        b = Client(srv.base, t["table"], bob["token"])
        alice.send({"type": "ready"})
        b.send({"type": "ready"})
        frame = alice.wait(lambda m: m["type"] == "state" and m["n"] >= 6, timeout=30)
        frame = srv.http.get(f"/api/tables/{t['table']}").json()  # a full frame
        # The whole history from the database: a frame's log holds only the last moves, and
        # once both seats are bots (no delay) the game may run past them before the fetch.
        log = _history(tmp_path / "clock.sqlite3", t["table"])
        assert all(e["how"] in ("timeout", "bot") for e in log)
        states = _states_of(tmp_path / "clock.sqlite3", t["table"], len(log))
        for entry, before in zip(log, states, strict=False):
            legal = [str(a) for a in before.legal_actions()]
            assert entry["text"] in legal
            if entry["how"] == "timeout":
                if "take" in legal:
                    assert entry["text"] == "take"
                elif "pass" in legal:
                    assert entry["text"] == "pass"
        kinds = [e["how"] for e in log if e["seat"] == log[0]["seat"]]
        assert kinds[:2] == ["timeout", "timeout"] and "bot" in kinds[2:]
        assert frame["seats"][log[0]["seat"]]["kind"] == "away"
        comeback = alice if log[0]["seat"] == 0 else b
        comeback.send({"type": "back"})
        seat = log[0]["seat"]
        assert comeback.wait(lambda m: m["type"] == "state"
                             and m["seats"][seat]["kind"] == "human")
        alice.close()
        b.close()
    finally:
        srv.stop()


def _history(db: Path, table: str) -> list[dict[str, Any]]:
    """Every move of a running game as the server stored it: seat, text and how it was made."""
    from bito.server.storage import Storage

    store = Storage(str(db))
    try:
        return [{"seat": seat, "text": text, "how": how}
                for seat, text, how in store.load_actions(table)]
    finally:
        store.close()


def _states_of(db: Path, table: str, count: int) -> list[object]:
    """The true states of a running game, read from the server's database (a test may)."""
    from bito.server.storage import Storage

    store = Storage(str(db))
    try:
        row = store.load_table(table)
        assert row is not None
        texts = [a for _, a, _ in store.load_actions(table)]
    finally:
        store.close()
    state = games.new_state(games.Setup(row.spec, row.players, row.seed))
    states = [state]
    for text in texts[:count]:
        state = state.apply(games.find_action(state, text))
        states.append(state)
    return states


def test_lobby_lists_public_tables_only(server: ServerThread) -> None:
    public = create_table(server.http, players=2, public=True, name="Host")
    private = create_table(server.http, players=2)
    listed = {t["id"] for t in server.http.get("/api/lobby").json()["tables"]}
    assert public["table"] in listed and private["table"] not in listed


def test_the_host_seats_a_bot_and_opens_the_seat_again(server: ServerThread) -> None:
    t = create_table(server.http, players=3, seats=["open", "open"])
    host = Client(server.base, t["table"], t["token"])
    host.state()
    host.send({"type": "bot", "seat": 2, "bot": "random"})
    seated = host.wait(lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "bot")
    assert seated["seats"][2]["bot"] == "random" and seated["seats"][2]["ready"]
    host.send({"type": "bot", "seat": 2, "bot": None})
    assert host.wait(lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "open")
    host.send({"type": "bot", "seat": 2, "bot": "grandmaster"})
    assert "grandmaster" in host.error()["message"]
    # With both seats taken by bots, the host's Ready deals the cards.
    for seat in (1, 2):
        host.send({"type": "bot", "seat": seat, "bot": "random"})
    host.send({"type": "ready"})
    assert host.wait(lambda m: m["type"] == "state" and m["status"] == "playing")["view"]
    host.close()


def test_creation_refuses_bad_input_naming_the_field(server: ServerThread) -> None:
    http = server.http
    cases = [
        ({"players": 1}, "players"),
        ({"players": "two"}, "players"),
        ({"variant": "no-such-game"}, "no such variant"),
        ({"variant": "podkidnoy+throw_in.by=everyone"}, "throw_in.by"),
        ({"rules": 'base = "podkidnoy"\n[options]\nnonsense = 1\n'}, "line 3"),
        ({"seats": ["grandmaster"]}, "grandmaster"),
        ({"name": ""}, "name"),
        ({"timer": 1}, "timer"),
        ({"players": 9}, "players"),
    ]
    for body, words in cases:
        body.setdefault("name", "Alice")
        r = http.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
        assert words in r.json()["error"], (body, r.json())
    assert http.post("/api/tables", content=b"{").status_code == 400
    assert http.get("/api/tables/nope").status_code == 404


def test_every_registered_game_is_offered_and_drawn(server: ServerThread) -> None:
    """The lobby offers every game of the registry; each one the engine deals is drawn from
    its family's table model (no per-variant code), and one it cannot deal is refused with a
    clear message, never a server error."""
    offered = {v["id"] for v in server.http.get("/api/variants").json()["variants"]}
    assert offered == {v.id for v in all_variants()}
    dealt = 0
    for v in all_variants():
        if v.kind != "game":
            continue
        r = server.http.post("/api/tables", json={"name": "A", "variant": v.id, "players": 2})
        assert r.status_code in (200, 400), (v.id, r.text)
        if r.status_code == 400:
            assert r.json()["error"], v.id
            continue
        state = games.new_state(games.Setup(v.id, 2, 11))
        for seat in (0, 1):
            frame = render_view(state.view(seat))
            assert json.dumps(frame) and frame["seat"] == seat
            assert len(frame["hand"]) == state.hands[seat].bit_count() or frame["hand"] == []
        public = render_public(state)
        assert public["hand"] == [] and public["legal"] == []
        dealt += 1
    assert dealt >= 3


@pytest.mark.parametrize("variant", ["czech_fool", "ontoys_adjacent_rank"])
def test_a_game_of_another_family_plays_through_the_same_server(
        server: ServerThread, variant: str) -> None:
    """No per-game code: a Mau-Mau-family game is created, dealt, played to the end with a
    bot and recorded through exactly the same messages as Durak."""
    t = create_table(server.http, players=2, variant=variant, seats=["random"])
    alice = Client(server.base, t["table"], t["token"])
    alice.send({"type": "ready"})
    dealt = alice.wait(lambda m: m["type"] == "state" and "view" in m)
    assert dealt["view"]["hand"] and dealt["view"]["family"] == "shedding"
    assert dealt["view"]["model"] and dealt["view"]["zones"]  # drawn from its table model
    end = play_to_end({0: alice}, timeout=60)
    assert end["outcome"] is not None
    record = load_record(server.http.get(f"/api/tables/{t['table']}/record").text)
    assert record.header["game"] != "durak"
    assert record.replay()[-1].outcome.to_json() == end["outcome"]
    alice.close()


def test_a_flood_cuts_off_only_the_flooding_connection(tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "flood.sqlite3"), Settings(rate_limit=20))
    try:
        t = create_table(srv.http, players=2, seats=["open"])
        host = Client(srv.base, t["table"], t["token"])
        flood = Client(srv.base, t["table"])
        for _ in range(400):
            if flood.closed.is_set():
                break
            try:
                flood.send({"type": "ping"})
            except Exception:
                break
        # The flooder is cut off. The error frame that says why is checked when it arrives
        # before the close; on a loaded machine the close can win the race.
        assert flood.closed.wait(10)
        errors = [m for m in list(flood.messages) if m["type"] == "error"]
        if errors:  # any error frame that did arrive names the rate limit
            assert "messages a second" in errors[-1]["message"]
        # a proper close frame with the policy code, not a dropped socket (a client library
        # reports a dropped socket as a network fault, not as the server's decision)
        assert flood.ws.close_code == 1008, flood.ws.close_code
        host.send({"type": "ping"})
        assert host.wait(lambda m: m["type"] == "pong")
        host.close()
    finally:
        srv.stop()


def test_bito_serve_refuses_bad_options_before_starting(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    from bito.cli import main

    assert main(["serve", "--timer", "0"]) == 2
    assert "--timer must be positive" in capsys.readouterr().err
    assert main(["serve", "--timeouts-to-bot", "0"]) == 2


def test_a_clock_keeps_running_across_a_restart(tmp_path: Path) -> None:
    """A restart neither hands the player to act a fresh clock nor forgets his time-outs in
    a row: his remaining time counts from his turn's start (kept in the database), and one
    more time-out after the restart hands his seat to a bot."""
    db = str(tmp_path / "clock.sqlite3")
    settings = scripted(timer=2.0, bot_delay=0, timeouts_to_bot=2, resume_grace=0.4)
    srv = ServerThread(db, settings)
    try:
        t = create_table(srv.http, players=2, seats=["heuristic"])
        alice = Client(srv.base, t["table"], t["token"])
        alice.send({"type": "ready"})
        # Alice stays silent: one time-out, then her turn again
        timed_out = []

        def her_turn_after_a_timeout(m: dict) -> bool:
            last = m.get("last") or {}
            if last.get("seat") == 0 and last.get("how") == "timeout":
                timed_out.append(m["n"])
            return bool(timed_out) and m["type"] == "state" and m["view"]["to_act"] == 0

        alice.wait(her_turn_after_a_timeout, timeout=30)
        alice.close()
    finally:
        srv.stop()
    time.sleep(2.2)  # down for longer than her clock had left
    srv = ServerThread(db, settings)
    try:
        frame = srv.http.get(f"/api/tables/{t['table']}").json()
        hows = [e["how"] for e in frame["log"] if e["seat"] == 0]
        assert hows == ["timeout"] and frame["seats"][0]["kind"] == "human"
        assert frame["view"]["to_act"] == 0
        # a fresh clock would show 2 s: hers ran out while the server was down
        assert frame["deadline_in"] is not None and frame["deadline_in"] <= 0.4
        alice = Client(srv.base, t["table"], t["token"])
        end = alice.wait(lambda m: m["type"] == "state" and m["seats"][0]["kind"] == "away",
                         timeout=30)
        assert end["seats"][0]["kind"] == "away"  # the second time-out in a row, counted
        alice.close()
    finally:
        srv.stop()


def test_one_address_may_create_only_so_many_tables_an_hour(tmp_path: Path) -> None:
    """A flood of new tables from one address is refused with 429 and says when to come back;
    the tables already made still work."""
    srv = ServerThread(str(tmp_path / "limit.sqlite3"), Settings(tables_per_hour=3))
    try:
        made = [create_table(srv.http, players=2) for _ in range(3)]
        r = srv.http.post("/api/tables", json={"name": "Mallory", "players": 2})
        assert r.status_code == 429
        assert "at most 3 an hour" in r.json()["error"]
        assert 0 < int(r.headers["Retry-After"]) <= 3600
        bad = srv.http.post("/api/tables", json={"name": "x", "players": 99})
        assert bad.status_code == 429  # refused before it is even read
        joined = join(srv.http, made[0]["table"], "Bob")
        assert joined["seat"] == 1
    finally:
        srv.stop()
