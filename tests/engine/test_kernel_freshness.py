"""The compiled kernel's disk cache follows its sources (``bito.kernel.freshness``): numba
checks a cached function only against its own file, so a change to ``core.py`` would leave the
machine code cached for the modules that inline it playing the old rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bito.kernel import freshness

KERNEL = Path(freshness.__file__).resolve().parent


def _tree(tmp_path: Path) -> Path:
    for name in freshness.SOURCES:
        (tmp_path / name).write_text(f"# {name}\n")
    (tmp_path / "__pycache__").mkdir()
    return tmp_path


def _cached(folder: Path) -> None:
    for name in ("greedy.rollout-10.py311.nbi", "greedy.rollout-10.py311.1.nbc"):
        (folder / "__pycache__" / name).write_bytes(b"machine code")


def test_a_changed_source_drops_the_cached_code_and_an_unchanged_one_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    folder = _tree(tmp_path)
    _cached(folder)
    assert freshness.drop_stale_cache(folder)  # no stamp yet: nothing vouches for the cache
    assert not list((folder / "__pycache__").glob("*.nb[ci]"))
    _cached(folder)  # compiled again from these sources
    assert not freshness.drop_stale_cache(folder)
    assert len(list((folder / "__pycache__").glob("*.nb[ci]"))) == 2
    (folder / "core.py").write_text("# core.py, a rule changed\n")  # a git pull, an edit
    assert freshness.drop_stale_cache(folder)
    assert not list((folder / "__pycache__").glob("*.nb[ci]"))
    assert (folder / "__pycache__" / freshness.STAMP).read_text().strip() == \
        freshness.fingerprint(folder)


def test_a_cache_kept_elsewhere_is_left_alone(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    _cached(folder)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not freshness.drop_stale_cache(folder)
    assert len(list((folder / "__pycache__").glob("*.nb[ci]"))) == 2


def test_every_cached_module_is_fingerprinted_and_loads_the_guard_first() -> None:
    cached = {p.name for p in KERNEL.glob("*.py") if "cache=True" in p.read_text()}
    assert cached and cached <= set(freshness.SOURCES)
    for name in cached - {"core.py"}:  # the others compile through core's imports
        assert re.search(r"^from bito\.kernel\.core import|^from bito\.kernel import core",
                         (KERNEL / name).read_text(), re.M), name
    core = (KERNEL / "core.py").read_text()
    assert core.index("bito.kernel.freshness") < core.index("@njit")
