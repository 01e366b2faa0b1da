"""Rematch at the same table (issue 19, item 2), over real websockets: the next deal starts
only when every person agrees (bots agree by themselves); it keeps the seats and tokens, the
fool deals and the first attacker follows ``next_game_leader`` (VARIANTS.md §1.8, catalogue
#79: "`from_under_fool` (default: the player on the fool's left attacks his own left
neighbour; S0:278; S1:63; S1:6) | `under_fool` (the player on the fool's right attacks the
fool; S1:6)"), and every frame carries the running score."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from server_kit import (
    Client,
    ServerThread,
    create_table,
    full_states,
    join,
    play_to_end,
    scripted,
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "rematch.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def over(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "state" and m["status"] == "over")


def rematch_frame(client: Client, test: Any) -> dict[str, Any]:
    return client.wait(lambda m: m["type"] == "state" and "rematch" in m and test(m["rematch"]))


def two_people_finish(server: ServerThread) -> tuple[str, Client, Client, dict[str, Any]]:
    t = create_table(server.http, players=2, seats=["open"], deck=24)
    bob = join(server.http, t["table"], "Bob")
    alice, b = Client(server.base, t["table"], t["token"]), Client(server.base, t["table"],
                                                                    bob["token"])
    alice.send({"type": "ready"})
    b.send({"type": "ready"})
    end = play_to_end({0: alice, 1: b})
    return t["table"], alice, b, end


def test_one_refusal_means_no_deal_until_he_changes_his_mind(server: ServerThread) -> None:
    table, alice, bob, end = two_people_finish(server)
    assert end["rematch"] == {"agreed": [], "declined": [], "waiting": [0, 1], "next": None}
    alice.send({"type": "rematch", "agree": True})
    rematch_frame(bob, lambda r: r["agreed"] == [0])
    bob.send({"type": "rematch", "agree": False})
    seen = rematch_frame(alice, lambda r: r["declined"] == [1])
    assert seen["rematch"]["next"] is None and seen["rematch"]["waiting"] == []
    alice.send({"type": "rematch", "agree": True})  # asking again changes nothing
    time.sleep(0.3)
    assert server.http.get(f"/api/tables/{table}.2").status_code == 404
    bob.send({"type": "rematch", "agree": True})
    started = rematch_frame(alice, lambda r: r["next"] is not None)
    assert started["rematch"]["next"] == f"{table}.2"
    for c in (alice, bob):
        c.close()


def test_an_absent_person_means_no_deal(server: ServerThread) -> None:
    table, alice, bob, _ = two_people_finish(server)
    bob.close()  # Bob leaves without answering
    alice.send({"type": "rematch"})  # "agree" defaults to true
    seen = rematch_frame(alice, lambda r: r["agreed"] == [0])
    assert seen["rematch"]["waiting"] == [1] and seen["rematch"]["next"] is None
    time.sleep(0.3)
    assert server.http.get(f"/api/tables/{table}.2").status_code == 404
    alice.close()


def test_rematch_is_refused_before_the_end_and_for_spectators(server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["open"])
    alice = Client(server.base, t["table"], t["token"])
    watcher = Client(server.base, t["table"])
    alice.state()
    watcher.state()
    alice.send({"type": "rematch", "agree": True})
    assert "once the game is over" in alice.error()["message"]
    alice.send({"type": "rematch", "agree": "yes"})
    assert alice.error()["field"] == "agree"
    watcher.send({"type": "rematch"})
    assert "spectators" in watcher.error()["message"]
    for c in (alice, watcher):
        c.close()


@pytest.mark.parametrize("variant, step", [("podkidnoy", +1),
                                           ("podkidnoy+next_game_leader=under_fool", -1)])
def test_all_agree_the_fool_deals_and_the_leader_follows_next_game_leader(
        server: ServerThread, variant: str, step: int) -> None:
    """Bots agree by themselves: Alice's yes starts deal 2 at once, with the same seats and
    her same token; the score counts deal 1's fool."""
    http = server.http
    for _ in range(4):  # a drawn deal has no fool to deal: play another until one loses
        t = create_table(http, players=3, seats=["random", "random"], deck=24,
                         variant=variant)
        alice = Client(server.base, t["table"], t["token"])
        alice.send({"type": "ready"})
        end = play_to_end({0: alice})
        if end["outcome"]["loser"] is not None:
            break
        alice.close()
    fool = end["outcome"]["loser"]
    assert end["match"] == {"deal": 1, "fools": [int(s == fool) for s in range(3)], "draws": 0}
    assert end["rematch"]["waiting"] == [0]  # only the person is asked
    alice.send({"type": "rematch", "agree": True})
    following = rematch_frame(alice, lambda r: r["next"] is not None)["rematch"]["next"]
    assert following == f"{t['table']}.2"
    again = Client(server.base, following, t["token"])  # the same token sits her again
    first = again.state()
    assert first["you"] == 0 and first["status"] == "playing"
    assert [s["name"] for s in first["seats"]] == [s["name"] for s in end["seats"]]
    assert first["match"]["deal"] == 2 and first["match"]["fools"] == end["match"]["fools"]
    second = play_to_end({0: again})
    fools = list(end["match"]["fools"])
    if second["outcome"]["loser"] is not None:
        fools[second["outcome"]["loser"]] += 1
    assert second["match"]["fools"] == fools and second["match"]["deal"] == 2
    header = json.loads(http.get(f"/api/tables/{following}/record").text.splitlines()[0])
    assert header["match"]["dealer"] == fool and header["match"]["previous_fool"] == fool
    assert header["match"]["game_number"] == 1
    states = full_states(http, following)
    assert states[0].to_act == (fool + step) % 3
    for c in (alice, again):
        c.close()


def test_a_rematch_deal_survives_a_restart(tmp_path: Path) -> None:
    """The match context is kept with the deal's table, so the restarted server deals the
    same cards with the same dealer and leader."""
    db = str(tmp_path / "restart.sqlite3")
    server = ServerThread(db, scripted(timer=60, bot_delay=0))
    try:
        table, alice, bob, _ = two_people_finish(server)
        alice.send({"type": "rematch"})
        bob.send({"type": "rematch"})
        following = rematch_frame(alice, lambda r: r["next"] is not None)["rematch"]["next"]
        before = server.http.get(f"/api/tables/{following}").json()
        for c in (alice, bob):
            c.close()
    finally:
        server.stop()
    server = ServerThread(db, scripted(timer=60, bot_delay=0))
    try:
        after = server.http.get(f"/api/tables/{following}").json()
        assert after["status"] == "playing" and after["match"] == before["match"]
        assert after["view"]["to_act"] == before["view"]["to_act"]
        assert after["view"]["seats"] == before["view"]["seats"]
        assert after["view"]["piles"] == before["view"]["piles"]
        old = server.http.get(f"/api/tables/{table}").json()
        assert old["rematch"]["next"] == following  # the first deal still leads to it
    finally:
        server.stop()
