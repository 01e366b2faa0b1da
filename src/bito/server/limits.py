"""Size limits the app keeps itself, whatever is in front of it (nginx, or nothing on a LAN).

* An HTTP request body is at most :data:`MAX_BODY` bytes. A larger ``Content-Length`` is
  refused before a byte of the body is read; a body sent without one (chunked) is counted as
  it arrives and refused as soon as it passes the limit. Either way the answer is ``413``
  with a JSON body naming the limit (``{"error", "code": "body_too_large", "field":
  "body", "limit"}``) and the connection is closed, so a 200 MB upload costs the process
  64 KiB, not 200 MB.
* A websocket message is at most :data:`MAX_FRAME` bytes (uvicorn is told the same, and
  closes a bigger frame itself with 1009 before it is assembled); under another server the
  app still refuses it: an error frame naming the limit, then close code 1009 ("message too
  big"). Messages under that but over ``MAX_MESSAGE`` characters are refused one by one,
  the connection kept (``bito.server.app``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: Bytes of an HTTP request body. The largest the app takes is a table's house rules
#: (a TOML text of a few kilobytes).
MAX_BODY = 64 * 1024
#: Bytes of one websocket message.
MAX_FRAME = 1 << 20
TOO_BIG_CLOSE = 1009  # RFC 6455: "message too big"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def body_refusal(limit: int) -> dict[str, Any]:
    return {"error": f"the request body is too large: at most {limit} bytes",
            "code": "body_too_large", "field": "body", "limit": limit}


def frame_refusal(size: int, limit: int = MAX_FRAME) -> dict[str, Any]:
    return {"type": "error", "code": "frame_too_large", "field": "message", "limit": limit,
            "message": f"message too large ({size} bytes; at most {limit})"}


class BodyLimit:
    """ASGI middleware: every HTTP request body at most ``limit`` bytes (see above)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        length = headers.get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = self.limit + 1  # a server lets no such request through anyway
            if declared > self.limit:
                await self._refuse(send)
                return
            await self.app(scope, receive, send)
            return
        if b"transfer-encoding" not in headers:  # no body at all
            await self.app(scope, receive, send)
            return
        # A body of unknown length: read it here, counting, and hand the app what came.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        payload = json.dumps(body_refusal(self.limit)).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": payload})
