"""#21 ``big_fool`` (two decks, 72 cards) and the compiled kernel: where it stands.

The kernel's card sets are one ``int64`` each, so two decks do not fit, and until the two-word
build exists (``docs/bots.md``, "Big fool") the kernel must refuse them and every caller must
fall back to the reference engine, never play a truncated deck. These tests hold that refusal,
and check the two-word card sets of :mod:`bito.kernel.wide` (the first brick of that build)
against the reference engine's own card sets. The rule positions themselves (a twin never
covers its twin, 52 cards lose at once, either copy may be thrown in) are tested on the
reference engine in ``tests/rules/test_decks.py``.
Citations: VARIANTS.md #21 and seeds/000 line 53 (S0:53).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito import kernel
from bito.cards import COPY_STRIDE
from bito.games.durak import new_game
from bito.rules import rules_for
from bito.rules.kernel_rules import kernel_refuses

pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.bots.rollouts import kernel_greedy_usable
from bito.kernel import wide
from bito.kernel.convert import card_index, from_state

BIG = rules_for("big_fool")
DECK = sorted(BIG.deck())
sets = st.lists(st.sampled_from(DECK), unique=True).map(lambda cs: sum(1 << c for c in cs))


def test_the_kernel_refuses_two_decks_by_name() -> None:
    """#21 (S0:53 "2 decks of 36 cards"): not verified on the kernel, so refused, and the
    refusal names the option."""
    assert "deck.copies=2" in kernel_refuses(BIG)
    assert not any(kernel.supports(BIG, n) for n in range(2, 7))
    state = new_game("big_fool", players=2, seed=3)
    assert not kernel.supports_state(state)
    assert card_index(BIG) is None


def test_search_and_playouts_fall_back_for_two_decks() -> None:
    """The search's rollouts and the random playouts take a big_fool position to the reference
    engine: the conversion would refuse it, so reaching the kernel would raise."""
    state = new_game("big_fool", players=2, seed=5)
    assert not kernel_greedy_usable(state)
    with pytest.raises(ValueError, match="64-bit card sets"):
        from_state(state)
    losers = kernel.random_playouts(state, 2, seed=7)
    assert all(x in (0, 1, None) for x in losers)


@given(sets)
@settings(deadline=None)  # the first call compiles the helpers
def test_split_and_join_keep_every_card(mask: int) -> None:
    """Each word holds one deck: the first deck's cards low, the twins high."""
    low, high = wide.split(mask)
    assert wide.join(low, high) == mask
    assert low >> 63 == 0 and high >> 63 == 0
    assert wide.count(low, high) == mask.bit_count()


def test_split_refuses_a_card_no_word_holds() -> None:
    with pytest.raises(ValueError, match=r"deck\.copies"):
        wide.split(1 << 70)  # between the decks: no plain card has this code


@given(sets)
@settings(max_examples=200, deadline=None)
def test_lowest_and_membership_follow_the_reference_codes(mask: int) -> None:
    """The lowest kernel index is the lowest reference code: first-deck cards before twins."""
    low, high = wide.split(mask)
    if mask:
        first = (mask & -mask).bit_length() - 1
        assert wide.reference_card(wide.lowest(low, high)) == first
    for code in DECK:
        c = wide.kernel_card(code)
        assert 0 <= c < 128 and wide.reference_card(c) == code
        assert wide.has(low, high, c) == bool(mask >> code & 1)
        one = wide.single(c)
        assert wide.join(*one) == 1 << code


@given(sets, sets)
@settings(deadline=None)
def test_order_of_whole_sets_is_the_references(a: int, b: int) -> None:
    """The greedy tie-break compares whole sets as the reference does (integers of codes)."""
    assert wide.less(*wide.split(a), *wide.split(b)) == (a < b)


def test_twin_codes_sit_one_stride_apart() -> None:
    """#21 A3 (either copy of a rank): a twin is its card plus ``COPY_STRIDE``, so both copies
    of a card share one position in their words."""
    firsts = [c for c in DECK if c < COPY_STRIDE]
    assert len(firsts) == 36
    for c in firsts:
        assert wide.split((1 << c) | (1 << (c + COPY_STRIDE))) == (1 << c, 1 << c)
