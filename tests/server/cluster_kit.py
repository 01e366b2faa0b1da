"""Real ``bito serve`` processes and Debian's nginx in front of them, for the cluster tests
(test_server_cluster.py, test_server_faults.py): started, killed and restarted on their own
ports, their logs kept to explain a failure."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg_kit import Cluster, free_port

from bito.server import load

NGINX = "/usr/sbin/nginx"
DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
SRC = Path(__file__).resolve().parents[2] / "src"


def nginx_config(ports: list[int], listen: int, prefix: str) -> str:
    """``deploy/nginx.conf`` itself, on loopback ports (see ``bito.server.load``)."""
    return load.nginx_config(DEPLOY.read_text(), ports, listen, prefix)


class Bito:
    """One real ``bito serve`` process on a port of its own (kept across a restart, so the
    proxy in front finds it again)."""

    def __init__(self, url: str, log: Path, extra: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.url = url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.extra = extra
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(SRC), os.environ.get("PYTHONPATH", "")]), **(env or {})}
        self.proc = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        self.log = self.log_path.open("ab")
        return subprocess.Popen(
            [sys.executable, "-m", "bito.cli", "serve", "--port", str(self.port), "--db",
             self.url, "--timer", "120", "--bot-delay", "0.3", "--bot-levels",
             "heuristic,random", "--trusted-proxy", "127.0.0.1", *self.extra],
            stdout=subprocess.DEVNULL, stderr=self.log, env=self.env)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"bito serve exited ({self.proc.returncode}); see "
                                     f"{self.log.name}")
            try:
                if httpx.get(self.base + "/api/lobby", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("bito serve did not start")

    def kill(self) -> None:
        """``kill -9``: no word to anybody, its leases left to run out."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def restart(self) -> None:
        self.proc = self._start()

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)  # a paused process hears nothing else
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


class Nginx:
    """Debian's nginx running ``deploy/nginx.conf`` round-robin over ``ports``."""

    def __init__(self, ports: list[int], prefix: str) -> None:
        self.port = free_port()
        conf = Path(prefix) / "nginx.conf"
        conf.write_text(nginx_config(ports, self.port, prefix))
        self.proc = subprocess.Popen([NGINX, "-p", prefix, "-c", str(conf), "-e",
                                      f"{prefix}/error.log"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 15
        while True:
            try:
                httpx.get(self.base + "/api/lobby", timeout=1)
                break
            except httpx.HTTPError:
                if time.time() > deadline or self.proc.poll() is not None:
                    err = self.proc.stderr.read() if self.proc.stderr else b""
                    raise AssertionError(f"nginx did not start: {err!r}") from None
                time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@contextmanager
def running_cluster(pg: Cluster, tmp_path: Path, name: str, processes: int = 3,
                    extra: tuple[str, ...] = (),
                    env_for: Callable[[int], dict[str, str]] = lambda i: {},
                    log_lines: int = 15) -> Iterator[dict[str, Any]]:
    """A fresh database of the PostgreSQL cluster ``pg``, ``processes`` real ``bito serve``
    on it (each with ``extra`` flags and ``env_for(i)``) and Debian's nginx in front;
    everything stopped on leaving, and the last lines of each server's log printed to explain
    a failure. Skips without nginx."""
    if not os.path.exists(NGINX):
        pytest.skip("Debian's nginx package is not installed (.ci/run installs it)")
    procs: list[Bito] = []
    nginx: Nginx | None = None
    prefix = tempfile.mkdtemp(prefix="bito-nginx-")
    try:
        url = pg.fresh_database(name)
        # all start together on the fresh database: the migrations take turns
        procs = [Bito(url, tmp_path / f"bito{i}.log", extra, env=env_for(i))
                 for i in range(processes)]
        for p in procs:
            p.wait_ready()
        nginx = Nginx([p.port for p in procs], prefix)
        yield {"pg": pg, "url": url, "procs": procs, "nginx": nginx, "base": nginx.base,
               "logs": tmp_path}
    finally:
        if nginx is not None:
            nginx.stop()
        for p in procs:
            p.stop()
        for i in range(len(procs)):  # the servers' own words, to explain a failure
            text = (tmp_path / f"bito{i}.log").read_text(errors="replace")
            lines = [line for line in text.splitlines() if "pool" not in line][-log_lines:]
            print(f"--- bito{i} (pid {procs[i].proc.pid}):", *lines, sep="\n")
        shutil.rmtree(prefix, ignore_errors=True)
