"""#21 ``big_fool`` (two decks, 72 cards) on the compiled kernel.

The kernel's card sets are one ``int64`` each, so 72 cards do not fit; but a discarded card
never comes back, so once at most 63 cards are in play the kernel takes a position over with
those cards numbered in reference order (``convert.in_play_index``). These tests hold that the
kernel refuses the rest (never a truncated deck), play taken-over games against the reference
move by move, and hold the compiled take-over to the 52-card loss. The rule
positions on the reference engine (a twin never covers its twin, 52 cards lose at once,
either copy may be thrown in) are ``tests/rules/test_decks.py``.
Citations: VARIANTS.md #21 and seeds/000 line 53 (S0:53).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito import kernel
from bito.cards import card_str, parse_card
from bito.games.durak import new_game
from bito.games.durak.position import parse_position
from bito.notation import parse_action
from bito.rules import rules_for
from bito.rules.kernel_rules import kernel_refuses

pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.bots.rollouts import kernel_greedy_usable
from bito.kernel.convert import card_index, from_state, in_play_index, outside_cards
from bito.kernel.state import KernelState
from bito.kernel.verify import compare_game, taken_over

BIG = rules_for("big_fool")


def test_whole_games_are_refused_and_a_full_deck_is_not_taken_over() -> None:
    """#21 (S0:53 "2 decks of 36 cards"): 72 cards do not fit an ``int64`` set, so the kernel
    never deals Big fool, and refuses a position while more than 63 cards are in play."""
    assert kernel_refuses(BIG) == ["deck.copies=2"]
    assert not any(kernel.supports(BIG, n) for n in range(2, 7))
    assert all(kernel.supports_in_play(BIG, n) for n in range(2, 7))
    state = new_game("big_fool", players=2, seed=3)
    assert not kernel.supports_state(state) and not kernel_greedy_usable(state)
    assert card_index(BIG) is None and in_play_index(state) is None
    with pytest.raises(ValueError, match="64-bit card sets"):
        from_state(state)


def test_the_take_over_numbers_the_cards_in_play_in_reference_order() -> None:
    """Once 9 cards are discarded the other 63 get indices 0-62, lowest code first, so move
    lists and the greedy tie-break keep the reference's order; twins stay apart."""
    state = taken_over(new_game("big_fool", players=3, seed=8), random.Random(8))
    assert not state.is_over and kernel.supports_state(state)
    index = in_play_index(state)
    assert index is not None and state.discard.bit_count() >= 9
    assert list(index.codes) == sorted(c for c in BIG.deck() if not state.discard >> c & 1)
    assert outside_cards(BIG, index) == state.discard


@pytest.mark.parametrize("spec", ["big_fool", "perevodnoy+deck.copies=2+beats.identical=forbidden"
                                  "+end.instant_loss_cards=52"])
def test_two_deck_games_play_as_in_the_reference(spec: str) -> None:
    """#21: random games from the take-over to the end, compared position by position and
    move list by move list with the reference engine (``verify.compare_game``): the twin ban
    is the beat table's, either copy of a rank is thrown in or transferred by the rank sets,
    and 52 cards lose at once as a rule fact (S0:53; A1, A3)."""
    rng = random.Random(f"two-decks-{spec}")
    for _ in range(6):
        state = new_game(spec, rng.randint(2, 5), seed=rng.getrandbits(40))
        assert compare_game(state, rng) is None


def test_a_fifty_two_card_take_loses_in_the_kernel() -> None:
    """#21; S0:53 "The player who has 52 or more cards loses immediately": P1 holds 50 cards
    (fewer than 63 in play), takes the two sevens and is the fool at once, though P0 holds
    cards; the kernel, which took the position over, ends the game there too."""
    deck = sorted(BIG.deck())
    p0 = [parse_card(x) for x in ("7c", "7c'", "9d", "9d'")]
    p1 = [c for c in deck if c not in p0 and card_str(c)[0] not in "7"][:50]
    hands = "".join(card_str(c) for c in p0) + "/" + "".join(card_str(c) for c in p1)
    s = parse_position(f"big_fool players=2 trump=6h stock=- hands={hands} attacker=0")
    assert kernel.supports_state(s)
    k = KernelState.from_state(s)
    for move in ("7c+7c'", "take", "pass"):
        action = parse_action(move)
        s, k = s.apply(action), k.apply(action)
    assert s.is_over and s.outcome is not None and s.outcome.loser == 1
    assert k.is_over and k.loser == 1


@given(st.data())
@settings(deadline=None, max_examples=60)
def test_the_numbering_keeps_every_card_in_play_and_the_order_of_sets(data: st.DataObject
                                                                       ) -> None:
    """Whatever was discarded (9 cards or more), two sets of cards in play convert to kernel
    sets and back unchanged and compare as the reference's: the greedy playouts break ties on
    the lower set of cards."""
    deck = sorted(BIG.deck())
    gone = data.draw(st.sets(st.sampled_from(deck), min_size=9, max_size=60))
    state = new_game("big_fool", players=2, seed=1)
    state.discard = sum(1 << c for c in gone)  # only the numbering reads it here
    index = in_play_index(state)
    assert index is not None and len(index.codes) == 72 - len(gone)
    live = [c for c in deck if c not in gone]
    a, b = (sum(1 << c for c in data.draw(st.sets(st.sampled_from(live)))) for _ in range(2))
    ka, kb = index.kernel_mask(a), index.kernel_mask(b)
    assert index.reference_mask(ka) == a and 0 <= ka < 1 << 63
    assert (ka < kb) == (a < b)
