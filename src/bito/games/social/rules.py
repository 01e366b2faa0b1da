"""The frozen rules of the social games: animal sounds (#60, ``animal.*`` options) and
Cheat / "believe it or not (2)" (#85, ``cheat.*`` options)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bito.errors import RulesError
from bito.games.protocol import Limit, check_limits, one_of, span

PILE_RULES = ("nobody_laughed", "somebody_laughed", "laugher")


@dataclass(frozen=True)
class AnimalRules:
    """The comic sequence game (VARIANTS.md §3.7 #60)."""

    PREFIX: ClassVar[str] = "animal"

    variant: str = "animal_sounds"
    family: str = "social"
    deck_size: int = 36
    players_min: int = 2
    players_max: int = 6
    takes_pile: str = "nobody_laughed"
    move_cap: int = 100000

    LIMITS: ClassVar[dict[str, Limit]] = {
        "deck_size": one_of(32, 36, 52), "players_min": span(2, 13), "players_max": span(2, 13),
        "takes_pile": one_of(*PILE_RULES), "move_cap": span(100, 1000000)}

    def check(self) -> None:
        check_limits(self)
        if self.players_max < self.players_min:
            raise RulesError("animal.players_max", "must be at least animal.players_min")
        if self.max_players < self.players_min:
            raise RulesError("animal.players_min", f"a {self.deck_size}-card pack seats at "
                             f"most {self.deck_size // 4} players")

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 4)


@dataclass(frozen=True)
class CheatRules:
    """Cheat / "I doubt it" (bito's choice of rules, not from the seeds)."""

    PREFIX: ClassVar[str] = "cheat"

    variant: str = "believe_not_believe_2"
    family: str = "social"
    deck_size: int = 52
    players_min: int = 2
    players_max: int = 6
    max_cards: int = 4
    move_cap: int = 100000

    LIMITS: ClassVar[dict[str, Limit]] = {
        "deck_size": one_of(32, 36, 52), "players_min": span(2, 13), "players_max": span(2, 13),
        "max_cards": span(1, 8), "move_cap": span(100, 1000000)}

    def check(self) -> None:
        check_limits(self)
        if self.players_max < self.players_min:
            raise RulesError("cheat.players_max", "must be at least cheat.players_min")
        if self.max_players < self.players_min:
            raise RulesError("cheat.players_min", f"a {self.deck_size}-card pack seats at "
                             f"most {self.deck_size // 4} players")

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 4)
