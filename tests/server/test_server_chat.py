"""Chat at the table (issue 19, item 3), over real websockets: every seat hears a player,
the length and rate limits answer with an error naming the field, text stays text, and the
host's spectator setting (separate or off) decides who hears the audience."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from bito.server.chat import MAX_TEXT, RATE_COUNT, REACTIONS, ChatError, clean_text
from server_kit import Client, ServerThread, create_table, join, scripted


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    srv = ServerThread(str(tmp_path / "chat.sqlite3"), scripted(timer=60, bot_delay=0))
    yield srv
    srv.stop()


def is_chat(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "chat")


def two_players(server: ServerThread, **table: Any) -> tuple[dict[str, Any], Client, Client]:
    t = create_table(server.http, players=2, seats=["open"], **table)
    bob = join(server.http, t["table"], "Bob")
    alice, b = Client(server.base, t["table"], t["token"]), Client(server.base, t["table"],
                                                                    bob["token"])
    alice.state()
    b.state()
    t["bob_token"] = bob["token"]
    return t, alice, b


def test_a_message_reaches_every_seat_with_its_sender_and_stays_plain_text(
        server: ServerThread) -> None:
    _, alice, bob = two_players(server)
    html = '<img src=x onerror="alert(1)"> <b>hi</b>  there'
    alice.send({"type": "chat", "text": html})
    ids = set()
    for client in (alice, bob):
        got = client.wait(is_chat)
        ids.add(got.pop("id"))  # the line's id: the same line heard through any process
        # Sent back exactly as typed (runs of spaces folded), never turned into markup.
        assert got == {"type": "chat", "sender": "Alice", "seat": 0,
                       "text": '<img src=x onerror="alert(1)"> <b>hi</b> there'}
    assert len(ids) == 1 and all(isinstance(i, str) and i for i in ids)
    bob.send({"type": "chat", "reaction": REACTIONS[0]})
    got = alice.wait(is_chat)
    assert got["sender"] == "Bob" and got["seat"] == 1 and got["text"] == REACTIONS[0]
    assert got["reaction"] is True
    bob.send({"type": "chat", "reaction": "<script>"})
    err = bob.error()
    assert err["field"] == "reaction" and err["request"] == "chat"
    for c in (alice, bob):
        c.close()


def test_length_limit_and_empty_messages_are_refused_naming_the_field(
        server: ServerThread) -> None:
    _, alice, bob = two_players(server)
    alice.send({"type": "chat", "text": "x" * (MAX_TEXT + 1)})
    err = alice.error()
    assert err["field"] == "text" and str(MAX_TEXT) in err["message"]
    alice.send({"type": "chat", "text": "   "})
    assert alice.error()["field"] == "text"
    alice.send({"type": "chat", "text": "\x07bell"})
    assert "control" in alice.error()["message"]
    alice.send({"type": "chat"})
    assert alice.error()["field"] == "text"
    alice.send({"type": "chat", "text": "y" * MAX_TEXT})  # the limit itself is fine
    assert bob.wait(is_chat)["text"] == "y" * MAX_TEXT
    assert not [m for m in bob.messages if m["type"] == "chat" and m["text"] != "y" * MAX_TEXT]
    for c in (alice, bob):
        c.close()


def test_the_rate_limit_is_per_seat_and_says_how_long_to_wait(
        server: ServerThread) -> None:
    _, alice, bob = two_players(server)
    for i in range(RATE_COUNT):
        alice.send({"type": "chat", "text": f"m{i}"})
    alice.send({"type": "chat", "text": "one too many"})
    err = alice.error()
    assert err["request"] == "chat" and "wait" in err["message"]
    # Bob's own allowance is untouched, and the refused message reached nobody.
    bob.send({"type": "chat", "text": "my turn to talk"})
    assert alice.wait(lambda m: is_chat(m) and m["seat"] == 1)["text"] == "my turn to talk"
    # Bob's own line comes back to him after every line said before it: once he has it, he
    # has read all he will be sent of Alice's (a fixed pause lost one to a slow reader)
    bob.wait(lambda m: is_chat(m) and m["text"] == "my turn to talk")
    texts = [m["text"] for m in bob.messages if is_chat(m)]
    assert texts[:RATE_COUNT] == [f"m{i}" for i in range(RATE_COUNT)]
    assert "one too many" not in texts
    alice.send({"type": "ping"})  # the connection stays open
    assert alice.wait(lambda m: m["type"] == "pong")
    for c in (alice, bob):
        c.close()


def test_reconnecting_does_not_reset_the_rate_limit(server: ServerThread) -> None:
    """The limit counts the seat (a spectator: his address), so a player who used up his
    allowance cannot get a fresh one by closing the socket and opening another."""
    t, alice, bob = two_players(server)
    for i in range(RATE_COUNT):
        alice.send({"type": "chat", "text": f"m{i}"})
    for i in range(RATE_COUNT):
        bob.wait(lambda m, i=i: is_chat(m) and m["text"] == f"m{i}")
    alice.close()
    again = Client(server.base, t["table"], t["token"])
    again.state()
    again.send({"type": "chat", "text": "fresh start?"})
    err = again.error()
    assert err["request"] == "chat" and err["field"] == "text" and "wait" in err["message"]
    # A spectator likewise: a second connection from the same address shares his count.
    watcher = Client(server.base, t["table"])
    watcher.state()
    for i in range(RATE_COUNT):
        watcher.send({"type": "chat", "text": f"w{i}"})
        watcher.wait(lambda m, i=i: is_chat(m) and m["text"] == f"w{i}")
    watcher.close()
    second = Client(server.base, t["table"])
    second.state()
    second.send({"type": "chat", "text": "me again"})
    assert "wait" in second.error()["message"]
    for c in (again, bob, second):
        c.close()


def test_spectators_talk_among_themselves_by_default(server: ServerThread) -> None:
    t, alice, bob = two_players(server)
    watcher, other = Client(server.base, t["table"]), Client(server.base, t["table"])
    watcher.state()
    other.state()
    watcher.send({"type": "chat", "text": "nice trump"})
    got = other.wait(is_chat)
    assert got["seat"] is None and got["spectators"] is True
    alice.send({"type": "chat", "text": "hello all"})
    assert watcher.wait(is_chat)["text"] == "nice trump"  # its own message, echoed
    assert watcher.wait(is_chat)["text"] == "hello all"  # spectators hear the players
    assert bob.wait(is_chat)["text"] == "hello all"
    time.sleep(0.3)
    assert not [m for m in alice.messages + bob.messages
                if is_chat(m) and m["text"] == "nice trump"]
    for c in (alice, bob, watcher, other):
        c.close()


def test_the_host_may_switch_the_spectators_chat_off(server: ServerThread) -> None:
    t, alice, bob = two_players(server, spectator_chat="off")
    watcher = Client(server.base, t["table"])
    watcher.state()
    watcher.send({"type": "chat", "text": "can I talk?"})
    assert "switched the spectators' chat off" in watcher.error()["message"]
    alice.send({"type": "chat", "text": "players only"})
    assert bob.wait(is_chat)["text"] == "players only"
    time.sleep(0.3)
    assert not [m for m in watcher.messages if is_chat(m)]
    bad = server.http.post("/api/tables", json={"name": "A", "spectator_chat": "loud"})
    assert bad.status_code == 400 and "spectator_chat" in bad.json()["error"]
    for c in (alice, bob, watcher):
        c.close()


def test_a_new_connection_gets_the_recent_messages_it_may_read(server: ServerThread) -> None:
    t, alice, bob = two_players(server)
    watcher = Client(server.base, t["table"])
    watcher.state()
    alice.send({"type": "chat", "text": "before the reload"})
    watcher.send({"type": "chat", "text": "from the audience"})
    bob.wait(is_chat)
    watcher.wait(lambda m: is_chat(m) and m["seat"] is None)
    bob.close()
    again = Client(server.base, t["table"], t["bob_token"])
    again.state()
    got = again.wait(is_chat)
    assert got["text"] == "before the reload" and got["sender"] == "Alice"
    late = Client(server.base, t["table"])
    late.state()
    assert [late.wait(is_chat)["text"], late.wait(is_chat)["text"]] == [
        "before the reload", "from the audience"]
    time.sleep(0.3)
    assert not [m for m in again.messages if is_chat(m) and m["text"] == "from the audience"]
    for c in (alice, again, watcher, late):
        c.close()


def test_chat_is_not_written_into_the_game_record(server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["random"], deck=24)
    alice = Client(server.base, t["table"], t["token"])
    alice.state()
    alice.send({"type": "chat", "text": "secret plan 7h"})
    alice.wait(is_chat)
    alice.send({"type": "ready"})
    alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    rec = server.http.get(f"/api/tables/{t['table']}/record",
                          headers={"X-Bito-Token": t["token"]})
    assert rec.status_code == 200 and "secret plan" not in rec.text
    alice.close()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=260))
def test_a_chat_text_is_refused_or_kept_as_typed_with_spaces_folded(text: str) -> None:
    """Whatever is typed, the server either refuses it naming the text, or keeps exactly its
    words (never more than the limit, never a control character)."""
    try:
        clean, reaction = clean_text({"type": "chat", "text": text})
    except ChatError as e:
        assert e.field == "text"
        words = " ".join(text.split())
        assert not words or len(words) > MAX_TEXT or not words.isprintable()
        return
    assert not reaction
    assert clean == " ".join(text.split()) and 0 < len(clean) <= MAX_TEXT
    assert clean.isprintable()
