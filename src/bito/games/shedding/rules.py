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
from bito.games.protocol import FLAG, Limit, check_limits, numbers, one_of, span

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
    round_move_cap: int = 50000

    #: What each option may hold (checked by :func:`~bito.games.protocol.check_limits`).
    LIMITS: ClassVar[dict[str, Limit]] = {
        "deck_size": one_of(32, 36), "hand_size": span(1, 16), "players_min": span(2, 10),
        "players_max": span(2, 10), "wild_rank": one_of(JACK, QUEEN),
        "draw_rule": one_of("until_playable", "one"), "draw_ranks": numbers(6, 14, (0, 4)),
        "draw_counts": numbers(1, 5, (0, 4)), "ace_rule": one_of("skip", "english"),
        "king_hearts_draw": span(0, 10), "match_rule": one_of("suit_or_rank", "suit_only_six"),
        "call_skips": FLAG, "opening": one_of("any_card", "dealer_last_card"),
        "points": one_of(*POINT_TABLES), "single_wild_points": span(0, 100),
        "wild_out_bonus": span(0, 100), "stuck_wild_loses": FLAG, "rounds": span(1, 100),
        "round_move_cap": span(100, 1000000)}

    def check(self) -> None:
        check_limits(self)
        if len(self.draw_ranks) != len(self.draw_counts):
            raise RulesError("shed.draw_counts", "give one count per rank in shed.draw_ranks")
        if self.players_min > self.players_max:
            raise RulesError("shed.players_min", "must not exceed shed.players_max")
        if self.max_players < self.players_min:
            raise RulesError("shed.hand_size", f"{self.deck_size} cards cannot deal "
                             f"{self.hand_size}-card hands to {self.players_min} players")

    def check_seats(self, players: int) -> None:
        """Every hand is dealt from one pack (hand size x players must fit it)."""
        if self.hand_size * players > self.deck_size:
            raise RulesError("shed.hand_size", f"{players} hands of {self.hand_size} cards "
                             f"need more than the {self.deck_size}-card pack; at most "
                             f"{self.deck_size // players} cards each")

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

    LIMITS: ClassVar[dict[str, Limit]] = {
        "hand_size": span(1, 20), "players_min": span(2, 10), "players_max": span(2, 10),
        "one_pack_max": span(2, 10), "jokers": one_of(0, 1, 2), "going_out_draw": span(0, 5),
        "anti_rank": FLAG, "move_cap": span(100, 1000000)}

    def check(self) -> None:
        check_limits(self)
        if self.players_min > self.players_max:
            raise RulesError("shed.players_min", "must not exceed shed.players_max")
        self.check_seats(self.players_min)

    def check_seats(self, players: int) -> None:
        """The hands and the card turned up to start the pile must come out of the pack(s)
        (S3:15: one pack up to ``one_pack_max`` players, two beyond)."""
        cards = self.packs(players) * (52 + self.jokers)
        if self.hand_size * players + 1 > cards:
            raise RulesError("shed.hand_size", f"{players} hands of {self.hand_size} cards and "
                             f"the starting card need more than the {cards} cards in play; at "
                             f"most {(cards - 1) // players} cards each")

    @property
    def max_players(self) -> int:
        """The most seats whose hands fit the pack(s) (at least ``players_min``)."""
        fits = [n for n in range(self.players_min, self.players_max + 1)
                if self.hand_size * n + 1 <= self.packs(n) * (52 + self.jokers)]
        return max(fits, default=self.players_min)

    def packs(self, players: int) -> int:
        """One pack for up to ``one_pack_max`` players, two beyond (S3:15)."""
        return 1 if players <= self.one_pack_max else 2
