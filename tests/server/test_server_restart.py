"""No lost games (issue 8): ``kill -9`` the real ``bito serve`` process mid-game, start it
again on the same SQLite file, and play on from exactly where the players were.

The kill comes right after a move is sent, without waiting for its answer, so the test also
checks the write-before-broadcast rule: whatever move any client was told about is in the
database after the crash.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")

from bito.record import load_record
from server_kit import Client, create_table, join, play_to_end


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bito.cli", "serve", "--port", str(port), "--db", str(db),
         "--timer", "120", "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            raise AssertionError(f"bito serve exited: {proc.stderr.read() if proc.stderr else ''}")
    proc.kill()
    raise AssertionError("bito serve did not start")


def test_kill_9_loses_no_game(tmp_path: Path) -> None:
    db, port = tmp_path / "games.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        t = create_table(http, players=3, seats=["open", "heuristic"])
        bob = join(http, t["table"], "Bob")
        alice = Client(base, t["table"], t["token"])
        b = Client(base, t["table"], bob["token"])
        alice.send({"type": "ready"})
        b.send({"type": "ready"})
        clients = {0: alice, 1: b}
        moves = {"n": 0}

        class Crash(Exception):
            pass

        def crash_after_sending(frame: dict[str, object]) -> None:
            moves["n"] += 1
            if moves["n"] == 8:
                os.kill(proc.pid, signal.SIGKILL)  # no time to answer this move
                raise Crash

        with pytest.raises(Crash):
            play_to_end(clients, on_move=crash_after_sending)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        for c in clients.values():
            c.closed.wait(5)
        told = max(m["n"] for c in clients.values() for m in c.messages if m["type"] == "state")
        seen = {seat: c.latest() for seat, c in clients.items()}
        http.close()
    finally:
        if proc.poll() is None:
            proc.kill()
    proc = _start(db, port)
    try:
        http = httpx.Client(base_url=base, timeout=10)
        alice = Client(base, t["table"], t["token"])
        b = Client(base, t["table"], bob["token"])
        after = {0: alice.state(), 1: b.state()}
        for seat, frame in after.items():
            assert frame["you"] == seat and frame["status"] == "playing"
            assert frame["n"] >= told  # every move anybody was told of survived the kill
            before = seen[seat]
            assert before is not None
            if frame["n"] == before["n"]:
                assert frame["view"]["hand"] == before["view"]["hand"]
                assert frame["view"]["table"] == before["view"]["table"]
        end = play_to_end({0: alice, 1: b})
        assert end["outcome"] is not None
        record = load_record(http.get(f"/api/tables/{t['table']}/record").text)
        states = record.replay()  # the stored moves replay from the stored seed
        assert states[-1].outcome is not None
        assert states[-1].outcome.to_json() == end["outcome"]
        alice.close()
        b.close()
        http.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
