"""The blunder suite: positions from real games where a strong player's verdict is clear.

Each line of ``blunders.txt`` (beside this module) is one position::

    name | play MOVES | reason | position
    name | avoid MOVES | reason | position

``play`` lists the moves that pass (any one of them), ``avoid`` the moves that fail (any
other legal move passes); moves are in action notation (``6h>6c``, ``take``, ``7d+7s``), the
position in position notation (``docs/notation.md``), the reason one line for a person. Blank
lines and lines starting with ``#`` are ignored. A bad line raises :class:`SuiteError` naming the
line and the field, and every listed move must be legal in its position, so a typo cannot
quietly make a position always pass.

The suite asks a bot for one move per position (the view of the seat to act, a fresh bot per
position, seeded by the position's number) and counts the positions it passes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from bito.errors import BitoError
from bito.games.durak import Action, DurakState
from bito.notation import parse_position

SUITE_FILE = "blunders.txt"


class SuiteError(BitoError, ValueError):
    """A line of a blunder-suite file that cannot be read (names the line and the field)."""


@dataclass(frozen=True)
class Blunder:
    """One position of the suite and its verdict."""

    name: str
    play: tuple[str, ...]  # moves that pass (empty: every move not in ``avoid`` passes)
    avoid: tuple[str, ...]
    reason: str
    position: str
    line: int = 0
    state: DurakState = field(compare=False, repr=False, default=None)  # type: ignore[assignment]

    def passes(self, action: Action) -> bool:
        text = str(action)
        if self.play:
            return text in self.play
        return text not in self.avoid

    @property
    def stage(self) -> str:
        return self.reason.split(":", 1)[0] if ":" in self.reason else ""


def parse_line(text: str, line: int = 0) -> Blunder | None:
    """One line of a suite file (None for a blank line or a comment)."""
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    parts = [p.strip() for p in stripped.split(" | ")]
    if len(parts) != 4:
        raise SuiteError(f"line {line}: expected 'name | play|avoid MOVES | reason | "
                         f"position' (4 fields separated by ' | '), found {len(parts)}")
    name, verdict, reason, position = parts
    if not name or " " in name:
        raise SuiteError(f"line {line}: the name must be one word, not {name!r}")
    words = verdict.split()
    if len(words) < 2 or words[0] not in ("play", "avoid"):
        raise SuiteError(f"line {line} ({name}): the verdict must be 'play MOVES' or "
                         f"'avoid MOVES', not {verdict!r}")
    if not reason:
        raise SuiteError(f"line {line} ({name}): the reason is empty")
    try:
        state = parse_position(position)
    except BitoError as e:
        raise SuiteError(f"line {line} ({name}): bad position: {e}") from e
    legal = {str(a) for a in state.legal_actions()}
    moves = tuple(words[1:])
    for m in moves:
        if m not in legal:
            raise SuiteError(f"line {line} ({name}): {words[0]} move {m!r} is not legal in "
                             f"the position (legal: {' '.join(sorted(legal))})")
    if len(legal) < 2:
        raise SuiteError(f"line {line} ({name}): the position has only one legal move")
    if words[0] == "avoid" and len(set(moves)) >= len(legal):
        raise SuiteError(f"line {line} ({name}): every legal move is to be avoided")
    play = moves if words[0] == "play" else ()
    avoid = moves if words[0] == "avoid" else ()
    return Blunder(name, play, avoid, reason, position, line, state)


def parse_suite(lines: Iterable[str]) -> list[Blunder]:
    out = []
    names: set[str] = set()
    for n, text in enumerate(lines, 1):
        b = parse_line(text, n)
        if b is None:
            continue
        if b.name in names:
            raise SuiteError(f"line {n}: the name {b.name!r} is used twice")
        names.add(b.name)
        out.append(b)
    return out


def load_suite(path: str | None = None) -> list[Blunder]:
    """The suite shipped beside this module, or the one in ``path``."""
    if path is None:
        text = resources.files("bito.bots").joinpath(SUITE_FILE).read_text(encoding="utf-8")
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    return parse_suite(text.splitlines())


@dataclass
class SuiteResult:
    passed: int
    total: int
    failures: list[tuple[Blunder, str]]

    @property
    def score(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "total": self.total, "score": round(self.score, 4),
                "failures": [{"name": b.name, "played": m, "reason": b.reason}
                             for b, m in self.failures]}


def run_suite(suite: list[Blunder], make: Callable[[int], Any]) -> SuiteResult:
    """Ask ``make(i)`` (a fresh bot for position ``i``) for a move in every position."""
    passed = 0
    failures: list[tuple[Blunder, str]] = []
    for i, b in enumerate(suite):
        bot = make(i)
        state = b.state
        action = bot.choose(state.view(state.to_act))
        if b.passes(action):
            passed += 1
        else:
            failures.append((b, str(action)))
    return SuiteResult(passed, len(suite), failures)


__all__ = ["SUITE_FILE", "Blunder", "SuiteError", "SuiteResult", "load_suite", "parse_line",
           "parse_suite", "run_suite"]
