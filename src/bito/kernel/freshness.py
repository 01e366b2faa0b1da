"""Keep numba's on-disk cache of the kernel in step with the kernel's source.

numba checks a cached function against the file it is written in, and nothing else: when
``core.py`` or ``layout.py`` changes (a ``git pull``, an edit), the machine code cached for
``greedy.py``, ``solver.py``, ``vector.py`` and ``batch.py``, which inline them, is still loaded
as it was, and plays the old rules. The verifier would then compare the reference engine with a
kernel that is not the one in the tree. So the compiled modules import this module first: it
fingerprints every kernel source file and, when the fingerprint differs from the one stamped
beside the cache, drops the cached machine code (numba compiles it again on first use).

It is a guard for a source tree that changes under an existing cache; an install from a
package writes every file anew, which numba notices by itself. A cache numba keeps elsewhere
(``NUMBA_CACHE_DIR``) is left to whoever set it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

#: The kernel's sources whose compiled code numba caches or inlines into cached code.
SOURCES = ("layout.py", "core.py", "greedy.py", "solver.py", "vector.py", "batch.py",
           "verify.py", "two_decks.py", "frozen.py")
STAMP = "kernel-sources.sha256"


def fingerprint(folder: Path) -> str:
    """One hash over the kernel's source files (missing ones count as empty)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(name.encode())
        with contextlib.suppress(OSError):
            digest.update((folder / name).read_bytes())
    return digest.hexdigest()


def drop_stale_cache(folder: Path | None = None) -> bool:
    """Remove the cached machine code in ``folder/__pycache__`` when the sources changed
    since it was stamped; True when anything was removed. Never raises: a read-only install
    or a race with another process starting at the same moment at worst compiles again."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    folder = folder or Path(__file__).resolve().parent
    cache = folder / "__pycache__"
    now = fingerprint(folder)
    try:
        if (cache / STAMP).read_text().strip() == now:
            return False
    except OSError:
        pass
    removed = False
    with contextlib.suppress(OSError):
        for path in cache.glob("*.nb[ci]"):
            with contextlib.suppress(OSError):
                path.unlink()
                removed = True
        cache.mkdir(exist_ok=True)
        tmp = cache / f"{STAMP}.{os.getpid()}"
        tmp.write_text(now + "\n")
        tmp.replace(cache / STAMP)
    return removed


drop_stale_cache()

__all__ = ["SOURCES", "STAMP", "drop_stale_cache", "fingerprint"]
