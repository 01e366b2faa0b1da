"""``python -m bito.server.load --cpu-quota``: equal CPU budgets per server process (issue 18,
"Performance"). Setting real quotas needs root, so the suite checks what does not: where
the cpu controller is found, the refusals, the quota arithmetic and the cgroup files written,
on a fake cgroup tree. The measurement itself is in docs/benchmarks.md."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bito.server import cpuquota, load
from bito.server.cpuquota import CpuController, CpuQuotaError, QuotaGroups

#: This machine's kind of mount table: cgroup v1 controllers each on its own mount (cpuacct
#: listed before cpu, so a substring match would pick the wrong one), cgroup v2 beside them.
V1_MOUNTS = """\
tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0
cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0
cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
"""
V2_MOUNTS = "cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid,nodev,noexec,relatime 0 0\n"


class FakeFiles:
    """A cgroup tree in memory: files are texts, a write to ``cgroup.procs`` moves a pid."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self.texts = dict(texts or {})
        self.dirs: set[str] = set()
        self.removed: list[str] = []
        self.fail_mkdir: str | None = None
        self.busy: dict[str, int] = {}  # group -> rmdir refusals left (a process exiting)

    def read(self, path: str) -> str:
        if path.endswith("cgroup.procs"):
            return "".join(f"{pid}\n" for pid, where in self.where().items()
                           if where == os.path.dirname(path))
        if path not in self.texts:
            raise FileNotFoundError(path)
        return self.texts[path]

    def write(self, path: str, text: str) -> None:
        if path.endswith("cgroup.procs"):
            self.texts.setdefault("moves", "")
            self.texts["moves"] += f"{text}>{os.path.dirname(path)}\n"
            return
        self.texts[path] = text

    def where(self) -> dict[int, str]:
        """Each pid's group after every move so far."""
        out: dict[int, str] = {}
        for line in self.texts.get("moves", "").splitlines():
            pid, group = line.split(">")
            out[int(pid)] = group
        return out

    def mkdir(self, path: str) -> None:
        if path == self.fail_mkdir:
            raise PermissionError(13, "Permission denied", path)
        self.dirs.add(path)

    def rmdir(self, path: str) -> None:
        if self.busy.get(path):
            self.busy[path] -= 1
            raise OSError(16, "Device or resource busy", path)
        self.dirs.discard(path)
        self.removed.append(path)

    def exists(self, path: str) -> bool:
        return path in self.texts or path in self.dirs


V1 = CpuController(1, "/sys/fs/cgroup/cpu")
V2 = CpuController(2, "/sys/fs/cgroup")


def test_the_v1_cpu_mount_is_found_not_cpuacct() -> None:
    assert cpuquota.find_cpu_controller(V1_MOUNTS, FakeFiles()) == V1


def test_a_combined_cpu_cpuacct_mount_is_found() -> None:
    mounts = "cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\n"
    found = cpuquota.find_cpu_controller(mounts, FakeFiles())
    assert found == CpuController(1, "/sys/fs/cgroup/cpu,cpuacct")


def test_v2_counts_only_where_cpu_is_among_its_controllers() -> None:
    with_cpu = FakeFiles({"/sys/fs/cgroup/cgroup.controllers": "cpuset cpu io memory pids\n"})
    assert cpuquota.find_cpu_controller(V2_MOUNTS, with_cpu) == V2
    # this machine's unified hierarchy offers hugetlb only: no controller there
    hugetlb = FakeFiles({"/sys/fs/cgroup/cgroup.controllers": "hugetlb\n"})
    assert cpuquota.find_cpu_controller(V2_MOUNTS, hugetlb) is None


def test_not_root_is_refused_naming_the_option_and_why() -> None:
    with pytest.raises(CpuQuotaError, match=r"--cpu-quota needs root"):
        cpuquota.open_controller(1000, V1_MOUNTS, FakeFiles())


def test_no_cpu_controller_is_refused_naming_the_option() -> None:
    with pytest.raises(CpuQuotaError, match=r"--cpu-quota: no cgroup cpu controller"):
        cpuquota.open_controller(0, "proc /proc proc rw 0 0\n", FakeFiles())


@pytest.mark.parametrize(("fraction", "period_us", "cpus", "why"), [
    (0.0, 10_000, 2, "above 0"),
    (-0.5, 10_000, 2, "above 0"),
    (float("nan"), 10_000, 2, "above 0"),
    (2.5, 10_000, 2, "2 cores"),
    (0.05, 10_000, 2, "least quota of 1 ms"),
])
def test_quotas_the_kernel_or_machine_cannot_give_are_refused(
        fraction: float, period_us: int, cpus: int, why: str) -> None:
    with pytest.raises(CpuQuotaError, match="--cpu-quota") as refused:
        cpuquota.check_request(fraction, period_us, cpus)
    assert why in str(refused.value)


@pytest.mark.parametrize("period_us", [500, 5_000_000])
def test_periods_the_kernel_refuses_are_refused_naming_the_period_option(
        period_us: int) -> None:
    with pytest.raises(CpuQuotaError, match=r"--cpu-period-ms .*1 to 1000 ms"):
        cpuquota.check_request(0.5, period_us, 2)


def test_a_refused_write_names_the_file_and_value() -> None:
    class Refusing(FakeFiles):
        def write(self, path: str, text: str) -> None:
            if path.endswith("cpu.cfs_quota_us"):
                raise OSError(22, "Invalid argument")
            super().write(path, text)

    files = Refusing()
    groups = QuotaGroups(V1, "g", 0.35, servers=1, files=files)
    with pytest.raises(CpuQuotaError,
                       match=r"writing '3500' to /sys/fs/cgroup/cpu/g/server0/cpu.cfs_quota_us"):
        groups.create()
    assert files.dirs == set()


def test_a_quota_is_its_fraction_of_the_period() -> None:
    cpuquota.check_request(0.35, 10_000, 2)  # accepted
    assert cpuquota.quota_us(0.35, 10_000) == 3500
    assert cpuquota.quota_us(1.0, 100_000) == 100_000


@given(st.integers(2, 262144), st.integers(2, 262144))
def test_shares_map_onto_the_v2_weight_range_in_order(a: int, b: int) -> None:
    wa, wb = cpuquota.shares_to_weight(a), cpuquota.shares_to_weight(b)
    assert 1 <= wa <= 10000 and 1 <= wb <= 10000
    assert (a <= b) <= (wa <= wb)  # never reversed
    assert cpuquota.shares_to_weight(262144) == 10000 and cpuquota.shares_to_weight(2) == 1


def test_v1_groups_are_made_filled_and_removed() -> None:
    files = FakeFiles({"/proc/500/cgroup": "2:cpuacct:/\n1:cpu:/elsewhere\n0::/\n"})
    groups = QuotaGroups(V1, "bito-load-9", 0.35, servers=2, period_us=10_000, shares=4096,
                         files=files)
    groups.create()
    root = "/sys/fs/cgroup/cpu/bito-load-9"
    assert files.texts[f"{root}/cpu.shares"] == "4096"
    for i in (0, 1):
        assert files.texts[f"{root}/server{i}/cpu.cfs_period_us"] == "10000"
        assert files.texts[f"{root}/server{i}/cpu.cfs_quota_us"] == "3500"
    assert groups.rest == root  # v1: the unquoted processes sit in the parent itself
    groups.add_rest([500])  # e.g. PostgreSQL, which came from /elsewhere
    groups.add_server(1, [600])  # a server born in its group... or moved there
    assert files.where() == {500: root, 600: f"{root}/server1"}
    groups.remove()
    assert files.where()[500] == "/sys/fs/cgroup/cpu/elsewhere"  # back where it was
    assert files.where()[600] == "/sys/fs/cgroup/cpu/elsewhere"  # left over: the fallback
    assert files.removed == [f"{root}/server1", f"{root}/server0", root]  # deepest first


def test_v2_keeps_processes_in_leaves_and_sets_cpu_max() -> None:
    files = FakeFiles({"/sys/fs/cgroup/cgroup.subtree_control": "memory pids\n"})
    groups = QuotaGroups(V2, "bito-load-9", 0.4, servers=1, period_us=20_000, shares=1024,
                         files=files)
    groups.create()
    root = "/sys/fs/cgroup/bito-load-9"
    assert files.texts["/sys/fs/cgroup/cgroup.subtree_control"] == "+cpu"
    assert files.texts[f"{root}/cgroup.subtree_control"] == "+cpu"
    assert files.texts[f"{root}/cpu.weight"] == str(cpuquota.shares_to_weight(1024))
    assert files.texts[f"{root}/server0/cpu.max"] == "8000 20000"
    assert groups.rest == f"{root}/rest"
    assert files.dirs == {root, f"{root}/rest", f"{root}/server0"}


def test_a_failed_set_up_is_undone_and_refused_naming_the_option() -> None:
    files = FakeFiles()
    files.fail_mkdir = "/sys/fs/cgroup/cpu/bito-load-9/server1"
    groups = QuotaGroups(V1, "bito-load-9", 0.35, servers=2, files=files)
    with pytest.raises(CpuQuotaError, match=r"--cpu-quota: could not set up.*Permission"):
        groups.create()
    assert files.dirs == set()  # what was made is gone
    assert groups.made == []


def test_a_group_still_busy_is_removed_when_it_empties() -> None:
    files = FakeFiles()
    groups = QuotaGroups(V1, "g", 0.35, servers=1, files=files)
    groups.create()
    files.busy["/sys/fs/cgroup/cpu/g"] = 2  # a backend exiting: refused twice
    groups.remove(attempts=5, pause=0)
    assert files.dirs == set() and groups.made == []
    assert files.removed == ["/sys/fs/cgroup/cpu/g/server0", "/sys/fs/cgroup/cpu/g"]


def test_throttling_over_the_window_is_the_difference_of_the_counters() -> None:
    stat = "/sys/fs/cgroup/cpu/g/server0/cpu.stat"
    files = FakeFiles({stat: "nr_periods 100\nnr_throttled 10\nthrottled_time 5000000\n"})
    groups = QuotaGroups(V1, "g", 0.35, servers=1, files=files)
    groups.begin()
    files.texts[stat] = "nr_periods 300\nnr_throttled 70\nthrottled_time 25000000\n"
    # 60 of 200 periods throttled; 20,000,000 ns waited
    assert groups.end() == [{"periods": 200, "throttled_share": 0.3, "throttled_ms": 20.0}]


def test_descendants_follow_the_parent_links() -> None:
    parents = {10: 1, 11: 10, 12: 11, 13: 1, 14: 10}
    assert sorted(cpuquota.descendants(10, parents)) == [10, 11, 12, 14]


def test_the_load_tool_refuses_before_starting_anything(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def no_process(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a process was started before the refusal")

    monkeypatch.setattr(load.subprocess, "Popen", no_process)
    monkeypatch.setattr(load.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit) as exited:
        load.main(["--cpu-quota", "0.35", "--tables", "1"])
    assert exited.value.code == 2
    assert "--cpu-quota needs root" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        load.main(["--cpu-quota", "0.35", "--url", "http://127.0.0.1:1"])
    assert "--cpu-quota needs the servers this tool starts" in capsys.readouterr().err
