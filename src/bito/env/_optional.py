"""One clear message when a research dependency is missing.

The core engine has no runtime dependencies; the adapters in :mod:`bito.env` need the
``rl`` extra. Importing an adapter without it should say what to install, not show a bare
``ModuleNotFoundError`` from deep inside.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, what: str) -> ModuleType:
    """Import ``module`` or raise ImportError naming the extra that provides it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        raise ImportError(
            f"{what} needs the {module.split('.')[0]!r} package: "
            "install the research extra with  python3 -m pip install 'bito[rl]'"
        ) from e
