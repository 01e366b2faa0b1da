"""Equal CPU budgets for the load benchmark's server processes (issue 18, "Performance").

On a machine with few cores the load generator, nginx and PostgreSQL take most of a core
beside one server process, so a second server process finds no idle core and "2 processes
serve 1.6x the moves of 1" cannot be shown, whatever the code. A CPU quota per server
process stands in for a core of its own: with every server held to the same fraction of a
core (``cpu.cfs_quota_us`` in cgroup v1, ``cpu.max`` in cgroup v2), 1, 2 or 3 processes are
each bound by their own budget, as each would be by its own core on a bigger machine, while
the generator, nginx and PostgreSQL run beside them without a quota.

The layout, under the cpu controller's mount (``NAME`` is unique to one run)::

    NAME/            a high weight (cpu.shares / cpu.weight) against other work on the machine
      rest/          the generator, nginx, PostgreSQL: no quota (cgroup v1 keeps them in NAME/)
      server0/ ...   one server process and its bot workers each: quota/period

The period is short (10 ms by default) so a throttled process waits at most a few
milliseconds, not the kernel's default 100 ms, which would show up in every p99.

Only :mod:`bito.server.load` uses this, and only as root; nothing here runs in a server.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

#: The option that asks for quotas, named in every refusal.
OPTION = "--cpu-quota"
#: The kernel refuses a CFS quota below 1 ms.
MIN_QUOTA_US = 1000
#: The periods the kernel accepts (cpu.cfs_period_us and cpu.max both), µs.
PERIOD_RANGE_US = (1000, 1_000_000)
#: cgroup v1's default cpu.shares (one nice-0 process's weight).
DEFAULT_SHARES = 1024


class CpuQuotaError(Exception):
    """Quotas cannot be set here; the message names the option and the reason."""


@dataclass(frozen=True)
class CpuController:
    """Where the cpu controller is mounted, and which cgroup version it is."""

    version: int  # 1 or 2
    root: str


class Files(Protocol):
    """The few file operations on a cgroup tree (a fake tree in the tests)."""

    def read(self, path: str) -> str: ...
    def write(self, path: str, text: str) -> None: ...
    def mkdir(self, path: str) -> None: ...
    def rmdir(self, path: str) -> None: ...
    def exists(self, path: str) -> bool: ...


class RealFiles:
    """The machine's own cgroup file system."""

    def read(self, path: str) -> str:
        with open(path) as f:
            return f.read()

    def write(self, path: str, text: str) -> None:
        with open(path, "w") as f:
            f.write(text)

    def mkdir(self, path: str) -> None:
        os.mkdir(path)

    def rmdir(self, path: str) -> None:
        os.rmdir(path)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)


def find_cpu_controller(mounts: str, files: Files) -> CpuController | None:
    """The cpu controller's mount from ``/proc/self/mounts`` text: a cgroup v1 mount whose
    options name ``cpu``, else a cgroup v2 mount whose ``cgroup.controllers`` lists ``cpu``."""
    v2: CpuController | None = None
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        point, kind, options = parts[1], parts[2], parts[3].split(",")
        if kind == "cgroup" and "cpu" in options:
            return CpuController(1, point)
        if kind == "cgroup2" and v2 is None:
            controllers = os.path.join(point, "cgroup.controllers")
            if files.exists(controllers) and "cpu" in files.read(controllers).split():
                v2 = CpuController(2, point)
    return v2


def quota_us(fraction: float, period_us: int) -> int:
    """The quota per period for ``fraction`` of one core."""
    return round(fraction * period_us)


def check_request(fraction: float, period_us: int, cpus: int) -> None:
    """Refuse a quota the kernel would refuse or the machine cannot give."""
    low, high = PERIOD_RANGE_US
    if not low <= period_us <= high:
        raise CpuQuotaError(f"--cpu-period-ms {period_us / 1000:g}: the kernel takes periods "
                            f"of {low // 1000} to {high // 1000} ms")
    if not fraction > 0:
        raise CpuQuotaError(f"{OPTION} must be a fraction of a core above 0, not {fraction}")
    if fraction > cpus:
        raise CpuQuotaError(f"{OPTION} {fraction}: this machine has {cpus} cores")
    if quota_us(fraction, period_us) < MIN_QUOTA_US:
        raise CpuQuotaError(
            f"{OPTION} {fraction} of a {period_us / 1000:g} ms period is below the kernel's "
            f"least quota of {MIN_QUOTA_US / 1000:g} ms: use a longer period or a larger share")


def shares_to_weight(shares: int) -> int:
    """cgroup v1 ``cpu.shares`` (2-262144, 1024 a nice-0 process) as a v2 ``cpu.weight``
    (1-10000, 100 the default), on the same linear scale the kernel documents."""
    return max(1, min(10000, 1 + (shares - 2) * 9999 // 262142))


def open_controller(euid: int, mounts: str, files: Files) -> CpuController:
    """The controller to use, or a refusal saying why there is none."""
    if euid != 0:
        raise CpuQuotaError(f"{OPTION} needs root: it makes cgroups under /sys/fs/cgroup")
    controller = find_cpu_controller(mounts, files)
    if controller is None:
        raise CpuQuotaError(f"{OPTION}: no cgroup cpu controller is mounted here (neither a "
                            "cgroup v1 'cpu' hierarchy nor cpu in cgroup v2's controllers)")
    return controller


def cgroup_of(pid: int, controller: CpuController, files: Files) -> str:
    """The cgroup (path under the controller's mount) a process is in now."""
    for line in files.read(f"/proc/{pid}/cgroup").splitlines():
        number, names, path = line.split(":", 2)
        if controller.version == 2 and number == "0":
            return path
        if controller.version == 1 and "cpu" in names.split(","):
            return path
    return "/"


@dataclass
class QuotaGroups:
    """One run's cgroups: made by :meth:`create`, filled by :meth:`add_server` and
    :meth:`add_rest`, undone by :meth:`remove` (every process moved back to where it
    was, every group removed)."""

    controller: CpuController
    name: str
    fraction: float
    servers: int
    period_us: int = 10_000
    shares: int = 4 * DEFAULT_SHARES
    files: Files = field(default_factory=RealFiles)
    made: list[str] = field(default_factory=list)
    homes: dict[int, str] = field(default_factory=dict)  # pid -> its cgroup before
    start: list[dict[str, int]] = field(default_factory=list)

    @property
    def parent(self) -> str:
        return os.path.join(self.controller.root, self.name)

    @property
    def rest(self) -> str:
        """The group of the generator, nginx and PostgreSQL (no quota)."""
        return self.parent if self.controller.version == 1 else os.path.join(self.parent,
                                                                              "rest")

    def server(self, index: int) -> str:
        return os.path.join(self.parent, f"server{index}")

    def create(self) -> None:
        """Make the groups and set their weight and quotas. cgroup v2 allows processes only
        in the leaves of a tree whose controllers are enabled, hence its ``rest/``."""
        v1 = self.controller.version == 1
        f = _Naming(self.files)
        try:
            if not v1:
                top = os.path.join(self.controller.root, "cgroup.subtree_control")
                if "cpu" not in f.read(top).split():
                    f.write(top, "+cpu")
            f.mkdir(self.parent)
            self.made.append(self.parent)
            if v1:
                f.write(os.path.join(self.parent, "cpu.shares"), str(self.shares))
            else:
                f.write(os.path.join(self.parent, "cpu.weight"),
                        str(shares_to_weight(self.shares)))
                f.write(os.path.join(self.parent, "cgroup.subtree_control"), "+cpu")
                f.mkdir(self.rest)
                self.made.append(self.rest)
            quota = quota_us(self.fraction, self.period_us)
            for i in range(self.servers):
                path = self.server(i)
                f.mkdir(path)
                self.made.append(path)
                if v1:
                    f.write(os.path.join(path, "cpu.cfs_period_us"), str(self.period_us))
                    f.write(os.path.join(path, "cpu.cfs_quota_us"), str(quota))
                else:
                    f.write(os.path.join(path, "cpu.max"), f"{quota} {self.period_us}")
        except OSError as e:
            self.remove()
            raise CpuQuotaError(f"{OPTION}: could not set up the cgroups under "
                                f"{self.controller.root}: {e}") from e

    def procs_file(self, group: str) -> str:
        return os.path.join(group, "cgroup.procs")

    def _move(self, pid: int, group: str) -> None:
        if pid not in self.homes:
            with contextlib.suppress(OSError, ValueError):
                self.homes[pid] = cgroup_of(pid, self.controller, self.files)
        self.files.write(self.procs_file(group), str(pid))

    def add_server(self, index: int, pids: Iterable[int]) -> None:
        """Put a server process (and whatever children it has) under quota ``index``."""
        for pid in pids:
            self._move(pid, self.server(index))

    def add_rest(self, pids: Iterable[int]) -> None:
        """Put processes beside the servers, without a quota (a process gone is skipped)."""
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                self._move(pid, self.rest)

    def throttling(self) -> list[dict[str, int]]:
        """Each server group's counters so far: periods, periods throttled, time throttled
        (µs), from ``cpu.stat``."""
        out = []
        for i in range(self.servers):
            stat: dict[str, int] = {}
            with contextlib.suppress(OSError):
                for line in self.files.read(os.path.join(self.server(i),
                                                         "cpu.stat")).splitlines():
                    key, _, value = line.partition(" ")
                    if value.strip().isdigit():
                        stat[key] = int(value)
            throttled_us = (stat.get("throttled_time", 0) // 1000 if self.controller.version
                            == 1 else stat.get("throttled_usec", 0))
            out.append({"periods": stat.get("nr_periods", 0),
                        "throttled": stat.get("nr_throttled", 0),
                        "throttled_us": throttled_us})
        return out

    def begin(self) -> None:
        self.start = self.throttling()

    def end(self) -> list[dict[str, float]]:
        """Per server group over the measured time: the share of periods in which it used
        its whole quota, and the time it waited for the next period."""
        out = []
        for before, now in zip(self.start, self.throttling(), strict=True):
            periods = now["periods"] - before["periods"]
            throttled = now["throttled"] - before["throttled"]
            out.append({"periods": periods,
                        "throttled_share": round(throttled / periods, 3) if periods else 0.0,
                        "throttled_ms": round((now["throttled_us"]
                                               - before["throttled_us"]) / 1000, 1)})
        return out

    def remove(self, attempts: int = 50, pause: float = 0.1) -> None:
        """Move every process left in the groups back where it came from (a process that
        was born in them goes where the first moved process came from), then remove the
        groups, deepest first. A group still holding a process that is exiting (a database
        backend whose connection just closed) cannot be removed yet, so this tries again,
        ``attempts`` times ``pause`` seconds apart. Never raises: this runs on the way out."""
        fallback = next(iter(self.homes.values()), "/")
        for attempt in range(attempts):
            for group in reversed(self.made):
                try:
                    pids = [int(p) for p in self.files.read(self.procs_file(group)).split()]
                except (OSError, ValueError):
                    pids = []
                for pid in pids:
                    home = self.homes.get(pid, fallback)
                    target = os.path.join(self.controller.root, home.lstrip("/"))
                    with contextlib.suppress(OSError):
                        self.files.write(self.procs_file(target), str(pid))
            for group in list(reversed(self.made)):
                try:
                    self.files.rmdir(group)
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                self.made.remove(group)
            if not self.made:
                return
            if attempt + 1 < attempts:
                time.sleep(pause)


@dataclass
class _Naming:
    """Files whose failed writes say which file and value (the kernel's EINVAL alone does
    not)."""

    files: Files

    def read(self, path: str) -> str:
        return self.files.read(path)

    def write(self, path: str, text: str) -> None:
        try:
            self.files.write(path, text)
        except OSError as e:
            raise OSError(e.errno, f"writing {text!r} to {path}: {e.strerror}") from e

    def mkdir(self, path: str) -> None:
        self.files.mkdir(path)


def descendants(root: int, parents: dict[int, int]) -> list[int]:
    """``root`` and every process below it, from a pid -> parent pid table."""
    found, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier
                    and pid not in found]
        found += frontier
    return found
