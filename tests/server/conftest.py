"""Fixtures shared by the server's tests: the browser the Chromium tests drive."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browser_kit import chromium


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium for one test (the module has called ``need_chromium``)."""
    with chromium() as b:
        yield b
