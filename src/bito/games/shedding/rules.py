"""Frozen rules objects of the shedding family: one for the Mau-Mau games, one for the
adjacent-rank game.

They are separate from the Durak :class:`~bito.rules.Rules` because almost nothing carries over
(no bouts, no trump, no throw-ins); each field is one decision point of its engine, named like
its catalogue axis (VARIANTS.md §4.15) and set with ``shed.<field>=value`` in a spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bito.cards import JACK, QUEEN
from bito.errors import RulesError
from bito.games.protocol import check_choice

POINT_TABLES = ("standard", "pentagon")


@dataclass(frozen=True)
class MauMauRules:
    """Czech fool (#86) and its options 1-7 (#87-#93)."""

    PREFIX: ClassVar[str] = "shed"

    variant: str = "czech_fool"
    family: str = "shedding"
    deck_size: int = 36
    hand_size: int = 5
    players_min: int = 2
    players_max: int = 6
    wild_rank: int = QUEEN
    draw_rule: str = "until_playable"
    draw_ranks: tuple[int, ...] = (6, 7)
    draw_counts: tuple[int, ...] = (2, 1)
    ace_rule: str = "skip"
    king_hearts_draw: int = 0
    match_rule: str = "suit_or_rank"
    call_skips: bool = False
    opening: str = "any_card"
    points: str = "standard"
    single_wild_points: int = 20
    wild_out_bonus: int = 0
    stuck_wild_loses: bool = False
    rounds: int = 5
    round_move_cap: int = 400

    def check(self) -> None:
        check_choice("shed.deck_size", self.deck_size, (32, 36))
        check_choice("shed.wild_rank", self.wild_rank, (JACK, QUEEN))
        check_choice("shed.draw_rule", self.draw_rule, ("until_playable", "one"))
        check_choice("shed.ace_rule", self.ace_rule, ("skip", "english"))
        check_choice("shed.match_rule", self.match_rule, ("suit_or_rank", "suit_only_six"))
        check_choice("shed.opening", self.opening, ("any_card", "dealer_last_card"))
        check_choice("shed.points", self.points, POINT_TABLES)
        if len(self.draw_ranks) != len(self.draw_counts):
            raise RulesError("shed.draw_counts", "give one count per rank in shed.draw_ranks")
        if self.hand_size < 1:
            raise RulesError("shed.hand_size", "must be at least 1")
        if self.rounds < 1:
            raise RulesError("shed.rounds", "a match has at least one round")
        if self.players_min < 2 or self.max_players < self.players_min:
            raise RulesError("shed.players_max", f"{self.deck_size} cards with "
                             f"{self.hand_size}-card hands cannot seat {self.players_min}")

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // self.hand_size)


@dataclass(frozen=True)
class AdjacentRules:
    """The OnToys adjacent-rank shedding game (#94)."""

    PREFIX: ClassVar[str] = "shed"

    variant: str = "ontoys_adjacent_rank"
    family: str = "shedding"
    hand_size: int = 5
    players_min: int = 2
    players_max: int = 10
    one_pack_max: int = 4
    jokers: int = 2
    going_out_draw: int = 2
    anti_rank: bool = True
    move_cap: int = 3000

    def check(self) -> None:
        check_choice("shed.jokers", self.jokers, (0, 1, 2))
        if self.hand_size < 1:
            raise RulesError("shed.hand_size", "must be at least 1")
        if self.players_min < 2 or self.players_max < self.players_min:
            raise RulesError("shed.players_max", "must be at least shed.players_min (2+)")

    @property
    def max_players(self) -> int:
        return self.players_max

    def packs(self, players: int) -> int:
        """One pack for up to ``one_pack_max`` players, two beyond (S3:15)."""
        return 1 if players <= self.one_pack_max else 2
