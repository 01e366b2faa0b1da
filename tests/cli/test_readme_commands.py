"""The README's two commands, run exactly as written on a fresh copy of the project.

A new user copies the ``## Play`` command, then the ``## Test`` command, into a shell. On a
fresh Debian or Ubuntu that shell's ``python3`` refuses ``pip install`` (PEP 668) and has no
``ensurepip``; elsewhere it may be any Python, or the user may already be in a virtual
environment. These tests build such a Python (a copy of this interpreter whose standard library
carries the ``EXTERNALLY-MANAGED`` mark and lacks ``ensurepip``), copy the project's files into
a fresh folder, and run the README's lines there through ``bash``: the play command must deal a
game and stop cleanly when input ends, the test command must install the test extra and run
pytest, and neither may touch the Python it was started with.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="builds a Debian-like Python")


def readme_command(section: str) -> str:
    """The one command of the README's ``## <section>`` block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    part = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", part, flags=re.S)
    assert len(blocks) == 1, f"README's {section} section should hold one sh block"
    lines = [ln for ln in blocks[0].splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 1, f"README's {section} block should be one command: {lines}"
    return lines[0]


def fresh_copy(dest: Path) -> Path:
    """The project's files (tracked and new, not ignored) in a new folder: what a clone holds."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def debian_like_python(dest: Path) -> Path:
    """A Python like a fresh Debian's: pip installed, ``pip install`` refused (the
    EXTERNALLY-MANAGED mark), no ``ensurepip`` (Debian ships it in python3-venv)."""
    real_stdlib = Path(sysconfig.get_paths(vars={"base": sys.base_prefix,
                                                 "installed_base": sys.base_prefix})["stdlib"])
    ver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    stdlib = dest / "lib" / ver
    stdlib.mkdir(parents=True)
    for entry in real_stdlib.iterdir():
        if entry.name not in ("ensurepip", "site-packages"):
            (stdlib / entry.name).symlink_to(entry)
    (stdlib / "EXTERNALLY-MANAGED").write_text(
        "[externally-managed]\nError=This Python is managed by the system (a test's stand-in "
        "for Debian's).\n")
    site = stdlib / "site-packages"
    site.mkdir()
    import pip

    real_site = Path(pip.__file__).resolve().parents[1]
    for entry in real_site.iterdir():
        if entry.name == "pip" or (entry.name.startswith("pip-") and entry.suffix == ".dist-info"):
            (site / entry.name).symlink_to(entry)
    (dest / "bin").mkdir()
    real_binary = Path(sys.base_prefix) / "bin" / ver
    python = dest / "bin" / ver
    shutil.copy2(real_binary, python)
    (dest / "bin" / "python3").symlink_to(ver)
    return dest / "bin"


def clean_env(path_first: Path) -> dict[str, str]:
    """A shell's environment with ``path_first`` first on PATH and no virtual environment.

    The pips it runs install without byte-compiling what they install (pip's
    ``--no-compile``, which as an environment variable reads ``PIP_NO_COMPILE=0``): the same
    files land in the same places, and Python compiles a module when it is first imported.
    Byte-compiling the test extra's thousands of modules took a third of the CPU these tests
    spent, and none of them is about bytecode."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PIP_REQUIRE_VIRTUALENV")}
    env["PATH"] = f"{path_first}{os.pathsep}/usr/bin{os.pathsep}/bin"
    env["PIP_NO_COMPILE"] = "0"
    return env


@pytest.fixture(scope="module")
def debian(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (Path(sys.base_prefix) / "bin" /
            f"python{sys.version_info.major}.{sys.version_info.minor}").exists():
        pytest.skip("this interpreter's base has no bin/pythonX.Y to copy")
    return debian_like_python(tmp_path_factory.mktemp("debian"))


def test_the_stand_in_refuses_pip_like_a_fresh_debian(debian: Path, tmp_path: Path) -> None:
    """The premise: the stand-in Python refuses ``pip install`` and cannot make a venv with
    pip, as a fresh Debian's does (so the commands below are tried where they used to fail)."""
    env = clean_env(debian)
    pip = subprocess.run(["python3", "-m", "pip", "install", "--dry-run", "rich"], env=env,
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert pip.returncode != 0 and "externally-managed-environment" in pip.stderr
    made = subprocess.run(["python3", "-m", "venv", str(tmp_path / "v")], env=env,
                          capture_output=True, text=True, timeout=300)
    assert made.returncode != 0, "ensurepip should be missing"


def test_the_readme_commands_work_on_a_fresh_debian(debian: Path, tmp_path: Path) -> None:
    """Play, then test, as written, on a fresh copy with Debian's Python first on PATH."""
    project = fresh_copy(tmp_path / "bito")
    env = clean_env(debian)
    play = subprocess.run(["bash", "-c", readme_command("Play")], cwd=project, env=env,
                          input="quit\n", capture_output=True, text=True, timeout=900)
    assert play.returncode == 0, play.stderr[-3000:]
    assert "Your hand" in play.stdout or "hand" in play.stdout.lower(), play.stdout[-2000:]
    assert "you quit" in play.stdout
    assert "Traceback" not in play.stderr
    assert (project / ".venv" / "bin" / "bito").exists()
    # The system Python was left alone: nothing of bito's was installed into it.
    probe = subprocess.run(["python3", "-c", "import rich"], env=env, capture_output=True)
    assert probe.returncode != 0

    command = readme_command("Test")
    test = subprocess.run(["bash", "-c", f"{command} -n 0 -p no:cacheprovider "
                           "tests/notation/test_notation.py"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert test.returncode == 0, (test.stdout[-3000:], test.stderr[-3000:])
    assert re.search(r"\d+ passed", test.stdout), test.stdout[-2000:]


def test_the_play_command_uses_the_virtual_environment_it_is_run_in(tmp_path: Path) -> None:
    """A user already in a virtual environment gets bito installed there, not in .venv."""
    project = fresh_copy(tmp_path / "bito")
    venv_dir = tmp_path / "mine"
    env = clean_env(venv_dir / "bin")
    subprocess.run([sys.executable, "-m", "venv", str(venv_dir)], check=True, timeout=300,
                   env=env)
    env["VIRTUAL_ENV"] = str(venv_dir)
    play = subprocess.run(["bash", "-c", readme_command("Play")], cwd=project, env=env,
                          input="quit\n", capture_output=True, text=True, timeout=900)
    assert play.returncode == 0, play.stderr[-3000:]
    assert "you quit" in play.stdout
    assert (venv_dir / "bin" / "bito").exists()
    assert not (project / ".venv").exists()


def test_ci_has_what_the_skippable_tests_need() -> None:
    """CI (``.ci/run`` sets BITO_CI_FULL) must run the tests that skip elsewhere for want of
    torch (training), Chromium, PostgreSQL or nginx: a skip there would hide them."""
    if not os.environ.get("BITO_CI_FULL"):
        pytest.skip("only CI promises every optional part")
    import importlib.util

    for module in ("torch", "sb3_contrib", "numba", "pyspiel", "playwright"):
        assert importlib.util.find_spec(module) is not None, f"{module} missing in CI"
    assert shutil.which("chromium"), "chromium missing in CI"
    assert any(Path("/usr/lib/postgresql").glob("*/bin/initdb")), "PostgreSQL missing in CI"
    assert Path("/usr/sbin/nginx").exists(), "nginx missing in CI"
