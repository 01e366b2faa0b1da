"""Personal trumps (``trump.per_player``, #16; with ``beats.binding``, #82): every player
has a trump suit of his own, and the defender's suit trumps in his bout.

No common trump card is turned. Once the hands are dealt, each player in turn turns up the
top card of the stock, whose suit becomes his (:func:`turn_own_trumps`); the turned cards lie
face up under the stock. The rule's deal record does that while the deal is dealt and hands
the core its trumps by seat (``Trumps.by_seats``, read back by ``Trumps.own_suits``; built by
:func:`~bito.games.durak.relation.trumps_of`), from which the state machine builds each
bout's beat table and the first attacker is found (the lowest card of one's own suit). What a
seat sees of the rule is its view record, :class:`OwnTrumps`: every seat's suit, public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bito.cards import is_special, mask_of, suit_of
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import Hook
from bito.games.durak.relation import Trumps, trumps_of
from bito.games.durak.render import trump_words
from bito.games.durak.view import ViewExtension
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

__all__ = ["HOOK", "OwnTrumps", "PersonalTrumps", "turn_own_trumps"]


@dataclass(frozen=True, slots=True)
class PersonalTrumps(DealFact):
    """The rule's deal record: it turns up each player's suit while the deal is dealt. The
    suits themselves are the deal's trumps by seat (``Trumps.own_suits``), where a position
    text's ``own=`` field puts them too."""

    def trump_turned(self, rules: Rules, players: int, dealer: int, trump_card: int,
                     stock: tuple[int, ...], trump: Trumps
                     ) -> tuple[DealFact, tuple[int, ...], Trumps]:
        own, stock, up = turn_own_trumps(rules, players, dealer, list(reversed(stock)))
        return self, stock, trumps_of(rules, -1, own, face_up=up)


@dataclass(frozen=True, slots=True)
class OwnTrumps(ViewExtension):
    """What a seat sees of the rule: every seat's own trump suit (public: they were turned
    face up). The view's ``trumps`` are the viewing seat's own."""

    suits: tuple[int, ...]

    def trump_words(self, view: DurakView) -> str | None:
        return trump_words(view.trumps, view.trump_card, False, self.suits)


def turn_own_trumps(rules: Rules, players: int, dealer: int, rest: list[int]
                    ) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Every player's trump suit, the stock (bottom first), and its face-up cards.

    Clockwise from the dealer's left each player turns up the top card of the stock; its suit
    is his trump. While a free suit remains, a card of a suit already taken (or a special card)
    is tucked under the stock and the next one turned. The turned cards lie face up under the
    stock and are drawn last. Seats the stock cannot serve, and every seat under
    ``trump.per_player_assign=fixed_by_seat``, get clubs, diamonds, hearts, spades by seat."""
    order = [(dealer + 1 + k) % players for k in range(players)]
    own = [s % 4 for s in range(players)]
    if rules.trump_per_player_assign == "fixed_by_seat" or not rest:
        return tuple(own), tuple(reversed(rest)), 0
    pile = list(rest)  # top first
    tucked: list[int] = []
    turned: list[int] = []
    taken: set[int] = set()
    for seat in order:
        while pile:
            card = pile.pop(0)
            if is_special(card) or (len(taken) < 4 and suit_of(card) in taken):
                tucked.append(card)
                continue
            own[seat] = suit_of(card)
            taken.add(own[seat])
            if len(taken) == 4:
                taken.clear()  # with more than four players suits repeat
            turned.append(card)
            break
        else:
            plain = [c for c in tucked if not is_special(c)]
            if not plain:
                continue  # nothing left to turn: this seat keeps its suit by seat
            card = plain[0]  # only refused cards left: the first of them after all
            tucked.remove(card)
            own[seat] = suit_of(card)
            turned.append(card)
    # Bottom of the stock: the turned cards (the first turned lowest), then the tucked ones.
    stock = (*turned, *reversed(tucked), *reversed(pile))
    return tuple(own), stock, mask_of(turned)


class _PersonalTrumps(Hook):
    """#16 and #82 at the two points they need: the deal (each seat's suit turned up) and the
    view (every seat's suit)."""

    name = "#16 #82 personal trumps"

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.trump_per_player

    def deal_facts(self, rules: Rules, players: int) -> PersonalTrumps:
        return PersonalTrumps()

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        return view.extended(OwnTrumps(state.deal.trump.own_suits()))


HOOK: Final = _PersonalTrumps()
