"""The clock a search's time budget runs on.

A bot given milliseconds per decision reads this clock, never ``time`` directly, so that one
switch can make every time budget in a process shorter: ``BITO_CLOCK_SPEED=20`` makes the
searches' clock run twenty times faster than the wall, as if the machine were twenty times
slower. The test suite runs under it in CI (``.ci/run``) to prove that no test's result hangs
on how busy the machine is: a test that needs a search to reach a conclusion gives it a
playout or node budget, which no clock cuts short. Players never set it.
"""

from __future__ import annotations

import os
import time
from typing import Final

from bito.errors import BitoError


def _speed(text: str | None) -> float:
    if not text:
        return 1.0
    try:
        speed = float(text)
    except ValueError:
        speed = float("nan")
    if not speed >= 1.0 or speed == float("inf"):
        raise BitoError(f"BITO_CLOCK_SPEED must be a number of at least 1, not {text!r}")
    return speed


#: How many seconds of search budget pass in one second of wall time.
SPEED: Final = _speed(os.environ.get("BITO_CLOCK_SPEED"))


def now() -> float:
    """Seconds on the searches' clock (``time.perf_counter`` times :data:`SPEED`)."""
    return time.perf_counter() * SPEED
