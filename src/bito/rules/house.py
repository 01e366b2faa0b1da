"""House-rule files: a small TOML file that starts from any variant and changes options.

::

    # Our kitchen table
    name = "Kitchen perevodnoy"
    base = "perevodnoy+uncapped_after_stock"   # any variant spec

    [options]
    "throw_in.by" = "neighbours"
    draw.order = "defender_first"               # dotted keys may also be written bare

The options go through the same checks as ``+key=value`` parts of a variant spec, so an unknown
option, a bad value, or a value that contradicts a modifier of the base is rejected, naming the
key and the line it is on.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from bito.errors import RulesError
from bito.rules.options import OPTION_SPECS
from bito.rules.registry import Resolved, resolve

_TOP_KEYS = {"name", "base", "options", "description"}


def _flatten(table: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        full = f"{prefix}{key}"
        if isinstance(value, dict) and full not in OPTION_SPECS:
            out.update(_flatten(value, full + "."))
        else:
            out[full] = value
    return out


def _line_of(text: str, key: str) -> int:
    """The 1-based line where ``key`` is set (0 if it cannot be found)."""
    last = key.rsplit(".", 1)[-1]
    for no, line in enumerate(text.splitlines(), start=1):
        stripped = line.split("#", 1)[0]
        if key in stripped or (last in stripped and "=" in stripped):
            return no
    return 0


def _value_text(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        text = str(value)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = ",".join(value)
    else:
        raise RulesError(key, f"unsupported value {value!r}")
    if "+" in text or not text:
        raise RulesError(key, f"invalid value {value!r}")
    return text


#: A house-rules file is a handful of lines; anything this long is not one, and is refused
#: before the TOML parser spends time or memory on it.
MAX_RULES_FILE = 65536


#: How deep arrays and inline tables may nest: a house-rules file needs two levels. Checked
#: before parsing, so the answer does not depend on the interpreter's recursion limit.
MAX_NESTING = 16


def _nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings and comments (a bound: table
    headers count as one level)."""
    depth = deepest = 0
    quote = ""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote or c == "\n":
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return deepest


def parse_house_rules(text: str, source: str = "<rules>") -> Resolved:
    """Parse house rules from TOML text; errors name the key and line."""
    if len(text) > MAX_RULES_FILE:
        raise RulesError(source, f"a rules file is at most {MAX_RULES_FILE} characters, this "
                         f"one has {len(text)}")
    if _nesting(text) > MAX_NESTING:
        raise RulesError(source, f"not valid TOML: nested more than {MAX_NESTING} deep")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(source, f"not valid TOML: {e}") from None
    except RecursionError:  # tomllib recurses once per level of nested arrays and tables
        raise RulesError(source, "not valid TOML: nested too deeply") from None
    except ValueError as e:  # a number of more than 4300 digits, which int() refuses
        raise RulesError(source, f"not valid TOML: {' '.join(str(e).split()[:8])}") from None
    for key in data:
        if key not in _TOP_KEYS:
            raise RulesError(key, f"line {_line_of(text, key)}: unknown top-level key (use "
                             "name, base, description and an [options] table)")
    base = data.get("base", "podkidnoy")
    if not isinstance(base, str):
        raise RulesError("base", f"line {_line_of(text, 'base')}: must be a variant spec")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RulesError("options", "must be a table: [options]")
    parts = [base]
    for key, value in _flatten(options).items():
        if key not in OPTION_SPECS:
            raise RulesError(key, f"line {_line_of(text, key)}: unknown option (see `bito "
                             "variants --options`)")
        try:
            parts.append(f"{key}={_value_text(key, value)}")
        except RulesError as e:
            raise RulesError(key, f"line {_line_of(text, key)}: {e}") from None
    try:
        resolved = resolve("+".join(parts))
    except RulesError as e:
        line = _line_of(text, e.key)
        where = f"line {line}: " if line else ""
        raise RulesError(e.key, f"{where}{str(e).split(': ', 1)[-1]}") from None
    if resolved.game.family == "meta":
        # A rules file is played, and #64's tournament is a way of running many games, not
        # a game: resolving it gives its default rules, which would silently play podkidnoy.
        raise RulesError("base", f"line {_line_of(text, 'base')}: {resolved.game.id!r} is not "
                         "a game but a way of running many (`bito tournament`); name the "
                         "variant to play")
    return resolved


def load_house_rules(path: str | Path) -> Resolved:
    """Read a house-rules TOML file."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_RULES_FILE + 1)
    except OSError as e:
        raise RulesError(str(p), f"cannot read: {e.strerror}") from None
    if len(raw) > MAX_RULES_FILE:
        raise RulesError(str(p), f"a rules file is at most {MAX_RULES_FILE} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError(str(p), f"not UTF-8 text (byte {e.start})") from None
    return parse_house_rules(text, str(p))
