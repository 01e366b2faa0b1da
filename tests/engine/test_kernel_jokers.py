"""#29 Estonian fool in the compiled kernel: jokers, group throw-ins and #11's transfer.

A deck with jokers has card codes past the kernel's 63 (65 and 66), so the conversion numbers
its cards 0-53 in the reference order (``bito.kernel.convert.card_index``) and the kernel reads
rank sets, suits and trump rejection as data. Each test types a position from the catalogue's
rule text, asks the kernel's own move generator, and asserts the expected moves and that the
reference engine lists the same ones. The whole-game differential check is
``tests/engine/test_kernel.py`` and ``bito bench --verify`` (``verify.NAMED`` holds estonian).
Citations: VARIANTS.md #29 and seeds/000 line 119 (S0:119), #11 (S0:44).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bito import kernel
from bito.cards import is_joker, is_special, parse_card
from bito.games.durak import DurakState, new_game
from bito.games.durak.position import parse_position
from bito.notation import parse_action
from bito.rules import rules_for

np = pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.kernel import layout as L  # noqa: E402
from bito.kernel.convert import (  # noqa: E402
    CardIndex,
    action_code,
    action_of,
    card_index,
    from_state,
    kernel_snapshot,
    reference_snapshot,
    rule_facts,
)
from bito.kernel.core import deal_of, legal_actions_of, step_of  # noqa: E402

EST = "estonian players={n} trump=5h stock=- hands={hands} table={table} attacker=0"
RULES = rules_for("estonian")
_INDEX = card_index(RULES)
assert _INDEX is not None
INDEX: CardIndex = _INDEX


def _moves(state: DurakState) -> tuple[set[str], set[str]]:
    """The legal moves of a position as text, by the kernel and by the reference engine."""
    assert kernel.supports_state(state)
    k = from_state(state)
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    n = legal_actions_of(k, masks, metas)
    mine = [str(action_of(masks[i], metas[i], INDEX)) for i in range(n)]
    assert len(mine) == len(set(mine))
    return set(mine), {str(a) for a in state.legal_actions()}


def _play(state: DurakState, move: str) -> tuple[Any, DurakState]:
    """One move on both engines; their positions after it must agree."""
    k = from_state(state)
    action = parse_action(move)
    step_of(k, *action_code(action, INDEX))
    after = state.apply(action)
    assert kernel_snapshot(k, INDEX) == reference_snapshot(after)
    return k, after


def test_the_numbering_keeps_the_reference_order_and_stays_in_63_bits() -> None:
    """54 cards (S0:119 "a deck of 54 cards"), numbered 0-53 low to high: the jokers last, as
    their codes are; the plain decks keep their own codes."""
    assert not INDEX.identity
    assert list(INDEX.codes) == sorted(RULES.deck())
    assert [INDEX.kernel_card(c) for c in sorted(RULES.deck())] == list(range(54))
    assert INDEX.kernel_card(parse_card("RJ")) == 52 and INDEX.kernel_card(parse_card("BJ")) == 53
    assert card_index(rules_for("podkidnoy")).identity  # type: ignore[union-attr]
    assert card_index(rules_for("big_fool")) is None  # 72 cards: not in one int64
    assert not kernel.supports(rules_for("big_fool"), 2)


def test_joker_is_covered_only_by_twos_and_threes() -> None:
    """#29; S0:119 "You can beat any card with the joker, except for twos and threes ...,
    which themselves beat it"."""
    mine, theirs = _moves(parse_position(EST.format(n=2, hands="9h/Ah2c3d4dKs", table="RJ")))
    assert mine == theirs == {"2c>RJ", "3d>RJ", "take"}
    mine, theirs = _moves(parse_position(EST.format(n=2, hands="9h/RJQs", table="Ac,2c")))
    assert mine == theirs == {"RJ>Ac", "take"}


def test_deuce_takes_the_ace() -> None:
    """#29; S0:119 "an ace is beaten with a deuce, joker or trump card" (A1: its own suit's
    deuce or a trump deuce)."""
    mine, theirs = _moves(parse_position(EST.format(n=2, hands="9h/2s2hKsQd", table="As,Ac")))
    assert mine == theirs == {"2s>As", "2h>As", "2h>Ac", "take"}


def test_a_joker_is_never_a_transfer_card() -> None:
    """§3.3 shared joker convention ("can't be used to transfer unless the variant says so"):
    facing a joker, the defender holding the other joker may cover with it or take, never
    pass the attack on (the kernel's rank set of a joker is the jokers)."""
    mine, theirs = _moves(parse_position(
        "estonian players=3 trump=5h stock=- hands=9h/BJAs5c/KcKdQd table=RJ attacker=0"))
    assert not any(m.startswith("=") for m in mine)
    assert mine == theirs


def test_a_joker_on_the_table_lets_the_other_joker_be_thrown_in() -> None:
    """§3.3 (jokers share a "rank" for throw-ins) with #29's jokers: with RJ covered by 2c,
    the attacker may throw in BJ and the twos he holds (the ranks on the table), not his 9h."""
    state = parse_position(EST.format(n=2, hands="BJ9h2d/5s6s7s8s", table="RJ<2c"))
    mine, theirs = _moves(state)
    assert mine == theirs
    assert {"BJ", "2d", "pass"} <= mine and "9h" not in mine


def test_group_throw_in_is_one_action() -> None:
    """#29; S0:119 "he has a pair, three or four cards of the same rank, he can put them all
    at once": every group of the eights is one throw-in, in the kernel as in the reference."""
    state = parse_position(EST.format(n=2, hands="8s8d8c9h/9s9d7c2c", table="8h<Th"))
    mine, theirs = _moves(state)
    assert mine == theirs == {"8c", "8d", "8s", "8c+8d", "8c+8s", "8d+8s", "8c+8d+8s", "pass"}
    k, after = _play(state, "8c+8d+8s")
    assert int(k[L.UNCOVERED]) == after.uncovered == 3


def test_group_throw_in_is_limited_by_the_defenders_hand() -> None:
    """#29 with §1.5 (no more attack cards than the defender can cover): holding two cards,
    the defender can be given two eights at most."""
    state = parse_position(EST.format(n=2, hands="8s8d8c9h/9s9d", table="8h<Th"))
    mine, theirs = _moves(state)
    assert mine == theirs
    assert "8c+8d" in mine and "8c+8d+8s" not in mine


def test_new_defender_beats_only_the_transfer_card() -> None:
    """#29 via transfer_3 (#11, S0:44 "must beat only the card that was transferred"; #29 A4
    earlier cards are neutralised): after =7s the kernel's new defender may cover only the
    7s, and 7d stays on the table neutralised (``phases.NEUTRAL``)."""
    state = parse_position(EST.format(n=3, hands="9h7h/7s8s9d/QhKcKd", table="7c<8c,7d"))
    mine, theirs = _moves(state)
    assert mine == theirs == {"9d>7d", "=7s", "take"}
    k, after = _play(state, "=7s")
    assert int(k[L.DEFENDER]) == 2 and int(k[L.UNCOVERED]) == 1
    assert list(k[L.DEFENCE:L.DEFENCE + 3]) == [INDEX.kernel_card(parse_card("8c")), -2, -1]
    mine, theirs = _moves(after)
    assert mine == theirs == {"Qh>7s", "take"}


def test_the_kernel_deal_is_the_reference_deal_when_no_joker_is_turned() -> None:
    """Given the reference shuffle and dealer, the kernel deals Estonian as the reference
    does; a joker turned up is buried at a random place (#29 A3), where the two engines draw
    their random numbers differently, so only those deals are compared by their trump card."""
    compared = buried = 0
    for seed in range(60):
        players = 2 + seed % 4
        shuffle = random.Random(seed)
        deck = list(RULES.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(players)
        kdeck = np.array([INDEX.kernel_card(c) for c in deck], np.int64)
        dealt = deal_of(rule_facts(RULES, players), kdeck, dealer, seed)
        ref = new_game(RULES, players, seed=seed)
        turned = INDEX.reference_card(int(dealt[L.TRUMP_CARD]))
        assert not is_special(turned)
        if is_joker(deck[players * RULES.deal_hand_size]):
            buried += 1
            continue
        assert kernel_snapshot(dealt, INDEX) == reference_snapshot(ref)
        assert turned == ref.deal.trump_card
        compared += 1
    assert compared > 40 and buried >= 1


def test_whole_random_games_end_and_use_every_card() -> None:
    """``play_random_games`` deals Estonian in the kernel and plays it to an outcome."""
    losers, actions = kernel.play_random_games(RULES, 3, 40, 11)
    assert len(losers) == 40 and actions > 40 * 10
    assert set(losers) <= {0, 1, 2, None}


@pytest.mark.parametrize("spec", ["podkidnoy", "perevodnoy", "simple"])
def test_jokers_that_beat_and_are_beaten_by_anything_play_as_in_the_reference(spec: str) -> None:
    """The default joker system (§3.3 ``specials.joker=any``) added to a base game: whole
    random games compared position by position and move list by move list with the
    reference engine (the strict differential check, ``verify.compare_game``)."""
    from bito.kernel.verify import compare_game

    rng = random.Random(f"jokers-{spec}")
    for jokers, size in ((1, 36), (2, 52)):
        rules = rules_for(spec).with_options(**{"deck.jokers": jokers, "deck.size": size})
        for game in range(6):
            state = new_game(rules, rng.randint(2, 5), seed=game)
            assert kernel.supports_state(state)
            assert compare_game(state, rng) is None


@pytest.mark.parametrize("spec", ["estonian", "capital", "transfer_3"])
def test_estonian_capital_and_transfer_3_play_as_in_the_reference(spec: str) -> None:
    """#29, #30 (S0:122 "a deck of 55 cards (2 joker and 1 mega)") and #11 alone: whole random
    games, strict differential check."""
    from bito.kernel.verify import compare_game, random_deal

    rng = random.Random(f"strict-{spec}")
    for _ in range(8):
        assert compare_game(random_deal(spec, rng), rng) is None


def test_the_compiled_endgame_solver_agrees_with_brute_force_in_estonian() -> None:
    """Two-player Estonian endgames (jokers, #11's neutralised cards, group throw-ins): the
    compiled search (``bito.kernel.solver``, on the numbered deck) gives the brute-force
    reference's exact value, from both seats."""
    from bito.bots.endgames import endgames
    from bito.bots.solver import LOSS, WIN, Solver, brute_force

    values = set()
    compiled = 0
    for s in endgames(40, "estonian", max_cards=5, seed=100, with_table=True):
        expected = brute_force(s, s.to_act)
        assert Solver().value(s, s.to_act) == expected, repr(s)
        assert Solver().value(s, 1 - s.to_act) == -expected, repr(s)
        compiled += kernel.available() and kernel.supports_state(s)
        values.add(expected)
    assert compiled == 40 and {WIN, LOSS} <= values


CARDS = st.sets(st.sampled_from(sorted(RULES.deck())))


@given(CARDS, CARDS)
def test_the_numbering_is_a_bijection_that_keeps_the_order_of_card_sets(a: set[int],
                                                                         b: set[int]) -> None:
    """Any two card sets of the Estonian deck convert to kernel sets and back unchanged, and
    compare as integers the same way on both sides: the greedy playouts break ties on the
    lower set of cards, so the kernel must see the reference engine's order."""
    ma = sum(1 << c for c in a)
    mb = sum(1 << c for c in b)
    ka, kb = INDEX.kernel_mask(ma), INDEX.kernel_mask(mb)
    assert INDEX.reference_mask(ka) == ma and INDEX.reference_mask(kb) == mb
    assert 0 <= ka < 1 << 63 and ka.bit_count() == len(a)
    assert (ka < kb) == (ma < mb)


def test_the_search_interface_speaks_reference_cards_in_estonian() -> None:
    """``KernelState`` (legal actions and apply for search) takes over an Estonian position
    and lists, plays and reports moves with the reference engine's card codes, jokers
    included, along a whole random game."""
    from bito.kernel.state import KernelState

    rng = random.Random("kernel-state-estonian")
    ref = new_game(RULES, 3, seed=4)
    k = KernelState.from_state(ref)
    jokers_played = 0
    while not ref.is_over:
        assert set(k.legal_actions()) == set(ref.legal_actions())
        action = rng.choice(ref.legal_actions())
        jokers_played += any(is_joker(c) for c in action.cards)
        ref, k = ref.apply(action), k.apply(action)
        assert k.snapshot() == reference_snapshot(ref)
    assert k.is_over and k.loser == (ref.outcome.loser if ref.outcome else None)
    assert jokers_played >= 1
