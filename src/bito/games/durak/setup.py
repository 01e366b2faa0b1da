"""Starting a deal: shuffle, deal, turn up the trump, choose who attacks first.

Everything random in a deal happens here, from one seed, so a game is fully determined by
(rules, players, seed, match context, actions).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Final

from bito.cards import (
    ACE,
    NO_SUIT,
    SPADES,
    cards_of,
    is_joker,
    is_special,
    rank_of,
    suit_of,
)
from bito.errors import RulesError
from bito.games.durak.buy_in import reserve_size as reserve_size  # (the kernel sizes it)
from bito.games.durak.facts import DealFact, F, fact_of
from bito.games.durak.hooks import HookSet, select
from bito.games.durak.installed import HOOKS
from bito.games.durak.relation import Trumps
from bito.games.durak.relation import trump_context as trump_context  # (public here too)
from bito.games.durak.relation import trumps_of as trumps_of
from bito.rules import Rules
from bito.rules.options import pending_options


@dataclass(frozen=True)
class MatchContext:
    """What a deal needs to know about the previous deal of a match (VARIANTS.md §1.8).

    ``game_number`` counts from 0. ``previous_fool`` is None for the first deal and after a
    drawn deal. ``dealer`` is who deals this deal (None: by lot).
    """

    game_number: int = 0
    dealer: int | None = None
    previous_fool: int | None = None
    previous_winner: int | None = None


@dataclass(frozen=True)
class Deal:
    """The immutable facts of one deal, shared by every state of the game."""

    rules: Rules
    players: int
    seed: int
    match: MatchContext
    dealer: int
    trump_suit: int
    trump_card: int
    hands: tuple[int, ...]
    stock: tuple[int, ...]  # index 0 is drawn last (the trump card); index -1 is the top
    first_attacker: int
    first_defender: int
    shown: tuple[int, ...]  # per seat: cards shown to everyone during setup
    under_fool: bool  # the deal is led at the previous fool ("under the fool", §1.6, §1.8)
    #: What trumps in this deal and which cards of the stock lie face up
    #: (:class:`~bito.games.durak.relation.Trumps`, made by :func:`trumps_of`): the state
    #: machine builds its beat table from it and reads no trump rule of its own.
    trump: Trumps
    # Rule facts read on every move, kept here to spare the rules lookups: bout caps
    # (VARIANTS.md §1.5), whether the cap can change during the deal, the lead limits
    # (§1.4: ``lead_most`` is the most cards of one rank a lead may hold, 0 for "up to the
    # limit"; ``lead_pair_plus_one``, whether a lead may also be a pair and one more card,
    # §1.4's ``lead.shape`` of S1:53), throw-in and transfer switches and the refill size.
    cap: int = field(init=False, compare=False, repr=False)
    first_bout_cap: int = field(init=False, compare=False, repr=False)
    uncapped_after_stock: bool = field(init=False, compare=False, repr=False)
    cap_varies: bool = field(init=False, compare=False, repr=False)
    lead_max: int = field(init=False, compare=False, repr=False)
    lead_most: int = field(init=False, compare=False, repr=False)
    lead_pair_plus_one: bool = field(init=False, compare=False, repr=False)
    throw_in: bool = field(init=False, compare=False, repr=False)
    transfer: bool = field(init=False, compare=False, repr=False)
    hand_size: int = field(init=False, compare=False, repr=False)
    cover_closes: bool = field(init=False, compare=False, repr=False)
    repetition: int = field(init=False, compare=False, repr=False)
    transfer_only_new: bool = field(init=False, compare=False, repr=False)
    transfer_loose: bool = field(init=False, compare=False, repr=False)
    idle_limit: int = field(init=False, compare=False, repr=False)
    #: What the rules this deal plays add to it, one frozen record per rule, each of a type
    #: its hook module defines (:mod:`bito.games.durak.facts`): read with :meth:`fact`.
    #: Empty when made: the rule set's own records (:func:`rule_facts`), which the dealing
    #: completes (the order each hand was dealt in, who plays for a seat nobody sits in). A
    #: rule that deals a hand nobody sits at (the tossing dummy) finds it after the players'
    #: in ``hands`` and ``shown``.
    facts: tuple[DealFact, ...] = ()
    # Memo tables for seat orders, filled lazily by the state machine (pure functions of the
    # key, the seat count and one rule, so sharing them between the states of one game, and
    # between the deals of the same seat count and rule, is safe: see _shared_memo).
    #: The variant hooks this rule set plays (:mod:`bito.games.durak.hooks`), per point.
    hooks: HookSet = field(init=False, compare=False, repr=False)
    thrower_orders: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False,
                                                       repr=False)
    draw_orders: dict[int, tuple[int, ...]] = field(default_factory=dict, compare=False,
                                                    repr=False)

    def __post_init__(self) -> None:
        # object.__setattr__ keeps the attributes in the instance's inline values; touching
        # self.__dict__ would materialise a dict and slow every later attribute read.
        given = self.facts
        for name, value in _deal_facts(self.rules, self.players):
            object.__setattr__(self, name, value)
        if given:
            object.__setattr__(self, "facts", given)

    def fact(self, kind: type[F]) -> F | None:
        """The record of type ``kind`` a rule this deal plays set (None: the deal does not
        play that rule)."""
        return fact_of(self.facts, kind)

    @property
    def beats_vary(self) -> bool:
        """Whether the beat table changes from bout to bout (it follows who plays it)."""
        return self.trump.varies


@lru_cache(maxsize=512)
def _deal_facts(r: Rules, players: int) -> tuple[tuple[str, Any], ...]:
    """The :class:`Deal` flags that follow from the rules and the seat count alone, worked out
    once per rule set (a run of games deals thousands of times under the same rules)."""
    facts: dict[str, Any] = {
        "cap": r.throw_in_cap,
        "first_bout_cap": r.first_bout_cap,
        "uncapped_after_stock": r.throw_in_uncapped_after_stock,
        "cap_varies": bool(r.throw_in_first_bout_cap) or r.throw_in_uncapped_after_stock,
        "lead_max": r.lead_max,
        "lead_most": r.lead_most,
        "lead_pair_plus_one": r.lead_shape == "rozaliev",
        "throw_in": r.throw_in_enabled,
        "transfer": r.transfer_enabled,
        "hand_size": r.deal_hand_size,
        "cover_closes": (r.beats_identical == "allowed_blocks"
                         or r.specials_cover_ends_throw_in
                         or r.specials_cover_clears_table),
        "repetition": r.end_repetition,
        # Transfer_3 (#11) and transfer_2 (#10): the transfer window is not just "nothing
        # covered yet", so the move generator asks transfer_block every time.
        "transfer_only_new": r.transfer_new_defender_beats == "transfer_cards_only",
        "idle_limit": r.end_idle_bouts,
        "transfer_loose": (r.transfer_window == "any_time"
                           or r.transfer_new_defender_beats == "transfer_cards_only"),
    }
    facts["hooks"] = hooks = select(HOOKS, r, players)
    # Each rule's own facts, in its own record (the teams, a dummy's seat).
    facts["facts"] = tuple(record for more in hooks.deal_facts
                           if (record := more(r, players)) is not None)
    return tuple(facts.items())


def rule_facts(rules: Rules, players: int) -> tuple[DealFact, ...]:
    """The records of facts the rules of this rule set and seat count keep of their own, as
    every deal starts them (before the first bout's lot)."""
    records: tuple[DealFact, ...] = dict(_deal_facts(rules, players))["facts"]
    return records


@cache
def _pack(cards: tuple[int, ...]) -> tuple[int, ...]:
    """The unshuffled pack (kept once per composition)."""
    return cards


@cache
def _shuffle_plan(n: int) -> tuple[tuple[int, int, int], ...]:
    """For each swap of :meth:`random.Random.shuffle` on ``n`` items: the position i, the
    bound i + 1 of the random index and its bit length (the draw's width)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, n)))


def _inline_shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)``, step for step: the same Fisher-Yates swaps from the same
    ``getrandbits`` draws (rejection sampling, as ``Random._randbelow`` does), without a Python
    call per swap. Only used where :data:`_SHUFFLE_IS_STDLIB` confirmed it matches."""
    getrandbits = rng.getrandbits
    for i, bound, width in _shuffle_plan(len(items)):
        j = getrandbits(width)
        while j >= bound:
            j = getrandbits(width)
        items[i], items[j] = items[j], items[i]


def _matches_stdlib_shuffle() -> bool:
    """Whether :func:`_inline_shuffle` reproduces this Python's ``Random.shuffle`` (the seed
    convention deals rely on); checked once at import, on every deck size and a few seeds."""
    for size in (24, 32, 36, 52):
        for seed in (0, 1, 12345, 2**40 + 7):
            ref, rng = random.Random(seed), random.Random(seed)
            want, got = list(range(size)), list(range(size))
            ref.shuffle(want)
            _inline_shuffle(got, rng)
            if got != want or rng.getstate() != ref.getstate():
                return False
    return True


_SHUFFLE_IS_STDLIB: Final = _matches_stdlib_shuffle()


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n >= 1: the same ``getrandbits`` draws, without the three
    Python frames of the library's argument checks (the draws are ``Random._randbelow``'s,
    which :data:`_SHUFFLE_IS_STDLIB` confirmed this Python uses)."""
    if not _SHUFFLE_IS_STDLIB:
        return rng.randrange(n)
    width = n.bit_length()
    r = rng.getrandbits(width)
    while r >= n:
        r = rng.getrandbits(width)
    return r


#: Every card code (0-159) of each suit, 4 being the special cards' "no suit": ``hand &
#: _SUIT_CARDS[s]`` keeps exactly the cards ``c`` with ``suit_of(c) == s``.
_SUIT_CARDS: Final = tuple(sum(1 << c for c in range(160) if suit_of(c) == s) for s in range(5))

#: The four plain suits' cards (every copy), as ``_first_attacker`` builds a one-suit trump mask.
_SUIT_ROWS: Final = frozenset(_SUIT_CARDS[:4])

#: ``_BITS[c] == 1 << c`` for every card code.
_BITS: Final = tuple(1 << c for c in range(160))

_MEMOS: dict[tuple[str, int, Hashable], dict[int, tuple[int, ...]]] = {}


def _shared_memo(kind: str, players: int, rule: Hashable) -> dict[int, tuple[int, ...]]:
    """The seat-order memo that every deal with this seat count and ordering rule shares, so a
    run of games computes each order once instead of once per deal. (Its keys are seats and
    out-masks of ``players`` seats, so it stays small.) ``rule`` is the ordering rule, with
    the rules' deal facts where they change the order (partnerships), so deals with and
    without them never share an order."""
    memo = _MEMOS.get((kind, players, rule))
    if memo is None:
        memo = _MEMOS[(kind, players, rule)] = {}
    return memo


def _rejected(card: int, rules: Rules) -> bool:
    """May this card not be the turned-up trump card? (#74, #14, #81, and the shared
    convention of §3.3: a special card is buried unless its joker system gives it a meaning.)"""
    reject = rules.trump_reject_indicator
    if is_special(card):
        if is_joker(card) and rules.specials_joker in ("double", "novosibirsk"):
            return "joker" in reject
        return True
    r = rank_of(card)
    return bool(reject) and ((r == ACE and "A" in reject) or (r == rules.low_rank and "L" in reject)
                             or (suit_of(card) == SPADES and "spades" in reject))


def _order_rank(card: int) -> int:
    """Rank for the Albanian order: specials above the aces."""
    return 20 + rank_of(card) if is_special(card) else rank_of(card)


def _search_indicator(rules: Rules, deck: list[int], rng: random.Random
                      ) -> tuple[int, list[int]]:
    """#80: cards are turned until one of the fixed trump suit shows; it is laid face up to lie
    under the stock, the others go back and the pack is shuffled again."""
    suit = "cdhs".index(rules.trump_fixed_suit)
    for i, c in enumerate(deck):
        if suit_of(c) == suit:
            rest = deck[:i] + deck[i + 1:]
            rng.shuffle(rest)
            return c, rest
    return -1, deck


@dataclass(frozen=True)
class _Table:
    """What every deal of one rule set and seat count shares: the rules and seat count it was
    checked for, the :class:`Deal` flags of :func:`_deal_facts`, the shared seat-order memos
    (:func:`_shared_memo`) and the trumps of each trump card (:func:`trumps_of`, filled as
    cards turn up)."""

    rules: Rules
    players: int
    facts: tuple[tuple[str, Any], ...]
    hooks: HookSet
    records: tuple[DealFact, ...]
    thrower_orders: dict[int, tuple[int, ...]]
    draw_orders: dict[int, tuple[int, ...]]
    trumps: dict[int, Trumps] = field(default_factory=dict)


_recent_table: _Table | None = None
"""The table of the last rule set dealt, found by identity: a run of games deals thousands of
times under one ``Rules`` object, and hashing its hundred fields for a cache lookup costs more
than a tenth of a deal."""


def check_game(rules: Rules, players: int) -> None:
    """Refuse a rule set and seat count that cannot be played, with a :class:`RulesError`
    naming the key at fault: options the engine does not play yet, a seat count outside the
    game's range, and the rule mixes each mechanism refuses (each hook's ``check``).

    Every way into a game goes through here, a new deal and a position typed in alike, so a
    position can never hold a game that ``new_game`` would refuse."""
    waiting = pending_options(rules)
    if waiting:
        key = waiting[0].split("=", 1)[0]
        raise RulesError(key, "not playable yet: the engine does not implement "
                         + ", ".join(waiting))
    if not rules.players_min <= players <= rules.max_players:
        raise RulesError("players", f"this game takes {rules.players_min} to "
                         f"{rules.max_players} players with a {rules.deck_size}-card deck, "
                         f"not {players}")
    for hook in HOOKS:
        hook.check(rules, players)


def _table_for(rules: Rules, players: int) -> _Table:
    """The checked facts of this rule set and seat count (raises if they cannot be dealt)."""
    global _recent_table
    table = _recent_table
    if table is not None and table.rules is rules and table.players == players:
        return table
    check_game(rules, players)
    facts = _deal_facts(rules, players)
    known = dict(facts)
    table = _recent_table = _Table(
        rules, players, facts, known["hooks"], known["facts"],
        _shared_memo("throw_in.by", players, (rules.throw_in_by, known["facts"])),
        _shared_memo("draw.order", players, rules.draw_order))
    return table


def _new_deal(fields: dict[str, Any], facts: tuple[tuple[str, Any], ...]) -> Deal:
    """``Deal(**fields)``, equal field for field, without the frozen dataclass's ``__init__``:
    that sets some sixty attributes through ``object.__setattr__`` one call at a time, a third
    of the cost of a deal. ``fields`` must name every init field; ``facts`` are the flags
    ``__post_init__`` would add (:func:`_deal_facts`). The attributes live in the instance's
    dict, which later reads find as fast as inline values."""
    made = object.__new__(Deal)
    attrs = made.__dict__
    attrs.update(facts)
    attrs.update(fields)  # (after: ``fields`` gives this deal's records)
    return made


def deal(rules: Rules, players: int, seed: int, match: MatchContext) -> Deal:
    """Shuffle and deal a new game."""
    shared = _table_for(rules, players)
    rng = random.Random(seed)
    deck = list(_pack(rules.deck()))
    # deck[0] is the top of the pack
    if _SHUFFLE_IS_STDLIB:
        _inline_shuffle(deck, rng)
    else:
        rng.shuffle(deck)
    if rules.deck_order == "descending":
        # Albanian (#23): aces on top, then kings, ... each rank in shuffled suit order.
        deck.sort(key=lambda c: -_order_rank(c))
    indicator = -1
    if (rules.trump_source == "fixed" and rules.trump_search_indicator
            and not rules.trump_per_player):
        indicator, deck = _search_indicator(rules, deck, rng)
    # The lot for the dealer is always drawn, so the random stream after it is the same
    # whether or not the dealer was given: a replay that names the dealer deals the same game.
    lot = _below(rng, players)
    dealer = match.dealer if match.dealer is not None else lot
    facts = shared.records
    if facts:
        # A rule may deal cards of its own before the hands (#37's buy-in).
        dealt_first = []
        for record in facts:
            record, deck = record.before_hands(rules, players, dealer, deck)
            dealt_first.append(record)
        facts = tuple(dealt_first)
    # One card at a time clockwise from the dealer's left, ``deal_hand_size`` rounds: the
    # k-th seat in that order gets every ``players``-th card from deck[k].
    pos = len(deck) if rules.deal_whole_pack else players * rules.deal_hand_size
    if indicator >= 0 and (pos > len(deck) or rules.deal_whole_pack):
        # Every card is dealt: the indicator cannot lie under an empty stock, so it is dealt
        # last, to the dealer, who holds it face up like any last-dealt trump card.
        deck.append(indicator)
        indicator = -1
        pos = min(pos, len(deck)) if not rules.deal_whole_pack else len(deck)
    hands = [0] * players
    for k in range(players):
        # the cards are distinct, so the sum of their bits is their set
        hands[(dealer + 1 + k) % players] = sum(map(_BITS.__getitem__, deck[k:pos:players]))
    if facts:
        # The rules' records may keep the order each hand was dealt in (hands held face out).
        order: list[tuple[int, ...]] = [()] * players
        for k in range(players):
            order[(dealer + 1 + k) % players] = tuple(deck[k:pos:players])
        dealt = tuple(order)
        facts = tuple(fact.dealt(dealt) for fact in facts)
    last_dealt = deck[pos - 1]
    # Who got the last card: the dealer when the pack divides, else (#33 A1) the player who
    # got the last of the extra cards.
    last_seat = (dealer + 1 + (pos - 1) % players) % players
    rest = deck[pos:]  # top first
    dummy = -1
    if rules.dummy_mode == "tossing":
        # #56: the dummy is dealt a hand like a player's, after the players.
        dummy = sum(1 << c for c in rest[:rules.deal_hand_size])
        rest = rest[rules.deal_hand_size:]
    shown = [0] * players
    source = rules.trump_source
    stock: tuple[int, ...]
    if rules.trump_per_player:
        # No common trump card: the rule's record turns up each player's own suit.
        trump_card = -1
        stock = tuple(reversed(rest))
    elif source in ("fixed", "none"):
        # No card is turned up: the trump is agreed (Japanese) or there is none (#15).
        if source == "fixed" and rules.trump_search_indicator and not rest:
            shown[last_seat] |= 1 << last_dealt  # the indicator, dealt last (see above)
        trump_card = indicator
        stock = ((indicator,) if indicator >= 0 else ()) + tuple(reversed(rest))
    elif not rest:
        # The whole pack is dealt: the dealer's last card is shown and fixes the trump (S0:243).
        # A card that may not be the trump (#74, #14's spades) is passed over for the card
        # dealt to him the round before, and so on.
        trump_card = last_dealt
        for c in deck[pos - 1::-players]:
            if not _rejected(c, rules):
                trump_card = c
                break
        shown[last_seat] |= 1 << trump_card
        stock = ()
    else:
        trump_card, rest = _turn_trump(rules, rest, rng)
        stock = (trump_card, *reversed(rest))
    trump = shared.trumps.get(trump_card)
    if trump is None:
        trump = shared.trumps[trump_card] = trumps_of(rules, trump_card)
    if facts:
        # A rule may change the stock and what trumps once the trump is turned (personal
        # trumps, a secret card set aside, a stock set aside unseen).
        turned = []
        for record in facts:
            record, stock, trump = record.trump_turned(rules, players, dealer, trump_card,
                                                       stock, trump)
            turned.append(record)
        facts = tuple(turned)
    if facts:
        # A rule may set hand cards aside once the trump is turned (#35's locked cards).
        set_aside = []
        for record in facts:
            record, hands = record.after_trump(rules, players, dealer, deck, hands, stock)
            set_aside.append(record)
        facts = tuple(set_aside)
    trumps = trump.suits
    trump_suit = min(trumps) if trumps else -1
    shown_before = list(shown)
    attacker, under_fool = _first_attacker(rules, players, dealer, hands, trump, match,
                                           rng, shown)
    defender = (attacker + 1) % players
    for record in facts:
        # A lot chooses who plays for a seat nobody sits in (the dummy's); he attacks first,
        # and nothing is shown for it.
        drawn = record.first_bout(rules, players, rng, attacker, defender)
        if drawn is None:
            continue
        attacker, defender, controller = drawn
        shown = shown_before
        facts = tuple(fact.played_by(controller) for fact in facts)
    if dummy >= 0:
        shown = [*shown, 0]  # the dummy's hand, after the players'
        hands.append(dummy)
    # "Under the fool" (S4:4): this deal's first attack is made at the previous fool, whichever
    # rule chose the attacker.
    under_fool = under_fool or (match.game_number > 0 and match.previous_fool == defender)
    return _new_deal({
        "rules": rules, "players": players, "seed": seed, "match": match, "dealer": dealer,
        "trump_suit": trump_suit, "trump_card": trump_card, "hands": tuple(hands),
        "stock": stock, "first_attacker": attacker, "first_defender": defender,
        "shown": tuple(shown), "under_fool": under_fool, "trump": trump, "facts": facts,
        "thrower_orders": shared.thrower_orders, "draw_orders": shared.draw_orders},
        shared.facts)


def _turn_trump(rules: Rules, rest: list[int], rng: random.Random) -> tuple[int, list[int]]:
    """Pick the trump card from the undealt cards (top first); return it and the others.

    A rejected card (#74) is buried at a random place in the stock and another is turned.
    """
    source = rules.trump_source
    if source == "stock_top" and not rules.trump_reject_indicator and not is_special(rest[0]):
        return rest[0], rest[1:]  # (a plain card is never rejected without a reject rule)
    rest = list(rest)
    tried: set[int] = set()
    for _ in range(len(rest)):
        if source == "stock_top":
            i = 0
        elif source in ("last_card", "bottom_card"):
            i = len(rest) - 1
        else:  # any_card
            candidates = [j for j, c in enumerate(rest) if c not in tried]
            i = rng.choice(candidates)
        candidate = rest[i]
        if not _rejected(candidate, rules) or len(rest) == 1:
            del rest[i]
            return candidate, rest
        tried.add(candidate)
        del rest[i]
        # Bury it strictly inside the stock, so it is neither turned again next nor drawn last.
        where = rng.randrange(1, len(rest)) if len(rest) > 1 else 0
        rest.insert(where, candidate)
        if all(_rejected(c, rules) for c in rest):
            break
    i = 0 if source == "stock_top" else len(rest) - 1
    candidate = rest.pop(i)
    return candidate, rest


def _lowest_of(mask: int) -> int:
    """The lowest-ranked card of a set of cards (-1 if empty)."""
    best = -1
    for c in cards_of(mask):
        if best < 0 or rank_of(c) < rank_of(best):
            best = c
    return best


@cache
def _clockwise_after(dealer: int, players: int) -> tuple[int, ...]:
    """Every seat, clockwise from the dealer's left (the dealer last)."""
    return tuple((dealer + i) % players for i in range(1, players + 1))


def _lowest(hands: list[int], order: tuple[int, ...], among: int) -> tuple[int, int, int] | None:
    """(rank, place in ``order``, card) of the lowest card in ``among`` that any hand holds;
    ties go to the first such player in ``order``."""
    best: tuple[int, int, int] | None = None
    best_rank = 16  # above every rank: cards come in seat order, so only a lower rank wins
    one_suit = among in _SUIT_ROWS
    for idx, seat in enumerate(order):
        m = hands[seat] & among
        if one_suit and not m >> 64:
            # one suit of one deck: its lowest card is its lowest rank
            if m:
                c = (m & -m).bit_length() - 1
                if c % 16 < best_rank:
                    best_rank = c % 16
                    best = (best_rank, idx, c)
            continue
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            if c % 16 < best_rank:  # rank_of(c), inlined
                best_rank = c % 16
                best = (best_rank, idx, c)
    return best


def _first_attacker(rules: Rules, players: int, dealer: int, hands: list[int],
                    trump: Trumps, match: MatchContext, rng: random.Random,
                    shown: list[int]) -> tuple[int, bool]:
    """Who leads the first bout, and whether that lead is made 'under the fool'."""
    fool = match.previous_fool
    if match.game_number > 0 and fool is not None:
        rule = rules.next_game_leader
        if rule == "from_under_fool":
            return (fool + 1) % players, False
        if rule == "under_fool":
            return (fool - 1) % players, True
        if rule == "previous_winner" and match.previous_winner is not None:
            return match.previous_winner, False
        if rule == "left_of_dealer":
            return (dealer + 1) % players, False
    if rules.first_attacker_rule == "left_of_dealer":
        return (dealer + 1) % players, False
    order = _clockwise_after(dealer, players)
    if trump.varies:
        # #16 A4: the lowest card of one's own trump suit leads; a tie goes by lot.
        own = trump.own_suits()
        lows = [(rank_of(low), seat, low) for seat in order
                if (low := _lowest_of(hands[seat] & _SUIT_CARDS[own[seat]])) >= 0]
        if lows:
            best_rank = min(r for r, _, _ in lows)
            tied = [(seat, card) for r, seat, card in lows if r == best_rank]
            seat, card = tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]
            shown[seat] |= 1 << card
            return seat, False
    trumps = 0
    for suit in trump.suits:
        trumps |= _SUIT_CARDS[suit]
    best = _lowest(hands, order, trumps)
    if best is None:
        if rules.first_attacker_no_trump_fallback == "lot":
            return rng.randrange(players), False
        best = _lowest(hands, order, ~_SUIT_CARDS[NO_SUIT])  # a joker is never the lowest
    if best is None:
        return (dealer + 1) % players, False  # only special cards were dealt
    seat = order[best[1]]
    # The first attacker shows the card that makes him first: it becomes public knowledge.
    shown[seat] |= 1 << best[2]
    return seat, False
