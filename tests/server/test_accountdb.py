"""The accounts' tables on SQLite and PostgreSQL (the same calls, the same answers), the
schema's entry point for a migration runner, and Hypothesis on the account checks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("fastapi")

from test_server_storage import postgres_url  # noqa: F401  (the fixture)

from bito.server.accountdb import AccountDB, accounts_schema
from bito.server.accounts import AccountError, check_password, check_username
from bito.server.ratings import rate_game


def _round_trip(url: str) -> None:
    db = AccountDB(url)
    AccountDB(url).close()  # opening twice: the schema is idempotent
    try:
        assert db.add_account("alice", "hash-a") and not db.add_account("ALICE", "hash-b")
        assert db.password_hash("alice") == "hash-a" and db.password_hash("bob") is None
        db.add_session("digest", "alice", 2e9)
        assert db.session_user("digest", 1e9) == "alice"
        assert db.session_user("digest", 3e9) is None  # expired: and gone
        assert db.session_user("digest", 1e9) is None
        db.own_seat("T1", 0, "alice")
        assert db.owners("T1") == {0: "alice"}
        outcome = {"loser": 1, "order": [0, 1], "draw": False}
        assert rate_game(db, "T1", "durak", [("human", "heuristic"), ("bot", "strong")],
                         db.owners("T1"), outcome)
        assert not rate_game(db, "T1", "durak", [("human", "heuristic"), ("bot", "strong")],
                             db.owners("T1"), outcome)  # a game is rated once
        alice, strong = db.rating("alice", "durak"), db.rating("bot:strong", "durak")
        assert alice is not None and strong is not None and alice.games == strong.games == 1
        assert [r.player for r in db.leaderboard("durak")] == sorted(
            ["alice", "bot:strong"], key=lambda p: -(db.rating(p, "durak").ordinal))  # type: ignore[union-attr]
        (game,) = db.recent_games("alice")
        assert game[0] == "T1" and game[3] == "won"
        assert db.families() == ["durak"]
    finally:
        db.close()


def test_sqlite_round_trip(tmp_path: Path) -> None:
    _round_trip(str(tmp_path / "a.sqlite3"))


def test_postgresql_round_trip(postgres_url: str) -> None:  # noqa: F811
    _round_trip(postgres_url)


def test_the_schema_is_one_idempotent_script_per_dialect(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "s.sqlite3")
    for _ in range(2):
        conn.executescript(accounts_schema("sqlite"))
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"bito_accounts", "bito_sessions", "bito_seat_owners", "bito_ratings",
            "bito_rated_games"} <= names
    assert "CREATE TABLE IF NOT EXISTS" in accounts_schema("postgresql")
    with pytest.raises(ValueError, match="dialect"):
        accounts_schema("mysql")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=40), st.integers(), st.none()))
def test_a_username_is_kept_as_typed_or_refused_naming_the_field(value: object) -> None:
    try:
        assert check_username(value) == value
    except AccountError as e:
        assert e.field == "username" and str(e).startswith("username:")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.integers(), st.none()))
def test_a_password_is_kept_or_refused_naming_the_field(value: object) -> None:
    try:
        assert check_password(value, "alice") == value
        assert isinstance(value, str) and 8 <= len(value) <= 128
    except AccountError as e:
        assert e.field == "password" and str(e).startswith("password:")


def test_ranks_put_the_fool_or_the_losing_team_last() -> None:
    from bito.server.ratings import ranks_of

    assert ranks_of({"loser": 1, "draw": False}, 3) == [1, 2, 1]
    assert ranks_of({"loser": None, "draw": True}, 3) == [1, 1, 1]
    assert ranks_of({"loser": 0, "draw": False, "teams": [[0, 2], [1, 3]], "losing_team": 1},
                    4) == [1, 2, 1, 2]
    assert ranks_of({"loser": None, "draw": False}, 2) is None
    assert ranks_of(None, 2) is None


def test_the_accounts_survive_a_dropped_postgresql_connection(postgres_url: str) -> None:  # noqa: F811
    """Issue 18 item 2: a PostgreSQL restart ends every connection with ``AdminShutdown`` (an
    ``OperationalError`` by another name); the accounts' store opens a fresh one and answers,
    for a read (the end-of-game hook's ``owners``) as for a write."""
    import psycopg

    db = AccountDB(postgres_url)
    try:
        db.add_account("carol", "hash-c")
        db.own_seat("T9", 1, "carol")

        def drop_others() -> None:
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE pid <> pg_backend_pid() AND datname = current_database()")

        drop_others()
        assert db.owners("T9") == {1: "carol"}
        drop_others()
        db.own_seat("T9", 2, "carol")
        assert db.owners("T9") == {1: "carol", 2: "carol"}
    finally:
        db.close()
