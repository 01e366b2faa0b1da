"""Where batches of independent games run: in this process, in a process pool, or on Ray.

``sim`` and ``arena`` hand an executor a picklable function and a list of work items; the
executor returns the results in the order of the items, whatever order they finished in, so a
run is reproducible whichever executor plays it.
"""

from __future__ import annotations

import os
from collections import deque
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


class RayExecutor:
    """Tasks on a Ray cluster: the one named by ``RAY_ADDRESS`` if it is set, otherwise a
    private local instance started on first use (quietly, without the dashboard).

    At most ``workers`` tasks are in flight at once, so ``workers`` means the same thing as for
    the process pool whatever the size of the cluster; results still come back in item order.
    The cluster is left running on :meth:`close` (starting Ray costs seconds, and the next
    executor in this process reuses it); Ray stops it when the process exits.
    """

    name = "ray"

    def __init__(self, workers: int | None = None) -> None:
        ray = _import_ray()
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            quiet: dict[str, Any] = {"include_dashboard": False, "logging_level": "warning",
                                     "log_to_driver": False}
            if address:
                ray.init(address=address, **quiet)
            else:
                ray.init(num_cpus=max(2, workers or 0), **quiet)
        self._ray = ray
        if workers is None:
            workers = int(ray.cluster_resources().get("CPU", 1)) or 1
        self.workers = max(1, workers)
        self._task = ray.remote(num_cpus=1)(_call)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        ray = self._ray
        fn_ref = ray.put(fn)
        pending: deque[Any] = deque()
        for item in items:
            if len(pending) >= self.workers:
                yield ray.get(pending.popleft())
            pending.append(self._task.remote(fn_ref, item))
        while pending:
            yield ray.get(pending.popleft())

    def close(self) -> None:
        pass


def _call(fn: Callable[[Any], Any], item: Any) -> Any:
    """What a Ray task runs: one work item."""
    return fn(item)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError("the ray executor needs Ray: pip install 'bito[ray]'") from None
    return ray


def make_executor(name: str = "local", workers: int | None = None) -> Executor:
    """The executor called ``name`` (one of :data:`EXECUTOR_NAMES`)."""
    if name == "local":
        return LocalExecutor()
    if name == "process":
        return ProcessExecutor(workers)
    if name == "ray":
        return RayExecutor(workers)
    raise ValueError(f"unknown executor {name!r}; choose from {', '.join(EXECUTOR_NAMES)}")
