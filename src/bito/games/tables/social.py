"""The table model of the social games: animal sounds (#60) and Cheat (#85)."""

from __future__ import annotations

from bito.cards import ACE
from bito.games.social.animal import SOUNDS, AnimalView
from bito.games.social.cheat import CheatView
from bito.games.tables.faces import card, cards, ending, move_choice, plain_seats
from bito.games.tables.model import Choice, Seat, TableModel, Vocabulary, Zone

RANK_NAMES = {11: "jack", 12: "queen", 13: "king", ACE: "ace"}


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


def a_rank(rank: int) -> str:
    """``a 7``, ``an 8``, ``an ace``."""
    name = rank_name(rank)
    return f"an {name}" if name[:1] in "a8" or name == "11" else f"a {name}"


def ranks(rank: int) -> str:
    """``7s``, ``kings``."""
    return f"{rank_name(rank)}s"


PICK_UP = {"nobody_laughed": "if nobody laughs, the player who made the sound takes the pile",
           "somebody_laughed": "if somebody laughs, the player who made the sound takes the "
                               "pile",
           "laugher": "whoever laughs first takes the pile"}
"""Who picks the pile up after a sound, by ``animal.takes_pile``."""


def animal(view: AnimalView, words: bool = True) -> TableModel:
    seats = tuple(Seat(s, "out" if s in view.out else "", view.hand_counts[s], out=s in view.out,
                       note=f"the {view.nicknames[s]} ({SOUNDS[view.nicknames[s]]})"
                       if words else "",
                       laughed=s in view.laughed)
                  for s in range(view.players))
    top = card(view.pile[-1]) if view.pile else None
    zones = (Zone("hand", "hand", view.hand.bit_count(), cards(view.hand), owner=view.seat),
             Zone("pile", "pile", len(view.pile), cards(view.pile), top=top,
                  note=(f"{rank_name(view.due)} due" if view.due else "a new sequence")
                  if words else ""))
    return TableModel(
        "social", view.rules.variant, view.seat, view.players, seats, zones, view.to_act,
        _animal_doing(view) if words else "",
        tuple(move_choice(m) for m in view.legal) if words else (),
        Vocabulary("french", notes=("each player must put down the next rank, 6 to ace and "
                                    "round again; without it he makes his animal's sound",
                                    PICK_UP.get(view.rules.takes_pile, "")))
        if words else _FACTS,
        **ending(view.outcome), phase=view.phase, due=view.due,
        judged=view.skipper if view.phase == "judge" else -1)


_FACTS = Vocabulary("french")
"""The learner's build's vocabulary: the French pack, no rules in words."""


def _animal_doing(view: AnimalView) -> str:
    if view.phase == "judge":
        return "laughs or keeps a straight face"
    return (f"plays {a_rank(view.due)} or makes the animal's sound" if view.due
            else "starts a new sequence")


def cheat(view: CheatView, words: bool = True) -> TableModel:
    seats = plain_seats(view, out=view.out, known=view.known,
                        roles={view.claimer: "claims"} if view.phase == "doubting" else None)
    due = rank_name(view.due)
    own = cards(view.claim_cards) if view.claimer == view.seat else ()
    zones = (Zone("hand", "hand", view.hand.bit_count(), cards(view.hand), owner=view.seat),
             Zone("pile", "pile", view.pile_count - view.claim_count, cards(view.mine_in_pile),
                  face_down=view.pile_count - view.claim_count
                  - view.mine_in_pile.bit_count(), note="face down" if words else ""),
             Zone("claim", "claim", view.claim_count, own,
                  face_down=view.claim_count - len(own), owner=view.claimer,
                  note=f"claims {view.claim_count} x {due}" if view.claim_count and words
                  else ""))
    doing = ("doubts the claim or believes it" if view.phase == "doubting"
             else f"puts down 1 to 4 cards face down, claiming {ranks(view.due)}")
    return TableModel(
        "social", view.rules.variant, view.seat, view.players, seats, zones, view.to_act,
        doing if words else "",
        tuple(_believing(move_choice(m, verb="put down"), view.phase)
              for m in view.legal) if words else (),
        Vocabulary("french", notes=("the claim is always the rank due; the cards may be "
                                    "any: a liar, or a wrong doubter, takes the pile",))
        if words else _FACTS,
        **ending(view.outcome), phase=view.phase, due=view.due,
        judged=view.claimer if view.phase == "doubting" else -1)


def _believing(choice: Choice, phase: str) -> Choice:
    """While a claim waits to be doubted, passing is believing it: said so."""
    if phase == "doubting" and choice.kind == "pass":
        return Choice(choice.id, choice.kind, "believe the claim")
    return choice


def table_model(view: AnimalView | CheatView, words: bool = True) -> TableModel:
    """The table model of a seat's view; ``words=False`` is the learner's build (the same
    facts, no moves, notes or words: :mod:`bito.games.tables.model`)."""
    if isinstance(view, AnimalView):
        return animal(view, words)
    return cheat(view, words)


__all__ = ["animal", "cheat", "table_model"]
