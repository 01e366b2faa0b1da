"""The table model of a Durak view (every game of VARIANTS.md §1-§3 and the bout games'
second phase)."""

from __future__ import annotations

from functools import lru_cache

from bito.games.durak import DurakView
from bito.games.durak.actions import Action
from bito.games.durak.phases import PHASE_NAMES
from bito.games.tables.faces import card, cards, ending, suit_names
from bito.games.tables.model import Choice, Pair, Seat, TableModel, Vocabulary, Zone

DOING = {"lead": "leads an attack", "defend": "covers, transfers or takes",
         "throw": "throws in or passes", "give": "hands over a card for the joker",
         "call": "believes or doubts the face-down covers",
         "exchange": "chooses the cards to pass on"}
"""What the seat to act is doing, by phase."""


@lru_cache(maxsize=16384)
def choice(action: Action, trumps: frozenset[int]) -> Choice:
    """A Durak move: its notation, its kind's name and its words (``cover 7♥ with 9♥``);
    made once per move and trump suits (a :class:`Choice` never changes)."""
    from bito.games.durak.actions import KIND_NAMES

    return Choice(str(action), KIND_NAMES.get(action.kind, "move"), action.pretty(),
                  cards([c for c in action.cards if c >= 0], trumps))


def table_model(view: DurakView) -> TableModel:
    trumps = view.trumps
    teams = {m: k for k, team in enumerate(view.teams) for m in team}
    seats = []
    for s in range(view.players):
        role = ("out" if s in view.out else "defender" if s == view.defender
                else "attacker" if s == view.attacker else "")
        points = view.points[s] if view.points else None
        seats.append(Seat(s, role, view.hand_counts[s],
                          () if view.blind else cards(view.known[s], trumps), points,
                          s in view.out, teams.get(s, -1),
                          "dummy" if s == view.dummy_seat else ""))
    hand = (Zone("hand", "hand", view.hand_counts[view.seat],
                 face_down=view.hand_counts[view.seat], owner=view.seat) if view.blind
            else Zone("hand", "hand", view.hand.bit_count(), cards(view.hand, trumps),
                      owner=view.seat))
    pairs = tuple(Pair(card(a, trumps), card(d, trumps) if d >= 0 else None, d == -3)
                  for a, d in zip(view.attack, view.defence, strict=True) if a >= 0)
    under = (card(view.trump_card, trumps) if view.trump_card >= 0 and view.trump_card_in_stock
             else None)
    zones = [hand, Zone("table", "pairs", len(pairs) + sum(p.cover is not None for p in pairs),
                        pairs=pairs),
             Zone("stock", "stock", view.stock_count, top=under,
                  face_down=view.stock_count - (under is not None)),
             Zone("discard", "discard", view.discard_count, face_down=view.discard_count)]
    if view.dummy_controller == view.seat and view.dummy_hand:  # #56: the dummy's cards
        zones.append(Zone("dummy", "hand", view.dummy_count, cards(view.dummy_hand, trumps)))
    phase = PHASE_NAMES[view.phase]
    doing = DOING.get(phase, phase)
    if phase == "defend" and not view.rules.transfer_enabled:
        doing = "covers or takes"
    notes = []
    if view.teams:
        notes.append("partners do not attack each other; a team loses when one of its "
                     "players is the fool")
    return TableModel(
        "durak", "durak", view.seat, view.players, tuple(seats),
        tuple(zones), view.to_act, doing,
        tuple(choice(a, trumps) for a in view.legal),
        Vocabulary("french", suit_names(trumps),
                   jokers=view.rules.deck_jokers > 0, notes=tuple(notes)),
        **ending(view.outcome), phase=phase,
        to_beat=tuple(p.attack for p in pairs if p.cover is None and not p.face_down),
        trump_card=card(view.trump_card, trumps) if view.trump_card >= 0 else None)
