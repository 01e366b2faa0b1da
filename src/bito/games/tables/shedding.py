"""The table model of the shedding games: Mau-Mau and its relatives (#86-#93) and the
adjacent-rank game (#94)."""

from __future__ import annotations

from functools import lru_cache

from bito.cards import ACE
from bito.games.shedding.adjacent import AdjacentView
from bito.games.shedding.maumau import MauMauView
from bito.games.tables.faces import SUIT_WORDS, card, cards, ending, move_choice, plain_seats
from bito.games.tables.model import Seat, TableModel, Vocabulary, Zone

RANK_WORDS = {11: "jacks", 12: "queens", 13: "kings", ACE: "aces"}


def _rank_word(rank: int) -> str:
    return RANK_WORDS.get(rank, f"{rank}s")


def _pile(view: MauMauView | AdjacentView) -> Zone:
    top = card(view.top) if view.top >= 0 else None
    return Zone("pile", "pile", view.pile_count, cards(view.pile), top=top)


def maumau(view: MauMauView, words: bool = True) -> TableModel:
    rules = view.rules
    seats = plain_seats(view, scores=view.scores)
    zones = (Zone("hand", "hand", view.hand.bit_count(), cards(view.hand), owner=view.seat),
             _pile(view), Zone("stock", "stock", view.stock_count, face_down=view.stock_count))
    called = SUIT_WORDS[view.called] if view.called >= 0 else ""
    return TableModel(
        "shedding", rules.variant, view.seat, view.players, seats, zones, view.to_act,
        _maumau_doing(view.phase) if words else "",
        tuple(move_choice(m) for m in view.legal) if words else (),
        _maumau_vocabulary(view, called) if words else _called(called),
        **ending(view.outcome), phase=view.phase, round=view.round + 1,
        drawn=card(view.drawn) if view.drawn >= 0 else None, ace_open=view.ace_open)


def _maumau_doing(phase: str) -> str:
    return {"drawn": "plays the card just drawn or passes",
            "follow": "follows the ace"}.get(phase, "plays a card of the top card's suit or "
                                             "rank, or draws")


def _maumau_vocabulary(view: MauMauView, called: str) -> Vocabulary:
    """The suit called, the wild rank and the rules of play in words."""
    rules = view.rules
    notes = [f"{_rank_word(rules.wild_rank)} are wild: play one on anything and call a suit"]
    if rules.draw_ranks:
        notes.append("a " + " or ".join(str(r) for r in rules.draw_ranks)
                     + " makes the next player draw")
    if rules.ace_rule == "skip":
        notes.append("an ace makes the next player miss a turn")
    notes.append("cards left in hand at the end of a round are penalty points: the highest "
                 "total after the last round is the fool")
    return Vocabulary("french", called_suit=called,
                      wild=(f"every {rank_of_word(rules.wild_rank)}",), notes=tuple(notes))


@lru_cache(maxsize=8)
def _called(suit: str) -> Vocabulary:
    """The learner's build's vocabulary: the suit called, no words."""
    return Vocabulary("french", called_suit=suit)


def rank_of_word(rank: int) -> str:
    return {11: "jack", 12: "queen", 13: "king", ACE: "ace"}.get(rank, str(rank))


def adjacent(view: AdjacentView, words: bool = True) -> TableModel:
    rules = view.rules
    seats = tuple(Seat(s, "out" if s in view.out else "", view.hand_counts[s],
                       out=s in view.out, pending_out=s == view.pending_out)
                  for s in range(view.players))
    zones = (Zone("hand", "hand", view.hand.bit_count(), cards(view.hand), owner=view.seat),
             _pile(view), Zone("stock", "stock", view.stock_count, face_down=view.stock_count))
    doing = ("plays any card (the pile calls for no rank)" if view.anti_rank
             else "plays a card one rank above or below the top card, or draws")
    return TableModel(
        "shedding", rules.variant, view.seat, view.players, seats, zones, view.to_act,
        doing if words else "",
        tuple(move_choice(m) for m in view.legal) if words else (),
        _adjacent_vocabulary(rules.jokers > 0, words),
        **ending(view.outcome), any_card=view.anti_rank)


@lru_cache(maxsize=4)
def _adjacent_vocabulary(jokers: bool, words: bool) -> Vocabulary:
    """The jokers and, for a person, the rules of play in words."""
    return Vocabulary("french", wild=("jokers",) if jokers and words else (), jokers=jokers,
                      notes=("keep playing while a card fits; the last player holding cards "
                             "is the fool",) if words else ())


def table_model(view: MauMauView | AdjacentView, words: bool = True) -> TableModel:
    """The table model of a seat's view; ``words=False`` is the learner's build (the same
    facts, no moves, notes or words: :mod:`bito.games.tables.model`)."""
    if isinstance(view, MauMauView):
        return maumau(view, words)
    return adjacent(view, words)
