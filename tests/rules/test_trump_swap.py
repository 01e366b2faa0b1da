"""#97 trump_swap (``trump.swap_six``): the six of trumps for the face-up trump card.

bito's own catalogue entry, not in VARIANTS.md or the seeds (docs/variants.md, "#97"): issue
32 states it as "the six (or the deck's lowest rank) of trumps for the face-up trump card, by
the player about to lead, while the stock holds more than the face-up card; the swapped-in
card is public". The expected moves are worked out from that sentence.
"""

from __future__ import annotations

import random

import pytest

from bito.bots.heuristic import HeuristicBot
from bito.errors import InvalidNotationError, RulesError
from bito.games import new_game
from bito.games.durak.actions import parse_action
from bito.games.durak.position import parse_position
from bito.games.durak.position_text import position_text
from bito.rules import resolve
from conftest import C, P, assert_conserved, cards, hand, legal, play, random_walk, rule_of

SWAP = "podkidnoy+trump_swap"
#: Two seats, hearts trump with the nine turned up under the stock (listed first: the bottom).
START = f"{SWAP} players=2 trump=9h stock=9hKcQd hands=6hAsTc/7c8d6s attacker=0"


def test_the_player_about_to_lead_swaps_the_six_for_the_trump_card() -> None:
    """#97: seat 0 leads and holds 6h; the swap takes the 9h into his hand, known to all, and
    lays the 6h face up under the stock; he still leads."""
    s = P(START)
    assert "%6h" in legal(s)
    s = play(s, "%6h")
    assert hand(s, 0) == cards("9hAsTc")
    assert s.known[0] >> C("9h") & 1
    assert s.stock[0] == C("6h") and len(s.stock) == 3
    assert s.phase_name == "lead" and s.to_act == 0
    for seat in (0, 1):  # the six lies face up: every seat sees it under the stock
        assert s.view(seat).stock_face_up >> C("6h") & 1
    assert not s.view(1).trump_card_in_stock
    assert_conserved(s)


def test_the_table_says_where_the_trump_card_and_the_six_lie() -> None:
    """After a swap the screen and every seat's view say the trump card was taken and the six
    lies face up under the stock, never that the trump card is still there."""
    from bito.games.durak.render import state_trump_words, view_trump_words

    assert "under the stock" in state_trump_words(P(START))
    s = play(P(START), "%6h")
    for words in (state_trump_words(s), view_trump_words(s.view(0)),
                  view_trump_words(s.view(1))):
        assert "taken; 6\u2665 lies face up under the stock" in words, words


def test_only_the_lowest_trump_and_only_before_the_lead() -> None:
    """#97 "the six of trumps ... by the player about to lead": the defender holding the six
    may not swap, nor the attacker after his lead; a seven of trumps is not the six."""
    s = P(f"{SWAP} players=2 trump=9h stock=9hKcQd hands=7hAsTc/6h8d6s attacker=0")
    assert not any(m.startswith("%") for m in legal(s))
    assert rule_of(s, "%7h") == "trump swap"
    s = play(P(START), "Tc")
    assert not any(m.startswith("%") for m in legal(s))
    assert rule_of(s, "%6h") == "trump swap"


def test_no_swap_when_the_stock_holds_only_the_trump_card() -> None:
    """#97 "while the stock holds more than the face-up card"."""
    s = P(f"{SWAP} players=2 trump=9h stock=9h hands=6hAsTc/7c8d6s attacker=0")
    assert "%6h" not in legal(s)
    assert rule_of(s, "%6h") == "trump swap"


def test_the_lowest_rank_of_a_short_deck_swaps() -> None:
    """#97 "or the deck's lowest rank": with 24 cards the nine of trumps swaps."""
    s = P(f"{SWAP}+deck.size=24 players=2 trump=Kh stock=KhQcJd hands=9hAsTc/Td9cAd "
          "attacker=0")
    assert {m for m in legal(s) if m.startswith("%")} == {"%9h"}


def test_the_swapped_six_is_public_once_drawn() -> None:
    """#97 "the swapped-in card is public": whoever draws the six holds it in view of all."""
    s = play(P(f"{SWAP} players=2 trump=9h stock=9hKc hands=6hAs/7c8d attacker=0"), "%6h")
    s = play(s, "As", "take", "pass")  # seat 1 takes; seat 0 draws Kc, then the six
    holder = next(seat for seat in (0, 1) if s.hands[seat] >> C("6h") & 1)
    assert s.known[holder] >> C("6h") & 1
    assert_conserved(s)


def test_the_swap_prints_and_reads_back() -> None:
    """The position text carries the card the swap laid under the stock (``trump_swapped=6h``), so
    a position typed after a swap reads back the same; a wrong card is refused."""
    s = play(P(START), "%6h")
    text = position_text(s)
    assert " trump_swapped=6h" in text
    back = parse_position(text)
    assert position_text(back) == text and legal(back) == legal(s)
    with pytest.raises(InvalidNotationError, match="trump_swapped"):
        parse_position(text.replace("trump_swapped=6h", "trump_swapped=7c"))


def test_notation() -> None:
    """The move reads as ``%6h`` or ``trump 6h`` and prints as ``%6h``."""
    assert str(parse_action("trump 6h")) == "%6h" == str(parse_action("%6h"))
    with pytest.raises(InvalidNotationError):
        parse_action("%6x")


def test_the_heuristic_swaps_when_it_gains() -> None:
    """#97 for the bots: the nine of trumps is worth more than the six, so the heuristic,
    which weighs a registered trade of cards by the cards alone, swaps."""
    s = P(START)
    bot = HeuristicBot(seed=1)
    assert str(bot.choose(s.view(0))) == "%6h"


def test_the_kernel_plays_the_swap_move_by_move_as_the_reference_does() -> None:
    """The compiled kernel declares the swap's option (``bito.rules.kernel_rules``) and plays it
    as the reference engine does: the differential verifier replays random games of the swap on
    the kernel and finds every legal-action set and transition the same."""
    import random

    from bito.kernel import available, supports
    from bito.kernel.verify import compare_game

    if not available():
        pytest.skip("the compiled kernel needs numba (the fast extra)")
    assert supports(resolve(SWAP).rules, 2)
    rng = random.Random(97)
    for seed in range(6):
        assert compare_game(new_game(SWAP, players=2 + seed % 3, seed=seed), rng) is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_swaps_end_and_conserve_cards(players: int) -> None:
    """The swap plays in random games at 2-5 players (six hands of six leave no stock to swap
    with) with no error; every game ends with every card accounted for, and swaps happen."""
    swaps = 0
    for seed in range(40):
        end = start = new_game(SWAP, players=players, seed=seed)
        for before, action, after in random_walk(start, random.Random(seed)):
            if str(action).startswith("%"):
                swaps += 1
                assert after.known[before.to_act] >> before.stock[0] & 1
            end = after
        assert end.is_over
        assert_conserved(end)
    assert swaps > 0


@pytest.mark.parametrize("stack", ["discard.recycle_every=2", "defense.exchange=2"])
def test_rules_that_bury_the_six_stack_with_the_swap(stack: str) -> None:
    """#97 with #38 (a bito shuffled back into the stock) and #42 (poker swap, cards put back
    under the stock): the six lies face up only while it lies at the bottom; games end, the
    cards are conserved, and every position prints and reads back."""
    for seed in range(15):
        end = start = new_game(f"{SWAP}+{stack}", players=3, seed=seed)
        for _, _, after in random_walk(start, random.Random(seed)):
            assert position_text(parse_position(position_text(after))) == position_text(after)
            end = after
        assert end.is_over
        assert_conserved(end)


def test_hands_held_face_out_refuse_the_swap() -> None:
    """#97 with #58 (deal.owner_sees_hand=false): a player who cannot see his hand cannot know
    he holds the six; the mix is refused naming the option."""
    with pytest.raises(RulesError, match=r"trump\.swap_six"):
        new_game("podkidnoy+blind_face_out+trump.swap_six=true", players=3, seed=1)
