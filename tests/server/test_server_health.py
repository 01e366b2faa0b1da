"""Health and operations (issue 18, item 5): /healthz, /readyz (the database answers and its
schema is current), Prometheus metrics that move with play, and JSON log lines.
"""

from __future__ import annotations

import json
import logging
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")
pytest.importorskip("prometheus_client")

from pg_kit import Cluster, free_port

from bito.server.health import JsonFormatter
from bito.server.migrations import LATEST
from server_kit import CARD, Client, ServerThread, create_table, play_to_end, scripted


def _metric(text: str, name: str) -> float:
    """The value of an unlabelled sample ``name`` in Prometheus text."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in the metrics")


def test_health_readiness_and_metrics_follow_a_game(tmp_path: Path) -> None:
    srv = ServerThread(str(tmp_path / "m.sqlite3"), scripted(bot_delay=0))
    try:
        assert srv.http.get("/healthz").json() == {"status": "ok"}
        ready = srv.http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["schema"] == LATEST
        before = srv.http.get("/metrics")
        assert before.headers["content-type"].startswith("text/plain")
        assert _metric(before.text, "bito_moves_total") == 0
        t = create_table(srv.http, players=2, seats=["heuristic"])
        alice = Client(srv.base, t["table"], t["token"])
        alice.send({"type": "ready"})
        alice.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        mid = srv.http.get("/metrics").text
        assert 'bito_tables{status="playing"} 1.0' in mid
        assert _metric(mid, "bito_connections") == 1
        end = play_to_end({0: alice})
        after = srv.http.get("/metrics").text
        assert _metric(after, "bito_moves_total") == end["n"] > 0
        assert _metric(after, "bito_bot_decision_seconds_count") > 0  # the bot's moves
        assert _metric(after, "bito_db_seconds_count") >= end["n"]  # every move stored
        assert _metric(after, "bito_bot_queue_depth") == 0
        alice.close()
    finally:
        srv.stop()


def test_readyz_fails_while_postgresql_is_down_and_recovers(cluster: Cluster) -> None:
    url = cluster.fresh_database("ready")
    srv = ServerThread(url, scripted())
    try:
        assert srv.http.get("/readyz").status_code == 200
        cluster.stop()
        try:
            down = srv.http.get("/readyz")
            assert down.status_code == 503 and "database" in down.json()["reason"]
            assert srv.http.get("/healthz").status_code == 200  # alive, only not ready
        finally:
            cluster.start()
        end = time.time() + 15
        while srv.http.get("/readyz").status_code != 200:
            assert time.time() < end, "not ready again after PostgreSQL came back"
            time.sleep(0.2)
    finally:
        srv.stop()


def test_json_log_lines() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("bito.server", logging.ERROR, __file__, 1,
                                   "table %s: move failed", ("abc",), sys.exc_info())
    entry = json.loads(JsonFormatter().format(record))
    assert entry["level"] == "error" and entry["logger"] == "bito.server"
    assert entry["message"] == "table abc: move failed"
    assert "ValueError: boom" in entry["exception"] and entry["time"].endswith("Z")


def test_serve_writes_json_logs(tmp_path: Path) -> None:
    """``bito serve --log-format json``: every line uvicorn or bito logs is a JSON object."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bito.cli", "serve", "--port", str(port), "--db",
         str(tmp_path / "j.sqlite3"), "--log-format", "json"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.time() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.time() < end and proc.poll() is None, "bito serve did not start"
                time.sleep(0.1)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    lines = [line for line in err.splitlines() if line.startswith("{")]
    assert lines, err
    for line in lines:
        assert {"time", "level", "logger", "message"} <= set(json.loads(line))


def test_the_tables_inspection_is_closed_unless_keyed(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``/internal/tables`` (issue 31: every process compared with the database) answers
    404 without ``BITO_INSPECT_KEY``, and with it to the right key only; what it shows is
    the stored game's fingerprints, never a card, a token or a seed."""
    from bito.server.health import INSPECT_HEADER, INSPECT_KEY, deal_digest
    from bito.server.render import position_digest

    srv = ServerThread(str(tmp_path / "i.sqlite3"), scripted(bot_delay=0))
    try:
        t = create_table(srv.http, players=2, seats=["random"])
        host = Client(srv.base, t["table"], t["token"])
        host.send({"type": "ready"})
        frame = host.wait(lambda m: m["type"] == "state" and m["status"] == "playing")
        monkeypatch.delenv(INSPECT_KEY, raising=False)
        assert srv.http.get("/internal/tables").status_code == 404
        monkeypatch.setenv(INSPECT_KEY, "sesame")
        assert srv.http.get("/internal/tables").status_code == 404
        assert srv.http.get("/internal/tables", headers={INSPECT_HEADER: "wrong"}
                            ).status_code == 404
        seen = srv.http.get("/internal/tables", headers={INSPECT_HEADER: "sesame"})
        assert seen.status_code == 200
        room = srv.app.state.lobby.rooms[t["table"]]
        mine = seen.json()["tables"][t["table"]]
        assert mine["status"] == "playing" and mine["n"] >= frame["n"]
        assert mine["deal"] == deal_digest(room.table.seed)
        assert mine["position"] == position_digest(room.state, room.actions[:mine["n"]]) \
            or mine["n"] != len(room.actions)
        text = seen.text
        assert str(room.table.seed) not in text and t["token"] not in text
        # no card in what is left once the table's id and the two fingerprints are taken out
        # (a fingerprint is 16 hex digits, and "5d797d80…" starts like the five of diamonds)
        assert re.fullmatch(r"[0-9a-f]{16}", mine["deal"])
        assert re.fullmatch(r"[0-9a-f]{16}", mine["position"])
        rest = text.replace(t["table"], "").replace(mine["deal"], "").replace(
            mine["position"], "")
        assert not CARD.findall(rest)
        host.close()
    finally:
        srv.stop()
