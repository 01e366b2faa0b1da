"""Variants I through the engine: trump and suit rules (VARIANTS.md §3.1 #13-14, §3.2).

Covers ``japanese`` (#13), ``japanese_revealed_trump`` (#14), ``japanese_diamond_indicator``
(#80), ``no_trump`` (#15), ``suitless`` (#17), ``royal`` (#19) and ``ace_only_by_trump`` (#20).
The beat relation itself is unit-tested in ``test_beat_relation.py``; here every rule is checked
where a player meets it: the legal actions of a position, the deal of a seeded game, the state
after a move. Each docstring cites the catalogue id and the seed line (S0 = seeds/000_*.txt,
S1 = seeds/001_*.txt); the expected sets are read off the rule text, never off the engine.
"""

from __future__ import annotations

import random

import pytest

from bito.cards import DIAMONDS, SPADES, cards_of, rank_of, suit_of
from bito.games.durak import new_game
from bito.rules import resolve
from conftest import BASES, P, assert_conserved, legal, lowest_trump_holder, play


def pack_of(spec: str, seed: int) -> list[int]:
    """The shuffled pack a seed stands for with these rules (index 0 dealt first): bito's seed
    convention, ``random.Random(seed).shuffle`` of the rules' deck, as conftest.shuffled_pack."""
    pack = list(resolve(spec).rules.deck())
    random.Random(seed).shuffle(pack)
    return pack


def lowest_card_leader(state, dealer: int) -> int:
    """Who leads without trumps (§3.2 #15 decision): the holder of the lowest rank; on a tie,
    the first such holder clockwise from the dealer's left."""
    n = state.players
    order = [(dealer + i) % n for i in range(1, n + 1)]
    low = min(rank_of(c) for h in state.hands for c in cards_of(h))
    return next(s for s in order if any(rank_of(c) == low for c in cards_of(state.hands[s])))


# --- #13 japanese ---------------------------------------------------------------------------


def test_japanese_diamonds_are_trump_in_every_deal() -> None:
    """#13 japanese; S1:6 "The trump suit is diamonds", S0:263 "there is no need to appoint a
    trump suit - it can only be a diamond": no card is turned up, diamonds are trump, the
    lowest diamond leads, nothing is lost from the 36 cards."""
    for seed in range(60):
        players = 2 + seed % 5
        s = new_game("japanese", players=players, seed=seed)
        assert s.trumps == frozenset({DIAMONDS})
        assert s.trump_card == -1
        assert len(s.stock) == 36 - 6 * players
        assert_conserved(s)
        holder = lowest_trump_holder(s)
        if holder is not None:
            assert s.attacker == holder


def test_japanese_spade_is_covered_only_by_a_higher_spade() -> None:
    """#13; S0:263 "spades are not fought off with a different suit", S1:78 "spades are fought
    only with spades": a 7s falls to 8s or As, never to a diamond; a 7c still falls to 8c and to
    any diamond."""
    s = P("japanese players=2 stock=- hands=9h/6d8sAsAd8c6s table=7s,7c attacker=0")
    assert legal(s) == {"8s>7s", "As>7s", "8c>7c", "6d>7c", "Ad>7c", "take"}


def test_japanese_spade_thrown_in_is_still_closed() -> None:
    """#13 A3 (throw-ins by rank as usual) with S1:78: a spade thrown in on a 7 is again covered
    only by a higher spade."""
    s = P("japanese players=2 stock=- hands=7sKh/8c9sAdQd table=7c attacker=0")
    s = play(s, "8c>7c", "7s", "pass")
    assert legal(s) == {"9s>7s", "take"}


def test_japanese_without_a_dealt_diamond_the_lowest_card_leads() -> None:
    """#13 first_attacker "lowest ♦; fallback: ... lowest card (S1:6)": in deals where nobody
    was dealt a diamond, the lowest card leads (ties: first clockwise from the dealer's left)."""
    found = 0
    for seed in range(4000):
        s = new_game("japanese", players=2, seed=seed)
        if lowest_trump_holder(s) is not None:
            continue
        found += 1
        assert s.attacker == lowest_card_leader(s, s.deal.dealer)
        if found == 5:
            break
    assert found == 5


# --- #14 japanese_revealed_trump -------------------------------------------------------------


def test_revealed_trump_is_turned_up_and_never_a_spade() -> None:
    """#14; S1:80 "trump cards are opened in a similar way to the throwing fool ... If a card of
    the spades suit is revealed, it is removed to the middle of the deck and the next card is
    revealed": the trump card is the first non-spade after the deal, it lies at the bottom of
    the stock, and a buried spade stays in the stock."""
    spec = "japanese_revealed_trump"
    buried = 0
    for seed in range(120):
        players = 2 + seed % 4  # with 6 players no stock is left to turn from: see below
        s = new_game(spec, players=players, seed=seed)
        rest = pack_of(spec, seed)[6 * players:]
        assert s.trump_card == next(c for c in rest if suit_of(c) != SPADES)
        assert s.trumps == frozenset({suit_of(s.trump_card)})
        assert s.stock[0] == s.trump_card
        assert sorted(s.stock) == sorted(rest)
        if suit_of(rest[0]) == SPADES:
            buried += 1
            assert rest[0] in s.stock[1:]
    assert buried >= 10


def test_revealed_trump_never_spades_with_the_whole_pack_dealt() -> None:
    """#14; S1:80 "If a card of the spades suit is revealed, it is removed ... and the next card
    is revealed": spades are never trump, also when 6 players are dealt the whole pack and the
    dealer's last card would be the trump card (S0:243 "the whole deck is dealt, and the last
    card is appointed as the trump card")."""
    for seed in range(40):
        s = new_game("japanese_revealed_trump", players=6, seed=seed)
        assert SPADES not in s.trumps, seed


def test_revealed_trump_keeps_spades_closed() -> None:
    """#14 "spades rule kept" (S1:80 with S1:78): with hearts turned up, a spade is covered
    only by a higher spade, and hearts cover clubs."""
    s = P("japanese_revealed_trump players=2 trump=6h stock=6hKc hands=9d/6d8sAsAh7h table=7s,7c "
          "attacker=0")
    assert legal(s) == {"8s>7s", "As>7s", "Ah>7c", "7h>7c", "take"}


def test_revealed_trump_agreed_before_the_game() -> None:
    """#14 A2, S1:80 "or assigned before the game": trump.source=fixed with trump.fixed_suit
    plays the agreed suit and turns nothing up."""
    s = new_game("japanese_revealed_trump+trump.source=fixed+trump.fixed_suit=h", players=3,
                 seed=5)
    assert s.trump_card == -1 and s.trumps == frozenset({2})
    assert len(s.stock) == 36 - 18


# --- #80 japanese_diamond_indicator ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_diamond_indicator_lies_under_the_stock(players: int) -> None:
    """#80; S1:6 "players pull out one card from the deck until someone has a card of the
    diamond suit, then this card is placed open in the center of the table, and the remaining
    deck of cards is placed on top of it": the bottom card of the stock, drawn last, is a
    diamond; diamonds stay trump."""
    for seed in range(40):
        s = new_game("japanese_diamond_indicator", players=players, seed=seed)
        assert suit_of(s.trump_card) == DIAMONDS
        assert s.stock[0] == s.trump_card
        assert s.trumps == frozenset({DIAMONDS})
        assert len(s.stock) == 36 - 6 * players
        assert_conserved(s)


def test_diamond_indicator_with_six_players_goes_to_the_dealer_face_up() -> None:
    """#80 with the whole pack dealt (6 x 6 = 36; S0:243 "If six players take part, then the
    whole deck is dealt, and the last card is appointed as the trump card"): no stock is left,
    so the diamond found is the dealer's last card, shown to all."""
    for seed in range(20):
        s = new_game("japanese_diamond_indicator", players=6, seed=seed)
        assert not s.stock
        shown = [c for c in cards_of(s.known[s.deal.dealer]) if suit_of(c) == DIAMONDS]
        assert shown, seed
        assert all(c in cards_of(s.hands[s.deal.dealer]) for c in shown)


# --- #15 no_trump ----------------------------------------------------------------------------


@pytest.mark.parametrize("base", BASES)
def test_no_trump_deal_has_no_trump_and_lowest_card_leads(base: str) -> None:
    """#15 no_trump; S0:7 "the game is played without trump cards"; first attacker (A1): the
    lowest card, ties to the first holder clockwise from the dealer's left."""
    for seed in range(40):
        players = 2 + seed % 5
        s = new_game(f"{base}+no_trump", players=players, seed=seed)
        assert s.trumps == frozenset() and s.trump_card == -1
        assert len(s.stock) == 36 - 6 * players
        assert s.attacker == lowest_card_leader(s, s.deal.dealer)
        assert_conserved(s)


def test_no_trump_cover_needs_the_same_suit() -> None:
    """#15 beats.mode same_suit_higher_only (S0:7): only a higher card of the attack card's
    suit covers; no suit outranks another."""
    s = P("podkidnoy+no_trump players=2 stock=- hands=9h/6d8sAsAd8c6s table=7s,7c attacker=0")
    assert legal(s) == {"8s>7s", "As>7s", "8c>7c", "take"}


def test_no_trump_stacks_on_transfer_fool() -> None:
    """#15 applies_to perevodnoy (S0:7 "differs from other varieties only in that ..."): the
    transfer is unchanged, and only same-suit covers are offered."""
    s = P("perevodnoy+no_trump players=3 stock=- hands=9h/7d8sAd/6c6d6h table=7s attacker=0")
    assert legal(s) == {"8s>7s", "=7d", "take"}
    s = play(s, "=7d")
    assert (s.defender, legal(s)) == (2, {"take"})


# --- #17 suitless ----------------------------------------------------------------------------


def test_suitless_higher_card_of_any_suit_covers() -> None:
    """#17 suitless; S0:15 "you need to beat the cards with a card of a large size (suit does
    not matter) or a trump card": on the plain 7s any higher plain card or any trump; on the
    trump 7h only a higher trump (A1: a plain ace never takes a trump; A2: equal ranks never
    beat)."""
    s = P("podkidnoy+suitless players=2 trump=6h stock=- hands=9c/6d8sAsAh8c7d6h table=7s,7h "
          "attacker=0")
    assert legal(s) == {"8s>7s", "As>7s", "8c>7s", "Ah>7s", "6h>7s", "Ah>7h", "take"}


@pytest.mark.parametrize("base", BASES)
def test_suitless_game_plays_out_on_every_base(base: str) -> None:
    """#17 applies_to simple, podkidnoy, perevodnoy (S0:15): a whole random game keeps every
    card and every cover obeys the suitless rule."""
    rng = random.Random(17)
    s = new_game(f"{base}+suitless", players=3, seed=17)
    trump = s.trump_suit
    while not s.is_over:
        acts = s.legal_actions()
        for a in acts:
            if a.kind_name == "defend":
                d, t = a.cards[0], a.target
                if suit_of(t) == trump:
                    assert suit_of(d) == trump and rank_of(d) > rank_of(t)
                else:
                    assert suit_of(d) == trump or rank_of(d) > rank_of(t)
        s = s.apply(acts[rng.randrange(len(acts))])
    assert_conserved(s)


# --- #19 royal --------------------------------------------------------------------------------


def test_royal_six_only_by_the_ace() -> None:
    """#19 royal; S0:59 "the lowest card ... can only be beaten by the highest card": a plain 6s
    falls to As or to the trump ace (A2), not to Ks, 7s, another plain ace or a low trump."""
    s = P("podkidnoy+royal players=2 trump=6d stock=- hands=9c/AsKs7sAdAh7d table=6s attacker=0")
    assert legal(s) == {"As>6s", "Ad>6s", "take"}


def test_royal_ace_by_the_six_or_a_trump() -> None:
    """#19; S0:59 "the highest card can be beaten only by the lowest or the trump card": a plain
    As falls to 6s and to any trump; a 6 of another plain suit does not take it."""
    s = P("podkidnoy+royal players=2 trump=6d stock=- hands=9c/6s6cKs7d6d table=As attacker=0")
    assert legal(s) == {"6s>As", "7d>As", "6d>As", "take"}


def test_royal_trump_ace_only_by_the_trump_six() -> None:
    """#19 A4: "a trump H only by the trump L" (S0:59)."""
    s = P("podkidnoy+royal players=2 trump=6d stock=- hands=9c/6d6sKdAs table=Ad attacker=0")
    assert legal(s) == {"6d>Ad", "take"}


def test_royal_low_rank_is_two_with_52_cards() -> None:
    """#19 A1 "L is the single lowest rank of the deck in use" (S0:59 "usually from two to ten"):
    with 52 cards the 2s takes the As and the 6s does not."""
    s = P("podkidnoy+royal+deck.size=52 players=2 trump=6d stock=- hands=9c/2s6sKs table=As "
          "attacker=0")
    assert legal(s) == {"2s>As", "take"}


def test_royal_on_japanese() -> None:
    """#19 applies_to japanese (S0:59 "simple, thrown, transfer or Japanese fool"): royal stacks
    on Japanese; a plain 6c falls only to Ac or the trump (diamond) ace."""
    s = P("japanese+royal players=2 stock=- hands=9h/AcKc7dAdAh table=6c attacker=0")
    assert legal(s) == {"Ac>6c", "Ad>6c", "take"}


# --- #20 ace_only_by_trump -------------------------------------------------------------------


def test_ace_only_by_trump_cancels_royal_six_on_ace() -> None:
    """#20; S0:180 "the ace cannot be beaten with the lowest card, but only with a trump card":
    stacked on royal, the 6s no longer takes the As; any trump does."""
    s = P("podkidnoy+royal+ace_only_by_trump players=2 trump=6d stock=- hands=9c/6s6cKs7d6d "
          "table=As attacker=0")
    assert legal(s) == {"7d>As", "6d>As", "take"}


def test_ace_only_by_trump_trump_ace_is_unbeatable() -> None:
    """#20; S0:180 "the trump ace in the game plays the role of a 'wild' card": nothing covers
    it, the defender must take."""
    s = P("podkidnoy+royal+ace_only_by_trump players=2 trump=6d stock=- hands=9c/6d6sKdAs "
          "table=Ad attacker=0")
    assert legal(s) == {"take"}


@pytest.mark.parametrize("base", BASES)
def test_ace_only_by_trump_changes_nothing_on_a_plain_base(base: str) -> None:
    """#20 A1: "In the plain base game an ace is already beatable only by a trump" (S0:180):
    every legal-action list of a random game equals the plain game's at each step."""
    rng = random.Random(20)
    plain = new_game(base, players=3, seed=20)
    mod = new_game(f"{base}+ace_only_by_trump", players=3, seed=20)
    while not plain.is_over:
        acts = plain.legal_actions()
        assert [str(a) for a in mod.legal_actions()] == [str(a) for a in acts]
        a = acts[rng.randrange(len(acts))]
        plain, mod = plain.apply(a), mod.apply(a)
    assert mod.is_over and mod.outcome == plain.outcome
