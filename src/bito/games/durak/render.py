"""Plain-text pictures of a position: the whole state, or one seat's view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bito.cards import SUIT_SYMBOLS, card_pretty, cards_count, cards_of, rank_of, suit_of
from bito.games.durak.hooks import STOCK_FACE_UP, HandOrder, StockFaceUp, settle

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView


def trump_words(trumps: frozenset[int], trump_card: int, in_stock: bool,
                own: Sequence[int] = (), secret: int | None = None,
                set_aside: bool = False, bottom: int = -1) -> str:
    """``trump ♦ (trump card 8♦, under the stock)``, or the words for games without a turned-up
    card or without trumps; personal trumps (#16) by seat; ``secret``: #18's secret card
    (-1 while it lies face down, None in games without one); ``set_aside``: #32, the trump
    card went aside with the stock and is never drawn; ``bottom``: a card lying face up under
    the stock in the trump card's place (a rule put it there), or -1."""
    if own:
        return "own trumps " + " ".join(f"{s}:{SUIT_SYMBOLS[t]}" for s, t in enumerate(own))
    if not trumps:
        return "no trumps"
    suits = "".join(SUIT_SYMBOLS[s] for s in sorted(trumps))
    if secret is not None and secret >= 0:
        return f"trump {suits} (secret card {card_pretty(secret)} turned)"
    if trump_card < 0:
        return f"trump {suits} (no card turned up)"
    where = ("set aside with the stock" if set_aside else
             "under the stock" if in_stock else "drawn")
    hidden = ", a secret card face down beside it" if secret is not None else ""
    if bottom >= 0 and not in_stock:
        where = f"taken; {card_pretty(bottom)} lies face up under the stock"
    return f"trump {suits} (trump card {card_pretty(trump_card)}, {where}{hidden})"


def state_trump_words(state: DurakState) -> str:
    """:func:`trump_words` for a whole position."""
    d = state.deal
    trump = d.trump
    secret = None if trump.hidden < 0 else (trump.hidden if state.revealed else -1)
    stock = state.stock
    bottom = -1
    if stock and stock[0] != d.trump_card >= 0:
        up = trump.face_up
        for query in d.hooks.query_at.get(StockFaceUp, ()):  # a card laid face up (#97)
            up = query(state, STOCK_FACE_UP, up)
        bottom = stock[0] if up >> stock[0] & 1 else -1
    return trump_words(state.trumps, d.trump_card, bool(stock) and bottom < 0, trump.own_suits(),
                       secret, d.rules.deal_remove_stock, bottom)


def view_trump_words(view: DurakView) -> str:
    """:func:`trump_words` for what one seat sees (a rule's view record may say it its own
    way: every seat's own suit, a secret card turned)."""
    for ext in view.extensions:
        words = ext.trump_words(view)
        if words is not None:
            return words
    secret = -1 if view.rules.trump_secret_second and view.trump_card >= 0 else None
    up = view.stock_face_up & ~(1 << view.trump_card if view.trump_card >= 0 else 0)
    bottom = (up & -up).bit_length() - 1 if up and not view.trump_card_in_stock else -1
    return trump_words(view.trumps, view.trump_card, view.trump_card_in_stock,
                       (), secret, view.rules.deal_remove_stock, bottom)


def sorted_hand(mask: int, trump_suit: int) -> list[int]:
    """Hand order a player expects: non-trumps by suit then rank, trumps last."""
    return sorted(cards_of(mask), key=lambda c: (suit_of(c) == trump_suit, suit_of(c),
                                                 rank_of(c), c))


def hand_text(mask: int, trump_suit: int) -> str:
    """Cards with suit symbols; trumps are marked with a star."""
    if not mask:
        return "(no cards)"
    return " ".join(card_pretty(c) + ("*" if suit_of(c) == trump_suit else "")
                    for c in sorted_hand(mask, trump_suit))


def positions_text(count: int) -> str:
    """A hand its owner cannot see (#58): numbered face-down positions, ``#1`` first."""
    return " ".join(f"[#{i}]" for i in range(1, count + 1)) or "(no cards)"


def in_order_text(cards: Sequence[int], trump_suit: int) -> str:
    """A hand held face out (#58) as the others see it: by position, not sorted."""
    return " ".join(f"#{i}:{card_pretty(c)}" + ("*" if suit_of(c) == trump_suit else "")
                    for i, c in enumerate(cards, 1)) or "(no cards)"


def table_text(attack: Sequence[int], defence: Sequence[int]) -> str:
    if not attack:
        return "(empty)"
    # -2: neutralised by a transfer (#11); it needs no cover. -3: covered face down (#59).
    return "  ".join(card_pretty(a) + ("/" + card_pretty(d) if d >= 0 else "/--" if d == -2
                                       else "/??" if d == -3 else "/__")
                     for a, d in zip(attack, defence, strict=True))


def hand_in_order(state: DurakState, seat: int) -> tuple[int, ...]:
    """``seat``'s cards in the order they lie: as the rule that orders them settles it
    (:class:`~bito.games.durak.hooks.HandOrder`), else by card code."""
    return settle(state.deal.hooks, state, HandOrder(seat), tuple(cards_of(state.hands[seat])))


def render_state(state: DurakState) -> str:
    """Everything, hidden cards included: for debugging and tests."""
    words = state_trump_words(state)
    lines = [
        f"{words}  "
        f"stock {len(state.stock)}  discard {state.discard.bit_count()}  bout {state.bout + 1}"
        f"  phase {state.phase_name}",
        f"table: {table_text(state.attack, state.defence)}",
    ]
    hooks = state.deal.hooks
    ordered = HandOrder in hooks.query_at  # #58: hands held face out, by position
    for seat in range(state.deal.players):
        role = _role(seat, state.attacker, state.defender, state.to_act)
        for fact in state.deal.facts:  # the rules' words on a seat (the playing dummy's)
            role += fact.seat_words(state.deal, seat)
        trump = (min(state.deal.trump.suits_of(seat)) if state.deal.trump.varies
                 else state.trump_suit)
        held = in_order_text(hand_in_order(state, seat), trump) if ordered \
            else hand_text(state.hands[seat], trump)
        lines.append(f"  seat {seat}{role}: {held}")
    for fact in state.deal.facts:  # what the rules deal beside the hands (a dummy's)
        lines += fact.lines(state)
    if state.outcome is not None:
        lines.append(outcome_text(state.outcome.loser, state.outcome.draw, None,
                                  state.outcome.reason, state.outcome.teams))
    return "\n".join(lines)


def _role(seat: int, attacker: int, defender: int, to_act: int) -> str:
    tags = []
    if seat == attacker:
        tags.append("attacker")
    if seat == defender:
        tags.append("defender")
    if seat == to_act:
        tags.append("to act")
    return f" ({', '.join(tags)})" if tags else ""


def outcome_text(loser: int | None, draw: bool, names: Sequence[str] | None,
                 reason: str = "", teams: Sequence[Sequence[int]] = ()) -> str:
    if reason == "idle":
        return ("Draw: bout after bout ended in a take with nobody going out, so there is no "
                "fool (end.idle_bouts).")
    if reason == "repetition":
        return ("Draw: the same position came round three times with nobody able to finish, "
                "so there is no fool (end.repetition).")
    if draw or loser is None:
        return "Draw: everyone went out together, there is no fool."
    who = names[loser] if names else f"seat {loser}"
    for members in teams:
        if loser in members and len(members) > 1:
            side = " and ".join(names[m] if names else f"seat {m}" for m in members)
            return f"{who} is the fool (дурак): the team of {side} loses."
    return f"{who} is the fool (дурак)."


def render_view(view: DurakView, names: Sequence[str]) -> str:
    """What a player sees at the table."""
    trump = view.trump_suit
    words = view_trump_words(view)
    lines = [
        f"{words[0].upper()}{words[1:]}   "
        f"stock {view.stock_count}   discard {view.discard_count}   bout {view.bout + 1}",
    ]
    shows = view.extensions
    for seat in range(view.players):
        if seat == view.seat:
            continue
        role = _role(seat, view.attacker, view.defender, view.to_act)
        role += "".join(ext.seat_words(view, seat, names) for ext in shows)
        status = "out" if seat in view.out else cards_count(view.hand_counts[seat])
        status += "".join(ext.count_words(view, seat) for ext in shows)
        known = view.known[seat]
        extra = f"   known: {hand_text(known, trump)}" if known else ""
        for ext in shows:
            said = ext.hand_words(view, seat)
            extra = f"   {said}" if said is not None else extra
        lines.append(f"  {names[seat]}{role}: {status}{extra}")
    lines.append("")
    lines.append(f"  table: {table_text(view.attack, view.defence)}"
                 + ("   (defender takes)" if view.taking else ""))
    for ext in shows:
        lines += ext.lines(view, names)
    lines.append("")
    role = _role(view.seat, view.attacker, view.defender, view.to_act)
    own = hand_text(view.hand, trump)
    for ext in shows:
        said = ext.hand_words(view, view.seat)
        own = said if said is not None else own
    lines.append(f"  {names[view.seat]}{role}: {own}"
                 + "".join(ext.count_words(view, view.seat) for ext in shows))
    for ext in shows:
        lines += ext.closing_lines(view, names)
    return "\n".join(lines)


def tally_text(points: Sequence[int], figures: Sequence[int], epaulettes: int,
               names: Sequence[str]) -> str:
    """The scoring variants' tallies in words (#61 points, #62 figures, #63 epaulettes)."""
    parts = []
    if points:
        parts.append("points " + ", ".join(f"{names[s]} {p}" for s, p in enumerate(points)))
    if figures:
        parts.append("figures " + ", ".join(f"{names[s]} {f}" for s, f in enumerate(figures)))
    if epaulettes:
        parts.append("the fool wears " + ("one epaulette" if epaulettes == 1
                                          else "full epaulettes"))
    return "; ".join(parts)
