"""Card sets of two decks as two ``int64`` words: the first brick of the two-deck kernel.

#21 ``big_fool`` deals 2x36 = 72 cards, and the compiled kernel's card sets are one ``int64``
each (63 usable bits), so it refuses ``deck.copies=2``. The design (``docs/bots.md``, "Big
fool") is a second build of the state machine over two-word sets, leaving the one-word build
untouched so that the single-deck games pay nothing. This module holds what that build stands
on, and nothing uses it yet: :func:`bito.kernel.supports` still refuses two decks.

Why split at the copy and not renumber the 72 cards 0-71: a twin's reference code is its
card's plus :data:`bito.cards.COPY_STRIDE`, so the first deck's cards are the low word and
the twins the high word, *each in the single-deck layout*. A word then reads exactly as a
one-deck set does (rank sets, suits, a beat-table row), and an order the reference engine
takes on whole sets (its greedy tie-break on the lower set of cards) is the order of
``(high, low)`` compared high word first.

A kernel card index is the code for a first-deck card and :data:`TWIN` plus the code for
its twin (0-62 and 64-126), so an index fits the action encoding's target field as before.
"""

from __future__ import annotations

from typing import Final

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from bito.cards import COPY_STRIDE
from bito.kernel.core import popcount

WORD: Final = (1 << 63) - 1
"""The cards one word holds: one deck's codes, the sign bit unused."""
TWIN: Final = 64
"""Kernel index of a twin = :data:`TWIN` + its first-deck code."""


def split(mask: int) -> tuple[int, int]:
    """A reference card set of two plain decks as ``(low, high)``: the first deck's cards and
    the twins, each in one-deck codes. A card no word can hold (a joker, a code past a deck)
    is an error, never dropped: a lost card would make a different game."""
    low = mask & WORD
    high = (mask >> COPY_STRIDE) & WORD
    if join(low, high) != mask:
        raise ValueError(f"deck.copies: card set {mask:#x} holds cards outside two plain "
                         "decks (jokers or codes past a deck)")
    return low, high


def join(low: int, high: int) -> int:
    """The reference card set of ``(low, high)`` (:func:`split`'s inverse)."""
    return low | (high << COPY_STRIDE)


def kernel_card(code: int) -> int:
    """The kernel index of a reference card code (negatives, "no card", stay as they are)."""
    return code - COPY_STRIDE + TWIN if code >= COPY_STRIDE else code


def reference_card(index: int) -> int:
    return index - TWIN + COPY_STRIDE if index >= TWIN else index


# --- compiled set operations (the two-word build's counterparts of ``m & -m``, popcount...) ---


@njit(cache=True, inline="always")
def count(low: int, high: int) -> int:
    """Cards in a two-word set."""
    return popcount(low) + popcount(high)


@njit(cache=True, inline="always")
def lowest(low: int, high: int) -> int:
    """The lowest kernel index of a non-empty set: first-deck cards come before every twin,
    as the reference codes do."""
    if low != 0:
        return trailing_zeros(low)
    return TWIN + trailing_zeros(high)


@njit(cache=True, inline="always")
def has(low: int, high: int, c: int) -> bool:
    """Whether kernel index ``c`` is in the set."""
    if c >= TWIN:
        return (high >> (c - TWIN)) & 1 != 0
    return (low >> c) & 1 != 0


@njit(cache=True, inline="always")
def single(c: int) -> tuple[int, int]:
    """The set of one card."""
    if c >= TWIN:
        return 0, 1 << (c - TWIN)
    return 1 << c, 0


@njit(cache=True, inline="always")
def less(a_low: int, a_high: int, b_low: int, b_high: int) -> bool:
    """Whether set ``a`` comes before set ``b`` in the reference engine's order of whole
    sets (as integers of card codes): the twins decide first."""
    if a_high != b_high:
        return a_high < b_high
    return a_low < b_low
