"""Card tracking from public information only.

A Durak player who counts cards knows three things beyond his own hand: which cards have gone to
the discard pile (everyone saw them covered), which cards sit in an opponent's hand because he
picked them up from the table (or drew the face-up trump card, or showed a card to lead first),
and therefore which cards are still *unseen*: somewhere in the stock or hidden in a hand.

:class:`CardTracker` derives all of that from a seat's :class:`~bito.games.durak.DurakView`, so it
works for every variant the engine plays and can never peek at a hidden card. The engine's view
already carries the cumulative public facts (``known`` per seat, ``seen_discard``), which keeps
the tracker small: there is no history to replay and nothing to get out of sync.

Once the stock is empty every unseen card is in some opponent's hand; with a single opponent left
holding cards, his hand is known exactly (:meth:`CardTracker.exact_hand`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bito.games.durak import Action, DurakView
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import TossingDummy


@dataclass(frozen=True)
class ObservedMove:
    """One move of another seat, as this seat saw it: its own view just before the move (the
    public position the mover decided in) and the move. An opponent model replays its policy
    from here in a possible world to judge how likely that world made the move."""

    view: DurakView  # this seat's view, the mover to act
    seat: int  # who moved
    action: Action


def deck_mask(view: DurakView) -> int:
    """Every card of the pack this game is played with (bitmask)."""
    mask = 0
    for c in view.rules.deck():
        mask |= 1 << c
    return mask


def table_mask(view: DurakView) -> int:
    """Every card lying on the table now (attack and defence cards)."""
    mask = 0
    for c in view.attack:
        mask |= 1 << c
    for c in view.defence:
        if c >= 0:
            mask |= 1 << c
    return mask


class CardTracker:
    """What one seat can know about where the cards are, from public information only.

    Feed it every view of its seat with :meth:`update` (optionally with the actions seen since
    the previous view); read :attr:`known`, :attr:`discard`, :attr:`unseen` and the helpers.
    A view from a new deal resets it, so one tracker can follow a whole match.
    """

    __slots__ = ("_bout", "_deck_size", "discard", "known", "moves", "played", "seat",
                 "stock_trump", "unseen", "view")

    seat: int
    view: DurakView | None
    known: tuple[int, ...]
    discard: int
    unseen: int
    stock_trump: int
    played: list[int]
    #: The other seats' moves of this deal with the public position of each (see
    #: :meth:`observe`), oldest first.
    moves: list[ObservedMove]

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.seat = -1
        self.view = None
        self.known = ()
        self.discard = 0
        self.unseen = 0
        self.stock_trump = 0
        self.played = []
        self.moves = []
        self._bout = -1
        self._deck_size = 0

    def update(self, view: DurakView, actions: Iterable[tuple[int, Action]] = ()) -> None:
        """Take in the seat's latest view and, optionally, ``(seat, action)`` pairs seen since
        the previous one (they only feed :attr:`played`; the view alone is enough for the rest).
        """
        if self._is_new_deal(view):
            self.reset()
            self.seat = view.seat
            self._deck_size = view.rules.deck_size
            self.played = [0] * view.players
        for seat, action in actions:
            for c in action.cards:
                self.played[seat] |= 1 << c
        self.view = view
        self._bout = view.bout
        self.known = tuple(k if s != view.seat else 0 for s, k in enumerate(view.known))
        self.discard = view.seen_discard
        # The face-up trump card lies under the stock until it is drawn: visible, not unseen.
        # Face-up stock cards: the trump card, and #16's turned personal trump cards.
        self.stock_trump = view.stock_face_up
        accounted = view.hand | table_mask(view) | self.discard | self.stock_trump
        extras = view.extension(Extras)
        if extras is not None and extras.shown >= 0:  # #83: seen on top of the stock
            accounted |= 1 << extras.shown
        dummy = view.extension(TossingDummy)
        if dummy is not None:  # #56: the tossing dummy's cards this seat may see
            accounted |= dummy.hand
        for k in self.known:
            accounted |= k
        self.unseen = deck_mask(view) & ~accounted

    def observe(self, view: DurakView, seat: int, action: object) -> None:
        """Take in another seat's move, with this seat's ``view`` of the position just before
        it. ``action`` is the move as this seat saw it: a move that hid its cards (a
        :class:`~bito.games.protocol.Hidden` form, #59's face-down covers) is counted but not
        kept, since nobody could replay it."""
        self.update(view)
        if seat != view.seat and isinstance(action, Action):
            self.moves.append(ObservedMove(view, seat, action))

    def _is_new_deal(self, view: DurakView) -> bool:
        """A view that cannot follow the previous one: another seat, fewer bouts, a smaller
        discard pile or another pack."""
        last = self.view
        if last is None:
            return True
        return (view.seat != self.seat or view.bout < self._bout
                or view.seen_discard & last.seen_discard != last.seen_discard
                or view.rules.deck_size != self._deck_size or view.trump_card != last.trump_card)

    # --- questions a bot asks ------------------------------------------------------------------

    def opponents(self) -> list[int]:
        """Seats other than ours that still hold cards."""
        v = self._require()
        return [s for s in range(v.players) if s != v.seat and v.hand_counts[s] > 0]

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards are not publicly known."""
        v = self._require()
        return v.hand_counts[seat] - self.known[seat].bit_count()

    def exact_hand(self, seat: int) -> int | None:
        """``seat``'s whole hand if public information pins it down, else None.

        That is the case when all his cards are known, or when the stock is empty and he is the
        only opponent with hidden cards (every unseen card must then be his).
        """
        v = self._require()
        if self.hidden_count(seat) == 0:
            return self.known[seat]
        if v.stock_count > 0:
            return None
        others = [s for s in self.opponents() if s != seat and self.hidden_count(s) > 0]
        if others:
            return None
        return self.known[seat] | self.unseen

    def possible(self, seat: int) -> int:
        """Every card ``seat`` might hold: his known cards plus, if any of his cards are hidden,
        every unseen card (a superset of his hand)."""
        if seat == self._require().seat:
            return self._require().hand
        if self.hidden_count(seat) == 0:
            return self.known[seat]
        return self.known[seat] | self.unseen

    def unseen_of_suit(self, suit_mask: int) -> int:
        """Unseen cards within ``suit_mask`` (e.g. ``bito.cards.SUIT_MASKS[trump]``)."""
        return self.unseen & suit_mask

    def _require(self) -> DurakView:
        if self.view is None:
            raise RuntimeError("CardTracker.update() has not been given a view yet")
        return self.view
