"""Cards, decks and card sets.

A card is a small ``int`` so that a set of cards is a plain ``int`` bitmask: union, difference
and "which of my cards beat this one" are single machine operations, which is what keeps the
pure-Python reference engine fast.

Layout of a card code::

    code = copy * 80 + suit * 16 + rank

* ``rank``: 2..14 (``2``..``A``) for suited cards; for special cards (suit 4) the rank field
  picks the special: 1 red joker, 2 black joker, 3..6 the four wild cards, 7 the mega card.
* ``suit``: 0 clubs, 1 diamonds, 2 hearts, 3 spades, 4 "no suit" (specials).
* ``copy``: 0 for the first deck, 1 for the identical twin from a second deck.

Every card of a single standard deck has a code below 64.

Notation: rank ``2-9 T J Q K A`` then suit ``c d h s`` (``6h``, ``Ts``); jokers ``RJ`` / ``BJ``;
wild cards ``W1``..``W4``; the mega card ``MC``; a twin from the second deck carries a trailing
apostrophe (``6h'``); ``??`` is a hidden card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import Final

from bito.errors import InvalidNotationError

RANK_CHARS: Final = "23456789TJQKA"
SUIT_CHARS: Final = "cdhs"
SUIT_SYMBOLS: Final = "♣♦♥♠"
#: Cards typed in Russian (docs/notation.md): валет, дама, король, туз, and 10 for the ten;
#: пики, черви, бубны, крести (or трефы). A card is read by position, rank then suit, so Т
#: is туз (the ace) first and трефы (clubs) second, К король first and крести second.
RUSSIAN_RANKS: Final = {"В": "J", "Д": "Q", "К": "K", "Т": "A"}
RUSSIAN_SUITS: Final = {"П": "s", "Ч": "h", "Б": "d", "К": "c", "Т": "c"}
#: The Russian form printed for each suit (clubs as крести), by suit index (c d h s).
RUSSIAN_SUIT_CHARS: Final = "кбчп"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}

CLUBS, DIAMONDS, HEARTS, SPADES, NO_SUIT = 0, 1, 2, 3, 4
JACK, QUEEN, KING, ACE = 11, 12, 13, 14
COPY_STRIDE: Final = 80

#: Special cards (suit 4). Their rank field distinguishes them.
SPECIAL_CODES: Final = {"RJ": 1, "BJ": 2, "W1": 3, "W2": 4, "W3": 5, "W4": 6, "MC": 7}
_SPECIAL_BY_RANK: Final = {v: k for k, v in SPECIAL_CODES.items()}

HIDDEN: Final = -1
"""Stands for a card the viewer may not see (written ``??``)."""

MAX_CARDS: Final = 2 * COPY_STRIDE
"""More cards than any deck bito builds holds (every card code is below it): no count in a
text (``??*N``, ``#N``) and no list of cards may exceed it, so a crafted record cannot make a
parser build a list of millions of cards."""

MAX_TEXT: Final = 4096
"""The longest single text a parser reads (a card list, an action). The largest deck written
out card by card with separators takes well under a thousand characters."""


MAX_LINE: Final = 16384
"""The longest one-line text that holds many card lists: a position (the longest we have seen
in play is about 600 characters), a record line."""


def check_length(text: str, limit: int = MAX_TEXT, what: str = "text") -> None:
    """Refuse a text longer than ``limit`` before any parsing work is done on it. The error
    quotes only the start of the text, so a huge input does not make a huge message."""
    if len(text) > limit:
        raise InvalidNotationError(f"{what} longer than {limit} characters ({len(text)})",
                                   text[:60] + "...", 60)


def parse_count(digits: str, text: str, at: int, *, low: int = 0, high: int = MAX_CARDS,
                what: str = "a count") -> int:
    """A decimal count written in ``text`` at ``at``, between ``low`` and ``high``.

    Only ASCII digits count: ``str.isdigit`` accepts superscripts that ``int`` rejects, and
    a count is bounded before conversion so ten thousand digits cannot reach ``int``."""
    if not digits or not (digits.isascii() and digits.isdigit()):
        raise InvalidNotationError(f"{what} is a number from {low} to {high}", text, at)
    if len(digits) > len(str(high)) or not low <= int(digits) <= high:
        raise InvalidNotationError(f"{what} is a number from {low} to {high}", text, at)
    return int(digits)


def card(rank: int, suit: int, copy: int = 0) -> int:
    """Return the code of a suited card (``card(6, HEARTS)`` is the six of hearts)."""
    return copy * COPY_STRIDE + suit * 16 + rank


def special(name: str, copy: int = 0) -> int:
    """Return the code of a special card by its notation (``special("RJ")``)."""
    return copy * COPY_STRIDE + NO_SUIT * 16 + SPECIAL_CODES[name]


def rank_of(code: int) -> int:
    return code % 16


def suit_of(code: int) -> int:
    return (code % COPY_STRIDE) // 16


def copy_of(code: int) -> int:
    return code // COPY_STRIDE


def is_special(code: int) -> bool:
    return suit_of(code) == NO_SUIT


def bit(code: int) -> int:
    """The one-card set containing ``code``."""
    return 1 << code


def mask_of(cards: Iterable[int]) -> int:
    """The card set (bitmask) holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a set in increasing code order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def cards_count(n: int) -> str:
    """``1 card``, ``3 cards``: a number of cards in the engines' English texts (the terminal
    says them in the player's language, with that language's plural forms: bito.tui_words)."""
    return f"{n} card" if n == 1 else f"{n} cards"


@cache  # a few hundred codes; position texts write millions of cards
def card_str(code: int) -> str:
    """Two-character (three for a twin) notation of a card; ``??`` for :data:`HIDDEN`."""
    if code == HIDDEN:
        return "??"
    twin = "'" * copy_of(code)
    if is_special(code):
        return _SPECIAL_BY_RANK[rank_of(code)] + twin
    return RANK_CHARS[rank_of(code) - 2] + SUIT_CHARS[suit_of(code)] + twin


def card_pretty(code: int) -> str:
    """Terminal form with a suit symbol (``6♥``, ``10♠``)."""
    if code == HIDDEN:
        return "??"
    if is_special(code):
        return card_str(code)
    r = rank_of(code)
    rank = "10" if r == 10 else RANK_CHARS[r - 2]
    return rank + SUIT_SYMBOLS[suit_of(code)] + "'" * copy_of(code)


def card_russian(code: int) -> str:
    """A suited card in Russian letters (``Вп``, ``10ч``, ``Тк``), which :func:`parse_card`
    reads back; other cards (jokers, ``??``) as :func:`card_str` writes them.

    >>> [card_russian(parse_card(text)) for text in ("Js", "Th", "Ac")]
    ['Вп', '10ч', 'Тк']
    """
    if code == HIDDEN or is_special(code):
        return card_str(code)
    r = rank_of(code)
    latin = RANK_CHARS[r - 2]
    rank = "10" if r == 10 else next((k for k, v in RUSSIAN_RANKS.items() if v == latin), latin)
    return rank + RUSSIAN_SUIT_CHARS[suit_of(code)] + "'" * copy_of(code)


def _from_russian(t: str) -> str:
    """A card typed with Russian letters as the Latin notation (``Вп`` -> ``Js``, ``10ч`` ->
    ``Th``), same length, so an error still points at the typed character; any other text
    as it is."""
    if len(t) not in (2, 3) or not any(_cyrillic(ch) for ch in t):
        return t
    rank, suit = t[:-1], t[-1].upper()
    rank = RUSSIAN_RANKS.get(rank.upper(), rank)
    return rank + RUSSIAN_SUITS.get(suit, t[-1])


def parse_card(text: str, *, allow_hidden: bool = False) -> int:
    """Parse one card; raise :class:`InvalidNotationError` pointing at the bad character.

    A card is a rank and a suit; ``10`` is accepted for ``T``, Russian letters for both
    (:data:`RUSSIAN_RANKS`, :data:`RUSSIAN_SUITS`), and printing gives the notation back:

    >>> card_str(parse_card("10h")), card_pretty(parse_card("Qs"))
    ('Th', 'Q♠')
    >>> card_str(parse_card("Вп")), card_str(parse_card("10ч")), card_str(parse_card("тб"))
    ('Js', 'Th', 'Ad')
    >>> parse_card("1h")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    bito.errors.InvalidNotationError: unknown rank '1' (ranks are 2-9 T J Q K A)...
    """
    check_length(text, what="a card")
    t = text.strip()
    copy = 0
    while t.endswith("'"):
        copy += 1
        t = t[:-1]
    if copy > 1:  # two decks at most: a third twin has no card code
        raise InvalidNotationError("a card has at most one apostrophe (the second deck's twin)",
                                   text, len(text.rstrip()) - copy + 1)
    if allow_hidden and t == "??":
        return HIDDEN
    t = _from_russian(t)
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise InvalidNotationError("a card is a rank and a suit, like 6h or Ts", text, 0)
    up = t.upper()
    if up in SPECIAL_CODES:
        return special(up, copy)
    r = RANK_CHARS.find(up[0])
    if r < 0:
        raise InvalidNotationError(f"unknown rank {t[0]!r} (ranks are 2-9 T J Q K A; in "
                                   "Russian 2-10 В Д К Т)" if _cyrillic(t[0]) else
                                   f"unknown rank {t[0]!r} (ranks are 2-9 T J Q K A)", text, 0)
    s = SUIT_CHARS.find(t[1].lower())
    if s < 0:
        s = SUIT_SYMBOLS.find(t[1])
    if s < 0:
        raise InvalidNotationError(f"unknown suit {t[1]!r} (suits are c d h s; in Russian "
                                   "п ч б к)" if _cyrillic(t[1]) else
                                   f"unknown suit {t[1]!r} (suits are c d h s)", text, 1)
    return card(r + 2, s, copy)


def _cyrillic(ch: str) -> bool:
    return "\u0400" <= ch <= "\u04ff"


def split_cards(text: str, *, allow_hidden: bool = False) -> list[int]:
    """Parse a run of cards written back to back or separated by spaces/commas/plus signs.

    ``"6h7hAs"``, ``"6h 7h As"`` and ``"6h,7h"`` all work; ``"??*5"`` means five hidden cards.
    ``-`` or an empty string is the empty list.
    """
    check_length(text, what="a list of cards")
    out: list[int] = []
    s = text.strip()
    if s in ("", "-"):
        return out
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch in " ,+":
            i += 1
            continue
        if s.startswith("??*", i):
            j = i + 3
            while j < n and s[j].isascii() and s[j].isdigit():
                j += 1
            if j == i + 3 or not allow_hidden:
                raise InvalidNotationError("expected ??*N (N hidden cards)", text, i)
            hidden = parse_count(s[i + 3 : j], text, i + 3, high=MAX_CARDS - len(out),
                                 what="the number of hidden cards")
            out.extend([HIDDEN] * hidden)
            i = j
            continue
        width = 3 if s.startswith("10", i) else 2
        j = i + width
        while j < n and s[j] == "'":
            j += 1
        token = s[i:j]
        try:
            out.append(parse_card(token, allow_hidden=allow_hidden))
        except InvalidNotationError as e:
            raise InvalidNotationError(e.reason, text, i + e.position) from None
        if len(out) > MAX_CARDS:
            raise InvalidNotationError(f"more than {MAX_CARDS} cards", text, i)
        i = j
    return out


def cards_str(cards: Iterable[int], sep: str = "") -> str:
    text = sep.join(card_str(c) for c in cards)
    return text or "-"


# --- decks -------------------------------------------------------------------------------

#: Lowest rank of each standard deck size.
STANDARD_LOW_RANK: Final = {24: 9, 32: 7, 36: 6, 52: 2}


def standard_deck(size: int = 36, *, jokers: int = 0, copies: int = 1) -> tuple[int, ...]:
    """The cards of a standard deck: 24 (9-A), 32 (7-A), 36 (6-A) or 52 (2-A) suited cards,
    optionally with a red and a black joker, optionally doubled into identical twins."""
    if size not in STANDARD_LOW_RANK:
        raise ValueError(f"deck size must be one of {sorted(STANDARD_LOW_RANK)}, not {size}")
    low = STANDARD_LOW_RANK[size]
    out: list[int] = []
    for cp in range(copies):
        for s in range(4):
            for r in range(low, ACE + 1):
                out.append(card(r, s, cp))
        if jokers >= 1:
            out.append(special("RJ", cp))
        if jokers >= 2:
            out.append(special("BJ", cp))
    return tuple(out)


@lru_cache(maxsize=64)
def build_deck(size: int = 36, *, jokers: int = 0, wild: int = 0, mega: bool = False,
               copies: int = 1) -> tuple[int, ...]:
    """A standard deck plus special cards, optionally doubled: jokers (``RJ`` then ``BJ``), up
    to four wild cards (``W1``..``W4``) and the mega card (``MC``)."""
    base = standard_deck(size, jokers=jokers, copies=copies)
    extra = [special(f"W{i}", cp) for cp in range(copies) for i in range(1, wild + 1)]
    if mega:
        extra += [special("MC", cp) for cp in range(copies)]
    return base + tuple(extra)


def colour_of(code: int) -> int:
    """0 for black (clubs, spades, the black joker), 1 for red (diamonds, hearts, the red
    joker), -1 for cards without a colour (wild cards, the mega card)."""
    s = suit_of(code)
    if s == NO_SUIT:
        r = rank_of(code)
        return 1 if r == 1 else 0 if r == 2 else -1
    return 1 if s in (DIAMONDS, HEARTS) else 0


def is_joker(code: int) -> bool:
    return suit_of(code) == NO_SUIT and rank_of(code) in (1, 2)


def is_wild(code: int) -> bool:
    return suit_of(code) == NO_SUIT and 3 <= rank_of(code) <= 6


def is_mega(code: int) -> bool:
    return suit_of(code) == NO_SUIT and rank_of(code) == 7


SUIT_MASKS: Final = tuple(
    sum(1 << card(r, s, cp) for r in range(2, 15) for cp in range(2)) for s in range(4)
)
"""All suited cards of each suit (both copies)."""

RANK_MASKS: Final = tuple(
    sum(1 << card(r, s, cp) for s in range(4) for cp in range(2)) if r >= 2 else 0
    for r in range(16)
)
"""All suited cards of each rank (both copies), indexed by rank."""


def describe(code: int) -> str:
    """Words for a card, for rules text and error messages (``six of hearts``)."""
    if is_special(code):
        names = {1: "red joker", 2: "black joker", 7: "mega card"}
        return names.get(rank_of(code), f"wild card {rank_of(code) - 2}")
    return f"{RANK_NAMES[rank_of(code)]} of {SUIT_NAMES[suit_of(code)]}"


def _match_mask(code: int) -> int:
    if suit_of(code) != NO_SUIT:
        return RANK_MASKS[rank_of(code)]
    r = rank_of(code)
    if r in (1, 2):  # jokers match each other
        return sum(1 << special(n, cp) for n in ("RJ", "BJ") for cp in range(2))
    if 3 <= r <= 6:  # wild cards match each other
        return sum(1 << special(f"W{i}", cp) for i in range(1, 5) for cp in range(2))
    return 1 << code  # the mega card matches only itself (no other card can join it)


MATCH_MASKS: Final = tuple(_match_mask(c) for c in range(2 * COPY_STRIDE))
"""For throw-ins and transfers: the cards that count as "the same rank" as each card code.
A suited card matches every card of its rank; a joker matches the jokers and a wild card the
wild cards (VARIANTS.md §3.3); the mega card matches only itself. Every card is in its own
mask, so grouping a hand by these masks always makes progress."""
