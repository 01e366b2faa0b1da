"""The errors bito raises at its users.

Each names what went wrong in the user's terms: an illegal move names the rule it breaks, bad
text points at the character, a bad option names the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class BitoError(Exception):
    """Base class of every error bito raises on purpose."""


class Reason(Enum):
    """Why a move is refused, as a type: each rule's module declares its reasons as members of
    a subclass, ``NAME = ("rule name", N_("the words a player reads"))``.

    Code that must know why a move is refused compares members (``error.reason is
    Refused.TARGET_COVERED``), never a name or the message, which are for records and people.
    ``rule`` is the short stable name records and old callers know (``"throw-in limit"``);
    ``words`` is the rule's general sentence, marked for translation, which a face says when it
    has no finer sentence of its own. Two members may share a rule and words and stay apart:
    each member's value is its place in its class.
    """

    rule: str
    words: str

    def __new__(cls, rule: str, words: str = "") -> Reason:
        member = object.__new__(cls)
        member._value_ = len(cls.__members__)
        member.rule = rule
        member.words = words
        return member


class IllegalActionError(BitoError):
    """An action the rules do not allow in this position.

    ``reason`` is the typed :class:`Reason` (None only for a family that still names its rules
    by string); ``rule`` is its short stable name (``"throw-in limit"``), ``detail`` says how
    it applies here (``"the defender holds 2 cards"``). ``facts`` carries what the detail
    names as data (card codes under ``card``, ``target``; ``trumps`` a tuple of suits), so a
    face can say it in a player's words without reading the English back.
    """

    def __init__(self, reason: Reason | str, detail: str,
                 facts: Mapping[str, int | tuple[int, ...]] | None = None) -> None:
        rule = reason.rule if isinstance(reason, Reason) else reason
        super().__init__(f"{rule}: {detail}")
        self.reason: Reason | None = reason if isinstance(reason, Reason) else None
        self.rule = rule
        self.detail = detail
        self.facts: dict[str, int | tuple[int, ...]] = dict(facts or {})


class InvalidNotationError(BitoError, ValueError):
    """Text that is not valid notation; ``position`` is the index of the offending character."""

    def __init__(self, reason: str, text: str, position: int = 0) -> None:
        pointer = " " * position + "^"
        super().__init__(f"{reason}\n  {text}\n  {pointer}")
        self.reason = reason
        self.text = text
        self.position = position


class RulesError(BitoError, ValueError):
    """An unknown, malformed or conflicting rules option; ``key`` names it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


class UnknownVariantError(RulesError):
    """A variant name that is not in the registry."""


class RecordError(BitoError, ValueError):
    """A malformed game record; ``line`` is the 1-based line at fault (0 if not line-bound)."""

    def __init__(self, line: int, message: str) -> None:
        where = f"line {line}: " if line else ""
        super().__init__(f"{where}{message}")
        self.line = line
