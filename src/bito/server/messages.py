"""A client's messages on a table's websocket: checked for shape, then carried out.

Clients only ever send *intents* (``{"type": "act", "action": "Th>6h"}``); the message's
shape, the seat and the move's legality are checked, and a problem comes back as an error
reply naming the field at fault, in the connection's language. A bad message never closes
anybody else's connection or table.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from bito.errors import BitoError
from bito.server import chat, refusals, rematch, webtext
from bito.server.render import Json
from bito.server.rooms import Connection, Lobby, Room, RoomError

log = logging.getLogger("bito.server")

MAX_MESSAGE = 4096  # characters; a move is a few
MAX_DEPTH = 4  # nesting of a message (they are flat objects)
#: Text nested deeper than this is refused unparsed; between MAX_DEPTH and this, the parsed
#: message's check names the field at fault.
MAX_PARSED_DEPTH = 64


KNOWN = ("act", "ready", "bot", "back", "kick", "chat", "rematch", "ping")


class MessageError(RoomError):
    """A message whose shape is wrong; ``field`` names the part at fault."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


async def _nowhere(frame: Json | str) -> None:
    """The sender of a message handled without a socket (nothing is sent back)."""
    del frame


def _bracket_depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings skipped (one pass, no
    parsing; malformed text is left to the parser)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_shape(message: Any) -> None:
    """Refuse what a message must never hold: text that is not Unicode (a lone surrogate,
    which could not be sent back), or nesting deeper than :data:`MAX_DEPTH`. Iterative, so a
    deep message cannot exhaust the stack here. The error's field is the top-level key at
    fault (its message gives the whole path)."""
    stack: list[tuple[Any, str, int]] = [(message, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        field = path.split(".")[0].split("[")[0] or "message"
        if depth > MAX_DEPTH:
            raise MessageError(field, f"{path or 'the message'}: nested too deeply (a "
                               "message is a flat JSON object)")
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise MessageError(field, f'{path or "the message"}: not valid text (a lone '
                                   "surrogate such as \\ud800)") from None
        elif isinstance(value, dict):
            for key, item in value.items():
                try:
                    key.encode("utf-8")
                except UnicodeEncodeError:
                    raise MessageError(field, f"{path or 'the message'}: a key is not valid "
                                       "text (a lone surrogate)") from None
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                stack.append((item, f"{path}[{i}]", depth + 1))


async def handle(lobby: Lobby, room: Room, seat: int | None, text: str | None,
                  conn: Connection | None = None) -> Json | None:
    """Check one message and carry it out; a problem comes back as an error reply: a stable
    ``code`` (``webtext.error_words``) and the message in the connection's language."""
    lang = conn.lang if conn is not None else "en"
    kind = None
    try:
        if text is None:
            raise MessageError("message", "send JSON text frames, not binary ones")
        if len(text) > MAX_MESSAGE:
            raise MessageError("message", f"message too long ({len(text)} characters; at "
                               f"most {MAX_MESSAGE})")
        if _bracket_depth(text) > MAX_PARSED_DEPTH:
            # Refused before parsing: how deep json.loads can go depends on the process's
            # recursion limit, and the answer must not.
            raise MessageError("message", "the message: nested too deeply (a message is a "
                               "flat JSON object)")
        try:
            message = json.loads(text)
        except json.JSONDecodeError as e:
            raise MessageError("message", f"not valid JSON: {e.msg.removesuffix(' at')} at "
                               f"column {e.colno}") from None
        except RecursionError:
            raise MessageError("message", "the message: nested too deeply (a message is a "
                               "flat JSON object)") from None
        # The shape first: a deep list must be named as such whatever the recursion limit
        # let json.loads read (a process that raised the limit parses 2,000 levels).
        _check_shape(message)
        if not isinstance(message, dict):
            raise MessageError("message", 'a message is a JSON object with a "type"')
        if "type" not in message:
            raise MessageError("type", 'a message is a JSON object with a "type"')
        if not isinstance(message["type"], str):
            raise MessageError("type", f'"type": expected a text (one of {", ".join(KNOWN)})')
        kind = message["type"]
        if kind not in KNOWN:
            shown = kind if len(kind) <= 20 else kind[:20] + "…"
            kind = None  # not echoed back as the request
            raise MessageError("type", f"unknown message type {shown!r} (known: "
                               f"{', '.join(KNOWN)})")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "chat":  # spectators may talk too, as the host chose
            await chat.chat(lobby, room, conn or Connection(seat, _nowhere), message)
            return None
        if seat is None:
            raise RoomError("spectators can only watch: join the table to play")
        if kind == "act":
            action = message.get("action")
            if not isinstance(action, str) or not action.strip():
                raise MessageError("action", '"act" needs "action": the move in notation, '
                                   'e.g. "7d"')
            await lobby.act(room, seat, action)
        elif kind == "ready":
            await lobby.ready(room, seat)
        elif kind == "back":
            await lobby.back(room, seat)
        elif kind == "bot":
            target, bot = message.get("seat"), message.get("bot")
            if not isinstance(target, int) or isinstance(target, bool):
                raise MessageError("seat", '"bot" needs "seat": a seat number')
            if bot is not None and not isinstance(bot, str):
                raise MessageError("bot", '"bot" needs "bot": a bot name, or null to open '
                                   'the seat')
            await lobby.seat_bot(room, seat, target, bot)
        elif kind == "rematch":
            agree = message.get("agree", True)
            if not isinstance(agree, bool):
                raise MessageError("agree", '"rematch" needs "agree": true (play the next '
                                   'deal) or false (leave)')
            await rematch.answer(lobby, room, seat, agree)
        elif kind == "kick":
            target = message.get("seat")
            if not isinstance(target, int) or isinstance(target, bool):
                raise MessageError("seat", '"kick" needs "seat": a seat number')
            await lobby.kick(room, seat, target)
        return None
    except MessageError as e:
        # the shape of a message is a programmer's matter (its code), said in the person's
        # language where the field and the problem are known
        return {"type": "error", "request": kind, "field": e.field, "code": "message",
                "message": webtext.message_words(str(e), lang)}
    except chat.ChatError as e:
        # a refused chat line is the person's own matter: said in his language
        code, said = refusals.error_words(str(e), lang)
        return {"type": "error", "request": kind, "field": e.field, "code": "chat",
                "message": said}
    except BitoError as e:
        code, said = refusals.error_words(e, lang)
        return {"type": "error", "request": kind, "code": code, "message": said}
    except Exception as e:  # never let one message take the server down
        log.exception("table %s: message failed", room.id)
        code, said = refusals.error_words(f"server error: {type(e).__name__}", lang)
        return {"type": "error", "request": kind, "code": code, "message": said}

