"""The frozen rules of the bout-structure games (VARIANTS.md §3.9), one dataclass per engine,
each with its own option prefix (``heap.*``, ``chinese.*``, ``prelude.*``, ``polish.*``).

The catalogue values of each id are in :data:`bito.rules.catalogue_bouts.BOUT_OPTIONS`; a user
changes them like any option (``heaped+heap.hand_size=4``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bito.errors import RulesError
from bito.games.protocol import check_choice

DECKS = (32, 36, 52)


def _check_seats(prefix: str, low: int, high: int) -> None:
    if low < 2 or high < low:
        raise RulesError(f"{prefix}.players_max", f"must be at least {prefix}.players_min (2+)")


@dataclass(frozen=True)
class HeapRules:
    """The heap games: heaped (#69), heaped top-N (#70) and the chain fool (#71).

    ``mode``: ``heap`` (cover the lead card, then lead one of your own to the next player;
    the covered cards pile up) or ``chain`` (each player covers the top card; a chain of as
    many cards as players still in is discarded). ``take``: what a player who fails takes:
    ``all`` the heap, the ``top`` ``take_top`` cards (``take_top_trump`` when the card he
    failed on is a trump), or the ``bottom`` card. ``hand_size`` 0 deals the whole pack."""

    PREFIX: ClassVar[str] = "heap"

    variant: str = "heaped"
    family: str = "bouts"
    deck_size: int = 36
    players_min: int = 2
    players_max: int = 6
    mode: str = "heap"
    hand_size: int = 3
    take: str = "all"
    take_top: int = 3
    take_top_trump: int = 5
    restart: str = "last_coverer"
    move_cap: int = 1500

    def check(self) -> None:
        check_choice("heap.deck_size", self.deck_size, DECKS)
        check_choice("heap.mode", self.mode, ("heap", "chain"))
        check_choice("heap.take", self.take, ("all", "top", "bottom"))
        check_choice("heap.restart", self.restart, ("left_of_coverer", "last_coverer"))
        if not 0 <= self.hand_size <= 12:
            raise RulesError("heap.hand_size", "0 (the whole pack) or 1 to 12 cards")
        if self.take_top < 1 or self.take_top_trump < 1:
            raise RulesError("heap.take_top", "a take holds at least one card")
        if self.move_cap < 100:
            raise RulesError("heap.move_cap", "at least 100 actions")
        _check_seats("heap", self.players_min, self.players_max)

    @property
    def max_players(self) -> int:
        per = self.hand_size or 2
        return min(self.players_max, self.deck_size // per)


@dataclass(frozen=True)
class ChineseRules:
    """The China fool (#65) and its pass-on derivative (#66).

    ``block_trigger``: what closes the throw-ins of a bout (#65 A1): the 9♦ led or thrown in
    and then covered (``nine_covered``), or a cover made with the 9♦ (``covered_with_nine``).
    ``pass_on``: #66, the uncovered cards of a failed defence go on to the next player.
    ``first_fail``: #66 A3, what happens to the other table cards when the defender fails on
    the first card: ``discard`` them or ``pass_on`` the uncovered ones too."""

    PREFIX: ClassVar[str] = "chinese"

    variant: str = "chinese"
    family: str = "bouts"
    deck_size: int = 36
    players_min: int = 2
    players_max: int = 6
    block_trigger: str = "nine_covered"
    pass_on: bool = False
    first_fail: str = "discard"
    cap: int = 6
    move_cap: int = 3000

    def check(self) -> None:
        check_choice("chinese.deck_size", self.deck_size, DECKS)
        check_choice("chinese.block_trigger", self.block_trigger,
                     ("nine_covered", "covered_with_nine"))
        check_choice("chinese.first_fail", self.first_fail, ("discard", "pass_on"))
        if self.cap < 1:
            raise RulesError("chinese.cap", "a bout holds at least one attack card")
        if self.move_cap < 100:
            raise RulesError("chinese.move_cap", "at least 100 actions")
        _check_seats("chinese", self.players_min, self.players_max)

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 4)


@dataclass(frozen=True)
class PreludeRules:
    """A hand-building prelude, then an ordinary Durak game with the hands it built.

    ``kind``: ``contest`` (#67: every player turns a card, the highest starts a pile, the
    others must beat it by rank or take the pile) or ``flip`` (#68: a player turns cards from
    the stock and keeps the centre when his card beats the one to beat). ``main``: the Durak
    variant played afterwards (no stock: every card is already in a hand or out of play), with
    ``main_options`` added to its spec (``+``-separated ``key=value``). ``keep``: #68 A3, where
    the won cards go: ``hand``, or ``discard``. ``move_cap`` bounds phase 1 only (it ends by
    itself when the stock is gone); the Durak game has its own end rules."""

    PREFIX: ClassVar[str] = "prelude"

    variant: str = "two_phase_japanese"
    family: str = "bouts"
    deck_size: int = 36
    players_min: int = 2
    players_max: int = 6
    kind: str = "contest"
    main: str = "japanese"
    main_options: str = "beats.restricted_suit=c"
    keep: str = "hand"
    move_cap: int = 1000

    def check(self) -> None:
        check_choice("prelude.deck_size", self.deck_size, (36, 52))
        check_choice("prelude.kind", self.kind, ("contest", "flip"))
        check_choice("prelude.keep", self.keep, ("hand", "discard"))
        _check_seats("prelude", self.players_min, self.players_max)

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 6)


@dataclass(frozen=True)
class PolishRules:
    """The deck-flipping Polish fool (#72, a reconstructed fragment).

    ``fail_take``: how many top centre cards a player who cannot beat takes once the stock is
    empty (3 in the seed)."""

    PREFIX: ClassVar[str] = "polish"

    variant: str = "polish_fool"
    family: str = "bouts"
    deck_size: int = 36
    players_min: int = 2
    players_max: int = 6
    fail_take: int = 3
    move_cap: int = 1000

    def check(self) -> None:
        check_choice("polish.deck_size", self.deck_size, DECKS)
        if self.fail_take < 1:
            raise RulesError("polish.fail_take", "a take holds at least one card")
        if self.move_cap < 100:
            raise RulesError("polish.move_cap", "at least 100 actions")
        _check_seats("polish", self.players_min, self.players_max)

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 4)
