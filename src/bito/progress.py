"""A progress bar for long commands (sim, arena, sweep, review), with no dependency: a
carriage-return bar on a terminal, a line per tenth of the work into a file or pipe. Its own
module, so that what the commands run (a review, a sweep) can show progress without importing
the command line."""

from __future__ import annotations

import time
from typing import Any, TextIO

from bito.i18n import _


class ProgressBar:
    """A carriage-return text bar on a stream, with no dependency.

    On a terminal it redraws at most ten times a second; into a file or pipe it writes one
    line per tenth of the work, so logs stay readable.
    """

    def __init__(self, total: int, stream: TextIO, label: str = "games") -> None:
        self.total = max(total, 1)
        self.stream = stream
        self.label = label
        isatty = getattr(stream, "isatty", None)
        self.tty = bool(isatty()) if isatty is not None else False
        self.shown = -1
        self.last = 0.0

    def __call__(self, done: int, total: int | None = None, *rest: Any) -> None:
        if total:
            self.total = max(total, 1)
        pct = 100 * done // self.total
        finished = done >= self.total
        if self.tty:
            now = time.monotonic()
            if not finished and (pct == self.shown or now - self.last < 0.1):
                return
            self.last = now
        elif not finished and pct // 10 == self.shown // 10:
            return
        self.shown = pct
        width = 30
        fill = width * min(done, self.total) // self.total
        text = f"[{'#' * fill}{'.' * (width - fill)}] {done}/{self.total} {_(self.label)} ({pct}%)"
        self.stream.write(f"\r{text}" if self.tty else f"{text}\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty and self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
