"""The table model of a Durak view (every game of VARIANTS.md §1-§3 and the bout games'
second phase)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bito.cards import SUIT_NAMES, is_special, rank_of, suit_of
from bito.games.durak import DurakView
from bito.games.durak.actions import (
    BLIND_KINDS,
    DEFEND,
    EXTRA_KINDS,
    PASS,
    TAKE,
    TRANSFER,
    Action,
)
from bito.games.durak.blind import FaceOut
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import TossingDummy
from bito.games.durak.dummy_seat import PlayingDummy
from bito.games.durak.own_trumps import OwnTrumps
from bito.games.durak.phases import PHASE_NAMES
from bito.games.durak.render import view_trump_words
from bito.games.durak.secret_trump import SecretTurned
from bito.games.durak.stock import Tallies
from bito.games.durak.teams import Partnership
from bito.games.tables.faces import card, cards, ending, suit_names
from bito.games.tables.model import Choice, Pair, Seat, TableModel, Vocabulary, Zone

DOING = {"lead": "leads an attack", "defend": "covers, transfers or takes",
         "throw": "throws in or passes", "give": "hands over a card for the joker",
         "call": "believes or doubts the face-down covers",
         "exchange": "chooses the cards to pass on"}
"""What the seat to act is doing, by phase."""

PROMPT = {"lead": "lead an attack", "defend": "cover, transfer or take",
          "throw": "throw in or pass"}
"""What the seat to act is asked to do, said to him, by phase (the other phases' moves say
it themselves)."""


@lru_cache(maxsize=16384)
def choice(action: Action, trumps: frozenset[int]) -> Choice:
    """A Durak move: its notation, its kind's name and its words (``cover 7♥ with 9♥``);
    made once per move and trump suits (a :class:`Choice` never changes)."""
    from bito.games.durak.actions import KIND_NAMES

    return Choice(str(action), KIND_NAMES.get(action.kind, "move"), action.pretty(),
                  cards([c for c in action.cards if c >= 0], trumps))


def move_order(legal: Sequence[Action], trumps: frozenset[int],
               attack: Sequence[int]) -> list[Action]:
    """The legal moves in the order a player scans them: cheapest first (non-trumps by rank,
    then trumps), covers grouped by the card they cover in table order, take and pass last;
    the table model's ``order`` numbers the moves in this order, so move 1 is a cheap,
    sensible default."""
    def key(a: Action) -> tuple[int, ...]:
        if a.kind in (TAKE, PASS) or not a.cards:  # and #59's believe / doubt
            return (3, a.kind)
        if BLIND_KINDS <= a.kind < EXTRA_KINDS:  # #58: by position, covers by table order
            spot = list(attack).index(a.target) if a.target in attack else 0
            return (a.kind - BLIND_KINDS, spot, a.position)
        first = a.cards[0]
        trumped = sum(1 for c in a.cards if not is_special(c) and suit_of(c) in trumps)
        rank = 99 if is_special(first) else rank_of(first)
        suit = 9 if is_special(first) else suit_of(first)
        if a.kind == DEFEND:
            return (0, list(attack).index(a.target) if a.target in attack else 99, trumped,
                    rank, suit)
        group = 1 if a.kind == TRANSFER else 0
        return (group, 0, trumped, rank, len(a.cards), *a.cards)

    return sorted(legal, key=key)


def _pairs(attack: Sequence[int], defence: Sequence[int],
           trumps: frozenset[int]) -> tuple[Pair, ...]:
    return tuple(_pair(a, d, trumps) for a, d in zip(attack, defence, strict=True) if a >= 0)


@lru_cache(maxsize=16384)
def _pair(attack: int, defence: int, trumps: frozenset[int]) -> Pair:
    """An attack card and its cover (or a mark: -1 open, -2 needs no cover, -3 face down),
    made once per cards and trump suits (a :class:`Pair` never changes)."""
    return Pair(card(attack, trumps), card(defence, trumps) if defence >= 0 else None,
                defence == -3, defence != -2)


@lru_cache(maxsize=64)
def _facts_vocabulary(trumps: frozenset[int], jokers: bool) -> Vocabulary:
    """The learner's build's vocabulary: the trump suits and the jokers, no words (made once
    per trump suits)."""
    return Vocabulary("french", suit_names(trumps), jokers=jokers)


def _seat_note(view: DurakView, s: int, playing: PlayingDummy, tallied: Tallies,
               blind: bool) -> str:
    notes = []
    if s == playing.seat:
        notes.append("dummy")
    if blind and s != view.seat:  # #58: every other hand is held face out to you
        notes.append("held face out")
    if tallied.figures:  # #62: the figures each seat has collected
        notes.append(f"figures {tallied.figures[s]}")
    if tallied.reserve_counts and tallied.reserve_counts[s] and s != view.seat:  # #35, #37
        notes.append(f"+ {tallied.reserve_counts[s]} face down")
    return ", ".join(notes)


#: What a view without these rules' additions reads (made once: the model is built at every
#: step of a learner's game).
_NO_TALLIES = Tallies(())
_NO_DUMMY = PlayingDummy(-1, -1)
_NO_EXTRAS = Extras()


def table_model(view: DurakView, words: bool = True) -> TableModel:
    """The table model of a seat's Durak view; ``words=False`` is the learner's build (the
    same facts, no moves, notes or words: :mod:`bito.games.tables.model`)."""
    trumps = view.trumps
    partnership = view.extension(Partnership)
    teams = {m: k for k, team in enumerate(partnership.teams if partnership else ())
             for m in team}
    tallied = view.extension(Tallies) or _NO_TALLIES
    face_out = view.extension(FaceOut)
    blind = face_out is not None
    playing = view.extension(PlayingDummy) or _NO_DUMMY
    extras = view.extension(Extras) or _NO_EXTRAS
    own = view.extension(OwnTrumps)  # #16: every seat's own trump suit, public
    own_trumps = own.suits if own is not None else ()
    seats = []
    for s in range(view.players):
        role = ("out" if s in view.out else "defender" if s == view.defender
                else "attacker" if s == view.attacker else "")
        points = tallied.points[s] if tallied.points else None
        if face_out is not None:  # #58: the others' hands face out, by position; your own unseen
            known = cards(face_out.hand_order[s], trumps) if s != view.seat and \
                face_out.hand_order else ()
        else:
            known = cards(view.known[s], trumps)
        seats.append(Seat(s, role, view.hand_counts[s], known, points, s in view.out,
                          teams.get(s, -1),
                          _seat_note(view, s, playing, tallied, blind) if words else "",
                          playing.controller if s == playing.seat else -1,
                          SUIT_NAMES[own_trumps[s]] if own_trumps else ""))
    reserve = tallied.reserve_counts[view.seat] if tallied.reserve_counts else 0
    hand = (Zone("hand", "hand", view.hand_counts[view.seat],
                 face_down=view.hand_counts[view.seat], owner=view.seat,
                 note="held face out: you cannot see them; play by position, #1 is your "
                      "oldest card" if words else "", by_position=True) if blind
            else Zone("hand", "hand", view.hand.bit_count() + reserve, cards(view.hand, trumps),
                      face_down=reserve, owner=view.seat))
    pairs = _pairs(view.attack, view.defence, trumps)
    under = (card(view.trump_card, trumps) if view.trump_card >= 0 and view.trump_card_in_stock
             else None)
    seen = cards([extras.shown], trumps) if extras.shown >= 0 else ()  # #83
    zones = [hand, Zone("table", "pairs", len(pairs) + sum(p.cover is not None for p in pairs),
                        pairs=pairs, note="the defender takes" if view.taking and words else ""),
             Zone("stock", "stock", view.stock_count, seen, top=under,
                  face_down=view.stock_count - (under is not None) - len(seen),
                  note="its top card was seen by all" if seen and words else ""),
             Zone("discard", "discard", view.discard_count, face_down=view.discard_count)]
    if extras.counter_target >= 0:  # #49: the counter-attack and its covers
        counter = _pairs(extras.counter, extras.counter_cover, trumps)
        zones.append(Zone("counter", "pairs", len(counter), pairs=counter,
                          owner=extras.counter_target))
    dummy = view.extension(TossingDummy)
    if dummy is not None:  # #56: the dummy's cards, as far as this seat sees them
        mine = dummy.controller == view.seat and bool(dummy.hand)
        zones.append(Zone("dummy", "hand", dummy.count,
                          cards(dummy.hand, trumps) if mine else (),
                          face_down=0 if mine else dummy.count,
                          owner=dummy.controller,
                          note="its controller throws in from it with ~card" if words else ""))
    phase = PHASE_NAMES[view.phase]
    turned = view.extension(SecretTurned)  # #18: the secret card, once turned
    secret = 1 << turned.card if turned is not None else 0
    return TableModel(
        "durak", "durak", view.seat, view.players, tuple(seats), tuple(zones), view.to_act,
        _doing(view, phase) if words else "",
        tuple(choice(a, trumps) for a in view.legal) if words else (),
        _vocabulary(view, partnership is not None) if words
        else _facts_vocabulary(trumps, view.rules.deck_jokers > 0),
        **ending(view.outcome), bout=view.bout + 1,
        order=tuple(view.legal.index(a) for a in move_order(view.legal, trumps, view.attack))
        if words else (),
        attacker=view.attacker, leader=view.leader, defender=view.defender,
        taking=view.taking, discarded=cards(view.seen_discard, trumps),
        face_up=cards(view.stock_face_up | secret, trumps), phase=phase,
        to_beat=tuple(p.attack for p in pairs if p.cover is None and not p.face_down),
        trump_card=card(view.trump_card, trumps) if view.trump_card >= 0 else None,
        decider=view.decider if view.decider != view.to_act else -1,
        prompt=_prompt(view, phase) if words else "")


def _doing(view: DurakView, phase: str) -> str:
    """What the seat to act is doing, in words."""
    if phase == "defend" and not view.rules.transfer_enabled:
        return "covers or takes"
    return DOING.get(phase, phase)


def _prompt(view: DurakView, phase: str) -> str:
    """What the seat to act is asked to do, said to him."""
    if phase == "defend" and not view.rules.transfer_enabled:
        return "cover or take"
    return PROMPT.get(phase, "")


def _vocabulary(view: DurakView, partners: bool) -> Vocabulary:
    """The trump suits, the jokers, the trump in words and the partners' rule."""
    notes = ("partners do not attack each other; a team loses when one of its players is "
             "the fool",) if partners else ()
    return Vocabulary("french", suit_names(view.trumps), jokers=view.rules.deck_jokers > 0,
                      notes=notes, trump_words=view_trump_words(view))
