"""Fixtures shared by the server's tests: the browser the Chromium tests drive, and a
throw-away PostgreSQL cluster for the test process's tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pg_kit import Cluster

from browser_kit import chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium for the module's tests (the module has called ``need_chromium``):
    each test opens its own contexts, which share no cookies, storage or pages, so one
    browser serves them all and its start is paid once. Not for the whole session: while
    Playwright's sync API is open its event loop counts as running on the thread, and other
    modules' tests call ``asyncio.run``."""
    with chromium() as b:
        yield b


@pytest.fixture(scope="session")
def _one_cluster() -> Iterator[Cluster]:
    """One cluster for every PostgreSQL test of this process (``initdb`` and a first start
    take seconds; a database of a running cluster does not); skips where Debian's postgresql
    or psycopg is missing."""
    pg = Cluster()
    try:
        yield pg
    finally:
        pg.destroy()


@pytest.fixture
def cluster(_one_cluster: Cluster) -> Cluster:
    """The process's cluster, running (each test makes its own database with
    ``fresh_database``; a test that stops the cluster starts it again)."""
    _one_cluster.ensure_running()
    return _one_cluster
