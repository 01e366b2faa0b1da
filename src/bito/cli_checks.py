"""The ``bito`` command's checks of what was typed, shared by every subcommand.

Each check names the flag at fault and runs before any game is dealt, so a typo costs a second,
not the minutes of work that would come before the error. Numbers are checked for what argparse
lets through: ``nan`` and ``inf`` are floats to it, and a negative count is an int.
"""

from __future__ import annotations

import math
import os
import sys

from bito.i18n import _


class UsageError(Exception):
    """Bad input detected by a subcommand; printed as ``bito <cmd>: error: ...``, exit 2."""


def at_least(option: str, value: int | None, least: int) -> None:
    """A count (``--games``, ``--pairs``...) of at least ``least``; None is the default."""
    if value is not None and value < least:
        raise UsageError(_("{option} must be at least {n}").format(option=option, n=least))


def finite(option: str, value: float | None) -> None:
    """A number that is a number: ``nan`` and ``inf`` parse as floats but mean nothing here."""
    if value is not None and not math.isfinite(value):
        raise UsageError(_("{option} must be a number, not {value}").format(option=option,
                                                                          value=value))


def positive(option: str, value: float | None) -> None:
    """A finite number above zero (``--seconds``, ``--think-ms``...)."""
    finite(option, value)
    if value is not None and value <= 0:
        raise UsageError(_("{option} must be positive").format(option=option))


def not_negative(option: str, value: float | None) -> None:
    """A finite number of zero or more (a pause, a limit where 0 means none)."""
    finite(option, value)
    if value is not None and value < 0:
        raise UsageError(_("{option} must not be negative").format(option=option))


def machine_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it, which a
    container or ``taskset`` narrows), at least 1."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)


def capped_workers(command: str, option: str, value: int | None) -> int | None:
    """A worker count of at least 1 and at most this machine's CPUs: more workers than CPUs
    only wait for one another (and thousands of them exhaust the machine before a game is
    played). A count above the CPUs is lowered, said in one line on stderr."""
    at_least(option, value, 1)
    if value is None:
        return None
    cpus = machine_cpus()
    if value <= cpus:
        return value
    print(f"bito {command}: " + _("{option} {n} is more than this machine's {cpus} CPUs; "
                                  "using {cpus}").format(option=option, n=value, cpus=cpus),
          file=sys.stderr)
    return cpus


def bot_names_given(text: str | None, option: str = "--bots") -> list[str] | None:
    """The names in ``a,b,c`` (None when the flag was not given); a flag given with no name in
    it (``--bots ""``, ``--bots ,``) is refused rather than read as the default."""
    if text is None:
        return None
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise UsageError(_("{option} needs at least one bot name").format(option=option))
    return names
