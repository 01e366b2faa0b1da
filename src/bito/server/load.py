"""Load benchmark for ``bito serve``: N concurrent tables of bot-like players over websockets.

Every seat is a websocket client (no server-side bots), so each move travels the whole path:
the client sends an intent, the server checks it, commits it to the database, and broadcasts
one view per seat. The benchmark reports actions per second and the action-to-broadcast
latency (from sending a move to receiving the frame that shows it) as percentiles.

    python -m bito.server.load --tables 200 --players 4 --seconds 60 --think 1.0 --json

By default it starts its own ``bito serve`` process on a free port with a fresh SQLite file;
``--url`` measures a server that is already running. A benchmark, never a timed test.

Several processes behind nginx (``deploy/nginx.conf``, round robin) on one PostgreSQL
database:

    python -m bito.server.load --db postgresql://bito@/bito?host=/tmp --processes 2 --nginx

``--bots LEVEL`` makes every seat but the first a server-side bot of that level (the
issue's mix: one person and three ``strong`` bots a table); only the person's moves are
timed, but every move is counted (``moves_per_second``).

Where the CPU goes: on a small machine the generator, nginx and PostgreSQL take the same
cores as the servers, so the wall-clock figures measure all of them. The result says how
many CPU-seconds each spent during the measured time (``cpu_seconds``: the servers, their
bot workers, nginx, PostgreSQL's processes, this generator, and the machine as a whole,
from ``/proc``) and the moves per CPU-second of the servers alone, which is what a second
process can scale. The generator reads only the few fields it needs from a frame (the move
number, the status, whose turn) and parses the whole JSON only when its seat is to move
(``--parse-all`` parses every frame, as a browser does, to show what that costs).

Equal CPU budgets (root only): ``--cpu-quota 0.35`` puts each server process, with its bot
workers, in a cgroup of its own held to 0.35 of a core (a 10 ms period, ``--cpu-period-ms``),
and the generator, nginx and PostgreSQL in their parent group without a quota, so N
processes are each bound by their own budget, as by their own core on a bigger machine
(:mod:`bito.server.cpuquota` says why). With ``--bots`` the bots' compiled playouts are
loaded once first, outside the quotas, so numba's cache is warm before a worker starts
under one. The groups are removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from bito.server import cpuquota


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.moves = 0  # every move stored while measuring (bots' too), seen by seat 0
        self.frames = 0  # frames received while measuring
        self.parsed = 0  # of which parsed as JSON
        self.games = 0
        self.errors = 0
        self.measuring = False
        self.last_error = ""

    def summary(self, seconds: float) -> dict[str, Any]:
        lat = sorted(self.latencies)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000, 2) if lat else None

        return {"actions": self.actions, "actions_per_second": round(self.actions / seconds, 1),
                "moves": self.moves, "moves_per_second": round(self.moves / seconds, 1),
                "frames": self.frames, "frames_parsed": self.parsed,
                "games_finished": self.games, "errors": self.errors,
                "last_error": self.last_error,
                "latency_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                               "max": round(lat[-1] * 1000, 2) if lat else None}}


#: The fields of a state frame the generator reads without parsing it (the server writes
#: compact JSON; each key occurs once in a state frame).
FRAME_N = re.compile(r'"n":(\d+)')
FRAME_STATUS = re.compile(r'"status":"(\w+)"')
FRAME_TO_ACT = re.compile(r'"to_act":(\d+)')


def _glance(text: str) -> dict[str, Any] | None:
    """The type, move number, status and seat to act of a state frame, read with three
    regular expressions (None: not a state frame, or not in the expected form)."""
    if not text.startswith('{"type":"state"'):
        return None
    n, status = FRAME_N.search(text), FRAME_STATUS.search(text)
    if n is None or status is None:
        return None
    to_act = FRAME_TO_ACT.search(text)
    return {"type": "state", "n": int(n.group(1)), "status": status.group(1),
            "to_act": int(to_act.group(1)) if to_act else None}


async def _seat(url: str, token: str, seat: int, think: float, stats: Stats,
                stop: asyncio.Event, rng: random.Random, parse_all: bool = False) -> None:
    """One player: act when it is this seat's turn, time the answer."""
    async with connect(url, max_size=1 << 22,  # the token as a subprotocol, never in the URL
                       subprotocols=[Subprotocol("bito"),
                                     Subprotocol(f"bito.token.{token}")]) as ws:
        await ws.send(json.dumps({"type": "ready"}))
        sent_at: float | None = None
        sent_n = -1
        seen_n: int | None = None
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 5)
            except TimeoutError:
                continue
            assert isinstance(text, str)
            if stats.measuring:
                stats.frames += 1
            glance = None if parse_all else _glance(text)
            if glance is not None and not (glance["to_act"] == seat
                                           and glance["status"] == "playing"):
                msg = glance  # not this seat's turn: the three fields are enough
            else:
                msg = json.loads(text)
                if stats.measuring:
                    stats.parsed += 1
            if msg["type"] == "state" and seat == 0:
                if seen_n is not None and msg["n"] > seen_n and stats.measuring:
                    stats.moves += msg["n"] - seen_n
                seen_n = msg["n"] if seen_n is None else max(seen_n, msg["n"])
            if msg["type"] == "error":
                stats.errors += 1
                stats.last_error = msg["message"]
                sent_at = None
                continue
            if msg["type"] != "state":
                continue
            if sent_at is not None and msg["n"] > sent_n:
                if stats.measuring:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    stats.actions += 1
                sent_at = None
            if msg["status"] == "over":
                if seat == 0:
                    stats.games += 1
                return
            view = msg.get("view") if "view" in msg else None
            if view and view["to_act"] == seat and view["legal"] and sent_at is None:
                if think:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
                action = rng.choice(view["legal"])["text"]
                sent_n = msg["n"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))


async def _table_loop(http: httpx.AsyncClient, players: int, variant: str, think: float,
                      stats: Stats, stop: asyncio.Event, seed: int,
                      bots: str | None = None, parse_all: bool = False) -> None:
    """Create a table, seat ``players`` clients (or one and bots), play to the end; again
    until stopped."""
    rng = random.Random(seed)
    ws_base = str(http.base_url).rstrip("/").replace("http", "ws", 1)
    while not stop.is_set():
        r = await http.post("/api/tables", json={
            "name": "p0", "variant": variant, "players": players,
            "seats": [bots or "open"] * (players - 1), "timer": 600})
        r.raise_for_status()
        table = r.json()
        tokens = [table["token"]]
        for i in range(1, 1 if bots else players):
            j = await http.post(f"/api/tables/{table['table']}/join", json={"name": f"p{i}"})
            j.raise_for_status()
            tokens.append(j.json()["token"])
        url = f"{ws_base}/ws/{table['table']}"
        await asyncio.gather(*(_seat(url, tok, i, think, stats, stop, rng, parse_all)
                               for i, tok in enumerate(tokens)))


def cpu_seconds_of(pid: int | list[int] | None) -> float | None:
    """CPU time (user + system) the server process(es) have used so far, from /proc
    (Linux); their bot worker processes are not counted."""
    if pid is None:
        return None
    total = 0.0
    for one in [pid] if isinstance(pid, int) else pid:
        try:
            with open(f"/proc/{one}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, float]]:
    """Every process of the machine: pid -> (parent pid, CPU seconds used so far)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    return out


def _machine_busy() -> float:
    """CPU-seconds the whole machine has been busy (every core, every process), from
    ``/proc/stat``."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class CpuGroups:
    """CPU-seconds per part of the set-up over the measured time: each group is some root
    processes and (optionally) their descendants, read from ``/proc`` at the start and the
    end (a process that ends meanwhile is missed; none should)."""

    def __init__(self, groups: dict[str, tuple[list[int], bool]]) -> None:
        self.groups = groups
        self.start: dict[int, tuple[int, float]] = {}
        self.busy = 0.0

    def members(self, table: dict[int, tuple[int, float]], roots: list[int],
                descendants: bool) -> set[int]:
        found = {r for r in roots if r in table}
        if descendants:
            grew = True
            while grew:
                more = {pid for pid, (parent, _) in table.items()
                        if parent in found and pid not in found}
                found |= more
                grew = bool(more)
        return found

    def begin(self) -> None:
        self.start, self.busy = _processes(), _machine_busy()

    def end(self) -> dict[str, float]:
        now, busy = _processes(), _machine_busy()
        out: dict[str, float] = {}
        for name, (roots, descendants) in self.groups.items():
            pids = self.members(now, roots, descendants)
            out[name] = round(sum(now[p][1] - self.start.get(p, (0, now[p][1]))[1]
                                  if p in self.start else now[p][1] for p in pids), 2)
        out["machine"] = round(busy - self.busy, 2)
        return out


def _postmaster(url: str) -> int | None:
    """The PostgreSQL server's main process (its backends are its children), if it runs on
    this machine: the parent of the backend serving a connection."""
    try:
        import psycopg

        with psycopg.connect(url) as conn:  # read while the backend lives
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            with open(f"/proc/{int(row[0]) if row else 0}/stat") as f:
                return int(f.read().rsplit(")", 1)[1].split()[1])
    except Exception:
        return None


DEPLOY_NGINX = os.path.join(os.path.dirname(__file__), "..", "..", "..", "deploy",
                            "nginx.conf")


def nginx_config(template: str, ports: list[int], listen: int, prefix: str) -> str:
    """``deploy/nginx.conf`` (its text, ``template``) with its upstreams on loopback
    ``ports``, listening on ``listen``, its files under ``prefix``, in the foreground (so it
    runs unprivileged, for the benchmark and the tests)."""
    import re

    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;"
                        for p in ports)
    text, count = re.subn(
        r"(?m)^\s*server bito\d+:8000[^\n]*\n(?:\s*server bito\d+:8000[^\n]*\n)*",
        servers + "\n", template)
    if count != 1:
        raise ValueError("deploy/nginx.conf: the upstream block was not found")
    text, count = re.subn(r"listen 80;", f"listen 127.0.0.1:{listen};", text)
    if count != 1:
        raise ValueError("deploy/nginx.conf: the listen line was not found")
    head = [f"pid {prefix}/nginx.pid;", "daemon off;", f"error_log {prefix}/error.log;"]
    if os.geteuid() == 0:
        head.append("user root;")  # the workers use the temporary folders made here
    temps = "".join(f"    {kind}_temp_path {prefix}/{kind};\n"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = text.replace("http {\n", "http {\n" + temps, 1)
    return "\n".join(head) + "\n" + text


def wait_up(base: str, proc: subprocess.Popen[bytes] | None = None) -> None:
    for _ in range(600):
        try:
            httpx.get(base + "/api/lobby", timeout=1)
            return
        except httpx.HTTPError:
            if proc is not None and proc.poll() is not None:
                raise SystemExit(f"{base}: the process exited") from None
            time.sleep(0.1)
    raise SystemExit(f"{base} did not start")


async def run(base: str, tables: int, players: int, seconds: float, warmup: float,
              think: float, variant: str, server_pid: int | list[int] | None = None,
              bots: str | None = None, cpu: CpuGroups | None = None,
              parse_all: bool = False,
              quota: cpuquota.QuotaGroups | None = None) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    # One HTTP client for all tables: building one per table costs a TLS context each.
    http = httpx.AsyncClient(base_url=base, timeout=60,
                             limits=httpx.Limits(max_connections=20))
    tasks = [asyncio.create_task(_table_loop(http, players, variant, think, stats, stop, i,
                                             bots, parse_all))
             for i in range(tables)]
    await asyncio.sleep(warmup)
    stats.measuring = True
    start, cpu_start = time.perf_counter(), cpu_seconds_of(server_pid)
    if cpu is not None:
        cpu.begin()
    if quota is not None:
        quota.begin()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed, cpu_end = time.perf_counter() - start, cpu_seconds_of(server_pid)
    spent = cpu.end() if cpu is not None else None
    throttled = quota.end() if quota is not None else None
    stop.set()
    await asyncio.wait(tasks, timeout=15)
    failures = [t.exception() for t in tasks if t.done() and not t.cancelled()
                and t.exception() is not None]
    for t in tasks:
        t.cancel()
    await http.aclose()
    result = stats.summary(elapsed)
    result["failed_tables"] = len(failures)
    if cpu_start is not None and cpu_end is not None:
        # What the server itself spent: on a shared, loaded machine the wall-clock figures
        # above measure the queue for the CPU as much as the server.
        used = cpu_end - cpu_start
        result["server_cpu_share"] = round(used / elapsed, 3)
        result["server_cpu_ms_per_action"] = (round(used * 1000 / stats.actions, 3)
                                              if stats.actions else None)
        result["moves_per_server_cpu_second"] = (round(stats.moves / used, 1) if used > 0
                                                 else None)
    if spent is not None:
        result["cpu_seconds"] = spent
        result["load_average"] = os.getloadavg()
    if quota is not None:
        result["cpu_quota"] = {"fraction": quota.fraction,
                               "period_ms": quota.period_us / 1000,
                               "cgroup_version": quota.controller.version,
                               "parent_shares": quota.shares, "servers": throttled}
    if failures:
        result["first_failure"] = repr(failures[0])
    result.update(tables=tables, players=players, seconds=round(elapsed, 1), think=think,
                  variant=variant, cpus=os.cpu_count())
    return result


def _parents() -> dict[int, int]:
    return {pid: parent for pid, (parent, _) in _processes().items()}


def quota_groups(parser: argparse.ArgumentParser,
                 args: argparse.Namespace) -> cpuquota.QuotaGroups:
    """The run's cgroups (not made yet), or the parser's error saying why there can be
    none, before anything is started."""
    if args.url:
        parser.error(f"{cpuquota.OPTION} needs the servers this tool starts, not --url")
    period_us = round(args.cpu_period_ms * 1000)
    files = cpuquota.RealFiles()
    try:
        cpuquota.check_request(args.cpu_quota, period_us, os.cpu_count() or 1)
        with open("/proc/self/mounts") as f:
            controller = cpuquota.open_controller(os.geteuid(), f.read(), files)
    except (cpuquota.CpuQuotaError, OSError) as e:
        parser.error(str(e))
    return cpuquota.QuotaGroups(controller, f"bito-load-{os.getpid()}", args.cpu_quota,
                                args.processes, period_us, args.cpu_shares, files)


def warm_bot_kernel() -> None:
    """Fill numba's on-disk cache of the bots' compiled playouts outside the quotas: each
    bot worker loads them at start, and a cold cache compiled them inside a 0.35-core quota
    for minutes (the first such run made no move in 28 s); cached, a worker starts in about
    a CPU-second, inside any warm-up."""
    subprocess.run([sys.executable, "-c", "from bito.bots.rollouts import load_kernel_greedy;"
                    " load_kernel_greedy()"], check=False, capture_output=True)


def join_group(quota: cpuquota.QuotaGroups, index: int) -> Callable[[], None]:
    """Run in the forked child before ``exec``: the server enters its group before it
    starts its bot workers, so they are born in it."""
    procs = quota.procs_file(quota.server(index))

    def enter() -> None:
        with open(procs, "w") as f:
            f.write(str(os.getpid()))
    return enter


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bito.server.load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    p.add_argument("--players", type=int, default=4, help="seats per table (default 4)")
    p.add_argument("--seconds", type=float, default=30, help="measured time (default 30)")
    p.add_argument("--warmup", type=float, default=5, help="unmeasured start (default 5)")
    p.add_argument("--think", type=float, default=1.0,
                   help="mean seconds a player waits before moving (default 1.0; 0 = flat out)")
    p.add_argument("--variant", default="podkidnoy", help="variant spec (default podkidnoy)")
    p.add_argument("--url", help="measure a running server (default: start one)")
    p.add_argument("--db", help="database of the servers started (default: a fresh SQLite "
                                "file; several processes need a postgresql:// URL)")
    p.add_argument("--processes", type=int, default=1,
                   help="bito serve processes to start (default 1)")
    p.add_argument("--nginx", action="store_true",
                   help="put nginx (deploy/nginx.conf, round robin) in front of them")
    p.add_argument("--bots", metavar="LEVEL",
                   help="seat a server-side bot of LEVEL in every seat but the first")
    p.add_argument("--bot-workers", type=int, default=0,
                   help="each server's bot workers (default: its own default)")
    p.add_argument("--parse-all", action="store_true",
                   help="parse every frame as JSON (default: only when the seat is to move)")
    p.add_argument("--cpu-quota", type=float, metavar="FRACTION",
                   help="hold each server process (and its bot workers) to this fraction of "
                        "a core with a cgroup of its own; root only (default: no quota)")
    p.add_argument("--cpu-period-ms", type=float, default=10.0,
                   help="the quota's period (default 10 ms: a throttled server waits at "
                        "most that long)")
    p.add_argument("--cpu-shares", type=int, default=4 * cpuquota.DEFAULT_SHARES,
                   help="weight of the whole measurement's group against other work on the "
                        "machine, in cgroup v1 cpu.shares (default 4096: four busy "
                        "processes' worth)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    procs: list[subprocess.Popen[bytes]] = []
    nginx: subprocess.Popen[bytes] | None = None
    base = args.url
    if args.processes > 1 and not (args.db or "").startswith("postgres"):
        p.error("--processes above 1 needs --db postgresql://...")
    if args.processes > 1 and not args.nginx:
        p.error("--processes above 1 needs --nginx (one address for the clients)")
    quota: cpuquota.QuotaGroups | None = None
    if args.cpu_quota is not None:
        quota = quota_groups(p, args)
    prefix = tempfile.mkdtemp(prefix="bito-load-")
    try:
        if quota is not None:
            try:
                quota.create()
            except cpuquota.CpuQuotaError as e:
                p.error(str(e))
            quota.add_rest([os.getpid()])
            if args.bots:
                warm_bot_kernel()
        if base is None:
            db = args.db or os.path.join(prefix, "load.sqlite3")
            ports = [free_port() for _ in range(args.processes)]
            for port in ports:
                command = [sys.executable, "-m", "bito.cli", "serve", "--port", str(port),
                           "--db", db, "--bot-delay", "0", "--timer", "600",
                           # every finished game opens a new table: flat out (--think 0)
                           # a table plays several games a second, past any hourly limit
                           "--tables-per-hour", "1000000",
                           "--trusted-proxy", "127.0.0.1"]
                if args.bot_workers:
                    command += ["--bot-workers", str(args.bot_workers)]
                procs.append(subprocess.Popen(
                    command, stderr=subprocess.DEVNULL,
                    preexec_fn=None if quota is None else join_group(quota, len(procs))))
            for port, proc in zip(ports, procs, strict=True):
                wait_up(f"http://127.0.0.1:{port}", proc)
            base = f"http://127.0.0.1:{ports[0]}"
            if args.nginx:
                listen = free_port()
                with open(DEPLOY_NGINX) as f:
                    conf = nginx_config(f.read(), ports, listen, prefix)
                with open(os.path.join(prefix, "nginx.conf"), "w") as f:
                    f.write(conf)
                nginx = subprocess.Popen(["/usr/sbin/nginx", "-p", prefix, "-c",
                                          os.path.join(prefix, "nginx.conf"), "-e",
                                          os.path.join(prefix, "error.log")],
                                         stderr=subprocess.DEVNULL)
                base = f"http://127.0.0.1:{listen}"
                wait_up(base, nginx)
                if quota is not None:
                    quota.add_rest(cpuquota.descendants(nginx.pid, _parents()))
        groups: dict[str, tuple[list[int], bool]] = {
            "servers": ([pr.pid for pr in procs], False),
            "generator": ([os.getpid()], False)}
        if procs:
            groups["bot_workers"] = ([pr.pid for pr in procs], True)  # minus the servers
        if nginx is not None:
            groups["nginx"] = ([nginx.pid], True)
        master = _postmaster(args.db) if (args.db or "").startswith("postgres") else None
        if master is not None:
            groups["postgresql"] = ([master], True)
            if quota is not None:
                quota.add_rest(cpuquota.descendants(master, _parents()))
        cpu = CpuGroups(groups)
        result = asyncio.run(run(base, args.tables, args.players, args.seconds, args.warmup,
                                 args.think, args.variant,
                                 [pr.pid for pr in procs] if procs else None, args.bots,
                                 cpu, args.parse_all, quota))
        spent = result.get("cpu_seconds")
        if spent is not None and "bot_workers" in spent:
            spent["bot_workers"] = round(spent["bot_workers"] - spent["servers"], 2)
        result.update(processes=max(1, len(procs)), nginx=bool(nginx), bots=args.bots)
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(10)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if quota is not None:
            quota.remove()
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(f"{result['tables']} tables x {result['players']} players, think {args.think}s: "
              f"{result['actions_per_second']} actions/s, latency p50 {lat['p50']} ms, "
              f"p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms, "
              f"{result['games_finished']} games, {result['errors']} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
