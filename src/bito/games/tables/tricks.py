"""The table model of Friese's *Fool!* (#95): four colours, wild 1s and the Fool disc."""

from __future__ import annotations

from functools import lru_cache

from bito.cards import cards_of
from bito.games.protocol import Move
from bito.games.tables.faces import MOVE_WORDS, ending
from bito.games.tables.model import Card, Choice, Play, Seat, TableModel, Vocabulary, Zone
from bito.games.tricks.fool import COLOUR_NAMES, COLOURS, FoolView, colour_of, is_wild, number_of


@lru_cache(maxsize=256)
def fool_card(code: int) -> Card:
    """A *Fool!* card: ``g12`` is the green 12; every wild 1 is typed ``w1`` (made once per
    card: a :class:`Card` never changes)."""
    if is_wild(code):
        return Card(code, "w1", "wild 1", wild=True)
    colour = COLOUR_NAMES[colour_of(code)]
    return Card(code, f"{COLOURS[colour_of(code)]}{number_of(code)}",
                f"{colour} {number_of(code)}", colour=colour)


def _choice(move: Move, hand: int) -> Choice:
    """A move; its wild 1 (the six play as one move, named by the first) is shown as a wild
    1 the seat holds, never another seat's."""
    if move.kind != "play":
        return Choice(str(move), move.kind, MOVE_WORDS.get(move.kind, move.kind))
    wilds = [c for c in cards_of(hand) if is_wild(c)]
    faces = tuple(fool_card(wilds[0] if is_wild(c) and wilds else c) for c in move.cards)
    # the wild 1 is typed w1 (the engine also reads a bare 1, which reads like a number)
    ident = "+".join(f.text for f in faces)
    return Choice(ident, "play", "play " + " ".join(f.label for f in faces), faces)


def table_model(view: FoolView, words: bool = True) -> TableModel:
    """The table model of a seat's view; ``words=False`` is the learner's build (the same
    facts, no moves, notes or words: :mod:`bito.games.tables.model`)."""
    seats = tuple(Seat(s, "sits out" if s in view.sitting_out else "", view.hand_counts[s],
                       score=view.scores[s],
                       note=f"+10 rounds: {view.plus_tens[s]}" if words else "",
                       sits_out=s in view.sitting_out, plus_tens=view.plus_tens[s])
                  for s in range(view.players))
    plays = tuple(Play(s, fool_card(c)) for s, c in view.trick)
    lead = COLOUR_NAMES[view.lead_colour] if 0 <= view.lead_colour < 4 else ""
    zones = (Zone("hand", "hand", view.hand.bit_count(), _faces(view.hand), owner=view.seat),
             Zone("trick", "trick", len(plays), plays=plays,
                  note=f"{lead} was led" if lead and words else ""),
             Zone("won", "discard", view.played.bit_count(), _faces(view.played)))
    doing = (f"follows {lead} if he can" if lead else "leads a card")
    return TableModel(
        "tricks", view.rules.variant, view.seat, view.players, seats, zones, view.to_act,
        doing if words else "",
        tuple(_choice(m, view.hand) for m in view.legal) if words else (),
        _VOCABULARY if words else _FACTS,
        **ending(view.outcome), round=view.round + 1, led=lead)


@lru_cache(maxsize=16384)
def _faces(mask: int) -> tuple[Card, ...]:
    """The *Fool!* cards of a set, made once per set (a hand or the cards won stay the same
    over several steps of a learner's game)."""
    return tuple(fool_card(c) for c in cards_of(mask))


_VOCABULARY = Vocabulary(
    "fool", wild=("wild 1",), colours=COLOUR_NAMES,
    notes=("the highest card of the lead colour wins the trick",
           "the lowest card played takes the Fool disc: its holder sits out the next trick"))
_FACTS = Vocabulary("fool", colours=COLOUR_NAMES)
"""The learner's build's vocabulary: the deck and its colours, nothing in words."""
