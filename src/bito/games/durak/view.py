"""What one seat may know: the only thing bots, the terminal and the server ever look at.

A view holds the seat's own hand, the table, counts, the trump, and the cards that are
*publicly known* to be in other hands: cards a player picked up from the table, the face-up
trump card once drawn, and the card shown to decide the first attacker. It never holds another
seat's hidden card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bito.cards import card_str
from bito.games.durak.actions import DEFEND, EXCHANGE, KIND_NAMES, SWAP, Action, Revealed
from bito.games.protocol import Hidden, hidden

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.protocol import Outcome
    from bito.rules import Rules


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
    if kind == DEFEND and state.deal.face_down:
        return state.defender
    return PUBLIC


def seen_action(state: DurakState, action: Action,
                seat: int | None) -> Action | Hidden | Revealed:
    """``action``, played from ``state``, as ``seat`` (None: a spectator) sees it, by
    :func:`private_to`: in full, with the card a play by position turned up (#58), or with
    its hidden cards as ``?``."""
    owner = private_to(state, action)
    if owner == PUBLIC or seat == owner:
        shown = state.deal.hooks.shown  # #58: the card a play by position turned up
        return shown[0](state, action) if shown else action
    if action.kind == DEFEND:
        return hidden("defend", 1, f"?>{card_str(action.target)}")
    k = len(action.cards)
    mark = "$" if action.kind == SWAP else "&"
    return hidden(KIND_NAMES[action.kind], k, mark + "+".join("?" * k))


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
    trumps: frozenset[int]  # every trump suit (none without trumps)
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
    own_trumps: tuple[int, ...] = ()  # each seat's personal trump suit (#16), else empty
    secret_card: int = -1  # #18: the turned secret card (-1 while face down or absent)
    stock_face_up: int = 0  # stock cards lying face up (the trump card, #16's turned cards)
    #: Partnerships (#53-55): the members of each team (public: everyone knows who sits with
    #: whom), and under ``team.proxy`` the seat the defender plays for (-1: none).
    teams: tuple[tuple[int, ...], ...] = ()
    played: int = -1
    #: The tossing dummy (#56): its controller (-1: no dummy), how many cards it holds, and
    #: those this seat may see (all for the controller, or for everyone under
    #: ``dummy.visible_to=all``; else 0).
    dummy_controller: int = -1
    dummy_count: int = 0
    dummy_hand: int = 0
    #: The playing dummy (#57): its seat and the seat that plays it (-1: none). Its cards
    #: are in ``known`` where this seat may see them (the controller's view, and everyone's
    #: under ``dummy.visible_to=all``); the dummy's own view, which its controller acts
    #: from, knows the controller's hand.
    dummy_seat: int = -1
    dummy_seat_controller: int = -1
    # The stock group (#35, #37, #61, #62): each seat's face-down cards, as counts only (no
    # one, the owner included, may see them), and the public tallies (empty when not kept).
    reserve_counts: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    figures: tuple[int, ...] = ()

    stock_top_seen: int = -1  # #83: a card turned from the stock that went back on top
    counter: tuple[int, ...] = ()  # #49: a counter-attack's cards, and their covers (-1: none)
    counter_cover: tuple[int, ...] = ()
    counter_target: int = -1  # #49: the seat that must beat the counter-attack
    #: Hands held face out (#58, ``deal.owner_sees_hand=false``): this seat's own cards are
    #: withheld (``hand`` is 0, ``known[seat]`` is 0; ``hand_counts[seat]`` says how many
    #: positions it has), while ``known`` holds every other hand in full and ``hand_order``
    #: each other hand by position (the seat's own entry is empty).
    blind: bool = False
    hand_order: tuple[tuple[int, ...], ...] = ()
    #: #31 ``exchange.mode=choose``: the cards this seat has chosen to pass in the round under
    #: way (never another seat's choice; 0 outside the round or before he chose).
    exchange_chosen: int = 0
    #: A joker gift under way (#24, #84), public to all: (giver, receiver, cards still to
    #: give, the phase and seat play resumes with, whether a blocking hand may be shown).
    gift: tuple[int, int, int, int, int, bool] | None = None
    #: What the bout rules of Variants II remember in this bout (the bout extras hook's
    #: ``Extras``: who laid which attack card, second tries, counter-attacks, stock plays),
    #: all public; None when the rules keep nothing. Search worlds copy it.
    extra: Any = None
    #: The ranks that may be thrown in now (rank masks of the bout's cards, as the rules of
    #: the game count them): public, and what a search world must start from.
    table_ranks: int = 0
    #: How many attack cards count as uncovered for the throw-in limit (a card a thrower
    #: covered himself still does, #50/#51; a card neutralised by a transfer does not, #11).
    uncovered: int = 0

    def partners(self, seat: int) -> tuple[int, ...]:
        """The other members of ``seat``'s team (empty without teams)."""
        for members in self.teams:
            if seat in members:
                return tuple(m for m in members if m != seat)
        return ()

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def my_turn(self) -> bool:
        return self.to_act == self.seat

    @property
    def decider(self) -> int:
        """The seat whose player decides now: ``to_act``, or on a playing dummy's turn its
        controller (#57)."""
        if self.to_act == self.dummy_seat >= 0:
            return self.dummy_seat_controller
        return self.to_act


def make_view(state: DurakState, seat: int) -> DurakView:
    deal = state.deal
    n = deal.players
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat} in a {n}-player game")
    # With personal trumps (#16) a seat's trump is its own suit.
    trumps = frozenset({deal.own_trumps[seat]}) if deal.own_trumps else state.trumps
    known = tuple(k & h for k, h in zip(state.known[:n], state.hands[:n], strict=True))
    books = state.books  # the stock group's memory (the stock hook's ``Books``)
    face_up = deal.face_up
    hooks = deal.hooks
    for sees in hooks.open_hands:  # #57: the dummy and its controller
        known = sees(state, seat, known)
    for seen in hooks.seen_hands:  # #31: the hand he passed on
        known = seen(state, seat, known)
    for lying in hooks.stock_face_up:  # #38 A2: a stock rebuilt from a bito
        face_up = lying(state, face_up)
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
        own_trumps=deal.own_trumps,
        secret_card=deal.secret_card if state.revealed else -1,
        stock_face_up=sum(1 << c for c in state.stock if face_up >> c & 1),
        reserve_counts=tuple((r | k).bit_count() for r, k in zip(books.reserve, books.locked,
                                                                  strict=True))
        if books else (),
        points=books.points if books and deal.rules.score_points != "off" else (),
        figures=books.figures if books and deal.rules.score_figures else (),
        teams=deal.teams, played=state.played,
        dummy_controller=deal.dummy_controller,
        dummy_seat=deal.dummy_seat, dummy_seat_controller=deal.dummy_seat_controller,
        stock_top_seen=state.extra.shown if state.extra is not None else -1,
        counter=state.extra.counter if state.extra is not None else (),
        counter_cover=state.extra.counter_cover if state.extra is not None else (),
        counter_target=state.extra.counter_target if state.extra is not None else -1,
        gift=state.gift, extra=state.extra, table_ranks=state.table_ranks,
        uncovered=state.uncovered,
    )
    # The hooks' fields, and what they hide (#59's face-down covers, #58's own hand, #56's
    # dummy, #31's choice): the view is everything this seat may know.
    for shown in hooks.view:
        view = shown(state, seat, view)
    return view
