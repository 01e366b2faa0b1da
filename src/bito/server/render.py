"""Views as JSON for the browser: the one place where a game's view becomes data.

The browser draws every game with one generic table: a hand, the cards on the table (in
pairs where a card covers another), the seats with their card counts and publicly known cards,
piles (stock, discard), a status line and the legal actions. A family plugs in by adding a
function to :data:`RENDERERS`; a family without one still plays through the generic fallback
(its view's text and its legal actions as buttons).

Cards travel only in notation (``6h``, ``Ts``, ``RJ``); labels are composed in the browser, so
a test can find every card a frame mentions with one pattern.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bito.cards import card_str, cards_of, is_special, rank_of, suit_of

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
    cards = getattr(action, "cards", ())
    target = getattr(action, "target", -1)
    kind = getattr(action, "kind_name", None) or str(getattr(action, "kind", "move"))
    try:
        names = [card_str(c) for c in cards if c >= 0]
    except (IndexError, KeyError, ValueError):  # a family's own deck: its text says it all
        names = []
    out: Json = {"text": str(action), "kind": kind, "cards": names}
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


def _safe_cards(mask_or_cards: Any) -> list[Json] | None:
    """Cards in notation, or None when the family names its cards otherwise (the *Fool!*
    deck): then the view's own text shows them."""
    codes = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else list(mask_or_cards)
    try:
        return [card_json(c) for c in codes]
    except (IndexError, KeyError, ValueError):
        return None


def render_generic(view: Any, spectator: bool) -> Json:
    """Any family without its own renderer, from the fields every view has (hand, counts,
    seat to act, legal moves) and the common optional ones (the top card, the trick, the
    pile and stock sizes, scores), plus the view's own text for the rest."""
    players = int(getattr(view, "players", 0))
    counts = tuple(getattr(view, "hand_counts", ()))
    scores = tuple(getattr(view, "scores", ()))
    seats: list[Json] = [{"seat": s, "count": counts[s] if s < len(counts) else 0, "known": [],
              "role": f"score {scores[s]}" if s < len(scores) else ""} for s in range(players)]
    table: list[Json] = []
    top = getattr(view, "top", -1)
    if isinstance(top, int) and top >= 0:
        table = [{"attack": c, "cover": None} for c in (_safe_cards([top]) or [])]
    trick = getattr(view, "trick", ())
    if trick:
        table = [{"attack": c, "cover": None}
                 for c in (_safe_cards([card for _, card in trick]) or [])]
    piles = [{"name": name.removesuffix("_count"), "count": getattr(view, name)}
             for name in ("stock_count", "pile_count") if isinstance(getattr(view, name, None),
                                                                    int)]
    hand = None if spectator else _safe_cards(getattr(view, "hand", 0))
    outcome = getattr(view, "outcome", None)
    to_json = getattr(outcome, "to_json", None)
    legal = [] if spectator else [action_json(a) for a in getattr(view, "legal", ())]
    return {"family": "generic", "players": players, "to_act": getattr(view, "to_act", -1),
            "doing": "play", "phase": str(getattr(view, "phase", "")),
            "seat": None if spectator else getattr(view, "seat", None),
            "text": "" if spectator else str(view),
            "hand": hand or [], "seats": seats, "table": table, "piles": piles,
            "legal": legal, "outcome": to_json() if to_json else None}


RENDERERS: dict[str, Callable[[Any, bool], Json]] = {"DurakView": render_durak}


def render_view(view: Any, spectator: bool = False) -> Json:
    """The JSON a seat (or, with ``spectator``, anybody) is sent for this view."""
    renderer = RENDERERS.get(type(view).__name__, render_generic)
    return renderer(view, spectator)


def render_public(state: Any) -> Json:
    """What a spectator may see: a seat's view with the hand and the legal moves removed, so
    only public information (table, counts, known cards, piles) is left."""
    return render_view(state.view(_public_seat(state)), spectator=True)


def _public_seat(state: Any) -> int:
    """A seat whose view knows nothing private of another seat: seat 0, unless it plays a
    dummy (#57: the controller's view holds the dummy's hand), then one that does not."""
    deal = getattr(state, "deal", None)
    if deal is None or getattr(deal, "dummy_seat", -1) < 0:
        return 0
    taken = (deal.dummy_seat, deal.dummy_seat_controller)
    return next(s for s in range(state.players) if s not in taken)


def render_open(state: Any) -> Json:
    """The finished game's position with every hand shown, for the replay page (only ever
    served once the game is over)."""
    from bito.games.durak.blind import FaceOut
    from bito.games.durak.view import extension_of

    frame = render_view(state.view(0), spectator=True)
    hands = []
    for s in range(state.players):
        view = state.view(s)
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
