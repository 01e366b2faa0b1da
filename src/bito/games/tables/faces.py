"""Cards and moves as the table model names them, shared by the families' builders."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from functools import lru_cache
from typing import Protocol, TypedDict

from bito.cards import SUIT_NAMES, card_pretty, card_str, cards_of, is_joker, is_special, suit_of
from bito.games.protocol import Move, Outcome
from bito.games.tables.model import Card, Choice, Seat

SUIT_WORDS = SUIT_NAMES


def card(code: int, trumps: Collection[int] = ()) -> Card:
    """A card of the French pack (jokers included)."""
    return _card(code, bool(trumps) and not is_special(code) and suit_of(code) in trumps)


@lru_cache(maxsize=1024)
def _card(code: int, trump: bool) -> Card:
    """One card's face, made once: a model is built at every step of a learner's game, and
    a :class:`Card` never changes."""
    if is_special(code):
        joker = is_joker(code)
        return Card(code, card_str(code), "joker" if joker else card_str(code), wild=True)
    return Card(code, card_str(code), card_pretty(code), suit=SUIT_WORDS[suit_of(code)],
                trump=trump)


def cards(mask_or_codes: int | Iterable[int], trumps: Collection[int] = ()) -> tuple[Card, ...]:
    """The faces of a card set (a bitmask) or of card codes (negative codes skipped)."""
    if isinstance(mask_or_codes, int):
        if not mask_or_codes:
            return ()
        if not trumps:
            return _cards_of_mask(mask_or_codes, _NO_TRUMPS)
        if isinstance(trumps, frozenset):
            return _cards_of_mask(mask_or_codes, trumps)
    codes = cards_of(mask_or_codes) if isinstance(mask_or_codes, int) else mask_or_codes
    if not trumps:  # no card is a trump: the faces come straight from the cache
        return tuple(_card(c, False) for c in codes if c >= 0)
    if isinstance(trumps, frozenset):
        return tuple(_card_of(c, trumps) for c in codes if c >= 0)
    return tuple(card(c, trumps) for c in codes if c >= 0)


_NO_TRUMPS: frozenset[int] = frozenset()


@lru_cache(maxsize=16384)
def _cards_of_mask(mask: int, trumps: frozenset[int]) -> tuple[Card, ...]:
    """A card set's faces, made once per set and trump suits: a hand, a discard or a seat's
    known cards stay the same over many steps of a learner's game, and the faces never
    change."""
    return tuple(_card_of(c, trumps) for c in cards_of(mask))


@lru_cache(maxsize=4096)
def _card_of(code: int, trumps: frozenset[int]) -> Card:
    return card(code, trumps)


MOVE_WORDS = {"draw": "draw a card", "pass": "pass", "claim": "end your claim",
              "doubt": "doubt the claim", "sound": "make your animal's sound",
              "laugh": "laugh", "turn": "turn up the top card of the stock",
              "take": "take the cards"}
"""The simple moves of the families outside Durak, as a player says them."""


def move_choice(move: Move, trumps: Collection[int] = (), verb: str = "play") -> Choice:
    """A move of the shedding, trick or social games on a French pack."""
    return _move_choice(move, trumps if isinstance(trumps, frozenset) else frozenset(trumps),
                        verb)


@lru_cache(maxsize=16384)
def _move_choice(move: Move, trumps: frozenset[int], verb: str) -> Choice:
    """A move's words, made once per move (a :class:`Choice` never changes)."""
    if move.kind != "play":
        return Choice(str(move), move.kind, MOVE_WORDS.get(move.kind, move.kind))
    faces = cards(move.cards, trumps)
    label = f"{verb} " + " ".join(f.label for f in faces)
    if move.call >= 0:
        label += f" and call {SUIT_WORDS[move.call]}"
    return Choice(str(move), "play", label, faces)


def suit_names(suits: Iterable[int]) -> tuple[str, ...]:
    return tuple(SUIT_WORDS[s] for s in sorted(suits) if 0 <= s < len(SUIT_NAMES))


class Counted(Protocol):
    """What every view says of the seats: their cards and who is out."""

    @property
    def hand_counts(self) -> tuple[int, ...]: ...

    @property
    def players(self) -> int: ...


def plain_seats(view: Counted, out: Collection[int] = (), known: tuple[int, ...] = (),
                scores: tuple[int, ...] = (), trumps: Collection[int] = (),
                roles: dict[int, str] | None = None) -> tuple[Seat, ...]:
    """Seats with their counts, known cards, scores and who is out."""
    roles = roles or {}
    return tuple(Seat(
        s, "out" if s in out else roles.get(s, ""), view.hand_counts[s],
        cards(known[s], trumps) if known else (), scores[s] if scores else None, s in out)
        for s in range(view.players))


class Ending(TypedDict, total=False):
    """The result fields of a :class:`~bito.games.tables.model.TableModel`."""

    over: bool
    fool: int
    losing_team: tuple[int, ...]
    draw: bool


def ending(outcome: Outcome | None) -> Ending:
    """The result fields of a finished game (``fool``, ``losing_team``, ``draw``); none
    while it goes on."""
    if outcome is None:
        return {}
    team: tuple[int, ...] = ()
    if outcome.teams and outcome.losing_team is not None:
        team = tuple(outcome.teams[outcome.losing_team])
    return {"over": True, "fool": -1 if outcome.loser is None else outcome.loser,
            "losing_team": team, "draw": outcome.draw}
