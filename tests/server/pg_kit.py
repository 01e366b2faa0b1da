"""A throw-away PostgreSQL cluster of Debian's postgresql package, which a test may stop,
start and restart under a running server. One cluster serves a whole test process (see
tests/server/conftest.py): ``initdb`` and the first start cost seconds, a new database of a
running cluster a fraction of one, so each test takes a database of its own."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``initdb`` + ``pg_ctl`` in a temporary directory, on a Unix socket only."""

    def __init__(self) -> None:
        pytest.importorskip("psycopg", reason="psycopg is not installed (the web extra has it)")
        pytest.importorskip("psycopg_pool", reason="psycopg-pool is not installed (web extra)")
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            pytest.skip("Debian's postgresql package is not installed (.ci/run installs it)")
        self.bindir = os.path.dirname(found[-1])
        self.base = tempfile.mkdtemp(prefix="bito-pg-")
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.base, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self.data, self.port = os.path.join(self.base, "data"), free_port()
        subprocess.run([*self.as_user, f"{self.bindir}/initdb", "-D", self.data, "-A", "trust",
                        "-U", "bito"], check=True, capture_output=True)
        self.start()
        self.url = f"postgresql://bito@/postgres?host={self.base}&port={self.port}"

    #: a number for each database made, so that two tests (of two modules sharing the
    #: cluster) giving the same name still get a database each
    _made = itertools.count(1)

    def _ctl(self, *args: str) -> None:
        subprocess.run([*self.as_user, f"{self.bindir}/pg_ctl", "-D", self.data, *args],
                       check=True, capture_output=True)

    def start(self) -> None:
        """Start the server. Nothing is forced to the disk (``fsync=off``): a stop, fast or
        immediate, keeps every committed row all the same (only the machine itself crashing
        would lose them), and a commit then costs no wait for a loaded machine's disk."""
        self._ctl("-w", "-l", os.path.join(self.base, "log"), "-o",
                  f"-p {self.port} -k {self.base} -c listen_addresses='' "
                  "-c max_connections=200 -c fsync=off -c full_page_writes=off", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast`` cuts every connection (what a restart does to the server). A checkpoint
        first, so the shutdown's own checkpoint is short: on a loaded machine, after other
        tests filled the cluster, it took about 20 s, which a test's outage of 12 s plus its
        clients' 30 s waits could not absorb."""
        import psycopg

        with contextlib.suppress(psycopg.Error), psycopg.connect(self.url, autocommit=True,
                                                                 connect_timeout=5) as c:
            c.execute("CHECKPOINT")
        self._ctl("-w", "-m", mode, "stop")

    def running(self) -> bool:
        """Whether the server is up (``pg_ctl status`` answers 3 when it is not)."""
        return subprocess.run([*self.as_user, f"{self.bindir}/pg_ctl", "-D", self.data,
                               "status"], capture_output=True).returncode == 0

    def ensure_running(self) -> None:
        """Start the server again if a test left it stopped (a test that failed while its
        outage lasted): the next test gets a running cluster either way."""
        if not self.running():
            self.start()

    def destroy(self) -> None:
        subprocess.run([*self.as_user, f"{self.bindir}/pg_ctl", "-D", self.data, "-m",
                        "immediate", "stop"], capture_output=True)
        shutil.rmtree(self.base, ignore_errors=True)

    def fresh_database(self, name: str) -> str:
        """A new empty database of the cluster, named after ``name`` (and made unique); its
        URL."""
        import psycopg

        unique = f"{name}_{next(self._made)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{unique}"')
        return self.url.replace("/postgres?", f"/{unique}?")
