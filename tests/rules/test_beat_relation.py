"""Scenario tests of the general beat relation (VARIANTS.md §1.2, §3.1 #13, §3.2, §3.3).

Every expectation below is read off the catalogue's rule text and the seed line each docstring
cites (S0 = /work/shared/seeds/000_*.txt, S1 = 001_*.txt), never from running the relation.
"""

from __future__ import annotations

from typing import Any

import pytest

from bito.cards import cards_of, parse_card, rank_of, suit_of
from bito.games.durak.relation import BeatContext, beats, relation_table
from bito.rules import Rules

SUITS = "cdhs"

Case = tuple[str, str, bool]


def _ctx(trumps: str = "h", *, high_joker: str = "", wild: bool = False,
         **options: Any) -> BeatContext:
    """A context with the trump suits given as letters ("" for none) and dotted options."""
    rules = Rules().with_options(**options)
    hj = parse_card(high_joker) if high_joker else -1
    return BeatContext(rules, frozenset(SUITS.index(s) for s in trumps), high_joker=hj,
                       jokers_wild=wild)


def _check(ctx: BeatContext, cases: list[Case]) -> None:
    """Assert beats(d, a) for each (defence, attack, expected); report every mismatch at once."""
    wrong = [f"{d} on {a}: expected {exp}" for d, a, exp in cases
             if beats(parse_card(d), parse_card(a), ctx) is not exp]
    assert not wrong, wrong


# --- §3.1 #13 Japanese --------------------------------------------------------------------


def test_japanese_spades_only_by_higher_spade() -> None:
    """#13 Japanese: trump is always ♦ (S1:6 "The trump suit is diamonds"); "spades are not
    fought off with a different suit" (S0:263): ♠ only by a higher ♠, never by a trump."""
    ctx = _ctx("d", **{"beats.restricted_suit": "s", "trump.source": "fixed",
                       "trump.fixed_suit": "d"})
    _check(ctx, [
        ("7s", "6s", True), ("As", "Ks", True), ("6s", "7s", False),
        ("6d", "6s", False), ("Ad", "7s", False), ("Ah", "6s", False),  # no trump on ♠
        ("6d", "Ac", True), ("7d", "6d", True), ("As", "6h", False),  # others as usual
        ("As", "6d", False), ("7h", "6h", True),
    ])


# --- §3.2 trump, suit and beat-relation variants ------------------------------------------


def test_no_trump_only_higher_same_suit() -> None:
    """#15 no_trump: "the game is played without trump cards" (S0:7); beats.mode =
    same_suit_higher_only."""
    ctx = _ctx("", **{"trump.source": "none"})
    _check(ctx, [
        ("7h", "6h", True), ("Ac", "Kc", True), ("6h", "7h", False),
        ("Ah", "6c", False), ("As", "6d", False), ("6d", "As", False),
    ])
    deck = ctx.rules.deck()
    table = relation_table(ctx)
    for a in deck:
        expected = {d for d in deck if suit_of(d) == suit_of(a) and rank_of(d) > rank_of(a)}
        assert set(cards_of(table[a])) == expected


def test_suitless_higher_any_suit_trumps_only_by_trumps() -> None:
    """#17 suitless: "beat the cards with a card of a large size (suit does not matter) or a
    trump card" (S0:15); A1 a plain card never beats a trump; A2 equal ranks never beat."""
    ctx = _ctx("h", **{"beats.suit_mode": "suitless"})
    _check(ctx, [
        ("7c", "6s", True), ("Ad", "Kc", True), ("7s", "6s", True),
        ("6c", "6s", False), ("Kd", "Kc", False),  # A2
        ("Ac", "6h", False), ("As", "Kh", False),  # A1
        ("7h", "6h", True), ("6h", "7h", False),  # trumps only by higher trumps
        ("6h", "Ac", True), ("6h", "As", True),  # any trump beats any plain card
    ])


ROYAL = {"beats.royal": True, "deck.size": 36}


def test_royal_low_only_by_high() -> None:
    """#19 royal: "the lowest card ... can only be beaten by the highest card" (S0:59): a 6 (L
    in 36 cards) falls only to the ace of its suit or, if plain, to the trump ace (A2, A4)."""
    ctx = _ctx("d", **ROYAL)
    _check(ctx, [
        ("As", "6s", True), ("Ks", "6s", False), ("7s", "6s", False),
        ("Ad", "6s", True),  # trump ace on a plain 6
        ("7d", "6s", False), ("Kd", "6s", False),  # a lower trump no longer beats a plain 6
        ("Ah", "6s", False),  # a plain ace of another suit
        ("Ad", "6d", True), ("7d", "6d", False), ("As", "6d", False),  # A4 trump 6
    ])


def test_royal_high_only_by_low_or_trump() -> None:
    """#19 royal: "the highest card can be beaten only by the lowest or the trump card" (S0:59):
    an ace falls to the 6 of its suit or to any trump; the trump ace only to the trump 6 (A4)."""
    ctx = _ctx("d", **ROYAL)
    _check(ctx, [
        ("6s", "As", True), ("6c", "As", False), ("Ks", "As", False),
        ("7d", "As", True), ("6d", "As", True),  # any trump on a plain ace
        ("6d", "Ad", True), ("Kd", "Ad", False), ("6s", "Ad", False),  # A4 trump ace
        ("As", "Ks", True), ("8s", "7s", True), ("7d", "Ks", True),  # middle ranks: standard
    ])


def test_royal_low_rank_follows_the_deck() -> None:
    """#19 royal A1: L is the single lowest rank of the deck in use ("usually from two to ten",
    S0:59): 2 in 52 cards, so a 2 beats the ace of its suit and a 6 is an ordinary card."""
    ctx = _ctx("d", **{"beats.royal": True, "deck.size": 52})
    _check(ctx, [
        ("2s", "As", True), ("6s", "As", False), ("As", "2s", True), ("3s", "2s", False),
        ("7s", "6s", True), ("2d", "2s", False), ("Ad", "2s", True),
    ])


def test_ace_only_by_trump_cancels_royal_low_beats_ace() -> None:
    """#20: "the ace cannot be beaten with the lowest card, but only with a trump card.
    Therefore, the trump ace ... plays the role of a wild card" (S0:180), as a modifier of royal:
    no 6 beats an ace, any trump beats a plain ace, nothing beats the trump ace."""
    ctx = _ctx("d", **ROYAL, **{"beats.ace_only_by_trump": True})
    _check(ctx, [
        ("6s", "As", False), ("6h", "Ah", False),  # royal's low-beats-ace is cancelled
        ("7d", "As", True), ("6d", "As", True), ("Ad", "As", True),  # a plain ace: any trump
        ("6d", "Ad", False), ("Kd", "Ad", False), ("As", "Ad", False),  # trump ace unbeatable
        ("As", "6s", True), ("Ad", "6d", True),  # the ace still beats the 6 (royal)
    ])


def test_ace_only_by_trump_cancels_deuce_beats_ace() -> None:
    """#20 (S0:180) as a modifier of estonian: a deuce no longer beats an ace; the trump ace is
    unbeatable by plain cards."""
    ctx = _ctx("d", **{"deck.size": 52, "beats.deuce_beats_ace": True,
                       "beats.ace_only_by_trump": True})
    _check(ctx, [
        ("2s", "As", False), ("2d", "Ad", False), ("2d", "As", True), ("Kd", "Ad", False),
    ])


@pytest.mark.parametrize("size", [24, 36, 52])
def test_ace_only_by_trump_is_a_noop_on_the_base_game(size: int) -> None:
    """#20 A1: with the plain base game the modifier changes nothing (S0:180)."""
    base = _ctx("c", **{"deck.size": size})
    mod = _ctx("c", **{"deck.size": size, "beats.ace_only_by_trump": True})
    assert relation_table(base) == relation_table(mod)


TWO_DECKS = {"deck.copies": 2, "deck.size": 36}


def test_big_fool_twin_cannot_beat_twin() -> None:
    """#21 big_fool: "You cannot fight back with a card of equal value" (S0:53) → identical
    twins never beat each other (A1); other covers are standard."""
    ctx = _ctx("h", **TWO_DECKS, **{"beats.identical": "forbidden"})
    _check(ctx, [
        ("6s'", "6s", False), ("6s", "6s'", False), ("Ah'", "Ah", False),
        ("7s'", "6s", True), ("7s", "6s'", True), ("6h'", "As", True), ("6c'", "6s", False),
    ])


def test_big_fool_twin_block_twin_may_beat() -> None:
    """#22: "If a player fights back with a card that is absolutely equal in value" (S0:56):
    covering with the exact twin is a legal beat (either copy on the other)."""
    ctx = _ctx("h", **TWO_DECKS, **{"beats.identical": "allowed_blocks"})
    _check(ctx, [
        ("6s'", "6s", True), ("6s", "6s'", True), ("Ah'", "Ah", True),
        ("6c'", "6s", False), ("7s'", "6s", True), ("Ks", "Ah'", False),
    ])


# --- §3.3 special cards -------------------------------------------------------------------

DOUBLE = {"deck.size": 52, "deck.jokers": 2, "specials.joker": "double"}


def test_double_joker_high_and_low() -> None:
    """#25 double_joker: "If hearts or diamonds are the trump card, the red joker is the highest
    card in the game, and the black one simply beats all spades and clubs" (S0:103); the low
    joker is beaten by any trump or by the high joker (A1) and never beats a trump (A2)."""
    ctx = _ctx("h", high_joker="RJ", **DOUBLE)
    _check(ctx, [
        ("RJ", "Ah", True), ("RJ", "2s", True), ("RJ", "BJ", True),  # high joker beats all
        ("Ah", "RJ", False), ("2c", "RJ", False), ("BJ", "RJ", False),  # and is unbeatable
        ("BJ", "As", True), ("BJ", "Ac", True), ("BJ", "2c", True),  # low joker: its colour
        ("BJ", "2d", False), ("BJ", "2h", False),  # not red cards, not a trump
        ("2h", "BJ", True), ("Ah", "BJ", True),  # any trump beats the low joker
        ("As", "BJ", False), ("Ad", "BJ", False),  # plain cards do not
    ])


def test_double_joker_turned_up_makes_two_trump_suits() -> None:
    """#25: "If the joker is the trump card, then all the cards of its color become the trump
    cards" (S0:103); the turned-up joker is the high one (A4); ♣ is not beaten by a higher ♠
    (A3); the red joker beats red cards and falls to any black card."""
    ctx = _ctx("cs", high_joker="BJ", **DOUBLE)
    _check(ctx, [
        ("BJ", "Ac", True), ("Ac", "BJ", False), ("RJ", "BJ", False),
        ("2c", "Ah", True), ("2s", "Ad", True), ("Ks", "2c", False), ("3c", "2c", True),
        ("RJ", "Ah", True), ("RJ", "2d", True), ("RJ", "2c", False),
        ("2s", "RJ", True), ("Ah", "RJ", False),
    ])


def test_double_joker_colour_only() -> None:
    """#81: "jokers cannot be trump cards and only beat cards of their own color, regardless of
    which suit is the trump card" (S0:103); a joker falls to a trump of the other colour, and is
    unbeatable when the trump suit is its own colour (A1)."""
    ctx = _ctx("h", **{"deck.size": 52, "deck.jokers": 2, "specials.joker": "double_color_only"})
    _check(ctx, [
        ("RJ", "Ah", True), ("RJ", "2d", True), ("RJ", "2s", False), ("RJ", "BJ", False),
        ("BJ", "As", True), ("BJ", "2c", True), ("BJ", "2h", False), ("BJ", "RJ", False),
        ("2h", "BJ", True), ("As", "BJ", False), ("Ad", "BJ", False),  # other-colour trump
        ("Ah", "RJ", False), ("As", "RJ", False), ("2c", "RJ", False),  # own-colour trump
    ])


SINGLE = {"deck.size": 52, "deck.jokers": 1, "specials.joker": "single"}


def test_single_joker_beats_everything_and_led_joker_stands() -> None:
    """#26: "Any card can be beaten with a joker" (S0:106); a led joker is unbeatable (A1)."""
    ctx = _ctx("h", **SINGLE)
    _check(ctx, [
        ("RJ", "Ah", True), ("RJ", "2c", True), ("RJ", "As", True),
        ("Ah", "RJ", False), ("2c", "RJ", False), ("Kh", "RJ", False),
    ])


def test_single_joker_beaten_by_any_option() -> None:
    """#26 option joker_beaten_by_any (S0:106, A1): a led joker may be covered by any card."""
    ctx = _ctx("h", **SINGLE, **{"specials.joker_beaten_by_any": True})
    _check(ctx, [("2c", "RJ", True), ("Ah", "RJ", True), ("RJ", "2c", True)])


def test_single_joker_beats_japanese_spades() -> None:
    """#26 A2: in Japanese the joker beats a ♠ too ("Any card can be beaten with a joker",
    S0:106)."""
    ctx = _ctx("d", **SINGLE, **{"beats.restricted_suit": "s"})
    _check(ctx, [("RJ", "As", True), ("RJ", "2s", True), ("Ad", "2s", False)])


NOVOSIBIRSK = {"deck.size": 52, "deck.jokers": 2, "specials.joker": "novosibirsk"}


def test_novosibirsk_joker_beats_only_aces() -> None:
    """#27: "The joker beats any ace, including the trump, but does not beat any other card.
    The joker can be beaten with any card except aces and other joker" (S0:110)."""
    ctx = _ctx("h", **NOVOSIBIRSK)
    _check(ctx, [
        ("RJ", "Ah", True), ("BJ", "As", True), ("RJ", "Ac", True),
        ("RJ", "Kh", False), ("BJ", "2c", False), ("RJ", "BJ", False), ("BJ", "RJ", False),
        ("2c", "RJ", True), ("Kh", "BJ", True), ("2h", "RJ", True),
        ("As", "RJ", False), ("Ah", "BJ", False),
    ])


def test_novosibirsk_wild_mode_after_joker_turned_up() -> None:
    """#27: "When a joker falls into a trump card, the game goes without trump cards, and the
    joker itself beats any card, but it can also be beaten by any card, except for aces and
    another joker" (S0:110)."""
    ctx = _ctx("", wild=True, **NOVOSIBIRSK)
    _check(ctx, [
        ("RJ", "2c", True), ("BJ", "Kh", True), ("RJ", "Ah", True),
        ("BJ", "RJ", False), ("RJ", "BJ", False),
        ("2c", "RJ", True), ("Kd", "BJ", True), ("Ad", "RJ", False),
        ("Ac", "2d", False), ("3c", "2c", True),  # no trumps
    ])


def test_wild_cards_cover_anything_and_are_covered_by_anything() -> None:
    """#28: "Wild cards can cover any card, but they can also be beaten with any card. Then, as
    after hitting by the joker" (S0:113): jokers behave the same (A3)."""
    ctx = _ctx("h", **{"deck.size": 52, "deck.jokers": 2, "deck.wild": 4,
                       "specials.joker": "any"})
    _check(ctx, [
        ("W1", "Ah", True), ("W4", "2c", True), ("2c", "W1", True), ("Ah", "W3", True),
        ("RJ", "Ah", True), ("2c", "BJ", True), ("W2", "RJ", True), ("BJ", "W2", True),
        ("2c", "Ah", False), ("2h", "Ac", True),  # plain cards as usual
    ])


ESTONIAN = {"deck.size": 52, "deck.jokers": 2, "specials.joker": "estonian",
            "beats.deuce_beats_ace": True}


def test_estonian_joker_against_twos_and_threes() -> None:
    """#29: "You can beat any card with the joker, except for twos and threes ... which
    themselves beat it" (S0:119)."""
    ctx = _ctx("h", **ESTONIAN)
    _check(ctx, [
        ("RJ", "Ah", True), ("BJ", "4c", True), ("RJ", "Ks", True),
        ("RJ", "2c", False), ("BJ", "3h", False), ("RJ", "2h", False),
        ("2c", "RJ", True), ("3d", "BJ", True), ("2h", "BJ", True),
        ("4c", "RJ", False), ("Ah", "RJ", False), ("Kh", "BJ", False),
    ])


def test_estonian_deuce_beats_ace() -> None:
    """#29: "an ace is beaten with a deuce, joker or trump card" (S0:119): the deuce of the
    same suit or a trump deuce on a plain ace (A1); the ace still beats its deuce (A2)."""
    ctx = _ctx("h", **ESTONIAN)
    _check(ctx, [
        ("2s", "As", True), ("2h", "Ah", True), ("2h", "As", True),
        ("2c", "As", False), ("2s", "Ah", False),
        ("As", "2s", True), ("3s", "As", False), ("Ks", "As", False),
    ])


def test_capital_mega_card() -> None:
    """#30: "The mega card beats any card except the fours, which beat it themselves" (S0:122);
    the mega beats a joker and a joker can't beat the mega (A1)."""
    ctx = _ctx("h", **ESTONIAN, **{"deck.mega": True})
    _check(ctx, [
        ("MC", "Ah", True), ("MC", "2c", True), ("MC", "RJ", True), ("MC", "BJ", True),
        ("MC", "4c", False), ("MC", "4h", False),
        ("4c", "MC", True), ("4h", "MC", True), ("5c", "MC", False), ("Ah", "MC", False),
        ("2c", "MC", False), ("RJ", "MC", False), ("BJ", "MC", False),
    ])


# --- property: default options give the standard relation ---------------------------------


@pytest.mark.parametrize("size", [24, 36, 52])
@pytest.mark.parametrize("trump", list(SUITS))
def test_default_relation_is_standard(size: int, trump: str) -> None:
    """§1.2: d beats a iff same suit and higher rank, or d is trump and a is not."""
    ctx = _ctx(trump, **{"deck.size": size})
    t = SUITS.index(trump)
    deck = ctx.rules.deck()
    assert len(deck) == size
    table = relation_table(ctx)
    for a in deck:
        expected = {
            d for d in deck
            if (suit_of(d) == suit_of(a) and rank_of(d) > rank_of(a))
            or (suit_of(d) == t and suit_of(a) != t)
        }
        assert set(cards_of(table[a])) == expected, a
