"""Actions that put cards down face down (Cheat, #85) never show those cards to anyone else:
not in the server's move log, not in a censored record, not on the terminal.

The rule lives in one place, ``bito.games.family.seen_by``; these tests check each door a
card could leak through against the true game, replayed from its full record.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bito.bots import make_bot
from bito.cards import card_str
from bito.games import Game, new_game
from bito.games.family import seen_by
from bito.games.protocol import Hidden
from bito.record import GameRecord, load_record
from server_kit import CARD, Client, ServerThread, create_table, scripted

CHEAT = "believe_not_believe_2"


def _bot_game(players: int, seed: int) -> tuple[list[object], GameRecord]:
    """A whole Cheat game between random bots: its states and its full record."""
    from bito.server import games as server_games

    state = new_game(CHEAT, players, seed=seed)
    states, moves = [state], []
    bots = [make_bot("random", seed + s) for s in range(players)]
    while not state.is_over:
        action = bots[state.to_act].choose(state.view(state.to_act))
        moves.append(action)
        state = state.apply(action)
        states.append(state)
    setup = server_games.Setup(CHEAT, players, seed)
    record = server_games.full_record(setup, moves, [f"p{i}" for i in range(players)])
    return states, record


def test_85_another_seat_sees_a_put_down_card_only_as_a_count() -> None:
    """#85 (not from the seeds; docs/games.md): cards are put down face down, so the others
    learn that a card went down, never which; the player himself sees his own card."""
    state = new_game(CHEAT, 3, seed=5)
    play = next(a for a in state.legal_actions() if a.kind == "play")
    mover = state.to_act
    assert seen_by(state, play, mover) is play
    for seat in (*(s for s in range(3) if s != mover), None):
        seen = seen_by(state, play, seat)
        assert isinstance(seen, Hidden) and seen.cards == () and seen.count == len(play.cards)
        assert not CARD.findall(str(seen)) and not CARD.findall(seen.pretty())


@pytest.mark.parametrize("seed", [1, 2])
def test_85_a_censored_record_names_no_card_another_seat_put_down(seed: int) -> None:
    """A censored record of Cheat: every other seat's put-down card is written ``?``; the
    seat's own cards stay; its views are the seat's own; it reads back line for line."""
    states, record = _bot_game(3, seed)
    seat = 0
    censored = record.censored(seat)
    assert "seed" not in censored.header
    assert censored.views == [str(s.view(seat)) for s in states]
    others_plays = 0
    for (mover, action), (_, true) in zip(censored.actions, record.actions, strict=True):
        if true.kind == "play" and mover != seat:
            others_plays += 1
            assert isinstance(action, Hidden) and str(action) == "?" * len(true.cards)
        else:
            assert action == true
    assert others_plays > 0, "the game should have had other players' plays"
    text = censored.to_jsonl()
    again = load_record(text)
    assert again.to_jsonl() == text and again.censored_for == seat


def test_85_terminal_play_shows_bots_put_down_cards_as_counts(tmp_path: Path) -> None:
    """``bito play`` against bots: the bots' put-down cards are never printed as they move
    (the final reveal of a doubt is public and may show cards)."""
    from bito.tui import TerminalGame, table_seats
    from bito.tui_words import BOT_NAMES

    lines: list[str] = []
    inputs = iter(["1"] * 3000)
    save = tmp_path / "cheat.jsonl"
    state = new_game(CHEAT, 3, seed=3)
    result = TerminalGame(state, table_seats(3, 0, ["random", "random"], 3), 0,
                          input_fn=lambda _prompt: next(inputs), output=lines.append,
                          save=save, spec=CHEAT).run()
    assert result.finished
    record = load_record(save.read_text())
    game = Game(record.start_state())
    bot_lines = [ln for ln in lines if ln.startswith(BOT_NAMES) and ": " in ln]
    for _, action in record.actions:
        game.push(action)
    plays = [a for s, a in record.actions if s != 0 and a.kind == "play"]
    assert plays and bot_lines
    for line in bot_lines:
        said = line.split(": ", 1)[1]
        assert not any(card_str(c) in said for a in plays for c in a.cards), line


def _drive(alice: Client, moves: int, seed: int) -> dict:
    """Alice plays random legal moves (the bots play theirs) until ``moves`` were made and
    it is her turn; returns that frame."""
    rng = random.Random(seed)
    frame = alice.wait(lambda m: m["type"] == "state" and "view" in m)
    while not (frame["view"]["to_act"] == 0 and frame["n"] >= moves):
        if frame["status"] == "over":
            return frame
        if frame["view"]["to_act"] == 0:
            alice.send({"type": "act", "action": rng.choice(frame["view"]["legal"])["text"]})
        frame = alice.wait(lambda m, n=frame["n"]: m["type"] == "state" and "view" in m
                           and m["n"] > n)
    return frame


def _true_actions(db: str, table: str) -> list[tuple[int, object]]:
    """(seat, action) of every move so far, read from the server's database (a test may)."""
    from bito.server import games as server_games
    from bito.server.storage import Storage

    store = Storage(db)
    try:
        row = store.load_table(table)
        assert row is not None
        stored = store.load_actions(table)
    finally:
        store.close()
    _, actions = server_games.replay(server_games.Setup(row.spec, row.players, row.seed),
                                     [a for _, a, _ in stored])
    return [(seat, a) for (seat, _, _), a in zip(stored, actions, strict=True)]


def test_85_server_log_shows_each_seat_only_its_own_put_down_cards(tmp_path: Path) -> None:
    """The web server's move log: Alice's frames name her own put-down cards and never a
    bot's; a spectator sees none; the log's private ``others`` form never travels."""
    db = str(tmp_path / "hidden.sqlite3")
    srv = ServerThread(db, scripted(bot_delay=0.0))
    try:
        t = create_table(srv.http, players=3, variant=CHEAT, seats=["random", "random"])
        alice = Client(srv.base, t["table"], t["token"])
        watcher = Client(srv.base, t["table"])
        alice.send({"type": "ready"})
        _drive(alice, 40, 4)
        truth = _true_actions(db, t["table"])
        bot_cards = {card_str(c) for s, a in truth if s != 0 and a.kind == "play"
                     for c in a.cards}
        assert bot_cards and any(s == 0 and a.kind == "play" for s, a in truth)
        seen_own = False
        for client, seat in ((alice, 0), (watcher, None)):
            for raw, message in zip(client.raw, client.messages, strict=False):
                assert '"others"' not in raw
                if message["type"] != "state":
                    continue
                entries = [*(message.get("log") or []), message.get("last") or {}]
                for entry in entries:
                    if entry.get("kind") != "play":
                        continue
                    if entry["seat"] == seat:
                        seen_own |= bool(entry["cards"])
                    else:
                        assert entry["cards"] == [] and set(entry["text"]) == {"?"}, entry
                        assert not set(CARD.findall(entry["text"])) & bot_cards
        assert seen_own, "Alice's own plays should show her cards"
        alice.close()
        watcher.close()
    finally:
        srv.stop()


def test_85_a_restarted_server_still_hides_the_log(tmp_path: Path) -> None:
    """The log rebuilt from the database after a restart keeps the face-down form."""
    db = str(tmp_path / "restart.sqlite3")
    srv = ServerThread(db, scripted(bot_delay=0.0))
    try:
        t = create_table(srv.http, players=3, variant=CHEAT, seats=["random", "random"])
        alice = Client(srv.base, t["table"], t["token"])
        alice.send({"type": "ready"})
        frame = _drive(alice, 12, 2)
        assert frame["n"] >= 12
        # during play Alice may download only her censored record: bots' cards are "?"
        r = srv.http.get(f"/api/tables/{t['table']}/record",
                         headers={"X-Bito-Token": t["token"]})
        assert r.status_code == 200, r.text
        mine = load_record(r.text)
        assert mine.censored_for == 0 and "seed" not in mine.header
        bot_plays = [a for s, a in mine.actions if s != 0 and isinstance(a, Hidden)]
        assert bot_plays and all(str(a) == "?" * a.count for a in bot_plays)
        alice.close()
    finally:
        srv.stop()
    srv = ServerThread(db, scripted())
    try:
        again = Client(srv.base, t["table"], t["token"])
        frame = again.wait(lambda m: m["type"] == "state" and "log" in m)
        plays = [e for e in frame["log"] if e.get("kind") == "play" and e["seat"] != 0]
        assert plays, "bots should have put cards down before Alice's turn"
        assert all(e["cards"] == [] and set(e["text"]) == {"?"} for e in plays)
        again.close()
    finally:
        srv.stop()
