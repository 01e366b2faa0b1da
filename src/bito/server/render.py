"""Views as JSON for the browser: the one place where a game's view becomes data.

Every family is sent as its table model (:mod:`bito.games.tables`): seats with their counts,
known cards, scores and notes; the zones where cards lie, each with its kind (``pairs``,
``trick``, ``pile``, ``claim``, ``stock``, ``discard``, ``centre``, another ``hand``); whose
turn it is and why; the legal moves with their words; the game's own card vocabulary. The page
draws every zone by its kind, so a family with a new need adds to the model, not to the page.
Durak is no exception: its taking banner, the hand held face out (#58), the seat that plays a
dummy (#57) and the covers laid face down (#59) are facts of its model like any other.

Cards travel only in notation (``6h``, ``Ts``, ``RJ``, *Fool!*'s ``g12`` and ``w1``); labels
are composed in the browser, so a test can find every card a frame mentions with one pattern.
"""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from bito.cards import SUIT_SYMBOLS, card_str, parse_card
from bito.games.protocol import Move
from bito.games.tables import Card, Pair, Seat, TableModel, Vocabulary, Zone, table_of
from bito.games.tables.faces import MOVE_WORDS

Json = dict[str, Any]


_FACE = re.compile(f"(?:10|[2-9JQKA])[{SUIT_SYMBOLS}]")


def in_notation(words: str) -> str:
    """A model's words with every card face in notation (``cover 7♥ with 9♥`` ->
    ``cover 7h with 9h``): cards travel in notation only, the page draws their faces. The
    face is read and written by the cards module, the one copy of the notation."""
    return _FACE.sub(lambda m: card_str(parse_card(m[0])), words)


def move_label(state: Any, seat: int, action: Any) -> str:
    """The words a seat's table model has for a card it played (Cheat's ``put down 7♥ 7♠``,
    not ``play``), for the log; empty for any other move (the page words those itself)."""
    if not isinstance(action, Move) or action.kind != "play":
        return ""
    model = table_of(state.view(seat))
    return next((in_notation(c.label) for c in model.moves if c.id == str(action)), "")


def action_json(action: Any, label: str = "") -> Json:
    """A legal action: its text (what the client sends back), its kind and cards, and
    ``label``, the model's words for it, when given."""
    from bito.games.tables import move_cards

    cards = getattr(action, "cards", ())
    target = getattr(action, "target", -1)
    kind = getattr(action, "kind_name", None) or str(getattr(action, "kind", "move"))
    if getattr(action, "deck", "standard") != "standard":  # a family's own deck (Fool!)
        names = [c.text for c in move_cards(action)]
    else:
        names = [card_str(c) for c in cards if c >= 0]
    out: Json = {"text": str(action), "kind": kind, "cards": names}
    if label:
        out["label"] = label
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
    wild cards (jokers), each low to high."""
    return (card.wild, card.trump, card.suit or card.colour, card.code)


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
            "team": seat.team, "note": seat.note, "played_by": seat.played_by}


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
    and no moves (the caller passes a ``model`` holding only public cards).

    Beside the zones, what a bout in play shows: ``taking`` (the taking banner), ``decider``
    (who moves for the seat to act: a dummy's controller), ``prompt`` (what the seat to act
    is asked to do), and for a hand held face out ``face_out`` and ``blind_hand``, the
    number of backs the viewer plays by position."""

    model = model if model is not None else table_of(view)
    own = _own_hand(model)
    zones = [_zone_json(z) for z in model.zones if z is not own]
    pairs = next((z for z in zones if z["kind"] == "pairs"), None)
    outcome = getattr(view, "outcome", None)
    out: Json = {
        "family": model.family, "game": model.game, "model": True,
        "players": model.players, "to_act": model.to_act, "doing": model.doing,
        "decider": model.decider if model.decider >= 0 else model.to_act,
        "prompt": model.prompt, "taking": model.taking, "bout": model.bout,
        "phase": model.phase or str(getattr(view, "phase", "")),
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
    if own.by_position:  # #58: one's own hand as numbered backs
        out.update(face_out=True, blind_hand=own.count)
    legal = list(getattr(view, "legal", ()))
    moves = []
    for action, choice in zip(legal, model.moves, strict=True):
        entry = action_json(action)
        entry.update(label=in_notation(choice.label), cards=[c.text for c in choice.cards])
        moves.append(entry)
    out.update(seat=model.seat, hand=[model_card(c) for c in sorted(own.cards, key=_hand_order)],
               legal=moves)
    return out


def public_model(state: Any) -> TableModel:
    """The table as nobody in particular sees it: built from every seat's model, a card
    stays face up only where every seat sees it (a claim's cards, a seat's own cards in a
    face-down pile turn into backs, a cover laid face down stays face down, #59), and no
    hand, no move and no card just drawn is left."""

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
        plays = zone.plays if all(o.plays == zone.plays for o in same) else ()
        return dataclasses.replace(zone, cards=cards, top=top, pairs=_public_pairs(zone, same),
                                   plays=plays, face_down=zone.face_down + hidden)

    zones = tuple(seen_by_all(z) for z in first.zones if z is not _own_hand(first))
    seats = tuple(dataclasses.replace(seat, known=tuple(
        c for c in seat.known if all(c in m.seats[seat.seat].known for m in models[1:])))
        for seat in first.seats)
    to_beat = tuple(c for c in first.to_beat if all(c in m.to_beat for m in models[1:]))
    return dataclasses.replace(first, seat=-1, zones=zones, seats=seats, moves=(), order=(),
                               drawn=None, to_beat=to_beat)


def _public_pairs(zone: Zone, others: list[Zone]) -> tuple[Pair, ...]:
    """The pairs every seat sees alike; a cover one seat sees and another does not (#59: the
    defender's own cover laid face down) lies face down. Pairs whose attack cards differ
    between seats (no game has them) are left off."""
    if all(o.pairs == zone.pairs for o in others):
        return zone.pairs
    if any([p.attack for p in o.pairs] != [p.attack for p in zone.pairs] for o in others):
        return ()
    return tuple(pair if all(o.pairs[i] == pair for o in others)
                 else dataclasses.replace(pair, cover=None, face_down=True)
                 for i, pair in enumerate(zone.pairs))


def render_view(view: Any, spectator: bool = False) -> Json:
    """The JSON a seat is sent for this view (a spectator's is :func:`render_public`)."""
    if spectator:  # one seat's view holds that seat's secrets: only the public table
        raise ValueError("a spectator's frame of a game is render_public(state)")
    return render_model(view)


def render_public(state: Any) -> Json:
    """What a spectator may see: the table model every seat sees alike, with no hand and no
    legal moves, so only public information (table, counts, known cards, piles) is left."""
    return render_model(state.view(_public_seat(state)), spectator=True,
                        model=public_model(state))


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
    frame = render_public(state)
    hands = []
    for s in range(state.players):
        own = _own_hand(table_of(state.view(s)))
        shown: tuple[Card, ...] = own.cards if own is not None else ()
        if own is not None and own.by_position:  # #58: a hand is seen by the others only
            shown = table_of(state.view((s + 1) % state.players)).seats[s].known
        hands.append([model_card(c) for c in sorted(shown, key=_hand_order)])
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
