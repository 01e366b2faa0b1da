"""The beat relation of every Durak variant (VARIANTS.md §1.2, §3.2, §3.3, §4.6).

``beats(d, a, ctx)`` answers "may card ``d`` cover attack card ``a``?". It starts from the base
relation and applies the variant rules in the catalogue's order: (1) special cards (jokers,
wild cards, the mega card), (2) restricted suits, (3) royal, deuce and ace rules, (4) the suit
mode, (5) the identical-twin rule. Everything a rule needs beyond the options is in the
:class:`BeatContext` (which suits are trumps, the high joker, personal trumps), so a table of
"what beats what" can be built once per context and shared by every state of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bito.cards import (
    ACE,
    card_str,
    colour_of,
    copy_of,
    is_joker,
    is_mega,
    is_special,
    is_wild,
    rank_of,
    suit_of,
)
from bito.rules import Rules

SUIT_LETTERS = "cdhs"


@dataclass(frozen=True)
class BeatContext:
    """What the relation depends on besides the options.

    ``trumps``: the trump suits (none in a no-trump game; two when a joker was turned up in
    Double joker). ``high_joker``: the joker that nothing beats (Double joker), or -1.
    ``binding``: suits that only a higher card of the same suit may beat (other players'
    personal trumps, #82). ``jokers_wild``: Novosibirsk after a joker was turned up.
    """

    rules: Rules
    trumps: frozenset[int]
    high_joker: int = -1
    binding: frozenset[int] = frozenset()
    jokers_wild: bool = False


def _rank_beats(d: int, a: int, ctx: BeatContext) -> bool | None:
    """Royal, deuce and ace rules (step 3); None when they do not decide."""
    rules = ctx.rules
    rd, ra = rank_of(d), rank_of(a)
    same_suit = suit_of(d) == suit_of(a)
    trump_d, trump_a = suit_of(d) in ctx.trumps, suit_of(a) in ctx.trumps
    low, high = rules.low_rank, ACE
    if rules.beats_royal and rules.deck_jokers:
        # #19 A3: with a joker in the deck the joker is the high card: only a joker covers a
        # low card (see _special_beats for the joker itself), and the ace is an ordinary card.
        if ra == low:
            return False
        return None
    if rules.beats_royal:
        any_suit = rules.beats_royal_suit_scope == "any_suit"
        if ra == low:
            return rd == high and (same_suit or (any_suit and trump_d == trump_a)
                                   or (trump_d and not trump_a))
        if ra == high:
            if rules.beats_ace_only_by_trump:
                return trump_d and not trump_a
            return (rd == low and (same_suit or (any_suit and trump_d == trump_a))) or (
                trump_d and not trump_a)
    if ra == ACE and (rules.beats_deuce_beats_ace or rules.beats_ace_only_by_trump):
        if rules.beats_ace_only_by_trump:
            return trump_d and not trump_a
        if rd == 2 and (same_suit or (trump_d and not trump_a)
                        or rules.beats_deuce_scope == "any_suit"):
            return True
    return None


def _special_beats(d: int, a: int, ctx: BeatContext) -> bool | None:
    """Jokers, wild cards and the mega card (step 1); None when neither card is special."""
    if not (is_special(d) or is_special(a)):
        return None
    rules = ctx.rules
    system = rules.specials_joker
    if rules.beats_royal and (is_joker(a) or is_joker(d)) and not (is_wild(a) or is_wild(d)
                                                                   or is_mega(a) or is_mega(d)):
        # #19 A3: the joker is the royal high card: it covers the low cards (and, as a
        # joker, whatever its system allows), and only a low card covers it.
        if is_joker(a):
            return not is_special(d) and rank_of(d) == rules.low_rank
        if rank_of(a) == rules.low_rank and not is_special(a):
            return True
    if is_mega(a):
        return rank_of(d) == 4 and not is_special(d)
    if is_mega(d):
        return not (rank_of(a) == 4 and not is_special(a))
    if is_wild(d) or is_wild(a):
        return True  # a wild card covers anything and is covered by anything (#28)
    if system == "any":
        return True
    if system == "single":
        if is_joker(d):
            return True
        return rules.specials_joker_beaten_by_any  # a led joker stands unless the option
    if system == "estonian":
        if is_joker(d):
            return not is_joker(a) and rank_of(a) not in (2, 3)
        return rank_of(d) in (2, 3) and not is_special(d)
    if system == "novosibirsk":
        if is_joker(d):
            if is_joker(a):
                return False
            # After a turned-up joker both jokers are wild, or with #27 A1's option only
            # the turned one (carried as ``high_joker``).
            wild = ctx.jokers_wild and (ctx.high_joker < 0 or d == ctx.high_joker)
            return wild or rank_of(a) == ACE
        # d is plain, a is a joker: any card but an ace beats it
        return rank_of(d) != ACE
    if system == "double":
        if d == ctx.high_joker:
            return True  # the joker of the trump colour beats everything
        if a == ctx.high_joker:
            return False  # and nothing beats it
        if is_joker(d):  # the other joker beats the cards of its own colour
            return not is_special(a) and colour_of(a) == colour_of(d)
        return suit_of(d) in ctx.trumps  # any trump beats the low joker
    if system == "double_color_only":
        if is_joker(d):
            return not is_special(a) and colour_of(a) == colour_of(d)
        # a is a joker: a trump of the other colour beats it (nothing, under #81 A1's option)
        if rules.specials_joker_unbeatable:
            return False
        return suit_of(d) in ctx.trumps and colour_of(d) != colour_of(a)
    raise AssertionError(system)


def beats(d: int, a: int, ctx: BeatContext) -> bool:
    """May ``d`` cover ``a``? (``d != a``)"""
    if ctx.rules.beats_unbeatable and card_str(a) in ctx.rules.beats_unbeatable:
        return False  # nothing covers it (Akulina's queen of spades, #73)
    special = _special_beats(d, a, ctx)
    if special is not None:
        return special
    rules = ctx.rules
    sd, sa = suit_of(d), suit_of(a)
    rd, ra = rank_of(d), rank_of(a)
    restricted = rules.beats_restricted_suit
    if restricted and sa == SUIT_LETTERS.index(restricted):
        return sd == sa and rd > ra
    if sa in ctx.binding:
        return sd == sa and rd > ra
    if sd == sa and rules.beats_identical == "literal":
        return False  # #21 A1 as written: never a card of the same suit
    if sd == sa and rd == ra:
        # identical twins from two decks (#21, #22)
        return rules.beats_identical == "allowed_blocks" and copy_of(d) != copy_of(a)
    by_rank = _rank_beats(d, a, ctx)
    if by_rank is not None:
        return by_rank
    trump_d, trump_a = sd in ctx.trumps, sa in ctx.trumps
    if rules.beats_suit_mode == "suitless":
        return (rd > ra and trump_d == trump_a) or (trump_d and not trump_a)
    if sd == sa:
        return rd > ra
    return trump_d and not trump_a


@lru_cache(maxsize=1024)
def relation_table(ctx: BeatContext) -> tuple[int, ...]:
    """``table[a]`` = the set (bitmask) of cards that beat ``a``, indexed by card code."""
    deck = ctx.rules.deck()
    table = [0] * (max(deck) + 1)
    for a in deck:
        m = 0
        for d in deck:
            if d != a and beats(d, a, ctx):
                m |= 1 << d
        table[a] = m
    return tuple(table)
