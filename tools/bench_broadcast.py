"""What one more spectator costs the server: CPU per move at one table, by audience size.

Starts ``bito serve`` (SQLite, no bot pause), opens one 2-seat table (a person and a
``random`` bot) and plays it flat out from here, with 0, then more spectators connected
(each from its own forwarded address, the server trusting 127.0.0.1 as a proxy). For each
audience it reports the moves made and the server's CPU per move (from /proc), so the cost
of an extra socket is the slope. A benchmark, never a timed test.

    python tools/bench_broadcast.py --audiences 0 25 100 --seconds 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from bito.server.load import cpu_seconds_of, free_port, wait_up


async def _watch(url: str, address: str, stop: asyncio.Event, frames: list[int]) -> None:
    async with connect(url, subprotocols=[Subprotocol("bito")],
                       additional_headers={"X-Forwarded-For": address}) as ws:
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
                frames[0] += 1
            except TimeoutError:
                continue


async def _play(base: str, stop: asyncio.Event, moves: list[int], table: dict[str, Any],
                rng: random.Random) -> None:
    """The person: his first move whenever it is his turn; a new table when one ends."""
    url = base.replace("http", "ws", 1) + f"/ws/{table['table']}"
    async with connect(url, max_size=1 << 22, subprotocols=[
            Subprotocol("bito"), Subprotocol(f"bito.token.{table['token']}")]) as ws:
        await ws.send(json.dumps({"type": "ready"}))
        last = -1
        while not stop.is_set():
            msg = json.loads(await ws.recv())
            if msg["type"] != "state":
                continue
            if msg["n"] > last >= 0:
                moves[0] += msg["n"] - last
            last = max(last, msg["n"])
            if msg["status"] == "over":
                return
            view = msg.get("view")
            if view and view["to_act"] == 0 and view["legal"]:
                await ws.send(json.dumps({"type": "act",
                                          "action": rng.choice(view["legal"])["text"]}))


async def measure(base: str, pid: int, audience: int, seconds: float) -> dict[str, Any]:
    stop = asyncio.Event()
    moves, frames = [0], [0]
    rng = random.Random(audience)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:

        async def tables() -> None:
            while not stop.is_set():
                r = await http.post("/api/tables", json={
                    "name": "p0", "players": 2, "seats": ["random"], "timer": 600})
                r.raise_for_status()
                table = r.json()
                url = base.replace("http", "ws", 1) + f"/ws/{table['table']}"
                watchers = [asyncio.create_task(_watch(url, f"10.{i // 250}.{i % 250}.1",
                                                       stop, frames))
                            for i in range(audience)]
                await asyncio.sleep(0.5)  # the audience is seated before the deal
                await _play(base, stop, moves, table, rng)
                for w in watchers:
                    w.cancel()
                await asyncio.gather(*watchers, return_exceptions=True)

        player = asyncio.create_task(tables())
        await asyncio.sleep(2)  # warm-up
        moves[0] = frames[0] = 0
        cpu, start = cpu_seconds_of(pid), time.perf_counter()
        await asyncio.sleep(seconds)
        used, elapsed = (cpu_seconds_of(pid) or 0) - (cpu or 0), time.perf_counter() - start
        made, sent = moves[0], frames[0]
        stop.set()
        await asyncio.wait([player], timeout=5)
        player.cancel()
    return {"audience": audience, "moves": made, "frames_to_spectators": sent,
            "seconds": round(elapsed, 1), "server_cpu_s": round(used, 2),
            "server_cpu_ms_per_move": round(used * 1000 / made, 3) if made else None,
            "load_average": [round(x, 1) for x in os.getloadavg()]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--audiences", type=int, nargs="+", default=[0, 25, 100])
    p.add_argument("--seconds", type=float, default=8.0)
    args = p.parse_args()
    port = free_port()
    folder = tempfile.mkdtemp(prefix="bito-bcast-")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bito.cli", "serve", "--port", str(port), "--db",
         os.path.join(folder, "b.sqlite3"), "--bot-delay", "0", "--tables-per-hour",
         "1000000", "--trusted-proxy", "127.0.0.1", "--spectators-per-table", "10000",
         "--spectators-per-address", "10000"], stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_up(base, proc)
        for audience in args.audiences:
            print(json.dumps(asyncio.run(measure(base, proc.pid, audience, args.seconds))),
                  flush=True)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
