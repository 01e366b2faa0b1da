"""``bito bench --vector`` (issue 21): the vector environment's learner steps per second over
N, beside the single environment's, as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

SRC = Path(__file__).parents[2] / "src"


def _bito(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bito", *args], capture_output=True,
                          text=True, timeout=180, check=False,
                          env={"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"})


def test_bench_vector_json() -> None:
    done = _bito("bench", "--vector", "--envs", "1", "8", "--seconds", "0.2", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [r["num_envs"] for r in out["vector_env"]] == [1, 8]
    single = out["single_env"]["steps_per_s"]
    for row in out["vector_env"]:
        assert row["steps"] % row["num_envs"] == 0 and row["wall_s"] >= 0.2
        assert row["speedup_vs_single"] == round(row["steps_per_s"] / single, 1)
    assert len(out["load_average"]) == 3


def test_bench_vector_refusals_are_named() -> None:
    bad = _bito("bench", "--vector", "--envs", "0")
    assert bad.returncode == 2 and "--envs" in bad.stderr and "Traceback" not in bad.stderr
    stray = _bito("bench", "--envs", "4")
    assert stray.returncode == 2 and "--vector" in stray.stderr


def test_against_bare_times_the_same_games_in_turns() -> None:
    """The yardstick plays the very games the env plays (the same deals, opponents' moves and
    learner's choices: as many deals end), and each round's ratio is the env's CPU time over
    the bare kernel's for the same learner steps (no speed is asserted). A one-step run, as the
    kernel's warm-up makes, still gives a ratio."""
    from bito.env.vector_bench import bench_against_bare, format_against_bare

    for opponents in ("greedy", "random"):
        out = bench_against_bare(8, opponents=opponents, steps=60, rounds=2, games=20)
        assert len(out["rounds"]) == 2 and out["learner_steps_per_round"] == 480
        for r in out["rounds"]:
            assert r["same_games"] and r["env"]["deals_ended"] > 0
            # the same learner steps: the ratio of CPU times is the inverse ratio of rates
            # (taken from the rates: a short run rounds its seconds to a few ten-thousandths)
            assert r["ratio"] == round(r["bare"]["learner_steps_per_cpu_s"]
                                       / r["env"]["learner_steps_per_cpu_s"], 2)
            # the env's figure is its steps' CPU time; the learner's argmax comes on top
            assert r["env"]["with_argmax_cpu_s"] >= r["env"]["cpu_s"]
            assert 1 < r["bare"]["moves_per_learner_step"] < 10
        assert out["median"]["ratio"] in [r["ratio"] for r in out["rounds"]]
        text = format_against_bare(out)
        assert text.count("\n") == 2 and f"{out['median']['ratio']}x" in text
    one = bench_against_bare(2, steps=1, rounds=1, games=1)["rounds"][0]
    assert one["ratio"] > 0
    with pytest.raises(ValueError, match="--rounds"):
        bench_against_bare(8, rounds=0)
