"""Quick match and the lobby's filters (issue 19, item 2): join the first public waiting table
of the same game, seats and deck, or open one; the lobby lists what the filters need."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from bito.server import games
from bito.server.rooms import bot_name
from server_kit import ServerThread, create_table, scripted


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "quick.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def test_quick_match_opens_a_table_then_fills_it_then_opens_another(
        server: ServerThread) -> None:
    http = server.http
    ask = {"variant": "podkidnoy", "players": 2, "deck": 36}
    first = http.post("/api/quickmatch", json={"name": "Ann", **ask}).json()
    assert first["created"] is True and first["seat"] == 0
    listed = http.get("/api/lobby").json()["tables"]
    assert [t["id"] for t in listed] == [first["table"]]  # opened as a public table
    assert listed[0]["deck"] == 36 and listed[0]["game"]["name"] == "Throw-in fool"
    second = http.post("/api/quickmatch", json={"name": "Ben", **ask}).json()
    assert second == {"table": first["table"], "seat": 1, "token": second["token"],
                      "link": f"/t/{first['table']}", "created": False}
    third = http.post("/api/quickmatch", json={"name": "Cat", **ask}).json()
    assert third["created"] is True and third["table"] != first["table"]  # the first is full


def test_quick_match_never_joins_a_table_of_another_game_size_or_deck(
        server: ServerThread) -> None:
    http = server.http
    private = create_table(http, players=2, seats=["open"], deck=36)  # not public
    other_deck = create_table(http, players=2, seats=["open"], deck=24, public=True)
    other_size = create_table(http, players=3, seats=["open", "open"], deck=36, public=True)
    other_game = create_table(http, players=2, seats=["open"], deck=36, public=True,
                              variant="perevodnoy")
    got = http.post("/api/quickmatch", json={"name": "Dan", "variant": "podkidnoy",
                                             "players": 2, "deck": 36}).json()
    assert got["created"] is True
    assert got["table"] not in {t["table"] for t in (private, other_deck, other_size,
                                                     other_game)}
    fits = http.post("/api/quickmatch", json={"name": "Eve", "variant": "perevodnoy",
                                              "players": 2, "deck": 36}).json()
    assert fits["table"] == other_game["table"] and fits["seat"] == 1


def test_quick_match_names_the_field_at_fault(server: ServerThread) -> None:
    bad = server.http.post("/api/quickmatch", json={"name": "Fay", "variant": "podkidnoy",
                                                    "rules": None, "players": 2,
                                                    "deck": 36, "timer": 1})
    assert bad.status_code == 400 and "timer" in bad.json()["error"]
    bad = server.http.post("/api/quickmatch",
                           json={"name": "Fay", "variant": "podkidnoy+throw_in.by=nobody"})
    assert bad.status_code == 400 and "throw_in.by" in bad.json()["error"]


def test_house_rule_toggles_build_a_spec_the_server_accepts(server: ServerThread) -> None:
    """The lobby's toggles write these parts; each is accepted and kept in the table's spec
    (a bad value is refused naming the option: see the test above)."""
    for parts in ("+throw_in.by=neighbours", "+end.draw_allowed=false",
                  "+transfer.enabled=true", "+transfer.enabled=false",
                  "+transfer.show_trump=true"):
        t = create_table(server.http, players=2, variant=f"perevodnoy{parts}")
        frame = server.http.get(f"/api/tables/{t['table']}").json()
        assert frame["variant"].endswith(parts)
        key = parts[1:].split("=")[0]
        assert any(rule.startswith(key) for rule in frame["game"]["rules"])


def test_bots_have_distinct_names_with_their_level(server: ServerThread) -> None:
    t = create_table(server.http, players=4, seats=["heuristic", "heuristic", "random"])
    seats = server.http.get(f"/api/tables/{t['table']}").json()["seats"]
    names = [s["name"] for s in seats[1:]]
    assert len(set(names)) == 3
    assert names == [bot_name(1, "heuristic"), bot_name(2, "heuristic"), bot_name(3, "random")]
    assert all(n.startswith("Bot ") for n in names) and names[2].endswith("(random)")


def test_the_game_is_described_in_words_with_its_house_rules() -> None:
    described = games.describe("podkidnoy+no_trump+deck.size=24")
    assert described["name"] == "Throw-in fool" and described["id"] == "podkidnoy"
    assert described["rules"][0] == "Trumpless fool"
    assert described["rules"][1].startswith("deck.size = 24: cards in the deck")
    assert games.describe("podkidnoy")["rules"] == []
    other = games.describe("czech_fool+shed.rounds=3")
    assert other["rules"] == ["shed.rounds = 3"] and other["name"] != "czech_fool"
