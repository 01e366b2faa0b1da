"""The frozen rules of *Fool!* (#95), set with ``fool.<field>=value`` in a spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bito.errors import RulesError
from bito.games.protocol import Limit, check_limits, numbers, span


@dataclass(frozen=True)
class FoolRules:
    """Deck, player counts, Fools per trick and the end of the game (VARIANTS.md §3.14)."""

    PREFIX: ClassVar[str] = "fool"

    variant: str = "friese_fool"
    family: str = "tricks"
    colour_sizes: tuple[int, ...] = (26, 22, 20, 14)
    wilds: int = 6
    first_number: int = 2
    hand_size: int = 12
    hand_size_8: int = 11
    players_min: int = 4
    players_max: int = 8
    two_fools_from: int = 7
    end_score: int = -80
    end_tens: int = 6
    max_rounds: int = 1000

    LIMITS: ClassVar[dict[str, Limit]] = {
        "colour_sizes": numbers(1, 30, (4, 4)), "wilds": span(0, 6),
        "first_number": span(2, 30), "hand_size": span(1, 22), "hand_size_8": span(1, 22),
        "players_min": span(2, 8), "players_max": span(2, 8), "two_fools_from": span(3, 9),
        "end_score": span(-1000, -1), "end_tens": span(1, 100), "max_rounds": span(1, 10000)}

    def check(self) -> None:
        check_limits(self)
        if self.first_number + max(self.colour_sizes) - 1 > 31:
            raise RulesError("fool.first_number", "the highest card number must stay <= 31")
        if self.players_min > self.players_max:
            raise RulesError("fool.players_min", "must not exceed fool.players_max")
        for players in range(self.players_min, self.players_max + 1):
            self.check_seats(players)

    def check_seats(self, players: int) -> None:
        """Every hand comes out of the 88-card deck (fewer colour cards for fewer players,
        never more than the deck holds)."""
        size = self.hand_size_for(players)
        key = "fool.hand_size_8" if players >= 8 else "fool.hand_size"
        if size * players > sum(self.colour_sizes) + self.wilds:
            raise RulesError(key, f"{players} hands of {size} cards need more than the "
                             f"{sum(self.colour_sizes) + self.wilds} cards of the deck")
        if size * players < self.wilds + 4:
            raise RulesError(key, f"{players} hands of {size} cards leave no room for the "
                             f"{self.wilds} wild 1s and a card of each colour")

    def round_bound(self, players: int) -> int:
        """The most rounds a game can last. A round in which nobody scores +10 costs the
        trick's winner (who kept a card, else he would have scored it) at least 2 points; a
        player below ``end_tens`` +10s and above ``end_score`` has lost less than
        ``10 (end_tens - 1) - end_score`` in all; so the +10 rounds and the others are both
        bounded: 562 rounds for 8 players with the catalogue's values, below the cap."""
        tens = players * (self.end_tens - 1) + 1
        losing = players * (10 * (self.end_tens - 1) - self.end_score) // 2 + 1
        return tens + losing

    @property
    def max_players(self) -> int:
        return self.players_max

    def hand_size_for(self, players: int) -> int:
        """12 cards each, 11 with 8 players (S2:19)."""
        return self.hand_size_8 if players >= 8 else self.hand_size

    def fools_for(self, players: int) -> int:
        """One Fool per trick, two with 7 or 8 players (S2:35)."""
        return 2 if players >= self.two_fools_from else 1
