"""Variants I through the engine: bigger and re-ordered decks (VARIANTS.md §3.2 #21-22, §3.3 #23).

``big_fool`` (#21), ``big_fool_twin_block`` (#22) and ``albanian`` (#23). Each docstring cites
the catalogue id and the seed line (S0 = seeds/000_*.txt); expectations come from the rule
text and from the pack order a seed stands for, never from running the rule under test.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from bito.cards import COPY_STRIDE, card_str, cards_of, is_special, rank_of, suit_of
from bito.games.durak import new_game
from bito.rules import resolve
from conftest import P, assert_conserved, legal, play


def pack_of(spec: str, seed: int) -> list[int]:
    """The shuffled pack a seed stands for (index 0 on top), before any re-ordering."""
    pack = list(resolve(spec).rules.deck())
    random.Random(seed).shuffle(pack)
    return pack


def text(cards: list[int]) -> str:
    return "".join(card_str(c) for c in cards) or "-"


# --- #21 big_fool -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_big_fool_deals_from_two_identical_packs(players: int) -> None:
    """#21; S0:53 "The game is played with 2 decks of 36 cards (72 cards in total)": every card
    has exactly one twin (written with a prime), six cards each, the rest in the stock."""
    for seed in range(10):
        s = new_game("big_fool", players=players, seed=seed)
        deck = sorted(s.rules.deck())
        assert len(deck) == 72
        firsts = [c for c in deck if c < COPY_STRIDE]
        assert sorted(firsts + [c + COPY_STRIDE for c in firsts]) == deck
        assert [h.bit_count() for h in s.hands] == [6] * players
        assert len(s.stock) == 72 - 6 * players
        assert_conserved(s)


def test_big_fool_twin_does_not_cover_its_twin() -> None:
    """#21; S0:53 "You cannot fight back with a card of equal value" read as the identical twin
    (A1): 7s' does not cover 7s; the twin of a higher card (8s') does."""
    s = P("big_fool players=2 trump=6h stock=- hands=9c/7s'8s'7c table=7s attacker=0")
    assert legal(s) == {"8s'>7s", "take"}


def test_big_fool_either_copy_of_a_rank_may_be_thrown_in() -> None:
    """#21 A3 "Throw-in by rank: either copy of a rank may be thrown" (S0:53)."""
    s = P("big_fool players=2 trump=6h stock=- hands=7s'8s9d/8s'Ks9sQd table=7s attacker=0")
    s = play(s, "8s'>7s")
    assert legal(s) == {"7s'", "8s", "pass"}


def big_fool_position(spec: str, defender_cards: int) -> str:
    """Two players, empty stock: P0 holds 7c 7c' 9d 9d' and leads; P1 (the defender) holds
    ``defender_cards`` other cards; the rest is discarded."""
    rules = resolve(spec.split()[0]).rules
    p0 = ["7c", "7c'", "9d", "9d'"]
    rest = [c for c in rules.deck() if card_str(c) not in p0]
    return (f"{spec} players=2 trump=6h stock=- hands={''.join(p0)}/"
            f"{text(rest[:defender_cards])} attacker=0")


def test_big_fool_fifty_two_cards_lose_at_once() -> None:
    """#21; S0:53 "The player who has 52 or more cards loses immediately": P1 holds 50, takes the
    two sevens led at him and is the fool at once, though P0 still holds cards."""
    s = P(big_fool_position("big_fool", 50))
    s = play(s, "7c+7c'", "take", "pass")
    assert s.is_over
    assert s.outcome.loser == 1 and not s.outcome.draw
    assert s.hands[1].bit_count() == 52 and s.hands[0].bit_count() == 2
    assert_conserved(s)


def test_big_fool_fifty_one_cards_play_on() -> None:
    """#21 (S0:53 "52 or more"): 51 cards after the take is not yet a loss; with the option set
    to 0 (end.instant_loss_cards) even 52 cards play on."""
    s = play(P(big_fool_position("big_fool", 49)), "7c+7c'", "take", "pass")
    assert not s.is_over and s.hands[1].bit_count() == 51
    s = play(P(big_fool_position("big_fool+end.instant_loss_cards=0", 50)), "7c+7c'", "take",
             "pass")
    assert not s.is_over and s.hands[1].bit_count() == 52
    assert s.to_act == 0  # the taker misses his turn: P0 leads again


def test_japanese_two_deck_game_of_the_seeds() -> None:
    """#21 applies_to japanese (S0:53 "simple, flip, transfer or Japanese fool"), written as
    docs/variants.md says: japanese+deck.copies=2+end.instant_loss_cards=52 deals 72 cards with
    diamonds trump and spades closed."""
    s = new_game("japanese+deck.copies=2+end.instant_loss_cards=52", players=4, seed=2)
    assert len(s.rules.deck()) == 72 and s.trumps == frozenset({1})
    assert s.rules.beats_restricted_suit == "s" and s.rules.end_instant_loss_cards == 52
    assert_conserved(s)


# --- #22 big_fool_twin_block ------------------------------------------------------------------

TWIN_BLOCK = ("big_fool_twin_block players=3 trump=6h stock=- hands=7c9c/7s'8sTdKcQc/9sJd "
              "table=7s,7d attacker=0")


def test_twin_block_twin_may_cover() -> None:
    """#22; S0:56 "If a player fights back with a card that is absolutely equal in value": the
    identical twin is a legal cover here (unlike #21)."""
    assert legal(P(TWIN_BLOCK)) == {"7s'>7s", "8s>7s", "Td>7d", "take"}


def test_twin_cover_blocks_throw_ins_but_the_rest_must_be_covered() -> None:
    """#22; S0:56 "the possibility of throwing up from the side of other players is blocked"; A1:
    the defender still covers what lies open. After 7s'>7s, 7d is still to cover; once it is,
    the bout ends at once although P0 holds 7c and 9c and P2 holds 9s: P1 leads next."""
    s = play(P(TWIN_BLOCK), "7s'>7s")
    assert s.to_act == 1 and legal(s) == {"Td>7d", "take"}
    s = play(s, "Td>7d")
    assert s.phase_name == "lead" and s.to_act == 1 and s.bout == 1
    assert_conserved(s)


def test_ordinary_cover_leaves_throw_ins_open() -> None:
    """#22 contrast (S0:56): after a plain cover (8s on 7s) the throw-in round opens as usual."""
    s = play(P(TWIN_BLOCK), "8s>7s", "Td>7d")
    assert s.phase_name == "throw" and s.to_act == 0
    assert "7c" in legal(s)


def test_twin_block_take_after_a_twin_cover_gets_no_throw_ins() -> None:
    """#22 A1 "all throw-ins stop" (S0:56): after a twin cover the defender may still take, and
    nobody may add cards to what he picks up."""
    s = play(P(TWIN_BLOCK), "7s'>7s", "take")
    assert s.phase_name == "lead" and s.to_act == 2
    assert s.hands[1].bit_count() == 4 + 3


def test_twin_beside_is_a_transfer_and_on_top_a_block() -> None:
    """#22 A2; S0:56 "(this move is not considered a transfer)": with transfers on, the twin laid
    beside the attack card transfers and the twin laid on it covers; both are offered."""
    s = P("big_fool_twin_block+transfer.enabled=true players=3 trump=6h stock=- "
          "hands=7c9c/7s'8sTd/9sJdQdKd table=7s attacker=0")
    assert legal(s) == {"7s'>7s", "8s>7s", "=7s'", "take"}
    moved = play(s, "=7s'")
    assert (moved.defender, moved.attack) == (2, [*s.attack, moved.attack[-1]])
    assert not moved.closed
    covered = play(s, "7s'>7s")  # P0's 7c may not be thrown in: P1 leads the next bout
    assert (covered.phase_name, covered.to_act, covered.bout) == ("lead", 1, 1)


# --- #23 albanian -----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["podkidnoy+albanian", "simple+albanian", "perevodnoy+albanian",
                                  "japanese+albanian"])
def test_albanian_pack_is_stacked_from_the_aces_down(spec: str) -> None:
    """#23 albanian; S0:89 "the cards in the deck are arranged in descending order. That is:
    aces, kings, queens, jacks, tens, etc."; A2: dealt one at a time from the top, so the k-th
    seat from the dealer's left gets the k-th, (k+n)-th, ... highest cards, and the stock
    gives out ever lower cards."""
    for seed in range(12):
        players = 2 + seed % 5
        s = new_game(spec, players=players, seed=seed)
        ranks = sorted((rank_of(c) for c in s.rules.deck()), reverse=True)
        dealer = s.deal.dealer
        for k in range(players):
            seat = (dealer + 1 + k) % players
            got = sorted((rank_of(c) for c in cards_of(s.hands[seat])), reverse=True)
            assert got == ranks[k:6 * players:players], (seed, seat)
        # The stock from the top (its end) downwards never rises in rank; a turned-up trump
        # card (the first card after the deal, A2) lies at the bottom.
        below = list(reversed(s.stock))
        if s.trump_card >= 0 and below:
            assert below.pop() == s.trump_card
            assert rank_of(s.trump_card) == ranks[6 * players]
        elif s.trump_card >= 0:  # the whole pack dealt: the dealer's last card (S0:243)
            assert rank_of(s.trump_card) == ranks[-1]
        assert all(rank_of(a) >= rank_of(b) for a, b in pairwise(below))
        assert_conserved(s)


def test_albanian_suits_are_shuffled_within_each_rank() -> None:
    """#23 A1 "shuffle within each rank group" and A3 "re-sorted every deal" (S0:89): the first
    card dealt is always an ace, and its suit follows the seed's shuffle."""
    suits = set()
    for seed in range(20):
        s = new_game("podkidnoy+albanian", players=2, seed=seed)
        first = max(cards_of(s.hands[(s.deal.dealer + 1) % 2]), key=rank_of)
        assert rank_of(first) == 14
        aces = [c for c in pack_of("podkidnoy+albanian", seed) if rank_of(c) == 14]
        assert suit_of(first) in {suit_of(c) for c in aces[0::2]}
        suits.add(suit_of(first))
    assert len(suits) >= 3


def test_albanian_single_joker_is_dealt_first() -> None:
    """#23 with #26 (both apply to japanese, S0:89, S0:106): the joker ranks above the aces in
    the descending pack, so the first hand from the dealer's left holds it."""
    for seed in range(8):
        s = new_game("japanese+single_joker+albanian", players=3, seed=seed)
        first = (s.deal.dealer + 1) % 3
        assert any(is_special(c) for c in cards_of(s.hands[first]))
        assert_conserved(s)
