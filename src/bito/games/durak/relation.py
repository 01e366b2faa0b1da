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
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    card_str,
    colour_of,
    copy_of,
    is_joker,
    is_mega,
    is_special,
    is_wild,
    rank_of,
    special,
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


@dataclass(frozen=True)
class Trumps:
    """What trumps in one deal, worked out once when it is dealt: the value the state machine
    reads to build its beat table, so the move loop asks one field and never a rule.

    The core makes it from the turned card (the base game: one trump suit, the trump card
    face up under the stock); a rule that trumps another way amends it while the deal is
    dealt (through its deal record, :meth:`~bito.games.durak.facts.DealFact.trump_turned`).

    ``suits``: the trump suits (none without trumps, two when Double joker turns up a
    joker). ``high_joker``: the card nothing beats (-1: none). ``jokers_wild``: jokers cover
    anything (Novosibirsk after a turned joker). ``face_up``: the cards of the stock lying
    face up, public once drawn (the trump card, and any card a rule turns up).
    ``by_seats``: when the trumps depend on who plays the bout, for defender ``d`` and
    attacker ``a`` entry ``d * players + a`` is (trump suits, binding suits: suits only a
    higher card of the same suit covers); empty when every bout trumps alike. ``hidden``:
    a card lying face down apart from the stock that is turned once the stock's last card is
    drawn (-1: none), after which the deal trumps as ``turned`` says.
    """

    suits: frozenset[int] = frozenset()
    high_joker: int = -1
    jokers_wild: bool = False
    face_up: int = 0
    by_seats: tuple[tuple[frozenset[int], frozenset[int]], ...] = ()
    players: int = 0
    hidden: int = -1
    turned: Trumps | None = None

    @property
    def varies(self) -> bool:
        """Whether the beat table changes from bout to bout (it follows the players)."""
        return bool(self.by_seats)

    def context(self, defender: int, attacker: int, turned: bool = False
                ) -> tuple[frozenset[int], int, bool, frozenset[int]]:
        """(trump suits, high joker, wild jokers, binding suits) of a bout between these
        players, before or after the hidden card is ``turned``."""
        if self.by_seats:
            suits, binding = self.by_seats[defender * self.players + attacker]
            return suits, self.high_joker, self.jokers_wild, binding
        now = self.turned if turned and self.turned is not None else self
        return now.suits, now.high_joker, now.jokers_wild, frozenset()

    def own_suits(self) -> tuple[int, ...]:
        """Each seat's own trump suit when the trumps follow the seats (empty otherwise)."""
        return tuple(min(self.suits_of(seat)) for seat in range(self.players)) \
            if self.by_seats else ()

    def suits_of(self, seat: int, turned: bool = False) -> frozenset[int]:
        """The suits that trump when ``seat`` defends (whoever attacks: the binding suits
        are the attacker's part)."""
        return self.context(seat, seat, turned)[0]


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


def trumps_of(rules: Rules, trump_card: int, seats: tuple[int, ...] = (), hidden: int = -1,
              face_up: int = 0) -> Trumps:
    """What trumps in a deal whose turned card is ``trump_card`` (-1: none turned up).

    ``seats``: each seat's own trump suit, when the trumps are personal (#16; the defender's
    suit trumps, and ``beats.binding`` binds the others' suits, #82). ``hidden``: a card
    set aside face down under the trump card, turned once the trump card is drawn (#18),
    whose suit trumps from then on. ``face_up``: the stock's face-up cards when more than
    the trump card (and, under ``trump.secret_drawable``, the hidden card). Every place that
    makes a deal (the dealing, positions, hand-offs, the bots' worlds) asks here,
    so they all trump alike."""
    if not face_up and trump_card >= 0:
        face_up = 1 << trump_card
        if hidden >= 0 and rules.trump_secret_drawable:
            face_up |= 1 << hidden
    if seats:
        n = len(seats)
        scope = rules.beats_binding
        by_seats = []
        for defender in range(n):
            own = seats[defender]
            for attacker in range(n):
                binding: frozenset[int] = frozenset()
                if scope == "all_other_players":
                    binding = frozenset(t for s, t in enumerate(seats) if s != defender)
                elif scope == "attacker_suit_only":
                    binding = frozenset({seats[attacker]})
                by_seats.append((frozenset({own}), binding - {own}))
        return Trumps(face_up=face_up, by_seats=tuple(by_seats), players=n)
    suits, high, wild = trump_context(rules, trump_card)
    turned = None
    if hidden >= 0:
        turned = Trumps(*trump_context(rules, hidden))
    return Trumps(suits, high, wild, face_up, hidden=hidden, turned=turned)


def trump_context(rules: Rules, trump_card: int) -> tuple[frozenset[int], int, bool]:
    """The trump suits, the high joker and Novosibirsk's wild-joker mode of a deal whose
    turned card is ``trump_card`` (-1: none turned up); the kernel's trump rows are these."""
    source = rules.trump_source
    if source == "none" or rules.trump_per_player:
        return frozenset(), -1, False
    if source == "fixed":
        return frozenset({"cdhs".index(rules.trump_fixed_suit)}), -1, False
    if is_special(trump_card):
        if is_joker(trump_card) and rules.specials_joker == "double":
            # A turned-up joker makes both suits of its colour trumps, and it is the high one.
            red = colour_of(trump_card) == 1
            return frozenset({DIAMONDS, HEARTS} if red else {CLUBS, SPADES}), trump_card, False
        if is_joker(trump_card) and rules.specials_joker == "novosibirsk":
            # No trumps, and the jokers beat anything (only the turned one, under #27 A1).
            only = rules.specials_wild_jokers == "indicator_only"
            return frozenset(), trump_card if only else -1, True
        return frozenset(), -1, False
    trumps = frozenset({suit_of(trump_card)})
    high = -1
    if rules.specials_joker == "double":
        # The joker of the trump colour is the high joker (#25).
        red = suit_of(trump_card) in (DIAMONDS, HEARTS)
        high = special("RJ" if red else "BJ")
    return trumps, high, False
