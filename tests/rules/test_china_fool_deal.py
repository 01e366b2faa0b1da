"""China fool (#65) deals like piled fool (#33): the whole pack, one card at a time from the
dealer's left, the last card dealt shown as trump and kept by whoever received it.

The expected holders are derived from the rule and the bouts family's documented deal
(``bito.games.bouts.base``): ``random.Random(f"chinese:{seed}")`` first draws the dealer by
lot (``randrange(players)``), then shuffles the standard pack, whose first card is dealt
first."""

from __future__ import annotations

import random

import pytest

from bito.cards import bit, standard_deck, suit_of
from bito.games import new_game


def dealt(seed: int, players: int) -> tuple[int, list[int]]:
    rng = random.Random(f"chinese:{seed}")
    dealer = rng.randrange(players)
    pack = list(standard_deck(36))
    rng.shuffle(pack)
    return dealer, pack


@pytest.mark.parametrize("seed", range(6))
def test_five_players_first_seat_gets_the_extra_card_and_the_trump(seed: int) -> None:
    """#65 A4, #33 A1 and A3; S0:83 "the cards are dealt like in Piled Fool", S0:25 "the
    deck is divided equally", S0:243 "the last card is appointed as the trump card": 36
    cards among 5 seats, so the first seat clockwise from the dealer gets one card more, and
    that 36th card, dealt to him, is the trump and stays in his hand in plain sight."""
    dealer, pack = dealt(seed, 5)
    state = new_game("chinese", 5, seed=seed)
    first = (dealer + 1) % 5
    for i, c in enumerate(pack):
        assert state.hands[(dealer + 1 + i) % 5] & bit(c), f"card {i} went astray"
    assert [state.hands[s].bit_count() for s in range(5)] == [
        8 if s == first else 7 for s in range(5)]
    trump = pack[-1]
    assert state.trump_card == trump and state.trump_suit == suit_of(trump)
    assert state.hands[first] & bit(trump) and state.known[first] & bit(trump)
    assert not state.hands[dealer] & bit(trump) and not state.known[dealer] & bit(trump)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_even_deal_last_card_goes_to_the_dealer(players: int) -> None:
    """#65 A4 with a pack that divides: dealt one at a time from the dealer's left, the 36th
    card falls to the dealer himself, who keeps the trump."""
    dealer, pack = dealt(3, players)
    state = new_game("chinese", players, seed=3)
    assert {state.hands[s].bit_count() for s in range(players)} == {36 // players}
    assert state.hands[dealer] & bit(pack[-1]) and state.known[dealer] & bit(pack[-1])
