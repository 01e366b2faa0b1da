"""Pieces every bout-structure engine shares: the beat relation (the Durak one, reused), the
``turn`` action of the deck-flipping games, action text, and the view every engine hands out.

The engines of this package speak the Durak action notation (``7h`` lead or throw in,
``9h>7h`` cover, ``take``, ``pass``) plus one word of their own, ``turn`` (turn the top card of
the stock), so a player who knows Durak already knows how to type a move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from bito.cards import card_pretty, cards_of
from bito.games.durak.actions import Action
from bito.games.durak.actions import parse_action as parse_durak_action
from bito.games.durak.relation import BeatContext, relation_table
from bito.games.protocol import Move, Outcome
from bito.rules import Rules
from bito.rules.options import BeatsRestrictedSuit

TURN: Final = Move("turn", (), -1, "turn")
"""Turn the top card of the stock face up (the preludes and the Polish fool)."""

SUITS: Final = "cdhs"


@cache
def beat_table(deck_size: int, trump_suit: int, restricted: BeatsRestrictedSuit = "",
               unbeatable: tuple[int, ...] = ()) -> tuple[int, ...]:
    """``table[a]``: the cards that may cover ``a`` (a bitmask), from the Durak relation of
    VARIANTS.md §1.2 with the given trump suit (-1: none) and restricted suit (Japanese);
    ``unbeatable`` cards are covered by nothing."""
    rules = Rules(deck_size=deck_size, beats_restricted_suit=restricted)
    trumps = frozenset({trump_suit}) if trump_suit >= 0 else frozenset()
    table = list(relation_table(BeatContext(rules, trumps)))
    for c in unbeatable:
        table[c] = 0
    return tuple(table)


def parse_action(text: str) -> Action | Move:
    """``turn`` or a Durak action (``7h``, ``9h>7h``, ``take``, ``pass``)."""
    if text.strip().lower() == "turn":
        return TURN
    return parse_durak_action(text)


def next_in(seat: int, players: int, holding: list[int], out: list[int]) -> int:
    """The next seat to the left of ``seat`` that is still in the game (itself if none)."""
    for k in range(1, players + 1):
        s = (seat + k) % players
        if s not in out:
            return s
    del holding
    return seat


def drawn(players: int, hands: list[int], out: list[int], note: str) -> Outcome:
    """A game stopped by an engine rule before it was played out (a repetition, or the
    last-guard move cap): nobody is the fool; the seats out rank first, then the others,
    fewest cards first."""
    rest = sorted((s for s in range(players) if s not in out),
                  key=lambda s: (hands[s].bit_count(), s))
    return Outcome(loser=None, order=tuple(out) + tuple(rest), draw=True, note=note)


def finish(players: int, hands: list[int], out: list[int], note: str = "") -> Outcome:
    """The outcome once at most one player holds cards: the seats out first rank first; the
    fool is the one left holding cards; nobody holding cards is a draw."""
    rest = sorted((s for s in range(players) if s not in out),
                  key=lambda s: (hands[s].bit_count(), s))
    loser: int | None = rest[-1] if rest and hands[rest[-1]] else None
    if (loser is not None and len(rest) > 1
            and hands[rest[-1]].bit_count() == hands[rest[-2]].bit_count()):
        loser = None
    return Outcome(loser=loser, order=tuple(out) + tuple(rest), draw=loser is None, note=note)


def show(cards: Any) -> str:
    """Cards for the terminal (a mask or a sequence), ``-`` for none."""
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_pretty(c) for c in items) or "-"


@dataclass(frozen=True)
class BoutsView:
    """What one seat of a bout-structure game may know: its own hand, every hand's size, the
    cards known to be in other hands (picked up from the table in plain sight), the public
    ``table`` text (centre pile, trump, stock and discard counts) and its legal actions."""

    seat: int
    players: int
    variant: str
    hand: int
    hand_counts: tuple[int, ...]
    known: tuple[int, ...]
    trump_suit: int
    stock_count: int
    discard_count: int
    centre: tuple[int, ...]
    phase: str
    table: str
    to_act: int
    out: tuple[int, ...]
    legal: tuple[Any, ...]
    outcome: Outcome | None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        known = "; ".join(f"seat {s} holds {show(m)}" for s, m in enumerate(self.known)
                          if m and s != self.seat)
        lines = [self.table, f"your hand: {show(self.hand)}",
                 "cards held: " + " ".join(map(str, self.hand_counts))]
        if known:
            lines.append("known: " + known)
        return "\n".join(lines)
