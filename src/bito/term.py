"""How the terminal games print: colour, trumps highlighted, and an ASCII fallback.

The games write plain lines (``Anna attacks 7♥``); a :class:`Printer` decides, once per
command, how they reach the screen:

* **colour** (``--color auto|always|never``): red and black suits, trumps highlighted, the
  player's turn emphasised. ``auto`` colours only a terminal, and never when ``NO_COLOR`` is
  set (https://no-color.org) or ``TERM=dumb``; ``always`` colours a pipe too. Colour comes
  from Rich, an optional extra (``pip install 'bito[term]'``): without it the games print
  plainly, so the engine and the terminal keep working with no dependency at all.
* **glyphs**: when the output encoding cannot show the suit symbols (a Windows console on a
  legacy code page, ``PYTHONIOENCODING=ascii``, an old terminal), cards are printed in their
  notation (``Th``, ``7d``), which is also what the player types, and lone suit symbols as
  words (``trump hearts``).

The games never test any of this: they call the printer like ``print``. Tests drive it through
a pseudo-terminal (tests/cli/test_terminal_pty.py).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from typing import Any, TextIO

from bito.cards import SUIT_CHARS, SUIT_NAMES, SUIT_SYMBOLS

COLOR_CHOICES = ("auto", "always", "never")

#: A card as the games print it: rank (``10`` or one character), suit symbol, copy marks
#: (two-deck games), and the ``*`` that marks a trump in a hand.
CARD = re.compile(r"(?<![\w♣♦♥♠])(10|[2-9JQKA])([♣♦♥♠])('*)(\*?)")
#: A suit symbol on its own (``Trump ♣``, ``calls ♥``).
LONE_SUIT = re.compile(r"[♣♦♥♠]")
#: A suit symbol that is not part of a card (for colouring it on its own).
ALONE_SUIT = re.compile(r"(?<![0-9JQKA])[♣♦♥♠]")
#: Lines that tell the player it is their turn.
YOUR_TURN = re.compile(r"^(Your move|Your moves:|Ваш ход|Ваши ходы:)")
#: Lines that refuse a move (in every language of bito.i18n).
REFUSED = re.compile(r"^(Not allowed|Not a move here|Cannot read that move|Nothing to undo|"
                     r"Так нельзя|Здесь так не ходят|Не удаётся прочитать ход|Нечего отменять)")

#: Non-ASCII the games print besides suits, and what an ASCII terminal gets instead.
ASCII_WORDS = {"—": "-", "–": "-", "…": "...", "←": "<-", " (дурак)": "", "«": '"', "»": '"'}

RED_SUITS = frozenset({1, 2})  # diamonds, hearts


def can_show_suits(stream: TextIO) -> bool:
    """Whether ``stream``'s encoding has the four suit symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SUIT_SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def wants_color(choice: str, stream: TextIO, environ: dict[str, str] | None = None) -> bool:
    """``--color``: ``always``/``never`` as said; ``auto`` only on a terminal, not under
    ``NO_COLOR`` (any non-empty value) or ``TERM=dumb``."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty()) if isatty is not None else False


def ascii_cards(text: str) -> str:
    """Suit symbols as notation (``10♥`` → ``Th``) and as words (``Trump ♣`` → ``Trump
    clubs``), and the few other non-ASCII marks as ASCII."""
    def card(m: re.Match[str]) -> str:
        rank = "T" if m.group(1) == "10" else m.group(1)
        return rank + SUIT_CHARS[SUIT_SYMBOLS.index(m.group(2))] + m.group(3) + m.group(4)

    text = CARD.sub(card, text)
    text = LONE_SUIT.sub(lambda m: SUIT_NAMES[SUIT_SYMBOLS.index(m.group(0))], text)
    for word, plain in ASCII_WORDS.items():
        text = text.replace(word, plain)
    return text


#: The ASCII card pattern, for colouring cards already turned into notation.
ASCII_CARD = re.compile(r"(?<![\w>=+-])([2-9TJQKA])([cdhs])('*)(\*?)(?![\w])")


class Printer:
    """``print`` for the terminal games, with colour and glyphs decided once.

    ``trumps`` (suit numbers) is set by the game as it goes, so that trump cards anywhere on
    a line (in a hand, on the table) are highlighted.
    """

    def __init__(self, color: str = "auto", stream: TextIO | None = None,
                 environ: dict[str, str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdout
        self.ascii = not can_show_suits(self.stream)
        self.color = wants_color(color, self.stream, environ)
        self.trumps: frozenset[int] = frozenset()
        self.missing_rich = False
        self._console: Any = None
        if self.color:
            try:
                from rich.console import Console
            except ImportError:
                self.color = False
                self.missing_rich = color == "always"  # say so once, only when asked for
            else:
                self._console = Console(
                    file=self.stream, force_terminal=True, no_color=False,
                    color_system="standard", highlight=False, markup=False, emoji=False,
                    soft_wrap=True)

    def set_trumps(self, trumps: Iterable[int]) -> None:
        self.trumps = frozenset(s for s in trumps if 0 <= s < 4)

    def __call__(self, text: str = "") -> None:
        for line in str(text).split("\n"):
            self._line(line)
        self.stream.flush()

    def plain(self, line: str) -> str:
        """The line with glyphs fixed for this stream, without colour."""
        return ascii_cards(line) if self.ascii else line

    def _line(self, line: str) -> None:
        shown = self.plain(line)
        if self._console is None:
            self.stream.write(shown + "\n")
            return
        from rich.text import Text

        text = Text(shown)
        if YOUR_TURN.match(shown):
            text.stylize("bold green", 0, len(shown))
        elif REFUSED.match(shown):
            text.stylize("bold red", 0, len(shown))
        if not self.ascii:  # a lone suit (Trump ♣, calls ♥) in its colour
            for m in ALONE_SUIT.finditer(shown):
                if SUIT_SYMBOLS.index(m.group(0)) in RED_SUITS:
                    text.stylize("red", m.start(), m.end())
        pattern = ASCII_CARD if self.ascii else CARD
        for m in pattern.finditer(shown):
            suit = (SUIT_CHARS if self.ascii else SUIT_SYMBOLS).index(m.group(2))
            style = "red" if suit in RED_SUITS else "default"
            if suit in self.trumps:
                style = f"bold reverse {style}"  # seen on dark and light backgrounds alike
            text.stylize(style, m.start(), m.end())
        self._console.print(text)

