"""The examples in examples/ run (issue 21 item 5): each for a few hundred steps, as CI does.
MaskablePPO needs the train extra (sb3-contrib, torch); without it the example must say so
and the test is skipped with that reason."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

ROOT = Path(__file__).parents[2]


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "examples" / script), *args],
                          capture_output=True, text=True, timeout=240, check=False,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})


@pytest.mark.parametrize(("variant", "players"), [("podkidnoy", 2), ("czech_fool", 3)])
def test_pettingzoo_selfplay_runs(variant: str, players: int) -> None:
    done = _run("pettingzoo_selfplay.py", "--steps", "300", "--variant", variant,
                "--players", str(players), "--report", "1")
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    steps = int(last.split()[1])
    assert last.startswith("done:") and steps >= 300
    assert "seat 0 won" in done.stdout  # a progress line per deal (--report 1)


def test_openspiel_ismcts_against_bito_runs() -> None:
    pytest.importorskip("pyspiel")
    done = _run("openspiel_ismcts_vs_bito.py", "--steps", "200", "--simulations", "4")
    assert done.returncode == 0, done.stderr
    assert "ISMCTS (4 simulations) vs heuristic: mean return" in done.stdout
    deals = [line for line in done.stdout.splitlines() if line.startswith("deal ")]
    assert deals and int(deals[-1].split("(")[1].split()[0]) >= 200


def test_maskable_ppo_runs_or_says_what_is_missing() -> None:
    have = all(importlib.util.find_spec(m) is not None for m in ("sb3_contrib", "torch"))
    done = _run("maskable_ppo_vector.py", "--steps", "512", "--num-envs", "16",
                "--eval-deals", "20")
    if not have:
        assert done.returncode == 2 and "pip install 'bito[train]'" in done.stderr
        assert "Traceback" not in done.stderr
        pytest.skip("sb3-contrib and torch are not installed (the train extra): the example "
                    "said so and stopped")
    assert done.returncode == 0, done.stderr
    assert "MaskablePPO after 512 steps: mean return" in done.stdout


def test_the_ppo_adapter_re_deals_on_the_same_step() -> None:
    """The SB3 adapter's step (testable without SB3): a finished deal comes back with its last
    observation in ``terminal_observation`` and a fresh deal's observation in its row, whose
    mask is live at once (no ignored next-step action)."""
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("numba")
    import numpy as np

    import bito.env.gymnasium  # noqa: F401

    sys.path.insert(0, str(ROOT / "examples"))
    try:
        from maskable_ppo_vector import same_step_reset
    finally:
        sys.path.remove(str(ROOT / "examples"))
    venv = gym.make_vec("bito/Podkidnoy-v0", num_envs=8, vectorization_mode="vector_entry_point",
                        opponents="random")
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        masks = venv.action_masks()
        assert masks.sum(axis=1).min() > 0  # every env has a live decision, every step
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        obs, reward, done, infos = same_step_reset(venv, actions)
        for i in np.flatnonzero(done):
            ended += 1
            assert reward[i] in (-1.0, 0.0, 1.0)  # the deal's return for seat 0
            assert not np.array_equal(infos[i]["terminal_observation"], obs[i])
        assert all("terminal_observation" not in infos[i] for i in np.flatnonzero(~done))
    assert ended > 0
