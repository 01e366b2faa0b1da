#!/usr/bin/env python3
"""Install bito where it can be installed, then run it: the README's two commands.

    python3 run.py play [ARGS...]   install bito with colour in the terminal, then `bito play`
    python3 run.py pytest [ARGS...] install bito with everything its tests use, then pytest

Why a script and not `pip install` alone: a fresh Debian or Ubuntu refuses `pip install` into
its system Python (PEP 668, "externally-managed-environment"), and may not even ship `ensurepip`
for `python3 -m venv`. So this script installs into the virtual environment you are in, if you
are in one, and otherwise into `.venv` beside it, which it makes when missing: with the
standard `venv` module where it can, else with the `virtualenv` tool if present, else an
environment without pip that the system's own pip (run under the new interpreter) then fills.
A second run installs nothing new unless pyproject.toml changed. Only the standard library is
used here, so any Python 3.11+ can run it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ENV = HERE / ".venv"

#: What each job installs (extras of pyproject.toml) and how it runs, from the environment's
#: own interpreter.
JOBS: dict[str, tuple[str, list[str]]] = {
    "play": ("term", ["-m", "bito", "play"]),
    "pytest": ("test", ["-m", "pytest"]),
}

USAGE = "usage: python3 run.py {play|pytest} [arguments for bito play or pytest...]"


def say(text: str) -> None:
    print(f"run.py: {text}", file=sys.stderr, flush=True)


def in_a_venv() -> bool:
    return sys.prefix != getattr(sys, "base_prefix", sys.prefix)


def env_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def has_pip(python: Path | str) -> bool:
    return subprocess.run([str(python), "-m", "pip", "--version"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def system_pip_dir() -> Path | None:
    """The folder holding this interpreter's own ``pip`` package, if it has one."""
    try:
        import pip
    except ImportError:
        return None
    return Path(pip.__file__).resolve().parent


def bootstrap_pip(python: Path) -> bool:
    """Give a pip-less environment pip, by running the system's pip code under the environment's
    interpreter (what ``pip --python`` does on newer pips): it installs into the environment,
    which is not externally managed."""
    source = system_pip_dir()
    if source is None:
        return False
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "pip").symlink_to(source, target_is_directory=True)
        code = ("import runpy, sys; sys.path.insert(0, sys.argv.pop(1)); "
                "runpy.run_module('pip', run_name='__main__', alter_sys=True)")
        done = subprocess.run([str(python), "-c", code, tmp, "install", "--quiet", "pip"])
    return done.returncode == 0 and has_pip(python)


def make_env() -> Path:
    """Make ``.venv`` (or mend one left without pip) and return its interpreter."""
    python = env_python(ENV)
    if python.exists() and has_pip(python):
        return python
    say(f"making a virtual environment in {ENV}")
    try:
        venv.EnvBuilder(with_pip=True, clear=True).create(ENV)
    except (subprocess.CalledProcessError, OSError) as e:  # Debian without python3-venv
        say(f"the standard venv could not install pip ({e.__class__.__name__}); trying without")
    if has_pip(python):
        return python
    if shutil.which("virtualenv"):
        subprocess.run(["virtualenv", "--quiet", "--clear", str(ENV)], check=False)
        if has_pip(python):
            return python
    venv.EnvBuilder(with_pip=False, clear=True).create(ENV)
    if bootstrap_pip(python):
        return python
    sys.exit("run.py: cannot make a virtual environment with pip here. On Debian or Ubuntu, "
             "install one of them first (sudo apt install python3-venv), then run this again.")


def stamp_of(extra: str) -> str:
    text = (HERE / "pyproject.toml").read_bytes() + extra.encode()
    return hashlib.sha256(text).hexdigest()


def install(python: Path | str, extra: str) -> None:
    """``pip install -e .[extra]`` unless this environment already has it for this
    pyproject.toml (a stamp in the environment records what was installed)."""
    prefix = subprocess.run([str(python), "-c", "import sys; print(sys.prefix)"],
                            capture_output=True, text=True, check=True).stdout.strip()
    stamp = Path(prefix) / f".bito-installed-{extra}"
    want = stamp_of(extra)
    try:
        if stamp.read_text() == want:
            return
    except OSError:
        pass
    say(f"installing bito[{extra}] into {prefix} (once; later runs skip this)")
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "-e", f"{HERE}[{extra}]"])
    if done.returncode != 0:
        sys.exit(f"run.py: installing bito[{extra}] failed (pip's message is above)")
    with contextlib.suppress(OSError):  # a read-only environment: install again next time
        stamp.write_text(want)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in JOBS:
        print(USAGE, file=sys.stderr)
        return 2
    if sys.version_info < (3, 11):  # noqa: UP036 (this file runs before any check of ours)
        print("run.py: bito needs Python 3.11 or newer", file=sys.stderr)
        return 2
    extra, command = JOBS[argv[0]]
    python: Path | str = sys.executable if in_a_venv() else make_env()
    install(python, extra)
    os.chdir(HERE)
    try:
        return subprocess.run([str(python), *command, *argv[1:]]).returncode
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
