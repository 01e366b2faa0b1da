"""``bito serve``: play any registered game in the browser, with friends and bots.

The server owns every game (state and random seed); browsers only send intents and only
ever receive their own seat's view. See ``docs/web.md``.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    """Build the FastAPI app (imported lazily so the engine never needs the web extra)."""
    from bito.server.app import create_app as build

    return build(*args, **kwargs)


__all__ = ["create_app"]
