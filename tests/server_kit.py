"""Helpers for the web-server tests: a real server in a thread, recording websocket clients,
and the check that no frame ever shows another seat's hidden card.

Nothing here is mocked: the server is the real app under uvicorn on a loopback port, the
clients speak real websockets, the database is a real SQLite file (or PostgreSQL).
"""

from __future__ import annotations

import json
import queue
import re
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Subprotocol

from bito.cards import card_str, cards_of
from bito.record import load_record
from bito.server.app import create_app
from bito.server.limits import MAX_FRAME
from bito.server.rooms import Settings

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs]|RJ|BJ|W[1-4]|MC)'*(?![a-z])")


def scripted(**fields: Any) -> Settings:
    """Server settings for tests whose clients answer every frame at once. Such a client
    plays a random Mau-Mau game at about 700 messages a second, over the per-connection flood
    limit set for people (200), which would cut it off mid-game; the flood test keeps the
    real limit."""
    fields.setdefault("rate_limit", 100_000)
    return Settings(**fields)


class ServerThread:
    """The app under uvicorn in a background thread, on a free loopback port."""

    def __init__(self, db: str, settings: Settings | None = None,
                 account_settings: Any = None, ws_max_size: int = MAX_FRAME) -> None:
        self.app = create_app(db, settings, account_settings)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=0,
                                log_level="warning", ws_max_size=ws_max_size, lifespan="on",
                                proxy_headers=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 15
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.base, timeout=10)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(10)


def create_table(http: httpx.Client, **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Alice")
    r = http.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def join(http: httpx.Client, table: str, name: str) -> dict[str, Any]:
    r = http.post(f"/api/tables/{table}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return dict(r.json())


class Client:
    """A websocket client that keeps every message it receives (for the leak check)."""

    def __init__(self, base: str, table: str, token: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        url = base.replace("http", "ws", 1) + f"/ws/{table}"
        # the seat token travels as a subprotocol, never in the URL
        protocols = [Subprotocol("bito")]
        if token:
            protocols.append(Subprotocol(f"bito.token.{token}"))
        self.ws: ClientConnection = connect(url, open_timeout=10, legacy=True,
                                            subprotocols=protocols, additional_headers=headers)
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.closed = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            while True:
                text = self.ws.recv()
                assert isinstance(text, str)
                message = json.loads(text)
                self.raw.append(text)
                self.messages.append(message)
                self.inbox.put(message)
        except Exception:
            pass
        finally:
            self.closed.set()

    def send(self, message: Any) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def wait(self, test: Any, timeout: float = 30) -> dict[str, Any]:
        """The next message passing ``test`` (messages before it are skipped)."""
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for a message")
            try:
                message = self.inbox.get(timeout=left)
            except queue.Empty:
                raise AssertionError("timed out waiting for a message") from None
            if test(message):
                return message

    def state(self, timeout: float = 30) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "state", timeout)

    def error(self, timeout: float = 30) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "error", timeout)

    def latest(self) -> dict[str, Any] | None:
        states = [m for m in self.messages if m["type"] == "state"]
        return states[-1] if states else None

    def close(self) -> None:
        self.ws.close()
        self.closed.wait(5)


def play_to_end(clients: dict[int, Client], pick: Any = None, timeout: float = 120,
                on_move: Any = None) -> dict[str, Any]:
    """Drive the seats in ``clients`` (other seats are bots) until the game is over: the seat
    to act sends ``pick(view)`` (default its first legal action). Returns the final frame."""
    end = time.time() + timeout
    watcher = next(iter(clients.values()))
    frame = watcher.latest() or watcher.state()
    while time.time() < end:
        frame = max((c.latest() or frame for c in clients.values()), key=lambda f: f["n"])
        if frame["status"] == "over":
            return frame
        view = frame.get("view")
        seat = view["to_act"] if view else None
        if seat in clients:
            player = clients[seat]
            mine = player.latest() or frame
            if mine["n"] < frame["n"] or "view" not in mine:
                mine = player.wait(lambda m, n=frame["n"]: m["type"] == "state"
                                   and "view" in m and m["n"] >= n)
            if mine["n"] == frame["n"] and mine["view"]["legal"]:
                legal = mine["view"]["legal"]
                choice = pick(mine["view"]) if pick else legal[0]["text"]
                player.send({"type": "act", "action": choice})
                if on_move is not None:
                    on_move(mine)
                player = clients[seat]  # on_move may have reconnected this seat
                latest = player.latest()
                if latest is None or latest["n"] <= frame["n"]:
                    player.wait(lambda m, n=frame["n"]: m["type"] == "error"
                                or (m["type"] == "state" and m["n"] > n))
        elif view is None:  # not dealt yet: wait for the deal
            watcher.wait(lambda m: m["type"] == "state" and "view" in m)
        else:
            watcher.wait(lambda m, n=frame["n"]: m["type"] == "state" and m["n"] > n)
    raise AssertionError("the game did not finish in time")


def until(condition: Callable[[], bool], seconds: float = 10) -> bool:
    """Whether ``condition`` came true within ``seconds`` (checked every 20 ms): a wait for
    something another thread or process does, bounded generously for a loaded machine; the
    caller asserts on the answer."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)
    return True


def full_states(http: httpx.Client, table: str) -> list[Any]:
    """Every state of a finished game, from its full record."""
    r = http.get(f"/api/tables/{table}/record")
    assert r.status_code == 200, r.text
    record = load_record(r.text)
    assert "seed" in record.header
    return record.replay()


def hidden_cards(state: Any, seat: int | None) -> set[str]:
    """Cards in other seats' hands that nobody but their holder knows."""
    out: set[str] = set()
    for other in range(state.players):
        if other != seat:
            out |= {card_str(c) for c in cards_of(state.hands[other] & ~state.known[other])}
    return out


def assert_no_leak(client: Client, states: list[Any], seat: int | None) -> int:
    """Every state frame ``client`` received names no hidden card of another seat (checked
    against the true position at that frame's move number). Returns the frames checked."""
    checked = 0
    for text, message in zip(client.raw, client.messages, strict=True):
        assert not set("♣♦♥♠") & set(text), "cards must travel in notation only"
        if message["type"] != "state" or "view" not in message:
            continue
        hidden = hidden_cards(states[message["n"]], seat)
        shown = set(CARD.findall(text.replace(message["table"], "")))
        assert not hidden & shown, f"frame {message['n']} leaks {hidden & shown}"
        checked += 1
    return checked
