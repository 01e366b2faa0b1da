"""Position-text fields of the stock group (#31, #34-38, #61-63): see :mod:`.position`.

The other half of the stock hook (:mod:`.stock`), which alone imports it: the core's writer and
reader reach these fields through the hook's ``position`` point (its ``WriteFields``,
``PlaceCards`` and ``ReadFields`` requests).

``reserve`` and ``locked`` hold cards nobody may see, so the censored form writes them as
``??*n``; ``passed`` is private to the seat that passed the hand, so the censored form shows
only that seat's entry. The tallies are public. During a chosen exchange (#31,
``exchange.mode=choose``) ``choosing`` lists the seats still to choose (public) and ``chosen``
the cards each seat has chosen so far, private to that seat like ``passed``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final

from bito.cards import card_str, cards_of, split_cards
from bito.errors import InvalidNotationError
from bito.games.durak.hooks import Memory
from bito.games.durak.phases import Phase

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.stock import Books

STOCK_KEYS: Final = ("reserve", "locked", "points", "figures", "sixes", "passed", "bitos",
                     "restocked", "choosing", "chosen")
_EXCHANGE_PHASE: Final = int(Phase.EXCHANGE)


#: The stock group's memory in the state: one :class:`~bito.games.durak.stock.Books` of
#: per-seat tallies and face-down cards, set up when the deal is dealt (None in games with
#: none of those rules).
BOOKS: Final[Memory[Books]] = Memory("stock")


def _cards(mask: int) -> str:
    return "".join(card_str(c) for c in cards_of(mask)) or "-"


def _hidden(mask: int) -> str:
    n = mask.bit_count()
    return f"??*{n}" if n else "-"


def stock_fields(state: DurakState, seat: int | None) -> list[str]:
    """The fields this position needs (none in games without the stock rules)."""
    out: list[str] = []
    books: Books | None = BOOKS.of(state)
    if books is None:
        return out
    show = _cards if seat is None else _hidden
    if any(books.reserve):
        out.append("reserve=" + "/".join(show(r) for r in books.reserve))
    if any(books.locked):
        out.append("locked=" + "/".join(show(r) for r in books.locked))
    for key, values in (("points", books.points), ("figures", books.figures),
                        ("sixes", books.sixes)):
        if any(values):
            out.append(f"{key}=" + ".".join(str(v) for v in values))
    if any(books.passed):
        out.append("passed=" + "/".join(
            _cards(p) if seat is None or s == seat else "-" for s, p in enumerate(books.passed)))
    if books.bitos:
        out.append(f"bitos={books.bitos}")
    if books.restocked:
        out.append("restocked=1")
    if books.choosing:
        out.append("choosing=" + ".".join(str(s) for s in books.choosing))
    if any(books.chosen):
        out.append("chosen=" + "/".join(
            _cards(c) if seat is None or s == seat else "-" for s, c in enumerate(books.chosen)))
    return out


def _per_seat_cards(raw: str, key: str, n: int | None, text: str, at: int) -> list[int]:
    """The cards of each seat's entry (``n``: how many entries there must be; None: any)."""
    parts = raw.split("/")
    if n is not None and len(parts) != n:
        raise InvalidNotationError(f"{key}: expected {n} entries separated by '/'", text, at)
    out = []
    for part in parts:
        try:
            cards = split_cards(part)
        except InvalidNotationError as e:
            raise InvalidNotationError(f"{key}: {e.reason}", text, at + e.position) from None
        mask = 0
        for c in cards:
            mask |= 1 << c
        out.append(mask)
    return out


def stock_cards(f: dict[str, str], where: dict[str, int], text: str
                ) -> list[tuple[str, int, int]]:
    """(place, card, text position) of the cards these fields put somewhere, so the position
    parser can check every card is in one place and leave them out of the discard. (The
    number of entries is checked when the fields are read.)"""
    out: list[tuple[str, int, int]] = []
    for key in ("reserve", "locked"):
        if key in f:
            for seat, m in enumerate(_per_seat_cards(f[key], key, None, text, where[key])):
                out += [(f"{key} {seat}", c, where[key]) for c in cards_of(m)]
    return out


def _numbers(f: dict[str, str], where: dict[str, int], text: str, key: str, n: int
             ) -> tuple[int, ...] | None:
    if key not in f:
        return None
    parts = f[key].split(".")
    if len(parts) != n or not all(p.isdigit() for p in parts):
        raise InvalidNotationError(f"{key}: expected {n} whole numbers separated by '.'", text,
                                   where[key])
    return tuple(int(p) for p in parts)


def read_stock_fields(state: DurakState, f: dict[str, str], where: dict[str, int],
                      text: str) -> None:
    """Set the stock group's slots of a freshly parsed state from its fields (read with the
    seat to act already set when the text names it)."""
    n = state.deal.players
    books: Books | None = BOOKS.of(state)
    present = [k for k in STOCK_KEYS if k in f]
    if books is None:
        if present:
            raise InvalidNotationError(f"{present[0]}: these rules keep no such record", text,
                                       where[present[0]])
        return
    # The deal's own face-down cards are not this position's: only the fields count.
    books = replace(books, reserve=tuple(_per_seat_cards(f["reserve"], "reserve", n, text,
                                                         where["reserve"]))
                    if "reserve" in f else (0,) * n,
                    locked=tuple(_per_seat_cards(f["locked"], "locked", n, text,
                                                 where["locked"]))
                    if "locked" in f else (0,) * n)
    points = _numbers(f, where, text, "points", n)
    figures = _numbers(f, where, text, "figures", n)
    sixes = _numbers(f, where, text, "sixes", n)
    books = replace(books, points=books.points if points is None else points,
                    figures=books.figures if figures is None else figures,
                    sixes=books.sixes if sixes is None else sixes)
    if "passed" in f:
        books = replace(books, passed=tuple(_per_seat_cards(f["passed"], "passed", n, text,
                                                            where["passed"])))
    if "bitos" in f:
        if not f["bitos"].isdigit():
            raise InvalidNotationError("bitos: expected a whole number", text, where["bitos"])
        books = replace(books, bitos=int(f["bitos"]))
    if "restocked" in f:
        if f["restocked"] not in ("0", "1"):
            raise InvalidNotationError("restocked: expected 0 or 1", text, where["restocked"])
        books = replace(books, restocked=f["restocked"] == "1")
    BOOKS.keep(state, _read_exchange(state, books, f, where, text))


def _read_exchange(state: DurakState, books: Books, f: dict[str, str], where: dict[str, int],
                   text: str) -> Books:
    """``choosing`` and ``chosen`` (#31 ``exchange.mode=choose``): only in the exchange phase,
    the seat to act first in ``choosing``, every chosen card in its chooser's hand."""
    n = state.deal.players
    in_round = state.phase == _EXCHANGE_PHASE
    if not in_round:
        for key in ("choosing", "chosen"):
            if key in f:
                raise InvalidNotationError(f"{key}: only in phase=exchange", text, where[key])
        return books
    if state.deal.rules.exchange_mode != "choose":
        raise InvalidNotationError("phase=exchange needs exchange.mode=choose (#31)", text,
                                   where.get("phase", 0))
    if "choosing" not in f:
        raise InvalidNotationError("phase=exchange needs choosing=... (the seats still to "
                                   "choose, in order)", text, where.get("phase", 0))
    seats: list[int] = []
    for part in f["choosing"].split("."):
        if not part.isdigit() or int(part) >= n or int(part) in seats:
            raise InvalidNotationError(f"choosing: {part!r} is not a seat (0..{n - 1}) listed "
                                       "once", text, where["choosing"])
        seats.append(int(part))
    if state.to_act != seats[0]:
        raise InvalidNotationError("choosing: the seat to act must come first", text,
                                   where["choosing"])
    chosen = (_per_seat_cards(f["chosen"], "chosen", n, text, where["chosen"])
              if "chosen" in f else [0] * n)
    for s, c in enumerate(chosen):
        if c & ~state.hands[s]:
            raise InvalidNotationError(f"chosen: seat {s} does not hold those cards", text,
                                       where["chosen"])
    return replace(books, choosing=tuple(seats), chosen=tuple(chosen))
