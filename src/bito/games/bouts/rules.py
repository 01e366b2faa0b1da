"""The frozen rules of the bout-structure games (VARIANTS.md §3.9), one dataclass per engine,
each with its own option prefix (``heap.*``, ``chinese.*``, ``prelude.*``, ``polish.*``).

The catalogue values of each id are in :data:`bito.rules.catalogue_bouts.BOUT_OPTIONS`; a user
changes them like any option (``heaped+heap.hand_size=4``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from bito.errors import RulesError
from bito.games.protocol import FLAG, TEXT, Limit, check_limits, one_of, span

DECKS = (32, 36, 52)


def _check_seats(rules: Any) -> None:
    """The seat range is not empty, and the pack seats the fewest players."""
    prefix = rules.PREFIX
    if rules.players_max < rules.players_min:
        raise RulesError(f"{prefix}.players_max", f"must be at least {prefix}.players_min")
    if rules.max_players < rules.players_min:
        raise RulesError(f"{prefix}.players_min", f"a {rules.deck_size}-card pack seats at "
                         f"most {rules.max_players} players here")


#: The limits every bout engine shares: the pack, the seats, the idle-takes rule and the
#: last-guard action cap.
SEATS: Final[dict[str, Limit]] = {"deck_size": one_of(*DECKS), "players_min": span(2, 6),
                                  "players_max": span(2, 6), "idle_takes": span(1, 10000),
                                  "move_cap": span(100, 1000000)}

#: The idle-takes rule's default: a game is drawn after this many takes in a row with no card
#: drawn or discarded and nobody going out (as Durak's ``end.idle_bouts``). Set where the
#: heuristic bot's games never meet it (90 Polish fool games: the same ends as with the rule
#: off; at 100, 12 of them would have been cut short), while random endgames stop circling.
IDLE_TAKES: Final = 300


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
    idle_takes: int = IDLE_TAKES
    move_cap: int = 100000

    LIMITS: ClassVar[dict[str, Limit]] = {
        **SEATS, "mode": one_of("heap", "chain"), "hand_size": span(0, 12),
        "take": one_of("all", "top", "bottom"), "take_top": span(1, 52),
        "take_top_trump": span(1, 52), "restart": one_of("left_of_coverer", "last_coverer")}

    def check(self) -> None:
        check_limits(self)
        _check_seats(self)

    def check_seats(self, players: int) -> None:
        """The hands and the trump card turned up after them come out of the pack."""
        if self.hand_size and self.hand_size * players >= self.deck_size:
            raise RulesError("heap.hand_size", f"{players} hands of {self.hand_size} cards "
                             f"and a trump card need more than {self.deck_size} cards")

    @property
    def max_players(self) -> int:
        if not self.hand_size:
            return min(self.players_max, self.deck_size // 2)
        return min(self.players_max, (self.deck_size - 1) // self.hand_size)


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
    idle_takes: int = IDLE_TAKES
    move_cap: int = 100000

    LIMITS: ClassVar[dict[str, Limit]] = {
        **SEATS, "block_trigger": one_of("nine_covered", "covered_with_nine"),
        "pass_on": FLAG, "first_fail": one_of("discard", "pass_on"), "cap": span(1, 12)}

    def check(self) -> None:
        check_limits(self)
        _check_seats(self)

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
    idle_takes: int = IDLE_TAKES
    move_cap: int = 1000

    LIMITS: ClassVar[dict[str, Limit]] = {
        **SEATS, "deck_size": one_of(36, 52), "kind": one_of("contest", "flip"), "main": TEXT,
        "main_options": TEXT, "keep": one_of("hand", "discard")}

    def check(self) -> None:
        check_limits(self)
        _check_seats(self)
        self.main_spec("c")

    def check_seats(self, players: int) -> None:
        """Phase 2 must seat as many players as phase 1."""
        self.main_spec("c", players)

    def main_spec(self, trump: str, players: int = 0) -> str:
        """The Durak spec of phase 2 (``trump``: the suit a flip prelude fixes), checked now
        so that a bad ``prelude.main`` is refused when the game is set up, not at the
        handoff."""
        from bito.errors import BitoError, UnknownVariantError
        from bito.rules import lookup, rules_for

        try:
            game = lookup(self.main)
        except UnknownVariantError:
            raise RulesError("prelude.main", f"{self.main!r} is not a Durak game (the list: "
                             "bito variants)") from None
        if game.family != "durak" or game.kind != "game":
            raise RulesError("prelude.main", f"{game.id} is not a Durak game, so it cannot "
                             "be phase 2")
        spec = game.id + (f"+{self.main_options}" if self.main_options else "")
        if self.kind == "flip":
            spec += f"+trump.source=fixed+trump.fixed_suit={trump}"
        try:
            main = rules_for(spec)
            if players:  # the seats phase 2 must take (teams, dummies...): a trial deal
                from bito.games.durak import new_game

                new_game(main, players, seed=0)
        except BitoError as err:
            reason = str(err).split(" (known:")[0]
            key = "prelude.main_options" if self.main_options else "prelude.main"
            raise RulesError(key, f"phase 2 cannot be {spec}: {reason}") from None
        return spec

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
    idle_takes: int = IDLE_TAKES
    move_cap: int = 1000000

    LIMITS: ClassVar[dict[str, Limit]] = {**SEATS, "fail_take": span(1, 52)}

    def check(self) -> None:
        check_limits(self)
        _check_seats(self)

    @property
    def max_players(self) -> int:
        return min(self.players_max, self.deck_size // 4)
