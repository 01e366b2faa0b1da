"""A seat whose player's clock runs out is played by a bot, in every family (issue 33 item 4).

When a person lets his clock run out, the inactivity rules move for him, or a bot does
(a seat that must lead something); after ``timeouts_to_bot`` time-outs the seat is handed to
a bot. That bot is built in a worker in the middle of the game and first fed the seat's
earlier views (:func:`bito.bots.remember`). Before issue 33 the heuristic's Durak card
tracker raised ``AttributeError`` on a Mau-Mau or Cheat view there, and a fallback move was
played instead of the bot's.

The first test runs the worker's own request handler, in this process, for every game of
every family; the second runs a real server whose host never moves.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from bito.games.family import family_for
from bito.rules.registry import all_variants
from bito.server import games
from bito.server.botpool import _serve_request
from server_kit import Client, ServerThread, create_table, scripted

GAMES = sorted(v.id for v in all_variants() if v.kind == "game" and v.family != "meta"
               and (v.family != "durak" or v.id in ("podkidnoy", "perevodnoy", "team_fool")))


@pytest.mark.parametrize("spec", GAMES)
@pytest.mark.parametrize("bot", ["heuristic", "easy", "learned", "random"])
def test_a_bot_taking_over_a_timed_out_seat_plays_a_legal_move(spec: str, bot: str) -> None:
    """The worker's request for a seat it never held (a take-over): the bot is built, fed the
    seat's earlier views, and answers a legal move, never an error."""
    rules = family_for(spec).rules_for(spec)
    players = max(rules.players_min, 3 if rules.max_players >= 3 else 2)
    if family_for(rules).seats_partners(rules):
        players = 4
    setup = games.Setup(spec, players, 11)
    state = games.new_state(setup)
    rng = random.Random(5)
    actions: list[Any] = []
    for _ in range(40):
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state = state.apply(action)
    while state.is_over:  # a game over in 40 random moves: take one move fewer
        actions.pop()
        state = games.replay(setup, [str(a) for a in actions])[0]
    seat = state.to_act
    request = {"key": ("t", seat), "bot": bot, "seed": 1, "view": state.view(seat),
               "past": games.seat_views(setup, actions, seat)}
    answer, value = _serve_request(OrderedDict(), request)
    assert answer == "ok", value
    assert games.find_action(state, value[0]) in state.legal_actions()


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module's tables (and one bot pool: its failure count covers them
    all)."""
    server = ServerThread(str(tmp_path_factory.mktemp("timeouts") / "t.sqlite3"),
                          scripted(timer=0.2, bot_delay=0, timeouts_to_bot=1))
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("variant,players", [("czech_fool", 2), ("believe_not_believe_2", 3)])
def test_a_server_seat_that_times_out_is_played_by_its_bot_without_fallback(
        srv: ServerThread, caplog: pytest.LogCaptureFixture, variant: str, players: int) -> None:
    """The host never moves: her clock runs out, the seat goes to its bot, and every move the
    table makes for her is the bot's own (the pool records no failure, no fallback is
    logged)."""
    t = create_table(srv.http, players=players, variant=variant,
                     seats=["easy"] * (players - 1))
    alice = Client(srv.base, t["table"], t["token"])
    alice.send({"type": "ready"})
    frame = alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
    hers = 0
    end = time.time() + 120
    while hers < 4 and frame["status"] == "playing" and time.time() < end:
        frame = alice.wait(lambda m, n=frame["n"]: m["type"] == "state" and m["n"] > n,
                           timeout=60)
        last = frame["last"]
        if last and last.get("seat") == 0 and last["how"] in ("timeout", "bot"):
            hers += 1
    assert hers >= 1, "the host's seat never moved"
    assert srv.app.state.lobby.bots.failures == 0
    assert not any("fallback move" in r.getMessage() for r in caplog.records)
    alice.close()
