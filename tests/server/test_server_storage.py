"""Persistence of tables and moves (issue 8): SQLite by default, PostgreSQL by URL.

Every applied move is a committed row before anybody hears of it, so a server started on the
same database resumes each game exactly where it stopped. The PostgreSQL test runs a
throw-away cluster of Debian's postgresql package (``.ci/run`` installs it) and is skipped,
saying why, only where that package is missing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from pg_kit import Cluster

from bito.server.storage import SeatRow, Storage, TableRow
from server_kit import Client, ServerThread, create_table, join, play_to_end, scripted


def _table(table_id: str) -> TableRow:
    return TableRow(id=table_id, spec="podkidnoy", players=2, seed=42,
                    settings={"public": False, "timer": 30}, status="waiting", outcome=None,
                    created=time.time(),
                    seats=[SeatRow(0, "Alice", "human", "heuristic", "tok-a", False),
                           SeatRow(1, "", "open", "heuristic", "", False)])


def _round_trip(url: str) -> None:
    store = Storage(url)
    try:
        store.create_table(_table("t1"))
        row = store.load_table("t1")
        assert row is not None and row.seats[0].name == "Alice" and row.seed == 42
        row.seats[1] = SeatRow(1, "Bob", "human", "random", "tok-b", True)
        store.save_seat("t1", row.seats[1])
        store.set_status("t1", "playing", seed=7)
        store.append_action("t1", 1, 0, "7d", "move")
        store.append_action("t1", 2, 1, "take", "timeout")
        with pytest.raises(Exception):  # noqa: B017 - either driver's integrity error
            store.append_action("t1", 2, 1, "pass", "move")  # the same move number twice
        store.append_action("t1", 3, 0, "pass", "move", outcome={"loser": 1})
    finally:
        store.close()
    again = Storage(url)  # a new connection sees exactly what was committed
    try:
        row = again.load_table("t1")
        assert row is not None
        assert (row.status, row.seed, row.outcome) == ("over", 7, {"loser": 1})
        assert [s.name for s in row.seats] == ["Alice", "Bob"] and row.seats[1].ready
        assert again.load_actions("t1") == [(0, "7d", "move"), (1, "take", "timeout"),
                                            (0, "pass", "move")]
        assert again.table_ids(("waiting", "playing")) == []
        assert again.load_table("missing") is None
    finally:
        again.close()


def test_sqlite_round_trip(tmp_path: Path) -> None:
    _round_trip(str(tmp_path / "store.sqlite3"))


def _resume_game(db: str) -> None:
    """Play a few moves, stop the server, start another on the same database: the game
    goes on from the same position, with the same seats and tokens."""
    settings = scripted(timer=60, bot_delay=0)
    srv = ServerThread(db, settings)
    try:
        t = create_table(srv.http, players=3, seats=["open", "random"])
        bob = join(srv.http, t["table"], "Bob")
        alice = Client(srv.base, t["table"], t["token"])
        b = Client(srv.base, t["table"], bob["token"])
        alice.send({"type": "ready"})
        b.send({"type": "ready"})
        played = {"n": 0}

        def stop_early(frame: dict[str, object]) -> None:
            played["n"] += 1
            if played["n"] >= 5:
                raise _Enough

        with pytest.raises(_Enough):
            play_to_end({0: alice, 1: b}, on_move=stop_early)
        b.wait(lambda m: m["type"] == "state" and m["n"] > 0)
        time.sleep(0.3)
        before = b.latest()
        assert before is not None
        alice.close()
        b.close()
    finally:
        srv.stop()
    srv = ServerThread(db, settings)
    try:
        b2 = Client(srv.base, t["table"], bob["token"])
        after = b2.state()
        assert after["you"] == 1 and after["status"] == "playing"
        assert after["n"] >= before["n"]
        if after["n"] == before["n"]:
            assert after["view"]["hand"] == before["view"]["hand"]
            assert after["view"]["table"] == before["view"]["table"]
        alice2 = Client(srv.base, t["table"], t["token"])
        end = play_to_end({0: alice2, 1: b2})
        assert end["outcome"] is not None
        alice2.close()
        b2.close()
    finally:
        srv.stop()


class _Enough(Exception):
    pass


def test_a_restarted_server_resumes_the_game_from_sqlite(tmp_path: Path) -> None:
    _resume_game(str(tmp_path / "games.sqlite3"))


# --- PostgreSQL ---------------------------------------------------------------------------


@pytest.fixture
def postgres_url(cluster: Cluster) -> str:
    """A new database of the throw-away cluster (tests/server/conftest.py)."""
    return cluster.fresh_database("storage")


def test_postgresql_round_trip_and_resume(postgres_url: str) -> None:
    _round_trip(postgres_url)
    _resume_game(postgres_url)


def test_postgresql_connection_cut_mid_game_is_reopened(postgres_url: str) -> None:
    """A PostgreSQL connection killed under the server (a restarted database, a cut network,
    an administrator's pg_terminate_backend) is opened again: the next move is stored and
    the earlier ones are still there. The kill is real, from a second connection."""
    import psycopg

    store = Storage(postgres_url)
    try:
        store.create_table(_table("cut"))
        store.append_action("cut", 1, 0, "7c", "human")
        for n in (2, 3):
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (store.conn.info.backend_pid,))
            if n == 2:  # a write first meets the dead connection
                store.append_action("cut", n, 1, "take", "human")
            else:  # then a read does
                assert store.load_table("cut") is not None
        assert store.load_actions("cut") == [(0, "7c", "human"), (1, "take", "human")]
    finally:
        store.close()
