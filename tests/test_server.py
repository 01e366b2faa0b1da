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
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from bito.cards import card_str, cards_of
from bito.record import load_record
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
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "games.sqlite3"), Settings(timer=60, bot_delay=0))
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
            rec = http.get(f"/api/tables/{table}/record", params={"token": bob["token"]})
            assert rec.status_code == 200
            side["record"] = rec.text
            assert http.get(f"/api/tables/{table}/record").status_code == 403
            rep = http.get(f"/api/tables/{table}/replay", params={"token": bob["token"]})
            assert rep.status_code == 200 and rep.json()["seat"] == 1
            side["replay"] = rep.text
            assert http.get(f"/api/tables/{table}/replay").status_code == 403

    end = play_to_end({0: alice, 1: b}, pick=pick, on_move=on_move)
    assert end["outcome"] is not None and end["status"] == "over"
    states = full_states(http, table)
    assert states[-1].outcome.to_json() == end["outcome"]
    for client, seat in ((alice, 0), (b, 1), (watcher, None)):
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
    assert len(frames) == len(record.views)
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
