"""Variants I through the engine: jokers and wild cards (VARIANTS.md §3.3 #25-28, #81).

``double_joker`` (#25), ``double_joker_color_only`` (#81), ``single_joker`` (#26),
``novosibirsk_two_joker`` (#27) and ``wild_58`` (#28): the deck they deal, what the trump card
may be, and what the defender may cover with and against a joker or wild card. Each docstring
cites the catalogue id and the seed line (S0 = seeds/000_*.txt); expected sets are read off the
rule text.
"""

from __future__ import annotations

import random

import pytest

from bito.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    card_str,
    cards_of,
    is_joker,
    is_special,
    is_wild,
    rank_of,
    suit_of,
)
from bito.games.durak import new_game
from bito.rules import resolve
from conftest import BASES, P, assert_conserved, legal, play

RED, BLACK = frozenset({DIAMONDS, HEARTS}), frozenset({CLUBS, SPADES})


def pack_of(spec: str, seed: int) -> list[int]:
    """The shuffled pack a seed stands for (index 0 dealt first)."""
    pack = list(resolve(spec).rules.deck())
    random.Random(seed).shuffle(pack)
    return pack


def deals_with_joker_after_the_deal(spec: str, players: int, want: int) -> list[int]:
    """Seeds whose first undealt card is a joker (the card stock_top turns up)."""
    out = []
    for seed in range(20000):
        if is_joker(pack_of(spec, seed)[6 * players]):
            out.append(seed)
            if len(out) == want:
                break
    return out


@pytest.mark.parametrize(("modifier", "jokers", "wild"), [
    ("double_joker", 2, 0), ("double_joker_color_only", 2, 0), ("single_joker", 1, 0),
    ("novosibirsk_two_joker", 2, 0), ("wild_58", 2, 4)])
def test_special_decks_have_their_size(modifier: str, jokers: int, wild: int) -> None:
    """#25 "a deck of 54 cards (2 joker)" (S0:103), #81 (S0:103), #26 "53 cards (1 joker)"
    (S0:106), #27 "54 cards, including two jokers" (S0:110), #28 "58 cards" read as 2 jokers and
    4 wild cards (S0:113, A1): 52 plain cards plus the special ones, on every base."""
    for base in BASES:
        s = new_game(f"{base}+{modifier}", players=3, seed=7)
        deck = s.rules.deck()
        assert len(deck) == 52 + jokers + wild
        assert sum(map(is_joker, deck)) == jokers and sum(map(is_wild, deck)) == wild
        assert_conserved(s)


# --- #25 double_joker -----------------------------------------------------------------------

DOUBLE = ("podkidnoy+double_joker players=2 trump=2h stock=- hands=9c/{hand} table={table} "
          "attacker=0")


def test_double_joker_trump_coloured_joker_is_unbeatable() -> None:
    """#25; S0:103 "If hearts or diamonds are the trump card, the red joker is the highest card
    in the game": a led red joker with hearts trump cannot be covered, not even by the black
    joker or the trump ace."""
    s = P(DOUBLE.format(hand="BJAhKs3h", table="RJ"))
    assert legal(s) == {"take"}


def test_double_joker_low_joker_beats_its_colour_and_falls_to_trumps() -> None:
    """#25; S0:103 "the black one simply beats all spades and clubs (black cards)"; A1 the low
    joker is beaten by any trump and by the high joker; A2 it never beats a trump."""
    s = P(DOUBLE.format(hand="RJ3hAsAd", table="BJ"))
    assert legal(s) == {"RJ>BJ", "3h>BJ", "take"}
    s = P(DOUBLE.format(hand="BJ3h", table="As,Ad"))
    assert legal(s) == {"BJ>As", "3h>As", "3h>Ad", "take"}


def test_double_joker_turned_up_makes_its_colour_trump() -> None:
    """#25; S0:103 "If the joker is the trump card, then all the cards of its color become the
    trump cards": over seeded deals whose turned-up card is a joker, both suits of its colour
    are trump."""
    spec = "podkidnoy+double_joker"
    seeds = deals_with_joker_after_the_deal(spec, 2, 4)
    assert len(seeds) == 4
    for seed in seeds:
        s = new_game(spec, players=2, seed=seed)
        assert is_joker(s.trump_card) and s.stock[0] == s.trump_card
        assert s.trumps == (RED if card_str(s.trump_card) == "RJ" else BLACK)


def test_double_joker_two_trump_suits_still_follow_suit() -> None:
    """#25 A3 (S0:103): with the black joker turned up, clubs and spades are both trump; a club
    beats any red card, but a spade does not take a club; the black joker is the high one (A4)."""
    s = P("podkidnoy+double_joker players=2 trump=BJ stock=BJ5d hands=9d/Ks3cRJAh table=2c,Ad "
          "attacker=0")
    assert s.trumps == BLACK
    assert legal(s) == {"3c>2c", "Ks>Ad", "3c>Ad", "RJ>Ad", "take"}
    # The red joker is now the low one: any black card (a trump) covers it, a red ace not.
    s = play(P("podkidnoy+double_joker players=2 trump=BJ stock=BJ5d hands=9dRJ/Ah2s "
               "attacker=0"), "RJ")
    assert legal(s) == {"2s>RJ", "take"}


# --- #81 double_joker_color_only --------------------------------------------------------------


def test_colour_only_joker_is_never_the_trump_card() -> None:
    """#81; S0:103 "in another variant, jokers cannot be trump cards": over seeded deals whose
    next card after the deal is a joker, the turned-up card is not a joker and the joker is
    buried in the stock (not at its bottom)."""
    spec = "podkidnoy+double_joker_color_only"
    for seed in deals_with_joker_after_the_deal(spec, 3, 5):
        s = new_game(spec, players=3, seed=seed)
        joker = pack_of(spec, seed)[18]
        assert not is_special(s.trump_card)
        assert s.stock[0] == s.trump_card and joker in s.stock[1:]
        assert s.trumps == frozenset({suit_of(s.trump_card)})


def test_colour_only_joker_beats_only_its_colour() -> None:
    """#81; S0:103 "only beat cards of their own color, regardless of which suit is the trump
    card": the red joker covers a red trump and a red plain card but no black card."""
    s = P("podkidnoy+double_joker_color_only players=2 trump=2h stock=- hands=9c/RJ5c table=Ah,3s "
          "attacker=0")
    assert legal(s) == {"RJ>Ah", "take"}


def test_colour_only_joker_falls_to_a_trump_of_the_other_colour() -> None:
    """#81 A1 (S0:103): a joker is beaten by a trump of the other colour; with hearts trump the
    black joker falls to 3h and the red joker to nothing."""
    s = P("podkidnoy+double_joker_color_only players=2 trump=2h stock=- hands=9c/3h3sAsRJ table=BJ "
          "attacker=0")
    assert legal(s) == {"3h>BJ", "take"}
    s = P("podkidnoy+double_joker_color_only players=2 trump=2h stock=- hands=9c/3h3sAsBJ table=RJ "
          "attacker=0")
    assert legal(s) == {"take"}


# --- #26 single_joker -------------------------------------------------------------------------


def test_single_joker_covers_any_card() -> None:
    """#26; S0:106 "Any card can be beaten with a joker": it covers the trump ace and a plain
    two."""
    s = P("podkidnoy+single_joker players=2 trump=2h stock=- hands=9c/RJ3c table=Ah,2s "
          "attacker=0")
    assert legal(s) == {"RJ>Ah", "RJ>2s", "take"}


def test_single_joker_led_must_be_taken() -> None:
    """#26 A1 led_joker_unbeatable (S0:106 never says a joker can be beaten): the defender holding
    the trump ace must still take a led joker; with specials.joker_beaten_by_any=true any card
    covers it."""
    s = P("podkidnoy+single_joker players=2 trump=2h stock=- hands=9c/AhKh2s table=RJ attacker=0")
    assert legal(s) == {"take"}
    s = P("podkidnoy+single_joker+specials.joker_beaten_by_any=true players=2 trump=2h stock=- "
          "hands=9c/AhKh2s table=RJ attacker=0")
    assert legal(s) == {"Ah>RJ", "Kh>RJ", "2s>RJ", "take"}


def test_single_joker_is_never_thrown_in() -> None:
    """#26 with the shared joker convention (§3.3: a joker "may be thrown in only when another
    joker is already on the table"): with one joker in the pack it can only be led."""
    s = P("podkidnoy+single_joker players=2 trump=2h stock=- hands=9cRJ/QhKh3s table=9h<Ah "
          "attacker=0")
    assert legal(s) == {"9c", "pass"}


def test_single_joker_beats_a_japanese_spade() -> None:
    """#26 A2 "In japanese: can the joker beat a ♠? ... → yes" (S0:106 "Any card can be beaten
    with a joker")."""
    s = P("japanese+single_joker players=2 stock=- hands=9c/RJAdAh table=7s attacker=0")
    assert legal(s) == {"RJ>7s", "take"}


# --- #27 novosibirsk_two_joker ----------------------------------------------------------------

NOVO = ("podkidnoy+novosibirsk_two_joker players=2 trump={trump} stock={stock} hands=9c/{hand} "
        "table={table} attacker=0")


def test_novosibirsk_joker_beats_only_aces() -> None:
    """#27; S0:110 "The joker beats any ace, including the trump, but does not beat any other
    card"."""
    s = P(NOVO.format(trump="2h", stock="-", hand="RJ5c", table="Ah,Kh"))
    assert legal(s) == {"RJ>Ah", "take"}


def test_novosibirsk_joker_falls_to_anything_but_an_ace_or_joker() -> None:
    """#27; S0:110 "The joker can be beaten with any card except aces and other joker"."""
    s = P(NOVO.format(trump="2h", stock="-", hand="BJAhAs2s", table="RJ"))
    assert legal(s) == {"2s>RJ", "take"}


def test_novosibirsk_turned_up_joker_means_no_trumps() -> None:
    """#27; S0:110 "When a joker falls into a trump card, the game goes without trump cards, and
    the joker itself beats any card, but it can also be beaten by any card, except for aces and
    another joker"; A1 both jokers; A2 the joker stays under the stock."""
    s = P(NOVO.format(trump="RJ", stock="RJ3c", hand="BJ2h", table="Kd"))
    assert s.trumps == frozenset()
    assert legal(s) == {"BJ>Kd", "take"}  # a 2h is no trump any more
    s = P(NOVO.format(trump="RJ", stock="RJ3c", hand="AhKh2s", table="BJ"))
    assert legal(s) == {"Kh>BJ", "2s>BJ", "take"}
    spec = "podkidnoy+novosibirsk_two_joker"
    for seed in deals_with_joker_after_the_deal(spec, 2, 3):
        dealt = new_game(spec, players=2, seed=seed)
        assert is_joker(dealt.trump_card) and dealt.stock[0] == dealt.trump_card
        assert dealt.trumps == frozenset()


def lowest_holder(state, among) -> int:
    """Who holds the lowest plain card accepted by ``among`` (a suit test); on equal ranks the
    first such seat clockwise from the dealer's left (§1.8, §3.2 #15 decision)."""
    n = state.players
    order = [(state.deal.dealer + i) % n for i in range(1, n + 1)]
    best = min((rank_of(c), order.index(seat)) for seat in range(n)
               for c in cards_of(state.hands[seat]) if not is_special(c) and among(c))
    return order[best[1]]


@pytest.mark.parametrize("spec", ["podkidnoy+novosibirsk_two_joker", "podkidnoy+double_joker"])
def test_first_attacker_after_a_joker_is_turned_up(spec: str) -> None:
    """#27 (S0:110 "the game goes without trump cards"): with a joker turned up the lowest card
    of all leads; #25 (S0:103 "all the cards of its color become the trump cards"): the lowest
    card of either trump suit leads. A joker never counts as the lowest card (§3.3)."""
    for seed in deals_with_joker_after_the_deal(spec, 3, 4):
        s = new_game(spec, players=3, seed=seed)
        trumps = s.trumps
        holders = [c for h in s.hands for c in cards_of(h)
                   if not is_special(c) and (not trumps or suit_of(c) in trumps)]
        if not holders:
            continue
        assert s.attacker == lowest_holder(s, lambda c, t=trumps: not t or suit_of(c) in t)


# --- #28 wild_58 ------------------------------------------------------------------------------

WILD = ("podkidnoy+wild_58 players=3 trump=2h stock=- hands=7c9cKd/{hand}/9sJdQd "
        "table={table} attacker=0")


def test_wild_cards_cover_anything_and_are_covered_by_anything() -> None:
    """#28; S0:113 "Wild cards can cover any card, but they can also be beaten with any card";
    A3 jokers the same."""
    s = P(WILD.format(hand="W1RJ3c", table="Ah"))
    assert legal(s) == {"W1>Ah", "RJ>Ah", "take"}
    s = P(WILD.format(hand="3c4d", table="W2,BJ"))
    assert legal(s) == {"3c>W2", "4d>W2", "3c>BJ", "4d>BJ", "take"}


def test_wild_cover_closes_throw_ins_but_the_rest_must_be_covered() -> None:
    """#28; S0:113 "Then, as after hitting by the joker, 'bito' is announced"; A2
    bito_after_remaining_covered: after W1 covers 7s nobody may throw in, the defender still
    covers the 7d, and the bout then ends although P0 holds 7c and P2 9s."""
    s = play(P(WILD.format(hand="W1TdKs8s", table="7s,7d")), "W1>7s")
    assert s.to_act == 1 and legal(s) == {"Td>7d", "take"}
    s = play(s, "Td>7d")
    assert (s.phase_name, s.to_act, s.bout) == ("lead", 1, 1)
    assert_conserved(s)


def test_joker_cover_closes_throw_ins_too() -> None:
    """#28 A3 "jokers = wild cards" (S0:113 "as after hitting by the joker"): a joker cover
    closes the bout as well; a plain cover leaves the throw-in round open."""
    s = play(P(WILD.format(hand="RJTdKs8s", table="7s,7d")), "RJ>7s", "Td>7d")
    assert (s.phase_name, s.to_act) == ("lead", 1)
    s = play(P(WILD.format(hand="RJTdKs8s", table="7s,7d")), "8s>7s", "Td>7d")
    assert s.phase_name == "throw" and "7c" in legal(s)
