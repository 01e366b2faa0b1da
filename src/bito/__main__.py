"""``python -m bito``: the same command as the ``bito`` console script."""

from __future__ import annotations

import sys

from bito.cli import main

if __name__ == "__main__":
    sys.exit(main())
