"""Scale-out (issue 6): executors give the same results as a plain run, on a real local Ray.

One small local Ray instance serves the whole module (starting Ray costs seconds). Speed is
measured in docs/benchmarks.md, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bito.cli import main
from bito.executors import Executor, make_executor
from bito.sim import run_sim

ray = pytest.importorskip("ray", reason="the ray extra is not installed")
# Ray workers cannot import this test module by name: ship its functions by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _late_square(x: int) -> int:
    """Early items sleep longest, so they finish last: order must come from the executor."""
    time.sleep(0.02 * (6 - x % 6))
    return x * x


def _figures(stats: Any) -> dict[str, Any]:
    data = dict(stats.to_json())
    for timing in ("seconds", "games_per_second"):
        data.pop(timing)
    return data


@pytest.fixture(scope="module")
def ray_executor() -> Iterator[Executor]:
    executor = make_executor("ray", 2)
    yield executor
    executor.close()


def test_ray_executor_keeps_item_order(ray_executor: Executor) -> None:
    assert ray_executor.name == "ray" and ray_executor.workers == 2
    items = list(range(10))
    assert list(ray_executor.map(_late_square, items)) == [_late_square(x) for x in items]


def test_sim_on_ray_counts_what_the_plain_run_counts(ray_executor: Executor) -> None:
    """Matches of two deals, three seats, mixed bots: chunks must cut between matches and the
    merged counts must equal the plain loop's, key order included."""
    bots = ["random", "heuristic", "random"]
    plain = run_sim("podkidnoy", 3, 24, bots, seed=5, deals=2)
    on_ray = run_sim("podkidnoy", 3, 24, bots, seed=5, deals=2, executor="ray", workers=2)
    assert json.dumps(_figures(on_ray)) == json.dumps(_figures(plain))
    assert on_ray.completed == 24


def test_sim_command_with_a_process_pool(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["sim", "--variant", "perevodnoy", "--players", "2", "--games", "12", "--bots",
            "random", "--seed", "3", "--json", "--no-progress"]
    assert main(args) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*args, "--executor", "process", "--workers", "2"]) == 0
    pooled = json.loads(capsys.readouterr().out)
    for data in (plain, pooled):
        data.pop("seconds")
        data.pop("games_per_second")
    assert pooled == plain
    assert main([*args, "--executor", "ray", "--workers", "0"]) == 2  # usage error


def test_ray_address_joins_the_running_cluster(ray_executor: Executor) -> None:
    """With RAY_ADDRESS set, a new process joins that cluster instead of starting its own."""
    address = ray.get_runtime_context().gcs_address
    code = ("import ray; from bito.executors import make_executor; "
            "ex = make_executor('ray', 1); print(list(ex.map(abs, [-3, 4]))); "
            "print(ray.get_runtime_context().gcs_address)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "RAY_ADDRESS": address}, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert lines[-2] == "[3, 4]" and lines[-1] == address
