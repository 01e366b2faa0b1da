"""Where batches of independent games run: in this process, in a process pool, or on Ray.

``sim`` and ``arena`` hand an executor a picklable function and a list of work items; the
executor returns the results in the order of the items, whatever order they finished in, so a
run is reproducible whichever executor plays it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

EXECUTOR_NAMES = ("local", "process", "ray")


class Executor(Protocol):
    """Runs ``fn`` over ``items`` and yields the results in item order."""

    name: str
    workers: int

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]: ...

    def close(self) -> None: ...


class LocalExecutor:
    """Everything in this process: the reference for what the others must reproduce."""

    name = "local"

    def __init__(self) -> None:
        self.workers = 1

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return map(fn, items)

    def close(self) -> None:
        pass


class ProcessExecutor:
    """A pool of worker processes on this machine."""

    name = "process"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or os.cpu_count() or 1
        self._pool = ProcessPoolExecutor(max_workers=self.workers)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        return self._pool.map(fn, items, chunksize=1)

    def close(self) -> None:
        self._pool.shutdown()


def make_executor(name: str = "local", workers: int | None = None) -> Executor:
    """The executor called ``name`` (one of :data:`EXECUTOR_NAMES`)."""
    if name == "local":
        return LocalExecutor()
    if name == "process":
        return ProcessExecutor(workers)
    if name == "ray":
        raise ValueError("the ray executor is not built yet")
    raise ValueError(f"unknown executor {name!r}; choose from {', '.join(EXECUTOR_NAMES)}")
