"""The code base stays lint-clean and the engine core type-checks under mypy --strict.

These run the real tools, so a style or typing regression fails the suite like any bug.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> list[str]:
    exe = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if exe is None:
        pytest.fail(f"{name} is not installed: it is part of the [test] extra")
    return [exe]


def test_ruff_reports_nothing() -> None:
    result = subprocess.run([*_tool("ruff"), "check", "src", "tests", "tools", "examples",
                             "run.py"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_engine_core() -> None:
    result = subprocess.run(_tool("mypy"), cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
