"""#68 A1 (``deck_duel_prelude``, S0:174): phase 2's trump is the suit of the last card turned
in phase 1, wherever that card lands.

The last card can be turned as the next card to beat, or be the card a player turns against
the card to beat: then it either beats (same suit, higher) and wins the centre, which leaves
the centre empty, or does not beat and goes beside the card to beat, under it. The centre
alone cannot tell which card came last, so each way has its own scenario; a property over
seeded deals recomputes the last card from the stock each turn used up.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bito.cards import mask_of, parse_card, split_cards, suit_of
from bito.games import new_game
from bito.games.bouts import TURN

C = parse_card
SUIT = {"c": 0, "d": 1, "h": 2, "s": 3}


def flip_prelude(stock: str, players: int = 2) -> Any:
    """A deck-flip prelude whose stock is ``stock`` (top card first); seat 0 turns first,
    having turned the stock's top card as the first card to beat."""
    s = new_game("deck_duel_prelude", players, seed=0)
    s.stock = list(reversed(split_cards(stock)))
    s.hands, s.known = [0] * players, [0] * players
    s.pile, s.round = [], []
    s.first = s.to_act = 0
    s.pile.append(s.stock.pop())
    s.last = s.pile[-1]
    return s


def turn_all(s: Any) -> Any:
    while s.main is None and not s.is_over:
        assert s.legal_actions() == [TURN]
        s = s.apply(TURN)
    return s


def assert_trump(s: Any, suit: str) -> None:
    assert s.main is not None and s.phase == "main"
    assert s.main.trumps == frozenset({SUIT[suit]})
    assert all(s.view(seat).trump_suit == SUIT[suit] for seat in range(s.players))


def test_last_card_beats_and_wins_the_centre() -> None:
    """#68 A1, S0:174 ("if he beats, he will take all the cards on the table"): the last card
    turned, 9♦, beats 8♦ and takes the centre into the hand; the centre is left empty, yet
    diamonds are trump."""
    s = turn_all(flip_prelude("7h 9h Qs Ks 8d 9d"))
    assert s.hands == [mask_of(split_cards("7h 9h 8d 9d")), mask_of(split_cards("Qs Ks"))]
    assert_trump(s, "d")


def test_last_card_does_not_beat_and_goes_beside() -> None:
    """#68 A1, A4, S0:174 ("if the received card cannot beat the laid out one, the player puts
    it next to the laid out one"): the last card turned, 6♣, does not beat 8♦; both go out of
    play with the centre, and clubs (not the older 8♦'s diamonds) are trump."""
    s = turn_all(flip_prelude("7h 9h Qs Ks 8d 6c"))
    assert s.hands == [mask_of(split_cards("7h 9h")), mask_of(split_cards("Qs Ks"))]
    assert s.main.discard == mask_of(split_cards("8d 6c"))
    assert_trump(s, "c")


def test_last_card_is_turned_as_the_card_to_beat() -> None:
    """#68 A1, S0:174 ("takes another card from the deck and places it in the center"): the
    last card turned, A♠, is the next card to beat, which nobody turns against; spades are
    trump."""
    s = turn_all(flip_prelude("7h 9h Qs Ks 8c 6d As"))
    assert s.main.discard == mask_of(split_cards("8c 6d As"))
    assert_trump(s, "s")


def last_turned_card(spec: str, players: int, seed: int) -> tuple[Any, int]:
    """Play phase 1 and find the last card turned from what each turn took off the stock
    (the stock's top is its last item, so of the cards one turn took, the one that lay
    deepest came out last). Returns the state at the end of phase 1 and that card."""
    s = new_game(spec, players, seed=seed)
    last = s.pile[-1]  # the first card to beat, turned when the game is set up
    while s.main is None and not s.is_over:
        before = list(s.stock)
        s = s.apply(TURN)
        gone = [c for c in before if c not in s.stock]
        assert gone, "every turn takes a card off the stock"
        last = min(gone, key=before.index)
    return s, last


def test_every_phase_two_trump_is_the_last_turned_suit_two_players() -> None:
    """#68 A1 over the 2-player deals of seeds 0-299 (133 of them reach phase 2)."""
    reached = 0
    for seed in range(300):
        s, last = last_turned_card("deck_duel_prelude", 2, seed)
        if s.main is None:
            continue
        reached += 1
        assert s.main.trumps == frozenset({suit_of(last)}), seed
    assert reached > 0


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1),
       main=st.sampled_from(("podkidnoy", "perevodnoy")))
def test_every_phase_two_trump_is_the_last_turned_suit(players: int, seed: int,
                                                        main: str) -> None:
    """#68 A1 for any seat count and either phase-2 game (``prelude.main``)."""
    s, last = last_turned_card(f"deck_duel_prelude+prelude.main={main}", players, seed)
    if s.main is not None:
        assert s.main.trumps == frozenset({suit_of(last)})
        assert s.main.deal.rules.transfer_enabled == (main == "perevodnoy")
