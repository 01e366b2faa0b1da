"""Rule scenarios of the shedding family: the Mau-Mau games (#86-#93, VARIANTS §3.12, seed S1)
and the adjacent-rank game (#94, VARIANTS §3.13, seed S3).

Each test sets up a position (hands, pile, stock written as cards), plays actions given as
text, and checks what the rule cited says must happen.
"""

from __future__ import annotations

import pytest

from bito.cards import cards_of, mask_of, parse_card, split_cards
from bito.errors import IllegalActionError, RulesError
from bito.games import new_game
from bito.games.shedding import AdjacentState, MauMauState


def C(text: str) -> int:
    return parse_card(text)


def mm(spec: str = "czech_fool", hands: tuple[str, ...] = ("7h", "9c"), pile: str = "6d",
       stock: str = "", to_act: int = 0, called: int = -1) -> MauMauState:
    """A Mau-Mau position: ``pile`` and ``stock`` list cards bottom to top."""
    s = new_game(spec, len(hands), seed=0).copy()
    s.hands = [mask_of(split_cards(h)) for h in hands]
    s.pile, s.stock = split_cards(pile), split_cards(stock)
    s.to_act, s.called, s.phase, s.drawn, s.ace_open = to_act, called, "play", -1, False
    return s


def legal(state: object) -> set[str]:
    return {str(a) for a in state.legal_actions()}  # type: ignore[attr-defined]


def act(state, *texts: str):
    for t in texts:
        state = state.apply(state.parse_action(t))
    return state


# --- #86 czech_fool ------------------------------------------------------------------------


def test_86_match_by_suit_or_rank():
    """#86, S1:21: "the next player can place a card of the same suit or value on it"."""
    s = mm(hands=("8d 9d 6c Th", "7c"), pile="6d")
    assert legal(s) == {"8d", "9d", "6c"}
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.parse_action("Th"))
    assert e.value.rule == "match"


def test_86_queen_is_wild_and_names_a_suit():
    """#86, S1:25-29: the queen goes on any card and its player orders a suit; the next player
    may then play only that suit or a queen."""
    s = mm(hands=("Qh 8c", "9s 9c Qd 7h"), pile="6d")
    assert {"Qh=c", "Qh=d", "Qh=h", "Qh=s"} <= legal(s)
    s = act(s, "Qh=s")
    assert s.to_act == 1 and s.called == 3
    assert legal(s) == {"9s", "Qd=c", "Qd=d", "Qd=h", "Qd=s"}


@pytest.mark.parametrize("card, draws", [("6d", 2), ("7d", 1)])
def test_86_six_and_seven_make_the_next_player_draw_and_skip(card, draws):
    """#86, S1:25: after a 6 the next player takes 2 cards and skips, after a 7 he takes 1."""
    s = mm(hands=(f"{card} Ac", "8c", "9c"), pile="Td", stock="Jc Jh Js")
    after = act(s, card)
    assert after.hands[1].bit_count() == 1 + draws
    assert after.to_act == 2  # seat 1 missed his turn
    assert len(after.stock) == 3 - draws


def test_86_ace_skips_the_next_player():
    """#86, S1:25: "Ace - skip a move"."""
    s = mm(hands=("Ad Kc", "8c", "9c"), pile="Td", stock="Jc")
    after = act(s, "Ad")
    assert after.to_act == 2 and after.hands[1].bit_count() == 1


def test_86_draw_until_a_card_fits_and_play_it():
    """#86, S1:23 and A4: without a fitting card he draws until one fits, then plays it."""
    s = mm(hands=("8c", "9c"), pile="6d", stock="Td Ks 9h Jc")  # top of the stock: Jc
    assert legal(s) == {"draw"}
    s = act(s, "draw")
    # Jc, 9h and Ks do not fit 6d; Td does
    assert s.phase == "drawn" and legal(s) == {"Td"}
    assert s.hands[0] == mask_of([C("8c"), C("Jc"), C("9h"), C("Ks"), C("Td")])
    s = act(s, "Td")
    assert s.top == C("Td") and s.to_act == 1


def test_86_empty_stock_turns_the_pile_over_keeping_the_top():
    """#86, S1:23: when the stock runs out the top card stays and the rest is turned over."""
    s = mm(hands=("8c", "9c"), pile="Ks Jd 6d", stock="")
    s = act(s, "draw")  # turned over, the bottom card Ks is on top: drawn first, no fit
    assert s.top == C("6d") and s.pile == [C("6d")] and s.stock == []
    assert C("Ks") in cards_of(s.hands[0]) and s.phase == "drawn" and s.drawn == C("Jd")


def test_86_penalty_points_and_the_lone_queen():
    """#86, S1:31-33: the winner scores nothing; the others count J 2, Q 3, K 4, A 11, other
    cards their value; a player left with one queen scores 20."""
    s = mm(hands=("9d", "Jc Kc Ac 7c", "Qs"), pile="6d", stock="8h 8s")
    s = act(s, "9d")  # seat 0 goes out
    assert s.last_round is not None
    assert s.last_round.penalties == (0, 2 + 4 + 11 + 7, 20)
    assert s.scores == [0, 24, 20]
    assert s.round == 1  # the next round was dealt, the totals kept


def test_86_scores_carry_over_rounds_and_the_outcome_reports_them():
    """#86 A5: a match is shed.rounds rounds; totals are kept; the outcome has the scores and
    names the highest total the fool."""
    s = new_game("czech_fool+shed.rounds=2", 2, seed=3)
    s = s.copy()
    s.hands = [mask_of([C("9d")]), mask_of([C("Ac")])]
    s.pile, s.stock, s.to_act, s.phase, s.called = [C("6d")], [C("8s")], 0, "play", -1
    s = act(s, "9d")
    assert s.scores == [0, 11] and s.round == 1 and not s.is_over
    s = s.copy()
    s.hands = [mask_of([C("Kc")]), mask_of([C("9h")])]
    s.pile, s.stock, s.to_act, s.phase, s.called = [C("6h")], [], 1, "play", -1
    s = act(s, "9h")
    assert s.is_over
    assert s.outcome.scores == (4, 11) and s.outcome.loser == 1 and s.outcome.rounds == 2


def test_86_a_special_card_acts_even_as_the_last_card():
    """#86 A6: a six played as the last card still makes the next player draw two."""
    s = mm(spec="czech_fool+shed.rounds=1", hands=("6d", "8c"), pile="Td", stock="Jc Jh Js")
    s = act(s, "6d")
    assert s.is_over and s.outcome.scores == (0, 8 + 2 + 2)


# --- options 1-7 ---------------------------------------------------------------------------


def test_87_draw_one_card_then_play_it_or_pass():
    """#87, S1:33: the player takes only one card; if it does not allow a move he skips."""
    s = mm(spec="czech_draw_one", hands=("8c", "9c"), pile="6d", stock="Td Ks")
    s = act(s, "draw")  # Ks does not fit: the turn passes
    assert s.to_act == 1 and C("Ks") in cards_of(s.hands[0])
    s = mm(spec="czech_draw_one", hands=("8c", "9c"), pile="6d", stock="Ks Td")
    s = act(s, "draw")  # Td fits: play it or pass
    assert legal(s) == {"Td", "pass"}


def test_88_small_deck_seven_draws_two_eight_draws_one():
    """#88, S1:35: with 32 cards a seven makes the next player raise two cards, an eight one."""
    s = new_game("czech_32card", 2, seed=1)
    assert s.cards_total() == 32
    s = mm(spec="czech_32card", hands=("7d 8d Kc", "9c", "9s"), pile="Td", stock="Jc Jh Js")
    assert act(s, "7d").hands[1].bit_count() == 3
    assert act(s, "8d").hands[1].bit_count() == 2


def test_89_jack_is_wild_and_the_dealer_opens_with_his_last_card():
    """#89, S1:35-37: six cards each, the dealer's last card is his move, the jack (not the
    queen) is wild."""
    s = new_game("czech_jack_wild", 3, seed=5)
    dealt = sum(h.bit_count() for h in s.hands)
    assert dealt == 3 * 6 - 1 and len(s.pile) == 1
    s = mm(spec="czech_jack_wild", hands=("Jh Qc", "9s"), pile="6d")
    assert "Jh=s" in legal(s) and "Qc" not in legal(s)


def test_89_left_with_a_lone_jack_loses_the_round():
    """#89, S1:37 and A1: a player left with just a jack is the round's loser whatever the
    points."""
    s = mm(spec="czech_jack_wild", hands=("9d", "Jc", "Ac Kc"), pile="6d", stock="8h")
    s = act(s, "9d")
    r = s.last_round
    assert r is not None and r.loser == 1
    assert r.penalties[1] > r.penalties[2] == 15


def test_90_english_ace_follow_up_and_suit_call():
    """#90, S1:37: the ace's player puts another card of its suit and orders a suit different
    from the ace's."""
    s = mm(spec="english_fool", hands=("Ad 9d Kc", "9s 8h"), pile="6d")
    s = act(s, "Ad")
    assert s.to_act == 0 and legal(s) == {"9d=c", "9d=h", "9d=s"}
    s = act(s, "9d=h")
    assert s.to_act == 1 and s.called == 2  # no skip: the call replaces it (A2)
    assert legal(s) == {"8h"}


def test_90_english_ace_without_a_follow_up_passes_the_call_on():
    """#90, S1:39: without a card of the ace's suit he takes one card; if it does not help he
    loses the move and the call, which the next player gets by covering the ace with its
    suit."""
    s = mm(spec="english_fool", hands=("Ad Kc", "9d 8h"), pile="6d", stock="7s")
    s = act(s, "Ad")
    assert legal(s) == {"draw"}
    s = act(s, "draw")
    assert s.to_act == 1 and s.called == -1
    assert {"9d=c", "9d=d", "9d=h", "9d=s"} <= legal(s) and "8h" not in legal(s)


def test_91_pharaoh_queen_out_and_lone_queen():
    """#91, S1:41-43: four cards each; going out on a queen deducts 30; a lone queen left in
    hand scores 30."""
    s = new_game("pharaoh", 3, seed=2)
    assert [h.bit_count() for h in s.hands] == [4, 4, 4]
    s = mm(spec="pharaoh", hands=("Qh", "Qs", "7c"), pile="6d", stock="8s")
    s = act(s, "Qh=c")
    assert s.last_round is not None and s.last_round.penalties == (-30, 30, 7)


def test_92_pentagon_suit_only_six_on_six_and_the_call_skips():
    """#92, S1:43-45: cards go only on their suit; a same-value card only six on six; after a
    queen's call the next player skips."""
    s = mm(spec="pentagon", hands=("8d 8c 6c Qs", "9s", "9h"), pile="8h 6d")
    assert legal(s) >= {"8d", "6c"} and "8c" not in legal(s)
    s = mm(spec="pentagon", hands=("8d Qs", "9s", "9h"), pile="8h")
    assert "8d" not in legal(s)
    s = act(s, "Qs=h")
    assert s.to_act == 2 and legal(s) == {"9h"}


def test_92_pentagon_points():
    """#92, S1:45-47: A 11, K 4, Q 20, J 2, 10 10, other cards nothing."""
    s = mm(spec="pentagon", hands=("9d", "Ac Kc Qc Jc Tc 9c 8c 7c"), pile="6d", stock="8h")
    s = act(s, "9d")
    assert s.last_round is not None and s.last_round.penalties == (0, 11 + 4 + 20 + 2 + 10)


def test_93_crocodile_king_of_hearts_draws_five():
    """#93, S1:49: option 1 rules plus the king of hearts: the next player skips and takes 5."""
    s = mm(spec="crocodile", hands=("Kh 7c", "9c", "9s"), pile="Th", stock="6c 6s 7s 8s 9h Jh")
    s = act(s, "Kh")
    assert s.hands[1].bit_count() == 6 and s.to_act == 2
    assert new_game("crocodile", 2, seed=1).rules.draw_rule == "one"


def test_mau_mau_options_are_checked_with_their_key():
    with pytest.raises(RulesError) as e:
        new_game("czech_fool+shed.draw_rule=never", 2, seed=1)
    assert e.value.key == "shed.draw_rule"
    with pytest.raises(RulesError) as e:
        new_game("czech_fool+shed.colour=red", 2, seed=1)
    assert e.value.key == "shed.colour"
    with pytest.raises(RulesError):
        new_game("czech_fool", 7, seed=1)


# --- #94 the adjacent-rank game --------------------------------------------------------------


def adj(hands: tuple[str, ...], pile: str, stock: str = "", to_act: int = 0) -> AdjacentState:
    s = new_game("ontoys_adjacent_rank", len(hands), seed=0).copy()
    s.hands = [mask_of(split_cards(h)) for h in hands]
    s.pile, s.stock = split_cards(pile), split_cards(stock)
    s.to_act, s.out, s.pending_out, s.passes, s.anti_rank = to_act, [], -1, 0, False
    s.turn_start = True
    return s


def test_94_priority_one_rank_up_or_down_first():
    """#94, S3:25-26: a card one rank higher or lower, any suit, comes first; the same rank
    only when that is impossible; K and A are neighbours."""
    s = adj(("8c 6s 7h Ah", "2c"), "7d")
    assert legal(s) == {"8c", "6s"}
    s = adj(("7h As 2c", "3c"), "Kd")
    assert legal(s) == {"As"}
    s = adj(("7h Td", "3c"), "7d")
    assert legal(s) == {"7h"}


def test_94_then_ace_or_king_then_joker_and_anything_on_a_joker():
    """#94, S3:27-29: an ace or a king on any card only if steps 1-2 fail; a joker only if
    everything else fails; any card goes on a joker."""
    s = adj(("Ah Ks RJ 9c", "2c"), "5d")
    assert legal(s) == {"Ah", "Ks"}
    s = adj(("RJ 9c", "2c"), "5d")
    assert legal(s) == {"RJ"}
    s = adj(("9c 2h", "2c"), "RJ")
    assert legal(s) == {"9c", "2h"}


def test_94_the_turn_stays_while_the_player_can_play():
    """#94, S3:25 ("the course is reserved for the player"): he goes on after each card."""
    s = adj(("8c 9h 3s", "2c"), "7d", stock="5c 5d")
    s = act(s, "8c")
    assert s.to_act == 0 and legal(s) == {"9h"}


def test_94_stuck_draw_one_and_go_on_or_pass_the_turn():
    """#94, S3:30: no legal card: take one; if it fits play on, otherwise the turn passes."""
    s = adj(("3s", "2c"), "7d", stock="Jc 8h")
    s = act(s, "draw")
    assert s.to_act == 0 and legal(s) == {"8h"}
    s = adj(("3s", "2c"), "7d", stock="8h Jc")
    s = act(s, "draw")
    assert s.to_act == 1


def test_94_going_out_returns_if_the_next_player_can_play():
    """#94, S3:34: A plays his last card; if B can play, A takes two cards and is back in."""
    s = adj(("8c", "9d 4s", "Kc"), "7d", stock="2h 3h 4h")
    s = act(s, "8c")
    assert s.pending_out == 0 and s.to_act == 1
    s = act(s, "9d")
    assert s.pending_out == -1 and 0 not in s.out and s.hands[0].bit_count() == 2


def test_94_going_out_is_final_when_the_next_player_must_draw():
    """#94, S3:34: if B cannot discard and draws, A is out, even if B then plays the card."""
    s = adj(("8c", "4s", "Kc"), "7d", stock="2h 3h 9h")
    s = act(s, "8c", "draw")
    assert s.out == [0] and s.to_act == 1 and legal(s) == {"9h"}


def test_94_anti_rank_after_a_round_of_passes_with_the_stock_empty():
    """#94, S3:36 (A3, A4): with the stock gone and nobody able to play, the player to move
    may put down any card and the turn passes."""
    s = adj(("4s 5s", "Jc Jd"), "9h")
    s = act(s, "pass", "pass")
    assert s.anti_rank and legal(s) == {"4s", "5s"}
    s = act(s, "4s")  # the turn passes; seat 1 still cannot play on 4s, so Anti-Rank goes on
    assert s.to_act == 1 and s.anti_rank and legal(s) == {"Jc", "Jd"}
    s = act(s, "Jc")
    assert s.to_act == 0 and legal(s) == {"5s"}  # 5s fits nothing on Jc: Anti-Rank again
    s = adj(("4s 5s", "Jc 3d"), "9h")
    s = act(s, "pass", "pass", "4s")
    assert not s.anti_rank or legal(s) == {"3d"}
    assert legal(s) == {"3d"}  # 3d is a rank below 4s: normal play again


def test_94_last_player_with_cards_is_the_fool():
    """#94, S3:32: the game goes on until all players but one are rid of their cards."""
    s = adj(("8c", "Kc Kd"), "7d")
    s = act(s, "8c")  # stock empty: out at once
    assert s.is_over and s.outcome.loser == 1 and s.outcome.order == (0, 1)


def test_94_packs_by_player_count():
    """#94, S3:14-15: 52 cards and 2 jokers; two packs for 5-10 players."""
    assert new_game("ontoys_adjacent_rank", 4, seed=1).cards_total() == 54
    assert new_game("ontoys_adjacent_rank", 5, seed=1).cards_total() == 108
