"""Writing a position as text (the format is described in :mod:`bito.games.durak.position`,
which reads it back).

The writer lives apart from the reader so that the state can print itself (its ``repr`` is
its position text) without importing the module that builds states from text: the writer
needs the state only as a value, never its class.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from bito.cards import card_str, cards_of
from bito.games.durak.hooks import STOCK_FACE_UP, HandOrder, OpenHands, StockFaceUp, WriteFields
from bito.games.durak.phases import NEUTRAL, PHASE_NAMES
from bito.games.durak.render import hand_in_order
from bito.rules import Rules, resolve
from bito.rules.options import OPTION_SPECS

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

__all__ = ["position_text", "rules_spec"]


@lru_cache(maxsize=256)
def rules_spec(rules: Rules) -> str:
    """A variant spec that resolves to exactly ``rules``."""
    best: list[str] | None = None
    for base in ("podkidnoy", "perevodnoy", "simple"):
        base_rules = resolve(base).rules
        diff = {k: v for k, v in rules.options().items()
                if getattr(base_rules, OPTION_SPECS[k].attr) != v}
        parts = [base] + [f"{k}={_opt_text(v)}" for k, v in sorted(diff.items())]
        if best is None or len(parts) < len(best):
            best = parts
    assert best is not None
    return "+".join(best)


def _opt_text(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(value) if value else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _seats(seats: list[int] | tuple[int, ...]) -> str:
    return ".".join(str(s) for s in seats) if seats else "-"


def _cards(mask_or_list: int | list[int]) -> str:
    cards = cards_of(mask_or_list) if isinstance(mask_or_list, int) else mask_or_list
    out = "".join(card_str(c) for c in cards)
    return out or "-"


def _hidden(n: int) -> str:
    return f"??*{n}" if n else ""


def position_text(state: DurakState, seat: int | None = None) -> str:
    """The one-line position; with ``seat`` the censored form for that seat.

    The full text sets the same position up again (:func:`parse_position`); the censored
    one shows that seat's hand and hides the rest as ``??``:

    >>> from bito.games.durak import new_game
    >>> from bito.games.durak.position import parse_position
    >>> state = new_game("podkidnoy", players=2, seed=7)
    >>> text = position_text(state)
    >>> position_text(parse_position(text)) == text
    True
    >>> "??" in position_text(state, seat=1) and "??" not in text
    True
    """
    d = state.deal
    n = d.players
    fields = [rules_spec(d.rules), f"players={n}"]
    if seat is None:
        fields.append(f"seed={d.seed}")
    fields += [f"dealer={d.dealer}", f"game={d.match.game_number}", f"bout={state.bout}",
               f"trump={card_str(d.trump_card) if d.trump_card >= 0 else '-'}"]
    blind = HandOrder in d.hooks.query_at  # #58: hands by position; a seat never sees its own
    if seat is None:
        fields.append(f"stock={_cards(list(state.stock))}")
        fields.append("hands=" + "/".join(
            _cards(list(hand_in_order(state, s))) if blind else _cards(state.hands[s])
            for s in range(n)))
    else:
        stock, hidden = "", 0
        face_up = d.trump.face_up
        for query in d.hooks.query_at.get(StockFaceUp, ()):  # #38 A2: a rebuilt stock
            face_up = query(state, STOCK_FACE_UP, face_up)
        for c in state.stock:  # bottom first: face-up cards shown, the others hidden
            if face_up >> c & 1:
                stock += _hidden(hidden) + card_str(c)
                hidden = 0
            else:
                hidden += 1
        stock += _hidden(hidden)
        fields.append(f"stock={stock or '-'}")
        hands = []
        # #57: the controller sees the dummy's hand; the dummy's seat sees the controller's.
        seat_sees = (0,) * n
        for query in d.hooks.query_at.get(OpenHands, ()):
            seat_sees = query(state, OpenHands(seat), seat_sees)
        for s in range(n):
            h = state.hands[s]
            if blind:
                hands.append(_hidden(h.bit_count()) or "-" if s == seat
                             else _cards(list(hand_in_order(state, s))))
            elif s == seat:
                hands.append(_cards(h))
            else:
                k = (state.known[s] | seat_sees[s]) & h
                hands.append((_cards(k) if k else "") + _hidden(h.bit_count() - k.bit_count())
                             or "-")
        fields.append("hands=" + "/".join(hands))
    fields.append("known=" + "/".join(
        "-" if blind and s == seat else _cards(state.known[s] & state.hands[s])
        for s in range(n)))
    for fact in d.facts:  # the rules' deal facts (a dummy's hand, who plays a dummy)
        fields += fact.position_fields(state, seat)
    # #59: a seat other than the defender sees a face-down cover only as ``??``.
    down = seat is not None and d.rules.defense_face_down and seat != state.defender
    table = ",".join(card_str(a) + ("<??" if c >= 0 and down else f"<{card_str(c)}" if c >= 0
                                    else "<*" if c == NEUTRAL else "")
                     for a, c in zip(state.attack, state.defence, strict=True))
    fields.append(f"table={table or '-'}")
    fields.append(f"discard={_cards(state.discard)}")
    fields += [f"phase={PHASE_NAMES[state.phase]}", f"attacker={state.attacker}",
               f"leader={state.leader}", f"defender={state.defender}",
               f"to_act={state.to_act}", f"taking={int(state.taking)}",
               f"throwers={_seats(state.throwers)}", f"t_idx={state.t_idx}",
               f"passes={state.passes}", f"out={_seats(state.out)}",
               f"under_fool={int(d.under_fool)}"]
    if state.closed:
        fields.append("closed=1")
    if state.idle:
        fields.append(f"idle={state.idle & 0xFFFF}.{state.idle >> 16}")
    trump = d.trump
    if trump.varies:  # each seat's own trump suit
        fields.append("own=" + "".join("cdhs"[s] for s in trump.own_suits()))
    if trump.hidden >= 0:
        shown = seat is None or state.revealed
        fields.append(f"secret={card_str(trump.hidden) if shown else '??'}")
        if state.revealed:
            fields.append("revealed=1")
    default_up = 1 << d.trump_card if d.trump_card >= 0 else 0
    if trump.face_up != default_up:
        fields.append(f"up={_cards(trump.face_up)}")
    end = _end_field(state)
    if end:
        fields.append(f"end={end}")
    if d.hooks.position:  # the hooks' own fields come last
        request = WriteFields(state, seat)
        for asked in d.hooks.position:
            fields += asked(request)
    return " ".join(fields)


def _end_field(state: DurakState) -> str:
    """``end=`` for a finished deal the ordinary rule (the last player holding cards is the
    fool) does not describe; empty otherwise."""
    outcome = state.outcome
    if outcome is None:
        return ""
    holding = sum(1 for h in state.hands[:state.deal.players] if h)
    if not outcome.reason and holding <= 1:
        return ""
    loser = "-" if outcome.loser is None else str(outcome.loser)
    reason = outcome.reason.replace(" ", "_") or "-"
    return f"{loser}:{_seats(outcome.order)}:{reason}"
