"""Limits the app keeps itself and what ``bito serve`` refuses (issue 31, item 4).

* A request body over 64 KiB is refused with 413 naming the limit, before it is read: a
  declared ``Content-Length`` of 200 MB is answered at once (the body never sent), and a
  chunked body is cut off after the limit, not read to its end. No proxy in front.
* A websocket message over 1 MiB is refused by the app even under a server that lets it
  through: an error frame naming the limit, then close code 1009.
* ``bito serve`` with a port out of range, a database it cannot open or reach, or a port in
  use says so in one line and exits 2, no traceback, never printing the address; a server
  that starts prints its address only once it answers there.
"""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi")

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bito.server.limits import MAX_BODY, MAX_FRAME
from server_kit import ServerThread, create_table, scripted

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    # uvicorn told to take frames up to 16 MiB (its own default): the app's limit must hold
    srv = ServerThread(str(tmp_path / "refusals.sqlite3"), scripted(),
                       ws_max_size=16 * MAX_FRAME)
    yield srv
    srv.stop()


def _response(sock: socket.socket, timeout: float = 10) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of the HTTP response on ``sock``."""
    data = b""
    end = time.monotonic() + timeout
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
        sock.settimeout(max(0.01, end - time.monotonic()))
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 1 << 30


def test_a_declared_200_mb_body_is_refused_before_a_byte_is_read(
        server: ServerThread) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 209715200\r\n\r\n{\"name\":")
        status, body = _response(sock)
    assert status == 413
    assert body["code"] == "body_too_large" and body["field"] == "body"
    assert body["limit"] == MAX_BODY and str(MAX_BODY) in body["error"]


def test_a_chunked_body_is_cut_off_at_the_limit_not_read_to_its_end(
        server: ServerThread) -> None:
    """200 MB offered in 64 KiB chunks: the answer comes while the client is still sending,
    after a few megabytes at most (what the sockets' buffers hold), never the whole."""
    chunk = b"x" * 65536
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: "
                     b"application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        try:
            while sent < 200 * 1024 * 1024:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
                if select.select([sock], [], [], 0)[0]:
                    break
        except OSError:  # the server closed its side: the answer is waiting
            pass
        status, body = _response(sock)
    assert status == 413 and body["code"] == "body_too_large"
    assert sent < 32 * 1024 * 1024, f"{sent} bytes sent before the refusal"


def test_bodies_under_the_limit_still_work(server: ServerThread) -> None:
    """A house-rules text of 30 KB (a long comment) is a body under the limit: read and
    taken as before."""
    big = server.http.post("/api/tables", json={"name": "Alice", "players": 2,
                                                "variant": "podkidnoy",
                                                "rules_text": "# " + "x" * 30_000})
    assert big.status_code == 200, big.text
    assert big.json()["table"]


def test_a_websocket_message_over_the_limit_is_refused_by_the_app(
        server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["open"])
    url = server.base.replace("http", "ws", 1) + f"/ws/{t['table']}"
    with connect(url, open_timeout=10, max_size=None) as ws:
        first = json.loads(ws.recv(10))
        assert first["type"] == "state"
        ws.send("x" * (MAX_FRAME + 10))
        refused: dict[str, Any] = {}
        while not refused:
            frame = json.loads(ws.recv(10))
            if frame["type"] == "error":
                refused = frame
        with pytest.raises(ConnectionClosed):
            ws.recv(10)
        assert ws.close_code == 1009
    assert refused["code"] == "frame_too_large" and refused["limit"] == MAX_FRAME
    assert str(MAX_FRAME) in refused["message"]


def _serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "bito.cli", "serve", *args],
                          capture_output=True, text=True, timeout=timeout, env=env)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_line_refusal(done: subprocess.CompletedProcess[str], *words: str) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("bito serve: error: "), lines
    assert "Traceback" not in done.stderr and "open http" not in done.stderr
    for word in words:
        assert word in lines[0], lines
    return lines[0]


@pytest.mark.parametrize("port", ["-1", "99999", "65536"])
def test_a_port_out_of_range_is_refused(port: str, tmp_path: Path) -> None:
    _one_line_refusal(_serve("--port", port, "--db", str(tmp_path / "x.sqlite3")),
                      "--port", port)


def test_a_database_that_cannot_be_opened_is_refused(tmp_path: Path) -> None:
    line = _one_line_refusal(_serve("--port", str(_free_port()), "--db",
                                    "/nonexistent/x.sqlite3"), "--db", "/nonexistent/x")
    print(line)


@pytest.mark.parametrize("url", ["postgresql://bito@127.0.0.1:1/bito",
                                 "postgresql://bito@/bito?host=/nonexistent&port=5",
                                 "postgresql://bito@localhost/bito?sslmode=nonsense"])
def test_a_postgresql_database_that_cannot_be_reached_is_refused(url: str) -> None:
    pytest.importorskip("psycopg")
    line = _one_line_refusal(_serve("--port", str(_free_port()), "--db", url), "--db",
                             "PostgreSQL")
    print(line)


def test_a_port_in_use_is_refused(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = _one_line_refusal(_serve("--port", str(port), "--db",
                                        str(tmp_path / "x.sqlite3")), str(port))
    print(line)


def test_the_address_is_printed_once_it_answers(tmp_path: Path) -> None:
    """The first line on stderr is the address; a request sent the moment it is read is
    answered (it used to be printed before uvicorn had even started)."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen([sys.executable, "-m", "bito.cli", "serve", "--port", str(port),
                             "--db", str(tmp_path / "x.sqlite3")], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("bito: open http://127.0.0.1:" + str(port)), line
        answer = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5)
        assert answer.status_code == 200
    finally:
        proc.terminate()
        proc.wait(20)
