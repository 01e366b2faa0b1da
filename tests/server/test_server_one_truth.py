"""One truth per table (issue 31, item 1): with several processes on one PostgreSQL, every
process shows each table as the database stores it.

The split brain this guards against: two processes deal the same table at once (four
people pressing Ready through a round-robin proxy); the conditional deal lets one win, but
the loser used to announce its own, never stored, seed, and a third process still waiting
dealt from whichever seed it heard first and kept that game for good. Here:

* the database layer: of two deals racing, only the stored seed is announced, once;
* three lobbies (each with its own connection pool, notifier and lease keeper, as three
  ``bito serve`` processes have) on a throw-away cluster: the loser's seed reaches nobody,
  even when the winner's notice is slow; and a copy dealt from a wrong seed (made here on
  purpose) is rebuilt from the database by the next lease renewal, or by the next notice
  that names the table, whichever comes first.

Real parts only: Debian's PostgreSQL, the real lobby, keeper and notifier.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

pytest.importorskip("psycopg")

from lobby_kit import Process, until
from pg_kit import Cluster

from bito.server import games
from bito.server.db import CHANNEL, PostgresDatabase
from bito.server.lease import RENEW_EVERY
from bito.server.render import position_digest
from bito.server.rooms import Room, RoomError
from bito.server.storage import SeatRow, TableRow


def _waiting(table_id: str, players: int = 2) -> TableRow:
    """A table whose people have all pressed Ready (the deal is the next thing)."""
    return TableRow(id=table_id, spec="podkidnoy", players=players, seed=0,
                    settings={"public": False, "timer": 120}, status="waiting",
                    outcome=None, created=time.time(),
                    seats=[SeatRow(s, f"P{s}", "human", "heuristic", f"tok-{table_id}-{s}",
                                   True) for s in range(players)])


def _stored(url: str, table_id: str) -> tuple[int, str, int]:
    """The table's seed, status and number of moves as the database holds them."""
    import psycopg

    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT seed, status FROM bito_tables WHERE id = %s",
                           (table_id,)).fetchone()
        n = conn.execute("SELECT COUNT(*) FROM bito_actions WHERE table_id = %s",
                         (table_id,)).fetchone()
    assert row is not None and n is not None
    return int(row[0]), str(row[1]), int(n[0])


def _stored_digest(url: str, table_id: str, spec: str, players: int) -> str:
    """The digest of the stored game, replayed from the database alone."""
    import psycopg

    with psycopg.connect(url) as conn:
        seed = conn.execute("SELECT seed FROM bito_tables WHERE id = %s",
                            (table_id,)).fetchone()
        texts = [r[0] for r in conn.execute("SELECT action FROM bito_actions WHERE "
                                            "table_id = %s ORDER BY n", (table_id,))]
    assert seed is not None
    states, actions = games.replay_states(games.Setup(spec, players, int(seed[0])), texts)
    return position_digest(states[-1], actions)


def _digest(room: Room) -> str | None:
    return None if room.state is None else position_digest(room.state, room.actions)


def test_of_two_racing_deals_only_the_stored_seed_is_announced(cluster: Cluster) -> None:
    """Two processes deal each of 12 tables at the same moment with different seeds: one
    deal is stored per table, its process alone is told True, and the one notice every
    listener hears names the stored seed (the loser used to announce its own too)."""
    import psycopg

    url = cluster.fresh_database("dealrace")
    tables = [f"race{i}" for i in range(12)]

    async def run() -> tuple[list[dict[str, Any]], dict[str, tuple[bool, bool]]]:
        a, b = PostgresDatabase(url, origin="a"), PostgresDatabase(url, origin="b")
        await a.open()
        await b.open()
        listener = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            for t in tables:
                await a.create_table(_waiting(t))
            await asyncio.sleep(0.2)
            await listener.execute(f"LISTEN {CHANNEL}")
            won: dict[str, tuple[bool, bool]] = {}
            for i, t in enumerate(tables):
                first, second = await asyncio.gather(a.start_game(t, 1000 + i),
                                                     b.start_game(t, 2000 + i))
                won[t] = (first, second)
            # every deal's notice (30 s at most: a process's first notice also opens its
            # notifier's connection, slow on a loaded machine), then a moment more for any
            # second notice of a table
            heard: list[dict[str, Any]] = []
            async with contextlib.aclosing(listener.notifies(timeout=30)) as notes:
                async for note in notes:
                    heard += [c for c in json.loads(note.payload)["b"] if "g" in c]
                    if {c["t"] for c in heard} >= set(tables):
                        break
            async for note in listener.notifies(timeout=0.5):
                heard += [c for c in json.loads(note.payload)["b"] if "g" in c]
            return heard, won
        finally:
            await listener.close()
            await a.close()
            await b.close()

    heard, won = asyncio.run(run())
    for i, t in enumerate(tables):
        seed, status, _ = _stored(url, t)
        assert status == "playing" and seed in (1000 + i, 2000 + i)
        assert won[t] == (seed == 1000 + i, seed == 2000 + i), (t, won[t], seed)
        assert [c["g"] for c in heard if c["t"] == t] == [seed], (t, heard)


def test_a_losing_deal_reaches_no_process_and_every_copy_is_the_stored_game(
        cluster: Cluster) -> None:
    """A and B deal the same table at once, A first; A's notice is slow (its notifier
    gathers for 1 s), B's would be quick. C, a third process still showing the table as
    waiting, must end with A's deal, the one stored, and so must B: before the fix B's
    losing seed reached C first and C kept that game for good."""
    url = cluster.fresh_database("lobbyrace")

    async def run() -> dict[str, Any]:
        a = Process(url, "proc-a", gather=1.0)
        b, c = Process(url, "proc-b"), Process(url, "proc-c")
        for p in (a, b, c):
            await p.start()
        heard: dict[str, list[str]] = {"b": [], "c": []}
        for p, said in ((b, heard["b"]), (c, heard["c"])):
            def noted(payload: str, hear: Any = p.keeper.notice, said: list[str] = said,
                      ) -> None:
                hear(payload)
                said.append(payload)

            p.keeper.notice = noted  # type: ignore[method-assign]
        try:
            table = _waiting("split")
            room_a = await a.lobby.open_table(table)
            room_b = await b.lobby.get(table.id)
            room_c = await c.lobby.get(table.id)
            assert room_b.table.status == room_c.table.status == "waiting"
            # A's notice of the table's opening, gathered for a second too, is heard and
            # read by B and C before the deal: a second after the opening on a loaded
            # machine, the deal left with it, and B heard of the deal before dealing
            def opened(payload: str) -> bool:
                notice = json.loads(payload)
                return notice.get("o") == "proc-a" and any(
                    change.get("t") == table.id and "k" not in change  # not an event
                    for change in notice.get("b", []))

            assert await until(lambda: all(any(map(opened, said)) for said in heard.values())
                               and not room_b.refreshing and not room_c.refreshing, 30)
            async with room_a.lock:
                await a.lobby.deal(room_a)  # stored; its notice leaves a second later
            async with room_b.lock:
                assert room_b.table.status == "waiting"  # B has not heard of it yet
                await b.lobby.deal(room_b)  # loses the race: shows the stored deal
            seed, _, _ = _stored(url, table.id)
            want = _stored_digest(url, table.id, table.spec, table.players)
            settled = await until(lambda: all(
                r.table.seed == seed and _digest(r) == want
                for r in (room_a, room_b, room_c)), 2 * RENEW_EVERY + 3.0)
            return {"settled": settled, "seed": seed,
                    "seeds": [r.table.seed for r in (room_a, room_b, room_c)],
                    "digests": [_digest(r) for r in (room_a, room_b, room_c)], "want": want}
        finally:
            for p in (a, b, c):
                await p.stop()

    got = asyncio.run(run())
    assert got["settled"], got
    assert got["seeds"] == [got["seed"]] * 3


@pytest.mark.parametrize("how", ["lease renewal", "a move's notice", "a move made on it"])
def test_a_copy_dealt_from_the_wrong_seed_is_rebuilt_from_the_database(
        cluster: Cluster, how: str) -> None:
    """C shows the table dealt from a seed that was never stored (what the lost race used to
    leave): the next renewal of C's leases (1 s) compares its copy with the stored seed and
    rebuilds it, or, sooner, the next move stored elsewhere, which C cannot play on its
    copy (or could, wrongly), makes it read the table and rebuild. A move a person makes on
    C's wrong copy is never stored (a move is stored only for the stored deal): he is told
    the table moved on, and C rebuilds. Either way C ends with the stored game, moves
    included."""
    url = cluster.fresh_database("wrongdeal" + str(len(how)))

    async def run() -> dict[str, Any]:
        a, c = Process(url, "proc-a"), Process(url, "proc-c")
        for p in (a, c):
            await p.start()
        try:
            table = _waiting("wrong")
            room_a = await a.lobby.open_table(table)
            async with room_a.lock:
                await a.lobby.deal(room_a)
            room_c = await c.lobby.get(table.id)
            assert await until(lambda: _digest(room_c) == _digest(room_a), 5)
            seed = room_a.table.seed
            wrong = seed + 1

            def corrupt() -> None:
                room_c.table.seed = wrong
                room_c.state = games.new_state(games.Setup(table.spec, table.players, wrong))
                room_c.actions, room_c.log = [], []

            act: Callable[[], Awaitable[None]] | None = None
            if how == "a move's notice":
                async def move() -> None:
                    seat = room_a.state.to_act
                    text = str(room_a.state.legal_actions()[0])
                    await a.lobby.act(room_a, seat, text)

                act = move
            refused: list[str] = []
            if how == "a move made on it":
                async def wrong_move() -> None:
                    seat = room_c.state.to_act
                    text = str(room_c.state.legal_actions()[0])
                    try:
                        await c.lobby.act(room_c, seat, text)
                    except RoomError as e:
                        refused.append(str(e))

                act = wrong_move
            async with room_c.lock:  # no renewal looks at C's copy while it is made wrong
                corrupt()
            assert room_c.table.seed == wrong
            if act is not None:
                await act()
            rebuilt_in = time.monotonic()
            want = _stored_digest(url, table.id, table.spec, table.players)
            ok = await until(lambda: room_c.table.seed == seed and _digest(room_c) == want,
                              2 * RENEW_EVERY + 3.0)
            return {"ok": ok, "took": time.monotonic() - rebuilt_in, "refused": refused,
                    "n": (len(room_a.actions), len(room_c.actions)),
                    "stored": _stored(url, table.id)}
        finally:
            for p in (a, c):
                await p.stop()

    got = asyncio.run(run())
    print(f"{how}: the wrong copy rebuilt after {got['took']:.2f} s")
    assert got["ok"], got
    assert got["n"][0] == got["n"][1] == got["stored"][2]
    if how == "a move made on it":
        assert got["stored"][2] == 0 and len(got["refused"]) == 1, got
        assert "moved on" in got["refused"][0]
