"""What one seat may know: the only thing bots, the terminal and the server ever look at.

A view holds the seat's own hand, the table, counts, the trump, and the cards that are
*publicly known* to be in other hands: cards a player picked up from the table, the face-up
trump card once drawn, and the card shown to decide the first attacker. It never holds another
seat's hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from bito.cards import card_str
from bito.games.durak.actions import DEFEND, EXCHANGE, KIND_NAMES, SWAP, Action, Revealed
from bito.games.durak.hooks import STOCK_FACE_UP, OpenHands, SeenHands, Shown, StockFaceUp
from bito.games.protocol import Hidden, hidden

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.protocol import Outcome
    from bito.rules import Rules


E = TypeVar("E", bound="ViewExtension")

#: :func:`private_to`'s answer for a move whose cards every seat sees.
PUBLIC = -1


def private_to(state: DurakState, action: Action) -> int:
    """The one seat that sees the cards ``action`` names, played from ``state``, or
    :data:`PUBLIC` when every seat sees them.

    This is bito's visibility table (docs/variants.md, "who sees which move"), the one place
    it is decided: the move log and censored records (:func:`seen_action`) and the cards
    each view lists as known (the state's knowledge, updated by the moves that pass cards
    between hands: a gift, a swap) all ask here. Hidden moves are the poker swap (#42, the
    cards go face down into the stock), the face-down cover (#59) and the chosen exchange
    (#31); every card laid on the table, given (#24) or shown (#84) is public."""
    kind = action.kind
    if kind == SWAP:
        return state.defender
    if kind == EXCHANGE:
        return state.to_act
    if kind == DEFEND and state.deal.rules.defense_face_down:
        return state.defender
    return PUBLIC


def seen_action(state: DurakState, action: Action,
                seat: int | None) -> Action | Hidden | Revealed:
    """``action``, played from ``state``, as ``seat`` (None: a spectator) sees it, by
    :func:`private_to`: in full, with the card a play by position turned up (#58), or with
    its hidden cards as ``?``."""
    owner = private_to(state, action)
    if owner == PUBLIC or seat == owner:
        seen: Action | Revealed = action
        for query in state.deal.hooks.query_at.get(Shown, ()):  # #58: the card turned up
            seen = query(state, Shown(action), seen)
        return seen
    if action.kind == DEFEND:
        return hidden("defend", 1, f"?>{card_str(action.target)}")
    k = len(action.cards)
    mark = "$" if action.kind == SWAP else "&"
    return hidden(KIND_NAMES[action.kind], k, mark + "+".join("?" * k))


class ViewExtension:
    """What one rule adds to a seat's view: the base of the frozen records a rule's hook
    module defines and its ``view`` hook adds (:meth:`DurakView.extended`), so the view
    itself keeps only the base game's fields. Readers that know the rule ask for its record
    by type (:meth:`DurakView.extension`); the plain-text picture of a view
    (:func:`bito.games.durak.render.render_view`), which knows no rule, asks every record
    how it reads through the methods below, which add nothing here."""

    __slots__ = ()

    def seat_words(self, view: DurakView, seat: int, names: Sequence[str]) -> str:
        """Words after another seat's roles (`` [partner]``)."""
        return ""

    def count_words(self, view: DurakView, seat: int) -> str:
        """Words after a seat's cards (`` + 2 face down``)."""
        return ""

    def hand_words(self, view: DurakView, seat: int) -> str | None:
        """A seat's cards in words in place of the core's (None: the core's words)."""
        return None

    def lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        """Lines of their own after the table."""
        return []

    def closing_lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        """Lines after the seat's own hand (the tallies)."""
        return []

    def trump_words(self, view: DurakView) -> str | None:
        """What trumps, in words, in place of the core's (None: the core's words)."""
        return None


@dataclass(frozen=True)
class DurakView:
    seat: int
    players: int
    rules: Rules
    hand: int  # own cards (bitmask)
    hand_counts: tuple[int, ...]
    known: tuple[int, ...]  # per seat: cards publicly known to be in that hand
    attack: tuple[int, ...]
    defence: tuple[int, ...]  # -1 = uncovered; -3 = a card face down (#59)
    trump_suit: int
    trumps: frozenset[int]  # every suit that trumps for this seat now (none without trumps)
    trump_card: int  # -1 when no card is turned up
    trump_card_in_stock: bool  # the turned-up trump card still lies under the stock
    stock_count: int
    discard_count: int
    phase: int
    to_act: int
    attacker: int
    leader: int
    defender: int
    taking: bool
    bout: int
    out: tuple[int, ...]
    legal: tuple[Action, ...]
    outcome: Outcome | None
    seen_discard: int  # cards known to be in the discard pile (everyone saw them go there)
    beats: tuple[int, ...]  # beats[a]: the cards that may cover a (for the current defender)
    decider: int  # the seat whose player decides now (the protocol's ``decider``)
    #: The ranks that may be thrown in now (rank masks of the bout's cards, as the rules of
    #: the game count them): public, and what a search world must start from.
    table_ranks: int = 0
    #: How many attack cards count as uncovered for the throw-in limit (a card a thrower
    #: covered himself still does, #50/#51; a card neutralised by a transfer does not, #11).
    uncovered: int = 0
    #: The stock's cards lying face up, which everyone sees: the trump card under it, and
    #: any card a rule turned up there.
    stock_face_up: int = 0
    #: What the rules this game plays add to the seat's view: one frozen record per rule,
    #: of a type the rule's hook module defines, read with :meth:`extension`.
    extensions: tuple[ViewExtension, ...] = ()

    def extension(self, kind: type[E]) -> E | None:
        """The record of type ``kind`` a rule added to this view (None: the game does not
        play that rule, or it has nothing to show now)."""
        for ext in self.extensions:
            if type(ext) is kind:
                return ext
        return None

    def extended(self, ext: ViewExtension) -> DurakView:
        """This view with ``ext`` added: what a rule's ``view`` hook returns."""
        return replace(self, extensions=(*self.extensions, ext))

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat


def extension_of(view: object, kind: type[E]) -> E | None:
    """:meth:`DurakView.extension` for a view of any family (None for another family's), so
    code outside the games layer asks no family's view type."""
    return view.extension(kind) if isinstance(view, DurakView) else None


def make_view(state: DurakState, seat: int) -> DurakView:
    deal = state.deal
    n = deal.players
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat} in a {n}-player game")
    trump = deal.trump
    # When the trumps follow the seats, a seat's trumps are those it defends with.
    trumps = trump.suits_of(seat) if trump.varies else state.trumps
    known = tuple(k & h for k, h in zip(state.known[:n], state.hands[:n], strict=True))
    face_up = trump.face_up
    hooks = deal.hooks
    if hooks.query:
        asked = hooks.query_at
        for query in asked.get(OpenHands, ()):  # #57: the dummy and its controller
            known = query(state, OpenHands(seat), known)
        for query in asked.get(SeenHands, ()):  # #31: the hand he passed on
            known = query(state, SeenHands(seat), known)
        for query in asked.get(StockFaceUp, ()):  # #38 A2: a stock rebuilt from a bito
            face_up = query(state, STOCK_FACE_UP, face_up)
    view = DurakView(
        seat=seat, players=n, rules=state.deal.rules, hand=state.hands[seat],
        hand_counts=tuple(h.bit_count() for h in state.hands[:n]),
        known=known,
        attack=tuple(state.attack),
        defence=tuple(state.defence),
        trump_suit=min(trumps) if trumps else -1, trumps=trumps,
        trump_card=state.deal.trump_card,
        trump_card_in_stock=(bool(state.stock) and state.stock[0] == deal.trump_card >= 0
                             and face_up != 0),
        stock_count=len(state.stock),
        discard_count=state.discard.bit_count(), phase=state.phase, to_act=state.to_act,
        attacker=state.attacker, leader=state.leader, defender=state.defender,
        taking=state.taking, bout=state.bout, out=tuple(state.out),
        legal=tuple(state.legal_list()) if state.to_act == seat else (),
        outcome=state.outcome, seen_discard=state.discard, beats=state.beats,
        decider=state.decider,
        stock_face_up=sum(1 << c for c in state.stock if face_up >> c & 1),
        table_ranks=state.table_ranks, uncovered=state.uncovered,
    )
    # The hooks' fields, and what they hide (#59's face-down covers, #58's own hand, #56's
    # dummy, #31's choice): the view is everything this seat may know.
    for shown in hooks.view:
        view = shown(state, seat, view)
    return view
