"""Second tries, stock leads, poker swaps and post-take attacks (VARIANTS.md §3.5, #39-51, #83).

These rules add moves to a bout without changing its shape, so they live here and the state
machine calls in at a few hook lines, each behind the precomputed :attr:`Deal.extras` flag
(the base games never reach this module):

* **Second try** (#39, ``defense.second_try``): a defender stuck on a card he cannot beat may
  ``try``: draw the top card of the stock and go on defending with it in hand.
* **Stock lead** (#40 Armenian fool, #83, ``lead.stock_top``): the attacker may lead the top
  card of the stock blind (``stock``); with ``lead.stock_top_throw_in`` throwers may too, and a
  card that matches no rank on the table goes back on top, seen by everyone.
* **Poker swap** (#42, ``defense.exchange``): before his first cover the defender may swap two
  cards of his hand for the top two face-down cards of the stock (``$7c+8d``).
* **Self-throw** (#48, ``defense.self_throw``): when every thrower has passed and all is
  covered, the defender may lay a card of a rank on the table and cover it himself (``6h<Th``);
  then the throwers are asked again.
* **Counter-throw** (#49, ``defense.counter``): covering a card, the defender may add cards of
  his cover's rank (``Th>9c+Ts``); the player of the covered card must then beat the cover and
  the added cards (with ordinary ``Js>Th`` covers) or take them, before the bout goes on.
* **Cunning and impudent fool** (#50, #51, ``throw_in.after_take_mode``): once the defender
  takes, a thrower may cover his own uncovered cards (``@Th>6h``) to load the taker; in
  impudent fool a throw-in after the take must come covered by its thrower (``6h<Th``).

The bookkeeping of one bout sits in one immutable :class:`Extras` value in the state's
``extra`` slot (None in every game that does not use these rules, and between bouts unless a
stock card lies seen on top of the stock).

Two counting conventions keep the caps of VARIANTS.md §1.5 right without touching the state
machine's cap arithmetic: a card a thrower covers himself after a take still counts as
*uncovered* (the catalogue counts attack cards against the taker's hand, #50 A1), and so does
the attack card of an impudent pair.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Final

from bito.cards import MATCH_MASKS, card_pretty, card_str, cards_of, is_special
from bito.errors import IllegalActionError, Reason
from bito.games.durak.actions import (
    ATTACK,
    COUNTER,
    DEFEND,
    EXTRA_KINDS,
    OWN_COVER,
    PAIR,
    PASS_ACTION,
    STOCK,
    STOCK_ACTION,
    SWAP,
    TAKE,
    TAKE_ACTION,
    TRY,
    TRY_ACTION,
    Action,
    counter,
    defend,
    own_cover,
    pair,
    swap,
)
from bito.games.durak.hooks import (
    Answer,
    Event,
    Hook,
    Laid,
    Memory,
    Moment,
    Placed,
    PositionRequest,
    Question,
    Refusal,
    Stage,
    Stepping,
    Turn,
    answered,
    refused,
)
from bito.games.durak.phases import Phase
from bito.games.durak.reasons import Refused
from bito.games.durak.render import table_text
from bito.games.durak.view import PUBLIC, ViewExtension, private_to
from bito.i18n import N_

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView
    from bito.rules import Rules

_LEAD, _DEFEND, _THROW = (int(p) for p in (Phase.LEAD, Phase.DEFEND, Phase.THROW))


class ExtraRefused(Reason):
    """The refusals of the bout's extra moves (#39-51), one member per rule."""

    SECOND_TRY = "second try", N_("a second try is not possible now")
    STOCK_LEAD = "stock lead", N_("leading with the top card of the stock is not possible now")
    POKER_SWAP = "poker swap", N_("that swap with the stock is not possible now")
    SELF_COVERED_THROW = "self-covered throw", N_(
        "you cannot throw in and cover a card yourself here")
    OWN_COVER = "own cover", N_("you cannot cover your own card here")
    COUNTER_THROW = "counter-throw", N_("a counter-attack is not possible now")
    IMPUDENT_THROW_IN = "impudent throw-in", N_("that throw-in is not possible now")


@dataclass(frozen=True, slots=True)
class Extras(ViewExtension):
    """What these rules remember during one bout (public information, all of it)."""

    #: Attack cards the defender has made a second try against (#39).
    tried: int = 0
    #: Seats that have made their poker swap in this bout (#42).
    swapped: int = 0
    #: Stock cards played as attack cards in this bout (#40, #83).
    stock_plays: int = 0
    #: A card lying on top of the stock that everyone has seen (#83: a stock throw-in that
    #: matched nothing went back), -1 if none. It outlives the bout until somebody draws it.
    shown: int = -1
    #: Per seat, the attack cards that seat put on the table in this bout (#50, #51: who may
    #: cover which card after a take). Empty unless the rules need it.
    owned: tuple[int, ...] = ()
    #: Cards that throwers laid on their own attack cards (#50, #51): they go to the taker,
    #: but their ranks do not open throw-ins (S0:150).
    own_covers: int = 0
    #: The defender is being asked whether he throws to himself (#48).
    asking_self: bool = False
    #: A counter-attack in progress (#49): its cards (the defender's cover first), their
    #: covers (-1: uncovered) and the seat that must beat them (-1: none).
    counter: tuple[int, ...] = ()
    counter_cover: tuple[int, ...] = ()
    counter_target: int = -1

    def lines(self, view: DurakView, names: Sequence[str]) -> list[str]:
        out = []
        if self.counter_target >= 0:
            out.append(f"  counter-attack on {names[self.counter_target]}: "
                       f"{table_text(self.counter, self.counter_cover)}")
        if self.shown >= 0:
            out.append(f"  top of the stock, seen by all: {card_pretty(self.shown)}")
        return out


NONE: Final = Extras()
#: The rules' memory in the state (None in every game that does not use these rules, and
#: between bouts unless a stock card lies seen on top of the stock).
EXTRAS: Final[Memory[Extras]] = Memory("bout_extras")


def extras_of(state: DurakState) -> Extras | None:
    """What these rules remember now, or None."""
    return EXTRAS.of(state)


def _extras(state: DurakState) -> Extras:
    ex = EXTRAS.of(state)
    return NONE if ex is None else ex


def _keep(state: DurakState, ex: Extras | None) -> None:
    EXTRAS.keep(state, ex)


def needs_owners(rules_mode: str) -> bool:
    """Whether a game must remember who laid each attack card (cunning and impudent fool)."""
    return rules_mode != "normal"


# --- move generation -------------------------------------------------------------------------


def adjust(state: DurakState, acts: list[Action]) -> list[Action]:
    """The legal actions of the base machine, plus (or, in a few places, instead of) the
    moves of these rules. Called once per position, from ``legal_list``."""
    ph = state.phase
    rules = state.deal.rules
    ex = _extras(state)
    if ph == _DEFEND:
        if ex.counter_target >= 0:
            return _counter_answers(state, ex)
        more: list[Action] = []
        if rules.defense_counter:
            more += _counters(state, ex)
        if rules.defense_exchange and not ex.swapped >> state.defender & 1:
            more += _swaps(state)
        if rules.defense_second_try != "off" and _stuck_card(state, ex) >= 0:
            more.append(TRY_ACTION)
        if more:
            acts = acts[:-1] + more + acts[-1:] if acts and acts[-1].kind == TAKE else \
                acts + more
        return acts
    if ph == _LEAD:
        if (rules.lead_stock_top != "off" and state.stock and _room(state) > 0
                and not (rules.lead_stock_top == "once" and ex.stock_plays)):
            acts = [*acts, STOCK_ACTION]
        return acts
    if ph != _THROW:
        return acts
    if ex.asking_self:
        return [*_pairs(state, state.defender), PASS_ACTION]
    seat = state.to_act
    mode = rules.throw_in_after_take_mode
    if state.taking and mode != "normal":
        covers = _own_covers(state, seat, ex)
        plain = [a for a in acts if a.kind != ATTACK or a is PASS_ACTION]
        if mode == "cunning":
            acts = acts[:-1] + covers + acts[-1:]
        elif rules.throw_in_impudent_mode == "self_covered_pairs":
            acts = [a for a in plain if a is not PASS_ACTION] + covers + _pairs(state, seat) + \
                [PASS_ACTION]
        elif covers or _owns_uncovered(state, seat, ex):
            acts = [a for a in plain if a is not PASS_ACTION] + covers + [PASS_ACTION]
        else:
            acts = acts[:-1] + covers + acts[-1:]
        if mode == "impudent":
            return acts
    if (rules.lead_stock_top_throw_in and rules.lead_stock_top != "off" and state.stock
            and _room(state) > 0 and not (rules.lead_stock_top == "once" and ex.stock_plays)
            and (ex.shown < 0 or state.table_ranks >> ex.shown & 1)):
        acts = [*acts[:-1], STOCK_ACTION, *acts[-1:]]
    return acts


def _room(state: DurakState) -> int:
    return min(state.room(), state.deal.lead_max) if state.phase == _LEAD else state.room()


def _stuck_card(state: DurakState, ex: Extras) -> int:
    """An uncovered attack card the defender cannot beat and has not yet made a second try
    against (-1 if none, or if the stock is empty: #39 A3)."""
    if not state.stock:
        return -1
    if state.deal.rules.defense_second_try == "per_bout" and ex.tried:
        return -1
    hand = state.hands[state.defender]
    beats = state.beats
    for a, d in zip(state.attack, state.defence, strict=True):
        if d == -1 and not hand & beats[a] and not ex.tried >> a & 1:
            return a
    return -1


def _face_down_top(state: DurakState, k: int) -> bool:
    """Whether the top ``k`` cards of the stock lie face down (the trump card never swaps)."""
    stock = state.stock
    if len(stock) < k:
        return False
    up = state.deal.trump.face_up
    return not any(up >> c & 1 for c in stock[len(stock) - k:])


def _swaps(state: DurakState) -> list[Action]:
    """#42: before the first cover of the bout, the defender's swaps of ``defense.exchange``
    cards (or, with ``up_to``, of one card up to that many)."""
    if any(d >= 0 for d in state.defence):
        return []
    rules = state.deal.rules
    k = rules.defense_exchange
    hand = cards_of(state.hands[state.defender])
    sizes = range(1, k + 1) if rules.defense_exchange_mode == "up_to" else (k,)
    out: list[Action] = []
    for size in sizes:
        if len(hand) < size or not _face_down_top(state, size):
            continue
        if size == 1:
            out += [swap(c) for c in hand]
        else:
            out += [swap(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]]
    return out


def _pairs(state: DurakState, seat: int) -> list[Action]:
    """A card of a rank on the table laid and covered by the same player in one go (#48 for
    the defender, #51 for a thrower after a take), while the bout has room for it."""
    if state.room() <= 0 or state.closed:
        return []
    if seat == state.defender and len(state.attack) >= state.deal.cap:
        return []
    hand = state.hands[seat]
    beats = state.beats
    out = []
    for a in cards_of(hand & state.table_ranks):
        m = hand & beats[a] & ~(1 << a)
        while m:
            low = m & -m
            out.append(pair(a, low.bit_length() - 1))
            m ^= low
    return out


def _beats_for(state: DurakState, seat: int) -> tuple[int, ...]:
    """What beats what for ``seat`` defending (with personal trumps it is his own table)."""
    deal = state.deal
    if not deal.beats_vary:
        return state.beats
    from bito.games.durak.beats import beat_table_of

    trumps, high, wild, binding = deal.trump.context(seat, state.defender, state.revealed)
    return beat_table_of(deal.rules, trumps, high, wild, binding)


def _counters(state: DurakState, ex: Extras) -> list[Action]:
    """#49: covers that carry a counter-attack: the cover, plus one or more cards of its rank,
    against the player who laid the covered card (A4), never more than he holds less one,
    and never so many that the defender could no longer cover the rest of his table."""
    d = state.defender
    hand = state.hands[d]
    spare = hand.bit_count() - state.uncovered  # cards beyond one per uncovered card
    if spare < 1 or not ex.owned:
        return []
    beats = state.beats
    out: list[Action] = []
    for a, cov in zip(state.attack, state.defence, strict=True):
        if cov != -1:
            continue
        owner = next((s for s, m in enumerate(ex.owned) if m >> a & 1), -1)
        if owner < 0 or owner == d or state.out_mask >> owner & 1:
            continue
        most = min(spare, state.hands[owner].bit_count() - 1)
        if most < 1:
            continue
        for y in cards_of(hand & beats[a]):
            if is_special(y):
                continue
            same = [c for c in cards_of(hand & MATCH_MASKS[y]) if c != y and not is_special(c)]
            for sub in range(1, 1 << len(same)):
                if sub.bit_count() <= most:
                    out.append(counter(y, a, *(same[i] for i in range(len(same))
                                               if sub >> i & 1)))
    return out


def _counter_answers(state: DurakState, ex: Extras) -> list[Action]:
    """The counter-attacked player covers each counter card or takes them (#49)."""
    seat = ex.counter_target
    hand = state.hands[seat]
    beats = _beats_for(state, seat)
    out = []
    for a, cov in zip(ex.counter, ex.counter_cover, strict=True):
        if cov == -1:
            m = hand & beats[a]
            while m:
                low = m & -m
                out.append(defend(low.bit_length() - 1, a))
                m ^= low
    out.append(TAKE_ACTION)
    return out


def own_covers_left(state: DurakState) -> bool:
    """#50, #51: whether some thrower may still cover one of his own cards after the take; the
    throw round then goes on even when the bout is full, as covering adds no attack card."""
    ex = EXTRAS.of(state)
    if ex is None or not ex.owned or state.deal.rules.throw_in_after_take_mode == "normal":
        return False
    beats = state.beats
    for a, d in zip(state.attack, state.defence, strict=True):
        if d == -1:
            for seat, mine in enumerate(ex.owned):
                if mine >> a & 1 and seat != state.defender and state.hands[seat] & beats[a]:
                    return True
    return False


def _owns_uncovered(state: DurakState, seat: int, ex: Extras) -> bool:
    mine = ex.owned[seat] if ex.owned else 0
    return any(d == -1 and mine >> a & 1
               for a, d in zip(state.attack, state.defence, strict=True))


def _own_covers(state: DurakState, seat: int, ex: Extras) -> list[Action]:
    """#50: a thrower covers his own uncovered attack cards after the take."""
    mine = ex.owned[seat] if ex.owned else 0
    hand = state.hands[seat]
    beats = state.beats
    out = []
    for a, d in zip(state.attack, state.defence, strict=True):
        if d == -1 and mine >> a & 1:
            m = hand & beats[a]
            while m:
                low = m & -m
                out.append(own_cover(low.bit_length() - 1, a))
                m ^= low
    return out


# --- transitions -----------------------------------------------------------------------------


def step(state: DurakState, action: Action) -> None:
    """Apply one of this module's actions in place (legality already checked)."""
    kind = action.kind
    if kind == TRY:
        _second_try(state)
    elif kind == STOCK:
        _stock_play(state)
    elif kind == SWAP:
        _swap(state, action)
    elif kind == PAIR:
        _pair(state, action)
    elif kind == COUNTER:
        _start_counter(state, action)
    else:
        assert kind == OWN_COVER
        _cover_own(state, action)


def note_attack(state: DurakState, seat: int, cards: int) -> None:
    """Remember that ``seat`` put ``cards`` on the table as attack cards (cunning, impudent)."""
    ex = _extras(state)
    owned = list(ex.owned) if ex.owned else [0] * state.deal.players
    owned[seat] |= cards
    _keep(state, replace(ex, owned=tuple(owned)))


def _take_top(state: DurakState) -> int:
    """Remove the top card of the stock; a seen card stays public wherever it goes, and the
    last card out turns the secret card (#18)."""
    c = state.from_stock(-1)
    ex = _extras(state)
    if ex.shown == c:
        _keep(state, replace(ex, shown=-1))
    state.reveal_secret()
    return c


def _public(state: DurakState, card: int, was_shown: bool) -> bool:
    return was_shown or bool(state.deal.trump.face_up >> card & 1)


def _second_try(state: DurakState) -> None:
    ex = _extras(state)
    stuck = _stuck_card(state, ex)
    _keep(state, replace(ex, tried=ex.tried | 1 << stuck))
    was_shown = ex.shown >= 0
    c = _take_top(state)
    state.to_hand(state.defender, 1 << c, 1 << c if _public(state, c, was_shown) else 0)



def owners(rules: Rules) -> bool:
    """Whether these rules must remember who laid each attack card (#50, #51's covers of
    one's own cards, #49's counter-attacks)."""
    return rules.throw_in_after_take_mode != "normal" or rules.defense_counter


def _place_attack(state: DurakState, seat: int, c: int) -> None:
    state.lay((c,), MATCH_MASKS[c])
    ex = _extras(state)
    _keep(state, replace(ex, stock_plays=ex.stock_plays + 1))
    if owners(state.deal.rules):
        note_attack(state, seat, 1 << c)


def _stock_play(state: DurakState) -> None:
    seat = state.to_act
    if state.phase == _LEAD:
        _place_attack(state, seat, _take_top(state))
        state.set_turn(state.defender, _DEFEND)
        return
    top = state.stock[-1]
    if not state.table_ranks >> top & 1:
        # #83: no rank on the table matches: the card goes back on top, seen by everyone,
        # and the thrower keeps his turn.
        _keep(state, replace(_extras(state), shown=top))
        return
    _place_attack(state, seat, _take_top(state))
    state.set_passes(0)
    if state.room() <= 0:
        state.advance_thrower()


def _swap(state: DurakState, action: Action) -> None:
    d = state.defender
    ex = _extras(state)
    _keep(state, replace(ex, swapped=ex.swapped | 1 << d))
    n = len(action.cards)
    got = 0
    for _ in range(n):
        was_shown = _extras(state).shown >= 0
        c = _take_top(state)
        got |= 1 << c
        if _public(state, c, was_shown):
            state.show(d, 1 << c)
    state.from_hand(d, action.mask)
    state.to_hand(d, got)
    if private_to(state, action) != PUBLIC:
        # The cards went back face down, so nobody else can tell which: none of the cards
        # known in his hand is certain to be there any more, except those drawn face up.
        state.unsee(d, got)
    stock = state.stock
    up = state.deal.trump.face_up
    bottom = 0
    while bottom < len(stock) and up >> stock[bottom] & 1:
        bottom += 1
    if state.deal.rules.defense_exchange_return == "to_bottom":
        state.to_stock(action.cards, at=bottom)
    else:
        # Shuffled into the face-down stock (#42 A1): the seed fixes where, so a game stays
        # a function of its seed and its actions.
        rng = random.Random(f"{state.deal.seed}/{state.bout}/{len(stock)}/{action}/{got}")
        for c in action.cards:
            state.to_stock((c,), at=rng.randint(bottom, len(stock)))
    shown = _extras(state).shown
    if shown >= 0 and stock[-1] != shown:
        _keep(state, replace(_extras(state), shown=-1))


def _pair(state: DurakState, action: Action) -> None:
    seat = state.to_act
    a, c = action.target, action.cards[0]
    both = 1 << a | 1 << c
    state.from_hand(seat, both)
    hand = state.hands[seat]
    ex = _extras(state)
    if seat == state.defender:
        # #48: the defender's own throw, covered at once; his cover is a real defence, so its
        # rank opens throw-ins, and the throwers are asked again (A3).
        state.lay_covered(a, c, MATCH_MASKS[a] | MATCH_MASKS[c], open=False)
        _keep(state, replace(ex, asking_self=False))
        state.out_if_done(seat)
        state.start_throw_round()
        return
    # #51: a thrower's covered throw-in after the take; the attack card counts against the
    # taker's hand like any other, the cover's rank opens nothing.
    state.lay_covered(a, c, MATCH_MASKS[a], open=True)
    _keep(state, replace(ex, own_covers=ex.own_covers | 1 << c))
    if owners(state.deal.rules):
        note_attack(state, seat, 1 << a)
    _after_throwers_card(state, seat, hand)


def _cover_own(state: DurakState, action: Action) -> None:
    seat = state.to_act
    c = action.cards[0]
    bit = 1 << c
    state.from_hand(seat, bit)
    hand = state.hands[seat]
    state.cover(action.target, c, settles=False)
    ex = _extras(state)
    _keep(state, replace(ex, own_covers=ex.own_covers | bit))
    _after_throwers_card(state, seat, hand)


def _after_throwers_card(state: DurakState, seat: int, hand: int) -> None:
    state.set_passes(0)
    state.out_if_done(seat)
    if not hand or state.room() <= 0:
        state.advance_thrower()


def _start_counter(state: DurakState, action: Action) -> None:

    d = state.defender
    ex = _extras(state)
    a = action.target
    owner = next(s for s, m in enumerate(ex.owned) if m >> a & 1)
    state.from_hand(d, action.mask)
    # A1: the covered card counts as beaten (it stays on the table as covered and goes
    # wherever the bout's cards go); the cover leads the counter-attack.
    state.neutralise(a)
    # The counter cards form a table of their own and leave the bout's table, so their rank
    # opens no throw-ins there (A3: no throw-ins on the counter-attack).
    _keep(state, replace(ex, counter=action.cards, counter_cover=(-1,) * len(action.cards),
                          counter_target=owner))
    state.out_if_done(d)
    state.set_turn(owner)


def counter_step(state: DurakState, action: Action) -> bool:
    """#49: a cover or a take by the counter-attacked player. False (nothing done) when no
    counter-attack is in progress: the action is the defender's own."""
    ex = EXTRAS.of(state)
    if ex is None or ex.counter_target < 0:
        return False
    seat = ex.counter_target
    if action.kind == DEFEND:
        c = action.cards[0]
        covers = list(ex.counter_cover)
        covers[ex.counter.index(action.target)] = c
        state.from_hand(seat, 1 << c)
        if -1 in covers:
            _keep(state, replace(ex, counter_cover=tuple(covers)))
            return True
        for card in (*ex.counter, *covers):  # every counter card beaten: bito for them
            state.to_discard(1 << card)
    else:  # A2: he takes the counter cards and his covers, in view of everyone
        got = 0
        for card in (*ex.counter, *ex.counter_cover):
            if card >= 0:
                got |= 1 << card
        state.to_hand(seat, got, got)
    _keep(state, replace(ex, counter=(), counter_cover=(), counter_target=-1))
    state.out_if_done(seat)
    # The bout goes on as after any cover.
    if state.uncovered:
        state.set_turn(state.defender)
    elif state.deal.throw_in:
        state.start_throw_round()
    else:
        state.end_bout(taken=False)
    return True


def offer_self_throw(state: DurakState) -> bool:
    """#48, when a bout would end in bito: ask the defender whether he throws to himself.
    True if he is now asked; False (the bout ends) if he has just declined or cannot."""
    ex = _extras(state)
    if ex.asking_self:
        _keep(state, replace(ex, asking_self=False))
        return False
    if state.closed or not _pairs(state, state.defender):
        return False
    _keep(state, replace(ex, asking_self=True))
    state.open_round((state.defender,))
    return True


def after_bout(state: DurakState) -> None:
    """Called once the table is cleared and hands refilled: forget the bout, and make a seen
    stock card public in the hand that drew it."""
    shown = _extras(state).shown
    if shown >= 0 and not (state.stock and state.stock[-1] == shown):
        for seat, hand in enumerate(state.hands):
            if hand >> shown & 1:
                state.show(seat, 1 << shown)
        shown = -1
    _keep(state, Extras(shown=shown) if shown >= 0 else None)


# --- errors ----------------------------------------------------------------------------------


def explain(state: DurakState, action: Action) -> IllegalActionError | None:
    """The rule an illegal action of these variants breaks, or None to let the general
    explanation speak."""
    rules = state.deal.rules
    err = IllegalActionError
    kind = action.kind
    ph = state.phase
    if kind == TRY:
        if rules.defense_second_try == "off":
            return err(ExtraRefused.SECOND_TRY, "these rules have no second try (#39)")
        if ph != _DEFEND:
            return err(ExtraRefused.SECOND_TRY,
                       "only the defender tries again, while a card is uncovered")
        if not state.stock:
            return err(ExtraRefused.SECOND_TRY, "the stock is empty (#39 A3)")
        return err(ExtraRefused.SECOND_TRY,
                   "a second try is for a card you cannot beat, once per card "
                   "(once per bout with per_bout) (#39)")
    if kind == STOCK:
        if rules.lead_stock_top == "off":
            return err(ExtraRefused.STOCK_LEAD, "these rules have no stock leads (#40)")
        if not state.stock:
            return err(ExtraRefused.STOCK_LEAD, "the stock is empty")
        if ph == _THROW and not rules.lead_stock_top_throw_in:
            return err(ExtraRefused.STOCK_LEAD,
                       "only the opening lead may come from the stock (#40 A1)")
        if ph not in (_LEAD, _THROW):
            return err(ExtraRefused.STOCK_LEAD, "only an attacker plays from the stock")
        return err(ExtraRefused.STOCK_LEAD,
                   "the stock top has been played as often as the rules allow "
                   "in this bout, or the bout is full (#40, #83)")
    hand = state.hands[state.to_act] if state.to_act >= 0 else 0
    if kind == SWAP:
        if not rules.defense_exchange:
            return err(ExtraRefused.POKER_SWAP, "these rules have no swap with the stock (#42)")
        if ph != _DEFEND:
            return err(ExtraRefused.POKER_SWAP, "only the defender swaps, before covering")
        for c in action.cards:
            if not hand >> c & 1:
                return err(Refused.NOT_IN_HAND, f"seat {state.to_act} does not hold {card_str(c)}")
        if any(d >= 0 for d in state.defence):
            return err(ExtraRefused.POKER_SWAP,
                       "a card is already covered: swap before the first cover "
                       "(#42)")
        if _extras(state).swapped >> state.defender & 1:
            return err(ExtraRefused.POKER_SWAP, "one swap per bout (#42)")
        return err(ExtraRefused.POKER_SWAP,
                   f"swap exactly {rules.defense_exchange} cards, and only "
                   "with face-down stock cards (#42 A2, A3)")
    if kind == PAIR:
        a, c = action.target, action.cards[0]
        for card in (a, c):
            if not hand >> card & 1:
                return err(Refused.NOT_IN_HAND,
                           f"seat {state.to_act} does not hold {card_str(card)}")
        if not (rules.defense_self_throw or rules.throw_in_after_take_mode == "impudent"):
            return err(ExtraRefused.SELF_COVERED_THROW, "these rules have no self-covered throws "
                       "(#48, #51)")
        if not state.table_ranks >> a & 1:
            return err(Refused.THROW_RANK, f"no card of {card_str(a)}'s rank on the table")
        if not state.beats[a] >> c & 1:
            return err(Refused.BEAT, f"{card_str(c)} does not beat {card_str(a)}")
        return err(ExtraRefused.SELF_COVERED_THROW,
                   "the defender throws to himself only once every "
                   "thrower has passed (#48); a thrower lays a covered card only after the take "
                   "in impudent fool (#51)")
    if kind == OWN_COVER:
        if rules.throw_in_after_take_mode == "normal":
            return err(ExtraRefused.OWN_COVER, "these rules let nobody cover his own card (#50)")
        if not state.taking or ph != _THROW:
            return err(ExtraRefused.OWN_COVER,
                       "own cards are covered only after the defender takes (#50)")
        ex = _extras(state)
        if not (ex.owned and ex.owned[state.to_act] >> action.target & 1):
            return err(ExtraRefused.OWN_COVER, f"{card_str(action.target)} is not your card")
        return err(ExtraRefused.OWN_COVER, f"{card_str(action.cards[0])} does not cover "
                   f"{card_str(action.target)}, or it is covered already")
    if kind == COUNTER:
        for card in action.cards:
            if not hand >> card & 1:
                return err(Refused.NOT_IN_HAND,
                           f"seat {state.to_act} does not hold {card_str(card)}")
        if not rules.defense_counter:
            return err(ExtraRefused.COUNTER_THROW, "these rules have no counter-throw (#49)")
        if ph != _DEFEND or _extras(state).counter_target >= 0:
            return err(ExtraRefused.COUNTER_THROW,
                       "only the defender counter-attacks, as he covers, and "
                       "a counter-attack cannot be countered (#49 A5)")
        return err(ExtraRefused.COUNTER_THROW,
                   "the cover must beat the card, the added cards share its "
                   "rank, and the player of the covered card must hold more cards than are "
                   "added (#49)")
    if kind >= EXTRA_KINDS:
        return err(Refused.NO_SUCH_MOVE, f"{action} is not a move of these rules")
    if (kind == ATTACK and ph == _THROW and state.taking
            and rules.throw_in_after_take_mode == "impudent"):
        return err(ExtraRefused.IMPUDENT_THROW_IN,
                   "after the take a card goes in only covered by its "
                   "thrower (6h<Th), or once your own cards are covered (#51)")
    return None


# --- position text ---------------------------------------------------------------------------

#: The position fields of these rules (see :mod:`bito.games.durak.position`): ``tried`` the
#: cards a second try was made against, ``swapped`` the seats that swapped (``0.2``),
#: ``stock_plays`` stock cards played this bout, ``shown`` the seen card on top of the stock,
#: ``owned`` per seat the attack cards it laid (``/``-separated), ``own_covers`` the covers
#: throwers laid on their own cards, ``self_throw`` ``1`` while the defender is asked.
POSITION_KEYS: Final = frozenset({"tried", "swapped", "stock_plays", "shown", "owned",
                                  "own_covers", "self_throw", "counter", "counter_target"})


def _card_text(mask: int) -> str:
    return "".join(card_str(c) for c in cards_of(mask)) or "-"


def position_fields(state: DurakState) -> list[str]:
    """The ``key=value`` fields for :data:`POSITION_KEYS` that differ from their defaults."""
    ex = EXTRAS.of(state)
    if ex is None:
        return []
    out = []
    if ex.tried:
        out.append(f"tried={_card_text(ex.tried)}")
    if ex.swapped:
        out.append("swapped=" + ".".join(str(s) for s in range(state.deal.players)
                                         if ex.swapped >> s & 1))
    if ex.stock_plays:
        out.append(f"stock_plays={ex.stock_plays}")
    if ex.shown >= 0:
        out.append(f"shown={card_str(ex.shown)}")
    if any(ex.owned):
        out.append("owned=" + "/".join(_card_text(m) for m in ex.owned))
    if ex.own_covers:
        out.append(f"own_covers={_card_text(ex.own_covers)}")
    if ex.asking_self:
        out.append("self_throw=1")
    if ex.counter_target >= 0:
        out.append("counter=" + ",".join(
            card_str(a) + (f"<{card_str(c)}" if c >= 0 else "")
            for a, c in zip(ex.counter, ex.counter_cover, strict=True)))
        out.append(f"counter_target={ex.counter_target}")
    return out


def read_position_fields(state: DurakState, fields: dict[str, str],
                         where: dict[str, int], text: str) -> int | None:
    """Set the state's :class:`Extras` from position fields (after the table is laid), and
    correct the two counts that own covers change (see the module docstring)."""
    from bito.cards import split_cards
    from bito.errors import InvalidNotationError

    if not POSITION_KEYS & fields.keys():
        return None

    def mask(key: str) -> int:
        try:
            cards = split_cards(fields.get(key, "-"))
        except InvalidNotationError as e:
            raise InvalidNotationError(f"{key}: {e.reason}", text, where[key] + e.position
                                       ) from None
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    def number(key: str, hi: int) -> int:
        raw = fields.get(key, "0")
        if not raw.isdigit() or int(raw) > hi:
            raise InvalidNotationError(f"{key} must be a whole number from 0 to {hi}", text,
                                       where[key])
        return int(raw)

    n = state.deal.players
    swapped = 0
    if fields.get("swapped", "-") != "-":
        for part in fields["swapped"].split("."):
            if not part.isdigit() or int(part) >= n:
                raise InvalidNotationError(f"swapped: {part!r} is not a seat", text,
                                           where["swapped"])
            swapped |= 1 << int(part)
    owned: tuple[int, ...] = ()
    if "owned" in fields:
        parts = fields["owned"].split("/")
        if len(parts) != n:
            raise InvalidNotationError(f"owned: expected {n} entries separated by '/'", text,
                                       where["owned"])
        owned = tuple(mask_of_text(p, text, where["owned"]) for p in parts)
    shown = -1
    if fields.get("shown", "-") != "-":
        shown_mask = mask("shown")
        shown = shown_mask.bit_length() - 1
        if not state.stock or state.stock[-1] != shown:
            raise InvalidNotationError("shown: the seen card must lie on top of the stock",
                                       text, where["shown"])
    own_covers = mask("own_covers")
    table_covers = 0
    for d in state.defence:
        if d >= 0:
            table_covers |= 1 << d
    if own_covers & ~table_covers:
        raise InvalidNotationError("own_covers: every such card must cover a table card", text,
                                   where["own_covers"])
    counter_cards: list[int] = []
    counter_covers: list[int] = []
    if fields.get("counter", "-") != "-":
        for entry in fields["counter"].split(","):
            a_txt, _, c_txt = entry.partition("<")
            try:
                counter_cards.append(mask_of_text(a_txt, text, where["counter"]).bit_length()
                                     - 1)
                counter_covers.append(mask_of_text(c_txt, text, where["counter"]).bit_length()
                                      - 1 if c_txt else -1)
            except InvalidNotationError as e:
                raise InvalidNotationError(f"counter: {e.reason}", text, where["counter"]
                                           ) from None
    target = number("counter_target", n - 1) if "counter_target" in fields else -1
    if bool(counter_cards) != (target >= 0):
        raise InvalidNotationError("counter and counter_target go together", text,
                                   where.get("counter", where.get("counter_target", 0)))
    _keep(state, Extras(tried=mask("tried"), swapped=swapped,
                         stock_plays=number("stock_plays", 160), shown=shown, owned=owned,
                         own_covers=own_covers, asking_self=bool(number("self_throw", 1)),
                         counter=tuple(counter_cards), counter_cover=tuple(counter_covers),
                         counter_target=target))
    if target >= 0:
        state.set_turn(target)
    if own_covers:
        state.recount_table(skip_covers=own_covers, more_open=own_covers.bit_count())
    # who acts out of the base game's turn: a counter-attack's target (#49), a defender asked
    # to throw in to himself (#48)
    asked = state.defender if number("self_throw", 1) else None
    return target if target >= 0 else asked


def listed_cards(fields: dict[str, str], where: dict[str, int], text: str
                 ) -> list[tuple[str, int, int]]:
    """Cards that these fields place somewhere (a counter-attack's table, #49), as
    (place, card, position) for the check that every card is somewhere exactly once."""
    raw = fields.get("counter", "-")
    if raw == "-":
        return []
    at = where["counter"]
    return [("counter", c, at) for c in cards_of(mask_of_text(raw.replace(",", "").replace(
        "<", ""), text, at))]


def mask_of_text(part: str, text: str, at: int) -> int:
    from bito.cards import split_cards
    from bito.errors import InvalidNotationError

    try:
        cards = split_cards(part)
    except InvalidNotationError as e:
        raise InvalidNotationError(f"owned: {e.reason}", text, at + e.position) from None
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _Extras(Hook):
    """#39-51 at the core's points: second tries, stock attacks, swaps, self-covered throws,
    cunning and impudent throw-ins after a take, counter-throws."""

    name = "#39-51 bout extras"
    kinds = frozenset({TRY, STOCK, SWAP, PAIR, OWN_COVER, COUNTER})
    position_keys = POSITION_KEYS
    moments = frozenset({Stepping, Turn.ROUND_OPEN, Turn.ROUND_OVER})
    events = frozenset({Laid, Stage.REFILLED})
    questions = frozenset({Refusal})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.bout_extras

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        return adjust(state, acts)


    def step(self, state: DurakState, action: Action) -> None:
        step(state, action)

    def goes_on(self, state: DurakState, turn: Moment) -> bool:
        if isinstance(turn, Stepping):
            # #49: the counter-attacked player covers, or picks up the counter cards
            return (state.deal.rules.defense_counter and turn.action.kind in _COUNTERED
                    and counter_step(state, turn.action))
        rules = state.deal.rules
        if turn == Turn.ROUND_OPEN:  # #50: a card to cover one's own
            return owners(rules) and own_covers_left(state)
        if turn == Turn.ROUND_OVER:  # #48: the defender may throw in to himself
            return rules.defense_self_throw and offer_self_throw(state)
        return False

    def on(self, state: DurakState, event: Event) -> None:
        if isinstance(event, Laid):
            if owners(state.deal.rules):
                note_attack(state, event.seat, event.mask)
        elif event == Stage.REFILLED and EXTRAS.of(state) is not None:
            after_bout(state)

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        return refused(state, question, answer, explain)

    def position(self, request: PositionRequest[Answer]) -> Answer:
        return answered(request, self._write, self._read, self._place, codec_blocks)

    def _write(self, state: DurakState, seat: int | None) -> list[str]:
        return position_fields(state)

    def _read(self, state: DurakState, fields: dict[str, str], where: dict[str, int],
              text: str) -> int | None:
        return read_position_fields(state, fields, where, text)

    def _place(self, fields: dict[str, str], where: dict[str, int], text: str) -> Placed:
        return Placed(tuple(listed_cards(fields, where, text)))

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        # all of it is public: the record itself is the view's extension
        ex = EXTRAS.of(state)
        return view if ex is None else view.extended(ex)


def codec_blocks(rules: Rules, cards: tuple[int, ...]) -> list[tuple[str, Iterable[Action]]]:
    """Every move these rules' extras could ever make with this pack, in blocks: second tries,
    stock leads, swaps, self-covered throws, own covers and counter-throws."""
    if not rules.bout_extras:
        return []
    out: list[tuple[str, Iterable[Action]]] = []
    if rules.defense_second_try != "off":
        out.append(("try", [TRY_ACTION]))
    if rules.lead_stock_top != "off":
        out.append(("stock", [STOCK_ACTION]))
    if rules.defense_exchange:
        most = rules.defense_exchange
        sizes = range(1, most + 1) if rules.defense_exchange_mode == "up_to" else (most,)
        out.append(("swap", (swap(*combo) for k in sizes for combo in combinations(cards, k))))
    if rules.defense_self_throw or rules.throw_in_after_take_mode == "impudent":
        out.append(("pair", (pair(x, y) for x in cards for y in cards if x != y)))
    if rules.throw_in_after_take_mode != "normal":
        out.append(("own cover", (own_cover(y, x) for x in cards for y in cards if x != y)))
    if rules.defense_counter:
        def counters() -> Iterable[Action]:
            for target in cards:
                for cover in cards:
                    if cover == target:
                        continue
                    same = [c for c in cards if c != cover and MATCH_MASKS[cover] >> c & 1]
                    for k in range(1, len(same) + 1):
                        for extra in combinations(same, k):
                            yield counter(cover, target, *extra)
        out.append(("counter", counters()))
    return out


#: The core kinds a counter-throw (#49) answers.
_COUNTERED: Final = frozenset({DEFEND, TAKE})
HOOK: Final = _Extras()
