"""#58 ``blind_face_out`` at the web table (issue 8's server, real websockets).

A player never receives a card of his own hand: his frames carry his hand as a count of
positions (``blind_hand``) and every other hand in full; a spectator sees no hand at all
(else a player could watch his own table to learn his cards); once played, a blind card
appears in the log, turned up.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from bito.cards import card_str, cards_of
from bito.games.durak.blind import hand_order
from server_kit import (
    CARD,
    Client,
    ServerThread,
    create_table,
    full_states,
    play_to_end,
    scripted,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "blind.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def test_a_face_out_table_never_sends_a_player_his_own_cards(server: ServerThread) -> None:
    http = server.http
    t = create_table(http, players=2, seats=["heuristic"], variant="podkidnoy+blind_face_out")
    table = t["table"]
    alice = Client(server.base, table, t["token"])
    watcher = Client(server.base, table)
    alice.state()
    alice.send({"type": "ready"})
    dealt = alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    assert dealt["view"]["hand"] == [] and dealt["view"]["blind_hand"] == 6
    rng = random.Random(3)
    end = play_to_end({0: alice}, pick=lambda v: str(rng.choice(v["legal"])["text"]))
    assert end["status"] == "over"
    states = full_states(http, table)
    alice.close()
    watcher.close()
    checked = penalised = 0
    for message in alice.messages:
        if message["type"] != "state" or "view" not in message:
            continue
        state = states[message["n"]]
        view = message["view"]
        own = {card_str(c) for c in cards_of(state.hands[0])} - {card_str(state.deal.trump_card)}
        assert not own & set(CARD.findall(json.dumps(view))), message["n"]
        assert view["blind_hand"] == state.hands[0].bit_count()
        assert [k["c"] for k in view["seats"][1]["known"]] == [
            card_str(c) for c in hand_order(state, 1)]  # the other hand, by position
        assert view["seats"][0]["known"] == []
        for entry in message.get("log", []) + ([message["last"]] if message.get("last") else []):
            if str(entry.get("kind", "")).startswith("blind"):
                assert entry["cards"], "a played blind card is shown turned up"
                penalised += bool(entry.get("illegal"))
        checked += 1
    assert checked > 10
    assert penalised, "random blind play breaks a rule sooner or later, and the log says so"
    for message in watcher.messages:
        if message["type"] == "state" and "view" in message:
            assert all(s["known"] == [] for s in message["view"]["seats"])
            assert message["view"]["hand"] == []
