"""What an HTTP request carries: its JSON body's fields, and a seat's token in a header.

A bad body or field is refused with the field named (a :class:`~bito.server.table.RoomError`,
which the app answers with 400); a seat token never travels in a URL.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from bito.server.table import RoomError

TOKEN_HEADER = "X-Bito-Token"


async def read_body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise RoomError("the request body must be a JSON object") from None
    if not isinstance(body, dict):
        raise RoomError("the request body must be a JSON object")
    return body


def field_of(body: dict[str, Any], key: str, kind: Any, default: Any) -> Any:
    value = body.get(key, default)
    if value is None or value == default:
        return value
    if isinstance(value, bool) and kind is not bool:
        raise RoomError(f"{key}: expected {_kind_name(kind)}, got true/false")
    if not isinstance(value, kind):
        raise RoomError(f"{key}: expected {_kind_name(kind)}")
    if kind is list and not all(isinstance(x, str) for x in value):
        raise RoomError(f"{key}: expected a list of texts")
    return value


def _kind_name(kind: Any) -> str:
    names = {str: "a text", int: "a whole number", bool: "true or false", list: "a list"}
    if isinstance(kind, tuple):
        return "a number"
    return names.get(kind, "another type")



def token_of(request: Request) -> str | None:
    """The seat token of an HTTP request: from the header, never from the URL."""
    if "token" in request.query_params:
        raise RoomError(f"seat tokens are not accepted in URLs: send the {TOKEN_HEADER} "
                        "header (a download link takes a ticket: POST "
                        "/api/tables/<table>/ticket)")
    return request.headers.get(TOKEN_HEADER)

