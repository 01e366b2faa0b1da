"""The frozen rules of *Fool!* (#95), set with ``fool.<field>=value`` in a spec."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bito.errors import RulesError


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
    max_rounds: int = 200

    def check(self) -> None:
        if len(self.colour_sizes) != 4 or min(self.colour_sizes) < 1:
            raise RulesError("fool.colour_sizes", "give four positive colour sizes")
        if self.first_number < 2:
            raise RulesError("fool.first_number", "numbers start at 2 at the lowest (1 is wild)")
        if self.first_number + max(self.colour_sizes) - 1 > 31:
            raise RulesError("fool.first_number", "the highest card number must stay <= 31")
        if not 0 <= self.wilds <= 6:
            raise RulesError("fool.wilds", "0 to 6 wild 1s")
        if self.players_min < 2 or self.players_max < self.players_min:
            raise RulesError("fool.players_max", "must be at least fool.players_min (2+)")
        if self.hand_size_for(self.players_max) * self.players_max > sum(self.colour_sizes) \
                + self.wilds:
            raise RulesError("fool.hand_size", "the deck is too small for that many hands")

    @property
    def max_players(self) -> int:
        return self.players_max

    def hand_size_for(self, players: int) -> int:
        """12 cards each, 11 with 8 players (S2:19)."""
        return self.hand_size_8 if players >= 8 else self.hand_size

    def fools_for(self, players: int) -> int:
        """One Fool per trick, two with 7 or 8 players (S2:35)."""
        return 2 if players >= self.two_fools_from else 1
