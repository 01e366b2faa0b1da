"""1 against N ``bito serve`` processes on PostgreSQL behind nginx, under equal CPU quotas.

Issue 31's figure: for each number of four-seat tables, one run with one process and one
with N, each through :mod:`bito.server.load` (``--processes K --nginx --cpu-quota Q``) on a
fresh database of a throw-away PostgreSQL cluster (``tests/server/pg_kit.py``); the pairs
run back to back so both see the same machine. Prints one JSON object: every run's result
and, per table count, the ratios N-process / 1-process of moves/s and of the person-move p99.

    nice -n 10 python tools/processes_ratio.py --tables 50 100 200 --seconds 60 --json

Root only (the quotas are cgroups); see docs/benchmarks.md for the figures and conditions.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "tests" / "server")]

from pg_kit import Cluster  # noqa: E402


def one_run(url: str, processes: int, tables: int, args: argparse.Namespace) -> dict[str, Any]:
    """One ``bito.server.load`` run; its JSON result."""
    command = [sys.executable, "-m", "bito.server.load", "--db", url,
               "--processes", str(processes), "--nginx", "--cpu-quota", str(args.cpu_quota),
               "--bots", args.bots, "--think", str(args.think), "--players", "4",
               "--tables", str(tables), "--seconds", str(args.seconds),
               "--warmup", str(args.warmup), "--json"]
    done = subprocess.run(command, capture_output=True, text=True,
                          timeout=args.seconds + args.warmup + 300, check=False)
    if done.returncode != 0:
        return {"processes": processes, "tables": tables,
                "failed": (done.stderr.strip().splitlines() or ["?"])[-1]}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, nargs="+", default=[50, 100, 200])
    p.add_argument("--processes", type=int, default=3, help="N against 1 (default 3)")
    p.add_argument("--cpu-quota", type=float, default=0.35,
                   help="each server process's share of a core (default 0.35)")
    p.add_argument("--bots", default="random", help="the three bots of a table (default random)")
    p.add_argument("--think", type=float, default=1.0, help="the person's mean thinking, s")
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--warmup", type=float, default=10)
    p.add_argument("--reverse", action="store_true",
                   help="run the N-process run of each pair first (to see the order's effect)")
    p.add_argument("--json", action="store_true", help="(the output is always JSON)")
    args = p.parse_args(argv)
    cluster = Cluster()
    runs: list[dict[str, Any]] = []
    ratios: dict[str, dict[str, float | None]] = {}
    try:
        for tables in args.tables:
            pair: dict[int, dict[str, Any]] = {}
            order = (args.processes, 1) if args.reverse else (1, args.processes)
            for processes in order:
                url = cluster.fresh_database(f"load_{processes}_{tables}_{os.getpid()}")
                pair[processes] = one_run(url, processes, tables, args)
                runs.append(pair[processes])
                print(json.dumps(pair[processes]), file=sys.stderr, flush=True)
            one, many = pair[1], pair[args.processes]
            ratios[str(tables)] = {
                "moves_per_second": ratio(many.get("moves_per_second"),
                                          one.get("moves_per_second")),
                "person_move_p99": ratio((many.get("latency_ms") or {}).get("p99"),
                                         (one.get("latency_ms") or {}).get("p99"))}
    finally:
        cluster.destroy()
    print(json.dumps({"processes": [1, args.processes], "cpu_quota": args.cpu_quota,
                      "reverse": args.reverse,
                      "seconds": args.seconds, "bots": args.bots, "runs": runs,
                      "ratios": ratios}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
