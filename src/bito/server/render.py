"""Views as JSON for the browser: the one place where a game's view becomes data.

Every family is sent as its table model (:mod:`bito.games.tables`): seats with their counts,
known cards, scores and notes; the zones where cards lie, each with its kind (``pairs``,
``trick``, ``pile``, ``claim``, ``stock``, ``discard``, ``centre``, another ``hand``); whose
turn it is and why; the legal moves with their words; the game's own card vocabulary. The page
draws every zone by its kind, so a family with a new need adds to the model, not to the page.
Durak's frame keeps its own builder (:func:`render_durak`): it carries what the Durak table
draws beyond the model (the bout's taking banner, the face-out hand, the dummy's controller).

Cards travel only in notation (``6h``, ``Ts``, ``RJ``, *Fool!*'s ``g12`` and ``w1``); labels
are composed in the browser, so a test can find every card a frame mentions with one pattern.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bito.cards import card_str, cards_of, is_special, rank_of, suit_of
from bito.games.protocol import Move
from bito.games.tables import Card, Seat, TableModel, Vocabulary, Zone, table_of
from bito.games.tables.faces import MOVE_WORDS

if TYPE_CHECKING:
    from bito.rules import Rules

Json = dict[str, Any]


@lru_cache(maxsize=4096)
def card_json(code: int, trumps: frozenset[int] = frozenset()) -> Json:
    """One visible card: its notation, and whether it is a trump. Cached (a few hundred
    distinct cards), so callers must not change the dict they get."""
    trump = not is_special(code) and suit_of(code) in trumps
    return {"c": card_str(code), "trump": trump}


@lru_cache(maxsize=65536)
def _sorted_hand(mask: int, trumps: frozenset[int]) -> tuple[int, ...]:
    """Plain suits first (clubs, diamonds, hearts, spades), then trumps, each low to high:
    the order a player arranges a fan of cards."""
    def key(code: int) -> tuple[int, int, int]:
        if is_special(code):
            return (2, 0, rank_of(code))
        return (1 if suit_of(code) in trumps else 0, suit_of(code), rank_of(code))
    return tuple(sorted(cards_of(mask), key=key))


def action_json(action: Any) -> Json:
    """A legal action: its text (what the client sends back), its kind and cards."""
    from bito.games.tables import move_cards

    cards = getattr(action, "cards", ())
    target = getattr(action, "target", -1)
    kind = getattr(action, "kind_name", None) or str(getattr(action, "kind", "move"))
    if getattr(action, "deck", "standard") != "standard":  # a family's own deck (Fool!)
        names = [c.text for c in move_cards(action)]
    else:
        names = [card_str(c) for c in cards if c >= 0]
    out: Json = {"text": str(action), "kind": kind, "cards": names}
    if isinstance(action, Move) and action.kind != "play":  # another family's simple move
        out["label"] = MOVE_WORDS.get(action.kind, action.kind)
    hidden = getattr(action, "count", None)
    if kind == "play" and not names and isinstance(hidden, int):  # put down face down
        out["hidden"] = hidden
    if isinstance(target, int) and target >= 0:
        out["target"] = card_str(target)
    if kind.startswith("blind"):  # #58: a play by hand position (1 = #1)
        out["position"] = action.position + 1 if hasattr(action, "position") else \
            action.action.position + 1
        if getattr(action, "fits", True) is False:
            out["illegal"] = True  # turned up and penalised: the player took the bout
    return out


_ROLE_WORDS = {"lead": "lead an attack", "defend": "cover, transfer or take",
               "throw": "throw in or pass"}


def render_durak(view: Any, spectator: bool) -> Json:
    from bito.games.durak.blind import FaceOut
    from bito.games.durak.dummy import TossingDummy
    from bito.games.durak.dummy_seat import PlayingDummy
    from bito.games.durak.phases import PHASE_NAMES
    from bito.games.durak.teams import Partnership

    face_out = view.extension(FaceOut)
    trumps: frozenset[int] = view.trumps
    rules: Rules = view.rules
    phase = PHASE_NAMES[view.phase]
    seats = []
    for s in range(view.players):
        if s in view.out:
            role = "out"
        elif s == view.defender:
            role = "defender"
        elif s == view.attacker:
            role = "attacker"
        else:
            role = ""
        if face_out is not None:
            # #58: hands held face out, by position; a spectator sees none of them (else a
            # player could watch his own table to see his own hand).
            known = [] if spectator else [card_json(c, trumps)
                                          for c in face_out.hand_order[s]]
        else:
            known = [card_json(c, trumps) for c in _sorted_hand(view.known[s], trumps)]
        seats.append({"seat": s, "count": view.hand_counts[s], "role": role, "known": known})
    table = []
    # #59: a spectator's frame is built from seat 0's view; if seat 0 defends he sees his own
    # face-down covers, which a spectator may not.
    down = spectator and rules.defense_face_down
    for a, d in zip(view.attack, view.defence, strict=True):
        if down and d >= 0:
            d = -3
        table.append({"attack": card_json(a, trumps),
                      "cover": card_json(d, trumps) if d >= 0 else None,
                      "face_down": d == -3})  # #59: covered, the card not shown
    piles: list[Json] = [{"name": "stock", "count": view.stock_count},
                         {"name": "discard", "count": view.discard_count}]
    if view.trump_card >= 0 and view.trump_card_in_stock:  # face up under the stock
        piles[0]["top"] = card_json(view.trump_card, trumps)
    doing = _ROLE_WORDS.get(phase, "")
    if phase == "defend" and not rules.transfer_enabled:
        doing = "cover or take"
    out: Json = {
        "family": "durak", "phase": phase, "players": view.players, "to_act": view.to_act,
        "decider": view.decider,
        "doing": doing, "taking": view.taking, "bout": view.bout,
        "trump_suits": ["cdhs"[t] for t in sorted(trumps) if t < 4],
        "seats": seats, "table": table, "piles": piles, "out": list(view.out),
        "outcome": view.outcome.to_json() if view.outcome is not None else None,
    }
    partnership = view.extension(Partnership)
    if partnership is not None:  # #53-55: who sits with whom is public
        out["teams"] = [list(t) for t in partnership.teams]
    playing = view.extension(PlayingDummy)
    if playing is not None:  # #57: the dummy's seat and who plays it (public)
        out["dummy_seat"] = {"seat": playing.seat, "controller": playing.controller}
    dummy = view.extension(TossingDummy)
    if dummy is not None:  # #56: the dummy, as this seat sees it
        out["dummy"] = {"controller": dummy.controller, "count": dummy.count,
                        "cards": [card_json(c, trumps) for c in
                                  _sorted_hand(0 if spectator else dummy.hand, trumps)]}
    if face_out is not None:
        out["face_out"] = True  # #58: one's own hand is shown as numbered backs
        if not spectator:
            out["blind_hand"] = view.hand_counts[view.seat]
    if spectator:
        out.update(seat=None, hand=[], legal=[])
    else:
        out.update(seat=view.seat, hand=[card_json(c, trumps)
                                         for c in _sorted_hand(view.hand, trumps)],
                   legal=[action_json(a) for a in view.legal])
    return out


def model_card(card: Card) -> Json:
    """A card of the table model as the page draws it: its notation, whether it is a trump,
    and for a deck of its own (*Fool!*) its colour and whether it is wild."""
    out: Json = {"c": card.text, "trump": card.trump}
    if card.colour:
        out["colour"] = card.colour
    if card.wild:
        out["wild"] = True
    return out


def _hand_order(card: Card) -> tuple[bool, bool, str, int]:
    """A fan as a player holds it: plain suits (or colours) first, then trumps, then the
    wild cards, each low to high."""
    return (card.trump, card.wild, card.suit or card.colour, card.code)


def _zone_json(zone: Zone) -> Json:
    pairs = [{"attack": model_card(p.attack),
              "cover": model_card(p.cover) if p.cover is not None else None,
              "face_down": p.face_down} for p in zone.pairs]
    return {"name": zone.name, "kind": zone.kind, "count": zone.count,
            "cards": [model_card(c) for c in zone.cards], "pairs": pairs,
            "plays": [{"seat": p.seat, "card": model_card(p.card)} for p in zone.plays],
            "top": model_card(zone.top) if zone.top is not None else None,
            "face_down": zone.face_down, "owner": zone.owner, "note": zone.note}


def _seat_json(seat: Seat) -> Json:
    return {"seat": seat.seat, "count": seat.cards, "role": seat.role,
            "known": [model_card(c) for c in seat.known], "score": seat.score, "out": seat.out,
            "team": seat.team, "note": seat.note}


def _vocabulary_json(words: Vocabulary) -> Json:
    return {"deck": words.deck, "trumps": list(words.trumps), "called_suit": words.called_suit,
            "wild": list(words.wild), "jokers": words.jokers, "colours": list(words.colours),
            "notes": [n for n in words.notes if n]}


def _pile_json(zone: Json) -> Json:
    """A stock or a discard as the page's piles: its name, its count, the card face up under
    it (the trump card under the stock)."""
    pile: Json = {"name": zone["name"], "count": zone["count"]}
    if zone["top"] is not None:
        pile["top"] = zone["top"]
    return pile


def _own_hand(model: TableModel) -> Zone | None:
    return next((z for z in model.zones if z.kind == "hand" and z.owner == model.seat), None)


def render_model(view: Any, spectator: bool = False,
                 model: TableModel | None = None) -> Json:
    """The frame of any family from its table model: the seats, every zone but the viewer's
    own hand (sent as ``hand``), whose turn and why, the legal moves (``text`` is what the
    page sends back, ``label`` their words) and the card vocabulary. ``spectator``: no hand
    and no moves (the caller passes a ``model`` holding only public cards)."""

    model = model if model is not None else table_of(view)
    own = _own_hand(model)
    zones = [_zone_json(z) for z in model.zones if z is not own]
    pairs = next((z for z in zones if z["kind"] == "pairs"), None)
    outcome = getattr(view, "outcome", None)
    out: Json = {
        "family": model.family, "game": model.game, "model": True,
        "players": model.players, "to_act": model.to_act, "doing": model.doing,
        "phase": str(getattr(view, "phase", "")),
        "seats": [_seat_json(s) for s in model.seats], "zones": zones,
        "table": pairs["pairs"] if pairs is not None else [],
        # the stock and the discard lie as piles on every table, the page draws them alike
        "piles": [_pile_json(z) for z in zones if z["kind"] in ("stock", "discard")],
        "vocabulary": _vocabulary_json(model.vocabulary),
        "trump_suits": [t[0] for t in model.vocabulary.trumps],
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    if spectator or own is None:
        out.update(seat=None if spectator else model.seat, hand=[], legal=[])
        return out
    legal = list(getattr(view, "legal", ()))
    moves = []
    for action, choice in zip(legal, model.moves, strict=True):
        entry = action_json(action)
        entry.update(label=choice.label, cards=[c.text for c in choice.cards])
        moves.append(entry)
    out.update(seat=model.seat, hand=[model_card(c) for c in sorted(own.cards, key=_hand_order)],
               legal=moves)
    return out


def public_model(state: Any) -> TableModel:
    """The table as nobody in particular sees it: built from every seat's model, a card
    stays face up only where every seat sees it (a claim's cards, a seat's own cards in a
    face-down pile turn into backs), and no hand and no move is left."""

    models = [table_of(state.view(s)) for s in range(state.players)]
    first = models[0]

    def seen_by_all(zone: Zone) -> Zone:
        others = [next((z for z in m.zones if z.name == zone.name), None) for m in models[1:]]
        if any(o is None for o in others):
            return dataclasses.replace(zone, cards=(), pairs=(), plays=(), top=None,
                                       face_down=zone.count)
        same = [o for o in others if o is not None]
        cards = tuple(c for c in zone.cards if all(c in o.cards for o in same))
        hidden = len(zone.cards) - len(cards)
        top = zone.top if all(o.top == zone.top for o in same) else None
        pairs = zone.pairs if all(o.pairs == zone.pairs for o in same) else ()
        plays = zone.plays if all(o.plays == zone.plays for o in same) else ()
        return dataclasses.replace(zone, cards=cards, top=top, pairs=pairs, plays=plays,
                                   face_down=zone.face_down + hidden)

    zones = tuple(seen_by_all(z) for z in first.zones if z.kind != "hand")
    seats = tuple(dataclasses.replace(seat, known=tuple(
        c for c in seat.known if all(c in m.seats[seat.seat].known for m in models[1:])))
        for seat in first.seats)
    return dataclasses.replace(first, seat=-1, zones=zones, seats=seats, moves=())


RENDERERS: dict[str, Callable[[Any, bool], Json]] = {"DurakView": render_durak}
"""Views whose frame is built otherwise than from the table model alone, by type name."""


def render_view(view: Any, spectator: bool = False) -> Json:
    """The JSON a seat (or, with ``spectator``, anybody) is sent for this view."""
    renderer = RENDERERS.get(type(view).__name__)
    if renderer is not None:
        return renderer(view, spectator)
    if spectator:  # one seat's view holds that seat's secrets: only the public table
        raise ValueError("a spectator's frame of this game is render_public(state)")
    return render_model(view)


def render_public(state: Any) -> Json:
    """What a spectator may see: a seat's view with the hand and the legal moves removed, so
    only public information (table, counts, known cards, piles) is left."""
    view = state.view(_public_seat(state))
    if type(view).__name__ in RENDERERS:
        return render_view(view, spectator=True)
    return render_model(view, spectator=True, model=public_model(state))


def _public_seat(state: Any) -> int:
    """A seat whose view knows nothing private of another seat: seat 0, unless it plays a
    dummy (#57: the controller's view holds the dummy's hand), then one that does not."""
    from bito.games.durak.dummy_seat import DummySeat
    from bito.games.durak.setup import Deal

    deal = getattr(state, "deal", None)
    dummy = deal.fact(DummySeat) if isinstance(deal, Deal) else None
    if dummy is None:
        return 0
    taken = (dummy.seat, dummy.controller)
    return next(s for s in range(state.players) if s not in taken)


def render_open(state: Any) -> Json:
    """The finished game's position with every hand shown, for the replay page (only ever
    served once the game is over)."""
    from bito.games.durak.blind import FaceOut
    from bito.games.durak.view import extension_of

    frame = render_public(state)
    hands = []
    for s in range(state.players):
        view = state.view(s)
        if type(view).__name__ not in RENDERERS:  # a family drawn from its table model
            own = _own_hand(table_of(view))
            hands.append([model_card(c) for c in sorted(own.cards, key=_hand_order)]
                         if own is not None else [])
            continue
        trumps: frozenset[int] = getattr(view, "trumps", frozenset())
        hand = getattr(view, "hand", 0)
        if extension_of(view, FaceOut) is not None:
            # #58: a hand is seen by the others, not its owner
            hand = state.view((s + 1) % state.players).known[s]
        try:
            hands.append([card_json(c, trumps) for c in _sorted_hand(hand, trumps)])
        except (IndexError, KeyError, ValueError, TypeError):
            hands.append([])
    frame["hands"] = hands
    return frame


def position_digest(state: Any, actions: list[Any]) -> str:
    """A fingerprint of a position: every hand, the table and the moves that led there,
    hashed. Two processes showing the same game have the same digest; it says nothing about
    the cards (an operator's and the cluster test's check that every process shows every
    table as stored, see ``/internal/tables``)."""
    import hashlib

    text = json.dumps([render_open(state), [str(a) for a in actions]], sort_keys=True,
                      ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
