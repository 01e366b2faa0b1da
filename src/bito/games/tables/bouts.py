"""The table model of the bout-structure games (#65-#72) before a prelude hands over to a
Durak game (whose views are drawn by :mod:`bito.games.tables.durak`)."""

from __future__ import annotations

from functools import lru_cache

from bito.games.bouts.common import BoutsView
from bito.games.bouts.rules import HeapRules
from bito.games.durak.actions import Action
from bito.games.protocol import Move
from bito.games.tables.durak import choice as durak_choice
from bito.games.tables.faces import card, cards, ending, move_choice, plain_seats, suit_names
from bito.games.tables.model import Choice, Pair, TableModel, Vocabulary, Zone

NOTES = {
    "chinese": ("a defender who gives up takes only the first card played at him; the rest "
                "of the table is discarded and he misses his turn to attack",
                "once a card is covered with the 9♦, nobody may throw in any more this bout",
                "nobody draws: an empty hand at the end of a bout is out"),
    "heap": ("cover the card led at you, then lead one of your own to your left neighbour; "
             "covered cards pile up in the centre, and a player who cannot cover takes the "
             "heap",),
    "chain": ("cover the top card of the chain; a player who fails takes the chain's bottom "
              "card",),
    "polish": ("beat the top card of the centre from your hand or by turning the top card "
               "of the stock",),
    "prelude": ("the first phase is played trick by trick; its cards make the hands of the "
                "Durak game that follows",),
}
"""The rules a player needs at the table, by engine."""


DOING = {"attack": "leads an attack", "lead": "leads a card", "defend": "covers or takes",
         "throw": "throws in or passes", "cover": "covers the card led or takes",
         "beat": "beats the top card or turns the stock",
         "prelude": "turns the next card of the stock"}
"""What the seat to act is doing, by phase."""


@lru_cache(maxsize=64)
def _vocabulary(trumps: frozenset[int], engine: str, words: bool = True) -> Vocabulary:
    """The trump suits and, for a person, the engine's rules in words."""
    return Vocabulary("french", suit_names(trumps), notes=NOTES[engine] if words else ())


def _choice(action: Action | Move, trumps: frozenset[int]) -> Choice:
    if isinstance(action, Action):
        return durak_choice(action, trumps)
    return move_choice(action, trumps)


def _engine(view: BoutsView) -> str:
    rules = view.extra.get("rules")
    name = type(rules).__name__.lower()
    if "chinese" in name:
        return "chinese"
    if "heap" in name:
        return "chain" if isinstance(rules, HeapRules) and rules.mode == "chain" else "heap"
    if "polish" in name:
        return "polish"
    return "prelude"


def table_model(view: BoutsView, words: bool = True) -> TableModel:
    """The table model of a seat's view; ``words=False`` is the learner's build (the same
    facts, no moves, notes or words: :mod:`bito.games.tables.model`)."""
    trumps = frozenset({view.trump_suit}) if view.trump_suit >= 0 else frozenset()
    extra = view.extra
    engine = _engine(view)
    roles: dict[int, str] = {}
    zones = [Zone("hand", "hand", view.hand.bit_count(), cards(view.hand, trumps),
                  owner=view.seat)]
    if engine == "chinese":
        attacker, defender = int(extra.get("attacker", -1)), int(extra.get("defender", -1))
        roles = {attacker: "attacker", defender: "defender"}
        pairs = tuple(Pair(card(a, trumps), card(d, trumps) if d >= 0 else None)
                      for a, d in zip(extra.get("attack", ()), extra.get("defence", ()),
                                      strict=False) if a >= 0)
        zones.append(Zone("table", "pairs", len(view.centre), pairs=pairs))
    else:
        centre = cards(view.centre, trumps)
        zones.append(Zone("centre", "pile", len(centre), centre,
                          top=centre[-1] if centre else None))
    trump_card = int(extra.get("trump_card", -1))
    under = card(trump_card, trumps) if trump_card >= 0 and view.stock_count else None
    zones.append(Zone("stock", "stock", view.stock_count, top=under,
                      face_down=view.stock_count - (under is not None)))
    zones.append(Zone("discard", "discard", view.discard_count, face_down=view.discard_count))
    seats = plain_seats(view, out=view.out, known=view.known, trumps=trumps, roles=roles)
    rules = extra.get("rules")
    game = view.variant if rules is None else str(rules.variant)
    return TableModel(
        "bouts", game, view.seat, view.players, seats, tuple(zones), view.to_act,
        DOING.get(view.phase, "plays") if words else "",
        tuple(_choice(a, trumps) for a in view.legal) if words else (),
        _vocabulary(trumps, engine, words),
        **ending(view.outcome), phase=view.phase, to_beat=cards(_to_beat(view), trumps),
        trump_card=card(trump_card, trumps) if trump_card >= 0 else None)


def _to_beat(view: BoutsView) -> list[int]:
    """The cards the seat to act must beat: China fool's open attack cards, else the card led
    at the defender (the top of the heap, the chain or the centre)."""
    extra = view.extra
    if "attack" in extra:
        return [a for a, d in zip(extra["attack"], extra["defence"], strict=True) if d < 0]
    if view.phase in ("cover", "beat") and view.centre:
        return [extra.get("pile", view.centre)[-1]]
    return []
