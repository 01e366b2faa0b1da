"""Dealing, drawing, the stock and the tallies of Variants II (#31, #34-38, #61-63).

The base game refills hands after a bout and does nothing else. The catalogue's deal and stock
variants change that moment: who draws and how much (#34, #36), cards that arrive face down
(#35) or wait in a reserve (#37), bitos that go back into the stock (#38), hands passed round
(#31), and the tallies of the scoring variants (#61-63). All of it lives here, in one hook
(:data:`HOOK`) that the rule sets playing any of these options select
(:func:`plays_stock_rules`). The core reaches it only at named points: the events
``Stage.DEALT`` (:func:`start_books`) and ``Decided`` (:func:`settle_bout`, while the table
is still on it), the take-overs ``Turn.REFILL`` (:func:`refill`, in place of the base draw)
and ``GoingOut`` (:func:`pick_up_reserve`), the questions ``DealOutcome`` (:func:`tallied`)
and what a seat sees (``SeenHands``: :func:`seen_by`; ``StockFaceUp``) and the position text
(:mod:`.position_stock`, this hook's other half, which nothing else imports). A base game
selects no such hook and never comes here.

The per-deal bookkeeping is one immutable :class:`Books` value, kept by the core in the state's
``books`` field (None in games without these rules), shared by copies of a state and replaced,
never changed, so copying a state stays one reference.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final, cast

from bito.cards import cards_of, is_special, rank_of, suit_of
from bito.games.durak.buy_in import reserve_size
from bito.games.durak.facts import DealFact
from bito.games.durak.hooks import (
    Answer,
    DealOutcome,
    Decided,
    Event,
    GoingOut,
    Hook,
    Moment,
    Placed,
    PositionRequest,
    Question,
    SeenHands,
    Stage,
    StockFaceUp,
    Turn,
    answered,
)
from bito.games.durak.position_stock import (
    BOOKS,
    STOCK_KEYS,
    read_stock_fields,
    stock_cards,
    stock_fields,
)
from bito.games.durak.render import tally_text
from bito.games.durak.view import ViewExtension

if TYPE_CHECKING:
    from bito.games.durak.setup import Deal
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView
    from bito.games.protocol import Outcome
    from bito.rules import Rules

#: Ranks that count as figures in #62 ("worth more than nine"): 10, J, Q, K, A.
FIGURE_LOW: Final = 10
SIX: Final = 6


@dataclass(frozen=True)
class Books:
    """What the stock group's rules remember during a deal.

    ``reserve`` and ``locked``: per seat, face-down cards nobody may look at, the owner
    included: the buy-in (#37) and the locked cards of gradual access (#35). ``points`` and
    ``figures``: the #61 and #62 tallies. ``sixes``: per seat, how many non-trump sixes made up
    the last attack at him when it held nothing else (#63). ``passed``: per seat, the hand he
    passed on at the last exchange (#31), which he knows. ``bitos``: bouts ended in bito (#38).
    ``restocked``: the stock was rebuilt from a bito after it had run out, so no card of it lies
    face up (#38 A2). ``choosing`` and ``chosen``: during a chosen exchange
    (``exchange.mode=choose``, :mod:`.exchange`), the seats still to choose, in order, and per
    seat the cards chosen so far (empty outside that round).
    """

    reserve: tuple[int, ...]
    locked: tuple[int, ...]
    points: tuple[int, ...]
    figures: tuple[int, ...]
    sixes: tuple[int, ...]
    passed: tuple[int, ...]
    bitos: int = 0
    restocked: bool = False
    choosing: tuple[int, ...] = ()
    chosen: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FaceDown(DealFact):
    """The cards the stock group's rules deal face down beside the hands, per seat (empty when
    unused): the buy-in dealt before the hands (#37) and the cards locked once the trump is
    turned (#35). The deal holds it (``deal.fact(FaceDown)``); :func:`start_books` opens the
    deal's :class:`Books` with it."""

    reserves: tuple[int, ...] = ()
    locked: tuple[int, ...] = ()

    def before_hands(self, rules: Rules, players: int, dealer: int, pack: list[int]
                     ) -> tuple[DealFact, list[int]]:
        if not rules.deal_reserve:
            return self, pack
        # #37: the buy-in is dealt first, face down, one card at a time from the dealer's left
        k = reserve_size(rules, players, len(pack))
        reserves = [0] * players
        for i, c in enumerate(pack[:players * k]):
            reserves[(dealer + 1 + i % players) % players] |= 1 << c
        return replace(self, reserves=tuple(reserves)), pack[players * k:]

    def after_trump(self, rules: Rules, players: int, dealer: int, pack: list[int],
                    hands: list[int], stock: tuple[int, ...]) -> tuple[DealFact, list[int]]:
        if rules.deal_access != "gradual" or not stock:
            return self, hands  # (with no stock at all every card is usable from the start)
        # #35: only the first card each player was dealt is usable; the rest lie face down
        usable = [1 << pack[k] for k in range(players)]
        locked = [0] * players
        left = list(hands)
        for k in range(players):
            seat = (dealer + 1 + k) % players
            locked[seat] = left[seat] & ~usable[k]
            left[seat] &= usable[k]
        return replace(self, locked=tuple(locked)), left


@dataclass(frozen=True, slots=True)
class Tallies(ViewExtension):
    """What the stock group adds to a seat's view: each seat's face-down cards (#35's locked
    cards, #37's buy-in) as counts only, since no one, the owner included, may see them, and
    the public tallies of #61-62 (empty when the rules keep none)."""

    reserve_counts: tuple[int, ...]
    points: tuple[int, ...] = ()
    figures: tuple[int, ...] = ()

    def count_words(self, view: DurakView, seat: int) -> str:
        n = self.reserve_counts[seat]
        if not n:
            return ""
        return f"   + {n} face down (unseen)" if seat == view.seat else f" + {n} face down"

    def closing_lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        tallies = tally_text(self.points, self.figures, 0, names)
        return [f"  {tallies}"] if tallies else []


def plays_stock_rules(r: Rules) -> bool:
    """Does a bout end need this module (#31, #34-38, #61-63)? (A draw, tally or exchange rule
    of the stock group differs from the base game's.)"""
    return (r.draw_when != "every_bout" or r.draw_progressive or r.deal_reserve > 0
            or r.deal_access != "all" or r.exchange_mode != "none"
            or r.discard_recycle_every > 0 or r.score_points != "off" or r.score_figures
            or r.end_epaulettes)


def start_books(deal: Deal) -> Books:
    zeros = (0,) * deal.players
    dealt = deal.fact(FaceDown) or FaceDown()
    return Books(reserve=dealt.reserves or zeros, locked=dealt.locked or zeros, points=zeros,
                 figures=zeros, sixes=zeros, passed=zeros)


def _rng(state: DurakState, salt: str) -> random.Random:
    """Chance inside a deal, fixed by the deal's seed and the bout, so a game stays determined
    by (rules, players, seed, actions)."""
    return random.Random(f"{state.deal.seed}:{state.bout}:{salt}")


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1:])


def settle_bout(state: DurakState, taken: bool) -> None:
    """The bout is decided and its cards still lie on the table: tallies (#61-63), a recycled
    bito (#38) and a card unlocked per bito (#35)."""
    books: Books | None = BOOKS.of(state)
    assert books is not None
    rules = state.deal.rules
    defender = state.defender
    attack, defence = state.attack, state.defence
    if rules.end_epaulettes:
        trumps = state.trumps
        plain_sixes = all(not is_special(a) and rank_of(a) == SIX and suit_of(a) not in trumps
                          for a in attack)
        books = replace(books, sixes=_set(books.sixes, defender,
                                          min(len(attack), 2) if plain_sixes else 0))
    if taken:
        BOOKS.keep(state, books)
        return
    covered = [a for a, d in zip(attack, defence, strict=True) if d >= 0]
    if rules.score_points != "off":
        gain = len(covered)
        if rules.score_points == "discarded":
            gain = len(attack) + sum(1 for d in defence if d >= 0)
        books = replace(books, points=_set(books.points, defender,
                                           books.points[defender] + gain))
    if rules.score_figures:
        gain = sum(1 for a in covered if not is_special(a) and rank_of(a) >= FIGURE_LOW)
        books = replace(books, figures=_set(books.figures, defender,
                                            books.figures[defender] + gain))
    every = rules.discard_recycle_every
    if every:
        books = replace(books, bitos=books.bitos + 1)
        if books.bitos % every == 0:
            books = _recycle(state, books, attack, defence)
    if rules.deal_access == "gradual":
        books = _unlock_one_each(state, books)
    BOOKS.keep(state, books)


def _recycle(state: DurakState, books: Books, attack: list[int], defence: list[int]
             ) -> Books:
    """#38: this bito is shuffled back into the face-down part of the stock; the face-up trump
    card, while it lies there, stays at the bottom (A1). An empty stock is rebuilt from these
    cards alone, with nothing face up (A2)."""
    cards = [*attack, *(d for d in defence if d >= 0)]
    for c in cards:
        state.from_discard(1 << c)
    stock = state.stock
    rng = _rng(state, "recycle")
    lying = bool(stock) and not books.restocked and stock[0] == state.deal.trump_card
    bottom = stock[:1] if lying else []
    rest = stock[1:] if lying else stock[:]
    rest += cards
    rng.shuffle(rest)
    state.replace_stock(bottom + rest)
    if not lying:
        return replace(books, restocked=True)
    return books


def _unlock_one_each(state: DurakState, books: Books) -> Books:
    """#35: after a bito every player turns one of his locked cards face up, at random (he
    cannot tell them apart)."""
    reserve = list(books.locked)
    rng = _rng(state, "unlock")
    for seat, locked in enumerate(reserve):
        if locked:
            card = rng.choice(cards_of(locked))
            reserve[seat] = locked & ~(1 << card)
            state.to_hand(seat, 1 << card)
    return replace(books, locked=tuple(reserve))


def refill(state: DurakState) -> None:
    """The draw at the end of a bout, in :meth:`DurakState.draw_order` (it replaces the base
    ``_draw``): #34 only empty hands draw, #36 the target grows, #35 drawn cards arrive
    locked; then players out, and #31's exchange of hands."""
    books: Books | None = BOOKS.of(state)
    assert books is not None
    deal = state.deal
    rules = deal.rules
    stock = state.stock
    hands = state.hands
    reserve = list(books.locked)
    gradual = rules.deal_access == "gradual"
    up_mask = 0 if books.restocked else deal.trump.face_up
    if stock:
        target = deal.hand_size
        if rules.draw_progressive:
            # #36: 1 card at the deal, then 2 after the first bout, 3 after the second, ...
            target = state.bout + 2
            if rules.draw_target_cap and target > rules.draw_target_cap:
                target = rules.draw_target_cap
        only_empty = rules.draw_when == "hand_empty"
        for seat in state.draw_order():
            held = hands[seat].bit_count() + (reserve[seat].bit_count() if gradual else 0)
            if only_empty and held:
                continue
            need = target - held
            if need <= 0:
                continue
            top = stock[-1]  # the first card of the packet drawn
            got = state.take_from_stock(need)
            up = got & up_mask  # a face-up card is public once drawn
            if gradual:
                # A packet drawn into an empty hand leaves its first card usable; any other
                # drawn card arrives locked. A face-up card is seen by all, so it is usable.
                usable = up | (1 << top if not held else 0)
                reserve[seat] |= got & ~usable
                got &= usable
            state.to_hand(seat, got, up)
            if not stock:
                break
        state.reveal_secret()  # #18 stacked on a stock rule: as in the base draw
    if gradual:
        if not stock:
            # #35: with the stock gone every locked card becomes usable.
            for seat, locked in enumerate(reserve):
                state.to_hand(seat, locked)
            reserve = [0] * deal.players
        else:
            # An engine decision: a player left with only locked cards turns one up, so that
            # everyone still in can play his turn.
            rng = _rng(state, "empty")
            for seat, locked in enumerate(reserve):
                if locked and not hands[seat]:
                    card = rng.choice(cards_of(locked))
                    reserve[seat] = locked & ~(1 << card)
                    state.to_hand(seat, 1 << card)
    BOOKS.keep(state, replace(books, locked=tuple(reserve)))
    if not stock and 0 in hands:
        for seat in state.draw_order():
            if not hands[seat]:
                state.go_out(seat)
    if rules.exchange_mode == "whole_hand":
        _exchange(state)


def _exchange(state: DurakState) -> None:
    """#31: every player still in passes his whole hand to the next player still in on his
    left (two players swap). What everyone knew about a hand goes with it."""
    books: Books | None = BOOKS.of(state)
    assert books is not None
    n = state.deal.players
    seats = [s for s in range(n) if not state.out_mask >> s & 1 and state.hands[s]]
    if len(seats) < 2:
        return
    hands, known = state.hands, state.known
    old_hands = [hands[s] for s in seats]
    old_known = [known[s] for s in seats]
    passed = list(books.passed)
    state.pass_hands((seats[(i + 1) % len(seats)], old_hands[i], old_known[i])
                     for i in range(len(seats)))
    for i, seat in enumerate(seats):
        passed[seat] = old_hands[i]
    BOOKS.keep(state, replace(books, passed=tuple(passed)))


def pick_up_reserve(state: DurakState, seat: int) -> bool:
    """Instead of going out: #37's buy-in (once) or #35's locked cards, when the hand is empty
    and the stock gone. True if the player stays in."""
    books: Books | None = BOOKS.of(state)
    if books is None:
        return False
    if books.locked[seat]:  # the stock ran out in mid-bout (a joker gift, a stock lead)
        state.to_hand(seat, books.locked[seat])
        BOOKS.keep(state, replace(books, locked=_set(books.locked, seat, 0)))
        return True
    cards = books.reserve[seat]
    if not cards:
        return False
    state.to_hand(seat, cards)
    BOOKS.keep(state, replace(books, reserve=_set(books.reserve, seat, 0)))
    return True


def seen_by(state: DurakState, seat: int, known: tuple[int, ...]) -> tuple[int, ...]:
    """The cards ``seat`` knows in each hand: the public ones plus, after an exchange (#31),
    those of the hand (or the chosen cards) he passed on that are still where he sent them."""
    books: Books | None = BOOKS.of(state)
    if books is None or not books.passed[seat]:
        return known
    mine = books.passed[seat]
    hands = state.hands[:len(known)]  # players only (#56's dummy hand comes last)
    return tuple(k | (h & mine if s != seat else 0)
                 for s, (k, h) in enumerate(zip(known, hands, strict=True)))


def tallied(state: DurakState, outcome: Outcome) -> Outcome:
    """The outcome with the scoring variants' tallies and labels (#61-63)."""
    books: Books | None = BOOKS.of(state)
    if books is None:
        return outcome
    rules = state.deal.rules
    points = books.points if rules.score_points != "off" else ()
    figures = books.figures if rules.score_figures else ()
    epaulettes = 0
    if rules.end_epaulettes and outcome.loser is not None:
        epaulettes = books.sixes[outcome.loser]
    return replace(outcome, points=points, figures=figures, epaulettes=epaulettes)


def stock_face_up(state: DurakState, face_up: int) -> int:
    """#38 A2: a stock rebuilt from a bito lies all face down."""
    books: Books | None = BOOKS.of(state)
    return 0 if books is not None and books.restocked else face_up


class _Stock(Hook):
    """The stock group at the core's points: the deal's reserves, the end-of-bout tallies and
    recycling, the draw rules, the buy-in, the exchange of hands and the scores."""

    name = "#34-38, #31, #61-63 stock, draws and tallies"
    position_keys = frozenset(STOCK_KEYS)
    moments = frozenset({GoingOut, Turn.REFILL})
    events = frozenset({Stage.DEALT, Decided})
    questions = frozenset({DealOutcome, SeenHands, StockFaceUp})

    def applies(self, rules: Rules, players: int) -> bool:
        return plays_stock_rules(rules)

    def deal_facts(self, rules: Rules, players: int) -> FaceDown | None:
        # the cards dealt face down beside the hands, when the rules deal any
        return FaceDown() if rules.deal_reserve or rules.deal_access == "gradual" else None

    def on(self, state: DurakState, event: Event) -> None:
        if event == Stage.DEALT:
            BOOKS.keep(state, start_books(state.deal))
        elif isinstance(event, Decided):
            settle_bout(state, event.taken)

    def goes_on(self, state: DurakState, moment: Moment) -> bool:
        if isinstance(moment, GoingOut):
            return pick_up_reserve(state, moment.seat)
        if moment == Turn.REFILL:
            refill(state)
            return True
        return False

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        if isinstance(question, DealOutcome):
            return cast(Answer, tallied(state, cast("Outcome", answer)))
        if isinstance(question, SeenHands):
            return cast(Answer, seen_by(state, question.seat, cast("tuple[int, ...]", answer)))
        if isinstance(question, StockFaceUp):
            return cast(Answer, stock_face_up(state, cast(int, answer)))
        return answer

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, self._place)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        return stock_fields(state, seat)

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> None:
        read_stock_fields(state, fields, where, text)

    def _place(self, fields: dict[str, str], where: dict[str, int], text: str) -> Placed:
        # #38 A2: a stock rebuilt from a bito has no turned trump card at its bottom
        return Placed(tuple(stock_cards(fields, where, text)),
                      trump_card_moved=fields.get("restocked") == "1")

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        books: Books | None = BOOKS.of(state)
        if books is None:
            return view
        rules = state.deal.rules
        return view.extended(Tallies(
            tuple((r | k).bit_count() for r, k in zip(books.reserve, books.locked, strict=True)),
            books.points if rules.score_points != "off" else (),
            books.figures if rules.score_figures else ()))


HOOK: Final = _Stock()
