"""Variants in the compiled kernel (issue 20 item 4): those that change the beat relation,
played from the reference engine's beat table, the transfer at any time (#10) and the lead
from the stock (#40).

The differential tests (``tests/engine/test_kernel.py``, ``bito bench --verify``) compare whole
games move by move; here a position is typed so that one rule is seen to act in the kernel's
own move generator, citing its catalogue id and seed line. The expected covers are read from
the rule text, and the reference engine's list for the same position is asserted alongside.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bito import kernel
from bito.cards import card_str, parse_card
from bito.games.durak import new_game
from bito.games.durak.actions import DEFEND, PASS, STOCK, TAKE, TRANSFER, TRY, Action
from bito.games.durak.position import parse_position
from bito.rules import rules_for

np = pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.kernel import layout as L  # noqa: E402
from bito.kernel.convert import (  # noqa: E402
    action_code,
    action_of,
    from_state,
    kernel_snapshot,
    pack_of,
    reference_snapshot,
    rule_facts,
)
from bito.kernel.core import deal_of, legal_actions_of, step_of  # noqa: E402


def _covers(text: str) -> tuple[set[str], set[str]]:
    """The cards the seat to act may cover with in the typed position, by the kernel and by
    the reference engine."""
    ref = parse_position(text)
    assert kernel.supports_state(ref), text
    k = from_state(ref)
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    n = legal_actions_of(k, masks, metas)
    mine = [action_of(masks[i], metas[i]) for i in range(n)]
    return ({card_str(a.cards[0]) for a in mine if a.kind == DEFEND},
            {card_str(a.cards[0]) for a in ref.legal_actions() if a.kind == DEFEND})


JAPANESE = ("japanese players=2 trump=- stock=7c8c9c hands=6c7h/Ad8sKc table={attack} "
            "attacker=0 defender=1")


def test_japanese_spades_are_covered_only_by_higher_spades() -> None:
    """#13; S0:263 "spades are not fought off with a different suit": the fixed trump
    (diamonds, S1:6 "The trump suit is diamonds") covers a club but not a spade."""
    mine, theirs = _covers(JAPANESE.format(attack="7s"))
    assert mine == theirs == {"8s"}
    mine, theirs = _covers(JAPANESE.format(attack="9s"))
    assert mine == theirs == set()
    mine, theirs = _covers(JAPANESE.format(attack="Tc"))
    assert mine == theirs == {"Ad", "Kc"}


def test_no_trump_a_card_is_covered_only_by_its_own_suit() -> None:
    """#15; S0:7 "the game is played without trump cards": nothing covers across suits."""
    text = ("podkidnoy+no_trump players=2 trump=- stock=7c8c9c hands=6c7h/Ad8sKc table=Jd "
            "attacker=0 defender=1")
    mine, theirs = _covers(text)
    assert mine == theirs == {"Ad"}
    mine, theirs = _covers(text.replace("table=Jd", "table=Qh"))
    assert mine == theirs == set()


def test_royal_the_six_beats_the_ace() -> None:
    """#19; S0:59: the lowest rank beats the ace of its suit; the low card is covered only by
    the ace of its suit (or the trump ace), never by a higher plain card."""
    text = ("podkidnoy+royal players=2 trump=9d stock=9d7c8c hands=6c7h/6s7sKc table=As "
            "attacker=0 defender=1")
    mine, theirs = _covers(text)
    assert mine == theirs == {"6s"}
    mine, theirs = _covers(text.replace("table=As", "table=6s").replace("6s7sKc", "7sAsKc"))
    assert mine == theirs == {"As"}


@pytest.mark.parametrize("variant", ["japanese", "podkidnoy+no_trump", "podkidnoy+royal",
                                     "team_fool"])
def test_the_kernel_deal_of_a_variant_is_the_reference_deal(variant: str) -> None:
    """Given the reference shuffle and dealer, the kernel deals these variants as the
    reference does: no card turned for a fixed trump or none, the beat table of the deal,
    #55's seat played."""
    rules = rules_for(variant)
    seats = [p for p in range(2, 7) if kernel.supports(rules, p)]
    for seed in range(20):
        players = seats[seed % len(seats)]
        shuffle = random.Random(seed)
        deck = list(rules.deck())
        shuffle.shuffle(deck)
        dealer = shuffle.randrange(players)
        dealt = deal_of(rule_facts(rules, players), np.array(deck, np.int64), dealer, 0)
        ref = new_game(rules, players, seed=seed)
        assert kernel_snapshot(dealt) == reference_snapshot(ref)
        assert list(dealt[L.BEATS:L.BEATS + 64]) == list(from_state(ref)[L.BEATS:L.BEATS + 64])
        assert int(dealt[L.TRUMP_CARD]) == ref.deal.trump_card


def test_whole_random_games_of_the_variants_end() -> None:
    """``play_random_games`` deals and plays these variants in the kernel to an outcome."""
    for variant in ("japanese", "podkidnoy+no_trump", "perevodnoy+royal"):
        losers, actions = kernel.play_random_games(rules_for(variant), 3, 50, 7)
        assert len(losers) == 50 and actions > 50 * 10
        assert set(losers) <= {0, 1, 2, None}
    assert pack_of(rules_for("japanese")).size == 36


# --- the transfer window and the lead from the stock ------------------------------------------


def _moves(text: str) -> tuple[list[Action], set[Action]]:
    """Every legal move of the typed position, by the kernel and by the reference."""
    ref = parse_position(text)
    assert kernel.supports_state(ref), text
    return _moves_of(from_state(ref), ref)


def _play(ref: Any, action: Action) -> tuple[Any, Any]:
    """The move on both engines from the same position: the kernel array and the reference
    state after it, checked to agree."""
    k = from_state(ref)
    step_of(k, *action_code(action))
    after = ref.apply(action)
    assert kernel_snapshot(k) == reference_snapshot(after)
    return k, after


def test_transfer_2_transfers_after_a_cover_on_the_last_card_thrown() -> None:
    """#10; S0:259 "You can translate only with a card of the same value as the last one
    thrown; beaten are not taken into account": with 7c covered and 8d open, the defender
    may pass the attack on with his eight, not with his seven; perevodnoy (§1.6) may not."""
    text = ("transfer_2 players=3 trump=9d stock=9d6s6d hands=6c7h/7s8hKc/6hJcQc "
            "table=7c<Tc,8d attacker=0 defender=1")
    mine, theirs = _moves(text)
    assert set(mine) == theirs and len(mine) == len(theirs)
    assert [card_str(a.cards[0]) for a in mine if a.kind == TRANSFER] == ["8h"]
    mine, theirs = _moves(text.replace("transfer_2", "perevodnoy"))
    assert set(mine) == theirs and not [a for a in mine if a.kind == TRANSFER]


def test_armenian_leads_the_top_of_the_stock_leaving_the_hand() -> None:
    """#40; S0:32 "the player can resemble not only his own card, but also take one card lying
    on top of the deck": the lead from the stock is offered and played as in the reference,
    the top card (listed last) going to the table and the attacker's hand kept."""
    text = ("podkidnoy+armenian players=2 trump=9d stock=9d6sJd hands=6c7h/7s8hKc "
            "attacker=0 defender=1")
    ref = parse_position(text)
    mine, theirs = _moves(text)
    assert set(mine) == theirs and len(mine) == len(theirs)
    stock_lead = next(a for a in mine if a.kind == STOCK)
    _, after = _play(ref, stock_lead)
    assert after.attack == [parse_card("Jd")] and after.hands[0] == ref.hands[0]
    _, without = _moves(text.replace("+armenian", ""))
    assert not [a for a in without if a.kind == STOCK]


def test_second_try_draws_the_top_of_the_stock_once_per_card() -> None:
    """#39; S0:29 "if the player has nothing to beat the card with, he must first take another
    card from the deck": stuck on 9c, the defender may try; the kernel draws the stock's top
    (listed last) into his hand as the reference does, and does not offer a second try against
    the same card again."""
    text = ("podkidnoy+second_try players=2 trump=6h stock=6h7dTc hands=7c8c/7s8dKd "
            "table=9c attacker=0 defender=1")
    ref = parse_position(text)
    mine, theirs = _moves(text)
    assert set(mine) == theirs and len(mine) == len(theirs)
    second_try = next(a for a in mine if a.kind == TRY)
    k, after = _play(ref, second_try)
    assert after.hands[1] >> parse_card("Tc") & 1
    mine, theirs = _moves_of(k, after)
    assert set(mine) == theirs and not [a for a in mine if a.kind == TRY]
    assert [card_str(a.cards[0]) for a in mine if a.kind == DEFEND] == ["Tc"]


def _moves_of(k: object, ref: object) -> tuple[list[Action], set[Action]]:
    """The legal moves of a kernel array and of the reference position it mirrors."""
    masks = np.empty(L.MAX_ACTIONS, np.int64)
    metas = np.empty(L.MAX_ACTIONS, np.int64)
    n = legal_actions_of(k, masks, metas)
    return ([action_of(masks[i], metas[i]) for i in range(n)],
            set(ref.legal_actions()))  # type: ignore[attr-defined]


def test_team_fool_only_the_defenders_opponents_throw_in() -> None:
    """#55; S1:65 "Only his opponents throw cards at the player": after the last cover, the
    throwers the kernel asks are the reference's, the defender's two opponents, never his
    partner."""
    text = ("team_fool players=4 trump=6h stock=6h7d8d hands=7s8c/Tc9s/7h9c/Ts9h table=7c "
            "attacker=0 defender=1")
    ref = parse_position(text)
    cover = next(a for a in ref.legal_actions() if a.kind == DEFEND)
    k, _ = _play(ref, cover)
    assert sorted(kernel_snapshot(k)["throwers"]) == [0, 2]


def test_the_endgame_solver_tells_apart_the_order_of_uncovered_cards_under_transfer_2() -> None:
    """#10; S0:259 (a transfer matches "the last one thrown"): two positions with the same
    hands and the same uncovered cards, thrown in another order, have different moves, so
    the solvers' transposition keys (Python and compiled) must differ too, as they do in
    perevodnoy's window only when the moves are the same."""
    from bito.bots.solver import _key
    from bito.kernel.solver import position_key

    text = ("transfer_2 players=2 trump=6h stock=- hands=7h8h9h/7s8sKc "
            "table=9c<Jc,{order} attacker=0 defender=1")
    a, b = parse_position(text.format(order="7d,8d")), parse_position(text.format(order="8d,7d"))
    assert set(a.legal_actions()) != set(b.legal_actions())
    assert _key(a) != _key(b)
    assert position_key(from_state(a)) != position_key(from_state(b))
    base = text.replace("transfer_2", "perevodnoy")
    c, d = parse_position(base.format(order="7d,8d")), parse_position(base.format(order="8d,7d"))
    assert set(c.legal_actions()) == set(d.legal_actions())
    assert _key(c) == _key(d) and position_key(from_state(c)) == position_key(from_state(d))


def test_instant_loss_the_taker_reaching_the_limit_is_the_fool_at_once() -> None:
    """#21; S0:53 "The player who has 52 or more cards loses immediately", as the rule fact
    ``end.instant_loss_cards`` (here 8, on one deck, where the kernel plays it): P1 holds
    seven, takes two and is the fool with cards still in the stock; holding five, he takes
    up to seven and plays on."""
    text = ("podkidnoy+end.instant_loss_cards=8 players=2 trump=9d stock=9d7c8c9c "
            "hands=6c7hKs/6s7s8sJhQhKh7d table=Ac<=,Ad attacker=0 defender=1")
    ref = parse_position(text.replace("<=", ""))
    assert kernel.supports_state(ref)
    k, after = _play(ref, Action(TAKE, ()))
    while after.outcome is None and after.phase_name == "throw":
        k, after = _play(after, Action(PASS, ()))
    assert after.outcome is not None and after.outcome.loser == 1
    assert int(k[L.RESULT]) == L.FOOL and int(k[L.LOSER]) == 1
    calm = parse_position(text.replace("<=", "").replace("Kh7d table", " table"))
    k, after = _play(calm, Action(TAKE, ()))
    while after.phase_name == "throw":
        k, after = _play(after, Action(PASS, ()))
    assert after.outcome is None and int(k[L.RESULT]) == 0
