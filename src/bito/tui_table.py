"""The terminal's picture of a table, drawn from the table model alone.

:class:`~bito.games.tables.TableModel` is the one source of what the screen shows, for every
family: the seats (their cards, roles, scores, what is known of their hands), each zone by its
kind (a hand, attack/defence pairs, a trick, a pile with its top card, a face-down claim, the
stock and the discard), whose turn it is and why, and the numbered legal moves with their
labels. A game with something of its own to show adds it to its model; nothing here asks which
game is played.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bito.games.tables import Card, Choice, Pair, Seat, TableModel, Zone
from bito.i18n import N_, _, language, ngettext
from bito.tui_words import engine_words

#: Zone names as the screen says them, by the name the model gives the zone.
ZONE_WORDS: dict[str, str] = {
    "table": N_("Table:"), "counter": N_("Counter-attack:"), "centre": N_("Centre:"),
    "pile": N_("Pile:"), "trick": N_("Trick:"), "claim": N_("Claim:"),
    "won": N_("Played this round:"), "dummy": N_("Dummy:"), "stock": N_("Stock:"),
    "discard": N_("Discard pile:"),
}

#: Roles and notes of a seat in words, by the model's word.
ROLE_WORDS: dict[str, str] = {
    "attacker": N_("attacker"), "defender": N_("defender"), "out": N_("out"),
    "sits out": N_("sits out"), "claims": N_("claims"), "dummy": N_("dummy"),
    "held face out": N_("held face out"),
}

#: The model's short facts said on the screen (zone notes, the rules' words for the stock).
NOTE_WORDS: dict[str, str] = {
    "the defender takes": N_("(the defender takes)"),
    "its top card was seen by all": N_("Top of the stock, seen by all: {card}"),
    "face down": N_("face down"),
    "a new sequence": N_("a new sequence"),
    "its controller throws in from it with ~card": N_("throw in from it with ~card"),
    "held face out: you cannot see them; play by position, #1 is your oldest card":
        N_("held face out: you cannot see them; play by position, #1 is your oldest card"),
}

#: What the seat to act is doing, as the table models say it (of another player, and to the
#: player himself, :func:`you_do`), for the catalogue: a sentence the model builds from the
#: position (``follows red if he can``) is said in English only.
DOING_WORDS = (
    N_("leads an attack"), N_("lead an attack"),
    N_("covers, transfers or takes"), N_("cover, transfer or take"),
    N_("covers or takes"), N_("cover or take"),
    N_("throws in or passes"), N_("throw in or pass"),
    N_("hands over a card for the joker"), N_("hand over a card for the joker"),
    N_("believes or doubts the face-down covers"), N_("believe or doubt the face-down covers"),
    N_("chooses the cards to pass on"), N_("choose the cards to pass on"),
    N_("leads a card"), N_("lead a card"),
    N_("covers the card led or takes"), N_("cover the card led or take"),
    N_("beats the top card or turns the stock"), N_("beat the top card or turn the stock"),
    N_("turns the next card of the stock"), N_("turn the next card of the stock"),
    N_("plays"), N_("play"),
    N_("plays the card just drawn or passes"), N_("play the card just drawn or pass"),
    N_("follows the ace"), N_("follow the ace"),
    N_("plays a card of the top card's suit or rank, or draws"),
    N_("play a card of the top card's suit or rank, or draw"),
    N_("plays any card (the pile calls for no rank)"),
    N_("play any card (the pile calls for no rank)"),
    N_("plays a card one rank above or below the top card, or draws"),
    N_("play a card one rank above or below the top card, or draw"),
    N_("laughs or keeps a straight face"), N_("laugh or keep a straight face"),
    N_("starts a new sequence"), N_("start a new sequence"),
    N_("doubts the claim or believes it"), N_("doubt the claim or believe it"),
)

#: Verbs of the model's ``doing`` (third person) said to the player himself.
_VERB = re.compile(r"\b(leads|covers|transfers|takes|throws|passes|hands|believes|doubts|"
                   r"chooses|turns|beats|plays|follows|draws|puts|laughs|keeps|makes|"
                   r"starts|claims)\b")


def you_do(doing: str) -> str:
    """The model's ``covers, transfers or takes`` said to the player: ``cover, transfer or
    take`` (and ``if he can``: ``if you can``)."""
    said = _VERB.sub(lambda m: m.group(1)[:-2] if m.group(1).endswith(("sses", "ches"))
                     else m.group(1)[:-1], doing)
    return re.sub(r"\bhe\b", "you", re.sub(r"\bhis\b", "your", said))


def said(text: str) -> str:
    """A phrase of the model in the language spoken: the catalogue's words, or the engine's
    phrases translated; in another language an untranslated sentence is left out (empty)."""
    if not text:
        return ""
    own = _(text)
    if own != text or language() == "en":
        return own
    words = engine_words(text)
    return "" if re.search(r"\b[A-Za-z][a-z']+ [A-Za-z][a-z']+\b", words) else words


def card_text(card: Card) -> str:
    """A card as the screen prints it: its face, a trump marked ``*``."""
    return card.label + ("*" if card.trump else "")


def cards_text(cards: Sequence[Card], sort: bool = False) -> str:
    """Cards in a row; a hand sorted as a player holds it (trumps last); faces of more than
    one word (``green 12``) separated by commas."""
    shown = sorted(cards, key=lambda c: (c.trump, c.wild, c.suit or c.colour, c.code)) \
        if sort else list(cards)
    sep = ", " if any(" " in c.label for c in shown) else " "
    return sep.join(card_text(c) for c in shown) or _("(no cards)")


def _pair_text(pair: Pair) -> str:
    if pair.cover is not None:
        return f"{card_text(pair.attack)} <- {card_text(pair.cover)}"
    if pair.face_down:
        return f"{card_text(pair.attack)} <- " + _("(a card face down)")
    if not pair.needs_cover:
        return f"{card_text(pair.attack)} " + _("(needs no cover)")
    return f"{card_text(pair.attack)} " + _("(uncovered)")


def _tags(model: TableModel, seat: Seat, names: Sequence[str]) -> str:
    """A seat's roles in brackets (``[partner, defender, to act]``); for the player's own
    seat said to him (``[you defend, your move]``)."""
    own = seat.seat == model.seat
    mine = model.seats[model.seat]
    tags = []
    if not own and seat.team >= 0 and seat.team == mine.team:
        tags.append(_("partner"))
    if seat.role and not (own and seat.role in ("attacker", "defender", "out")):
        tags.append(said(ROLE_WORDS.get(seat.role, seat.role)))
    elif own and seat.role == "out":
        tags.append(_("you are out"))
    elif own and seat.role == "attacker" and not model.over:
        tags.append(_("you attack"))
    elif own and seat.role == "defender" and not model.over:
        tags.append(_("you defend"))
    if seat.seat == model.to_act and not model.over:
        tags.append(_("your move") if own else _("to act"))
    tags = [t for t in tags if t]
    return f" [{', '.join(tags)}]" if tags else ""


def _seat_line(model: TableModel, seat: Seat, labels: Sequence[str], width: int) -> str:
    held = ngettext("{n:>2} card", "{n:>2} cards", seat.cards).format(n=seat.cards)
    extra = ""
    if seat.known:
        extra += "   " + _("known: {cards}").format(cards=cards_text(seat.known))
    if seat.score is not None:
        extra += "   " + _("score {n}").format(n=seat.score)
    notes = [said(ROLE_WORDS.get(n, n)) if n in ROLE_WORDS else engine_words(n)
             for n in seat.note.split(", ")] if seat.note else []
    notes = [n for n in notes if n and n != said(ROLE_WORDS.get(seat.role, ""))]
    if notes:
        extra += "   (" + ", ".join(notes) + ")"
    if seat.played_by >= 0:
        extra += "   " + _("played by {name}").format(name=labels[seat.played_by])
    return f"  {labels[seat.seat]:<{width}}  {held}{_tags(model, seat, labels)}{extra}"


def _zone_line(model: TableModel, zone: Zone, labels: Sequence[str]) -> str | None:
    """One zone in a line (a hand of the viewing seat is drawn last, the stock and the
    discard in the header); None for a zone with nothing to say."""
    head = said(ZONE_WORDS.get(zone.name, zone.name))
    note = said(NOTE_WORDS.get(zone.note, zone.note)) if zone.note else ""
    if zone.kind == "pairs":
        if not zone.pairs and zone.name != "table":
            return None
        body = "   ".join(_pair_text(p) for p in zone.pairs) or _("(empty)")
        return f"  {head} {body}" + (f"   {note}" if note else "")
    if zone.kind == "trick":
        plays = ", ".join(f"{labels[p.seat].split(' (')[0]} {card_text(p.card)}"
                          for p in zone.plays)
        return f"  {head} {plays or _('(empty)')}" + (f"   ({note})" if note else "")
    if zone.kind == "stock":
        if not zone.cards:
            return None
        return "  " + _(NOTE_WORDS["its top card was seen by all"]).format(
            card=cards_text(zone.cards))
    if zone.kind == "discard":
        if zone.name == "discard" or not zone.cards:
            return None  # the discard pile's count is in the header
        return f"  {head} {cards_text(zone.cards, sort=True)}"
    if not zone.count and not zone.cards and zone.top is None:
        return None if zone.kind == "claim" else f"  {head} " + _("(empty)")
    parts = []
    if zone.kind in ("pile", "claim", "centre", "hand"):
        if zone.owner >= 0 and zone.kind != "claim":
            head = f"{labels[zone.owner]}: {head}"
        if zone.top is not None:
            parts.append(_("top {card}").format(card=card_text(zone.top)))
            parts.append(ngettext("{n} card", "{n} cards", zone.count).format(n=zone.count))
        elif zone.cards and zone.kind not in ("pile", "claim"):
            parts.append(cards_text(zone.cards, sort=zone.kind == "hand"))
        elif zone.count and zone.kind != "claim":
            parts.append(ngettext("{n} card", "{n} cards", zone.count).format(n=zone.count))
        if zone.face_down and zone.face_down != zone.count:
            parts.append(ngettext("{n} face down", "{n} face down", zone.face_down).format(
                n=zone.face_down))
        elif zone.face_down and zone.top is None:
            parts.append(said("face down"))
        if zone.kind == "pile" and zone.cards and zone.top is None:
            parts.append(_("yours in it: {cards}").format(cards=cards_text(zone.cards)))
        if zone.kind == "claim" and zone.owner == model.seat and zone.cards:
            parts.append(_("yours: {cards}").format(cards=cards_text(zone.cards)))
        if zone.kind == "claim" and not zone.count:
            return None
    if note and zone.kind != "claim":
        parts.append(note)
    elif note and zone.owner == model.seat:  # your own claim, said to you
        parts.insert(0, f"{labels[zone.owner]} {said(you_do(zone.note)) or note}")
    elif note:
        parts.insert(0, f"{labels[zone.owner]} {note}" if zone.owner >= 0 else note)
    body = ", ".join(p for p in parts if p) or _("(empty)")
    return f"  {head} {body}"


def _header(model: TableModel) -> str:
    if model.bout:
        lead = _("--- bout {n} ---").format(n=model.bout)
    elif model.round:
        lead = _("--- round {n} ---").format(n=model.round)
    else:
        lead = "---"
    parts = [lead]
    vocab = model.vocabulary
    if vocab.trump_words:
        parts.append(engine_words(vocab.trump_words))
    elif vocab.trumps:
        parts.append(_("trumps: {suits}").format(suits=", ".join(_(t) for t in vocab.trumps)))
    if vocab.called_suit:
        parts.append(_("suit called: {suit}").format(suit=_(vocab.called_suit)))
    for zone in model.zones:
        if zone.kind in ("stock", "discard") and zone.name in ("stock", "discard"):
            word = _("stock") if zone.kind == "stock" else _("discard")
            under = ""
            if zone.kind == "stock" and zone.top is not None and not vocab.trump_words:
                under = " " + _("({card} face up under it)").format(card=card_text(zone.top))
            parts.append(f"{word} {zone.count}{under}")
    return "   ".join(parts)


def draw(model: TableModel, labels: Sequence[str]) -> str:
    """The table as one seat sees it: a header (bout or round, trumps, stock and discard),
    the other seats, the zones, the seat's own hand, then the numbered moves when it is his
    turn or who is to act."""
    lines = [_header(model)]
    width = max(len(label) for label in labels)
    lines += [_seat_line(model, s, labels, width) for s in model.seats if s.seat != model.seat]
    own: list[Zone] = []
    for zone in model.zones:
        if zone.kind == "hand" and zone.owner == model.seat and zone.name == "hand":
            own.append(zone)
            continue
        line = _zone_line(model, zone, labels)
        if line is not None:
            lines.append(line)
    mine = model.seats[model.seat]
    for zone in own:
        lines.append(_hand_line(model, zone, mine, labels))
    if not model.over:
        lines += moves_lines(model, labels)
    return "\n".join(lines)


def _hand_line(model: TableModel, zone: Zone, mine: Seat, labels: Sequence[str]) -> str:
    tags = _tags(model, mine, labels)
    if zone.face_down and not zone.cards:  # held face out (#58): positions only
        positions = " ".join(f"[#{i}]" for i in range(1, zone.face_down + 1))
        return "  " + _("Your hand{roles}: {positions}").format(
            roles=tags, positions=positions or _("(no cards)")) + (
            f"   ({said(NOTE_WORDS.get(zone.note, zone.note))})" if zone.note else "")
    whose = _("Your hand") if "dummy" not in mine.note.split(", ") else \
        _("The dummy's hand, yours to play")
    key = "   " + _("(* = trump)") if model.vocabulary.trumps else ""  # none without trumps
    unseen = "   " + _("+ {n} face down, unseen").format(n=zone.face_down) \
        if zone.face_down else ""
    extra = ""
    if mine.score is not None:
        extra = "   " + _("score {n}").format(n=mine.score)
    own = [engine_words(n) for n in mine.note.split(", ") if n and n not in ROLE_WORDS]
    if own:  # the seat's own public facts (figures collected...)
        extra += "   (" + ", ".join(own) + ")"
    return f"  {whose}{tags}: {cards_text(zone.cards, sort=True)}{key}{unseen}{extra}"


def ordered(model: TableModel) -> list[int]:
    """The indices of the model's moves in the order they are numbered on the screen."""
    if model.order and sorted(model.order) == list(range(len(model.moves))):
        return list(model.order)
    return list(range(len(model.moves)))


def moves_lines(model: TableModel, labels: Sequence[str]) -> list[str]:
    """Whose turn it is and why; on the viewing seat's turn its numbered moves, each as it
    is typed and in words."""
    doing = said(you_do(model.doing)) if model.to_act == model.seat else said(model.doing)
    if model.to_act != model.seat or not model.moves:
        who = labels[model.to_act] if 0 <= model.to_act < len(labels) else "?"
        return [(_("Waiting for {name} ({doing}).") if doing else _("Waiting for {name}.")
                 ).format(name=who, doing=doing)]
    lines = [_("Your move ({task}):").format(task=doing) if doing else _("Your moves:")]
    for number, index in enumerate(ordered(model), 1):
        lines.append(move_line(number, model.moves[index]))
    return lines


def move_line(number: int, move: Choice) -> str:
    return f"  {number:>2}. {move.id:<8} {engine_words(move.label)}"


def final_lines(final: TableModel, hands: Sequence[TableModel], labels: Sequence[str]) -> str:
    """The end of a game: the table as it lies, then every hand face up (each seat's own
    model's hand)."""
    lines = [_header(final)]
    for zone in final.zones:
        if zone.kind == "hand" and zone.name == "hand":
            continue
        line = _zone_line(final, zone, labels)
        if line is not None:
            lines.append(line)
    width = max(len(label) for label in labels)
    for model in hands:
        hand = model.zone("hand")
        seat = model.seats[model.seat]
        cards = cards_text(hand.cards, sort=True) if hand is not None and hand.cards \
            else _("(no cards)")
        role = _tags(final, final.seats[model.seat], labels) if model.seat != final.seat \
            else ""
        score = "   " + _("score {n}").format(n=seat.score) if seat.score is not None else ""
        lines.append(f"  {labels[model.seat]:<{width}}  {cards}{role}{score}")
    return "\n".join(lines)
