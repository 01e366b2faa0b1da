"""One test per rule bug that other Durak engines ship (/tmp/research/peer_bugs.md).

All fifteen concern the base games (VARIANTS §1 defaults, house rules off). Unless stated the
trump suit is clubs, seats are clockwise and seat 0 attacks seat 1.
"""

from __future__ import annotations

import random

import pytest

from bito.cards import DIAMONDS, HIDDEN, cards_of, rank_of, suit_of
from bito.errors import IllegalActionError
from bito.games.durak import MatchContext, new_game, next_match_context, parse_action
from bito.games.durak.playout import random_playout
from bito.notation import parse_censored, position_text
from conftest import (
    C,
    P,
    cards,
    fingerprint,
    hand,
    legal,
    lowest_trump_holder,
    play,
    random_walk,
    rule_of,
    shuffled_pack,
)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_dm_defrank_defence_ranks_open_throw_ins(variant):
    """DM-DEFRANK; VARIANTS §1.5 'rank of any card on the table (attack or defence)'; S0:302
    'including those that were moved and those with which they were wings'. P0 leads 6h, P1
    covers with 9h: P0 may throw exactly 9s; Ts is refused."""
    s = P(f"{variant} players=2 trump=Ac stock=AcKc hands=6h9sTsJd/9hQdKs attacker=0")
    s = play(s, "6h", "9h>6h")
    assert legal(s) == {"9s", "pass"}
    assert rule_of(s, "Ts") == "throw-in rank"


def test_dm_cap_uses_defender_hand_at_bout_start():
    """DM-CAP (a); VARIANTS §1.5 Cap 'total attack cards <= D's hand size at bout start'; S0:302
    'you cannot throw more cards than the beating player has left'. Stock empty, P1 holds 3 at
    bout start: after two covers (1 card left, nothing uncovered) the third attack card 9d is
    still legal; once it is covered nothing more can be thrown."""
    s = P("podkidnoy players=2 trump=Ac stock=- hands=7s7d9dTh7h/9sTdJd attacker=0")
    s = play(s, "7s", "9s>7s", "7d", "pass", "Td>7d")
    assert hand(s, 1) == cards("Jd")
    assert "9d" in legal(s)
    s = play(s, "9d")
    assert s.to_act == 1  # the third card used up the cap
    s = play(s, "Jd>9d")
    assert rule_of(s, "Th") in ("game over", "throw-in limit")
    assert s.is_over and s.outcome.loser == 0


def test_dm_cap_never_more_than_six():
    """DM-CAP (b); VARIANTS §1.5 Cap of 6; S1:63 'no more than six cards can be thrown'. Stock
    not empty, P1 holds 8 after an earlier take: with 6 attack cards down a 7th is refused."""
    s = P("podkidnoy players=2 trump=Ac stock=AcKc hands=7h8hJhAhAs/9c9s9dTcTsTdJcJs "
          "table=7c<Qc,7s<Qs,7d<Qd,9h<Kh,8s<Ks,8d<Kd phase=throw throwers=0 to_act=0")
    assert legal(s) == {"pass"}
    assert rule_of(s, "7h") == "throw-in limit"


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_dm_takethrow_throw_in_after_take(variant):
    """DM-TAKETHROW; VARIANTS §1.5 'Throw after TAKE: allowed'; S0:302 'You can also throw
    cards, when player decided to accept cards'; S1:97. P1 (6 cards) takes 8s; P0 adds 8h, P2
    adds 8d; P1 picks up all three (9 cards)."""
    s = P(f"{variant} players=3 trump=Ac stock=AcKc hands=8hJsQsKs/6c7c9dJdQdKd/8dAdQh "
          "attacker=0 table=8s")
    s = play(s, "take")
    assert s.to_act == 0 and "8h" in legal(s)
    s = play(s, "8h", "pass")
    assert s.to_act == 2 and "8d" in legal(s)
    s = play(s, "8d", "pass", "pass")
    assert hand(s, 1) == cards("6c7c9dJdQdKd8s8h8d")


DRAW_PODKIDNOY = ("podkidnoy players=3 trump=Ac stock=Ac9c attacker=0 "
                  "hands=8c8dJsQsKs/TdJcQcKc/8hJhQhKhAh table=7s<9s,7d")


def test_dm_draworder_podkidnoy():
    """DM-DRAWORDER (podkidnoy); VARIANTS §1.7 'the attacker who led first, then the other
    players clockwise, the defender last'; S0:293 'Takes first cards walked player, the
    bouncer takes the last one'. P0 gets the top card, P2 the trump card, P1 nothing."""
    s = play(P(DRAW_PODKIDNOY), "Td>7d", "pass", "pass")
    assert C("9c") in hand(s, 0) and C("Ac") in hand(s, 2)
    assert len(hand(s, 1)) == 3 and not s.stock


def test_dm_draworder_perevodnoy():
    """DM-DRAWORDER (perevodnoy default); VARIANTS §1.6 'starts with the player on the right of
    the final defender'; S4:4 'Добор карт начинает игрок, сидящий по правую руку от
    отбивающегося'. P0->P1, P1 transfers to P2, P2 beats: P1 gets the top card, P0 the trump
    card, P2 nothing."""
    s = P("perevodnoy players=3 trump=Ac stock=Ac9c attacker=0 "
          "hands=JcQcKcJdJs/ThQdKdAdQs8d/9s9dJhQhKh table=8s")
    s = play(s, "=8d", "9s>8s", "9d>8d", "pass", "pass")
    assert C("9c") in hand(s, 1) and C("Ac") in hand(s, 0)
    assert len(hand(s, 2)) == 3 and not s.stock


def test_dm_taketurn_taker_loses_his_turn():
    """DM-TAKETURN; VARIANTS §1.3 take -> first active player left of D attacks; S0:249 'he
    misses the move, and the person sitting on the left will'; S1:63."""
    text = "podkidnoy players=3 trump=Ac stock=- hands=7sJd/9sQd/KdTh attacker=0"
    took = play(P(text), "7s", "take", "pass", "pass")
    assert (took.attacker, took.defender) == (2, 0)
    beat = play(P(text), "7s", "9s>7s", "pass", "pass")
    assert (beat.attacker, beat.defender) == (1, 2)
    two = play(P("podkidnoy players=2 trump=Ac stock=- hands=7sJd/9sQd attacker=0"),
               "7s", "take", "pass")
    assert (two.attacker, two.defender) == (0, 1)


def test_dm_xferwin_no_transfer_after_a_cover():
    """DM-XFERWIN; VARIANTS §1.6 Window 'Only while no card has been covered yet'; S1:72 'If at
    least one card is covered, then all the others must be repulsed and cannot be
    transferred'."""
    s = P("perevodnoy players=3 trump=Ac stock=- hands=Ad/9s7d8hKd/JcJdQd attacker=0 "
          "table=7s,7h")
    assert "=7d" in legal(s)
    s = play(s, "9s>7s")
    assert rule_of(s, "=7d") == "transfer window"
    assert legal(s) == {"8h>7h", "take"}


def test_dm_xfercap_next_player_must_hold_enough():
    """DM-XFERCAP; VARIANTS §1.6 Cap; S1:72 'has fewer cards than the transfer, then the
    transfer is prohibited'; S0:307 'You cannot transfer more cards than the next one player
    has in his hands'."""
    one = P("perevodnoy players=3 trump=Ac stock=- hands=Ad/7hKd/Jd attacker=0 table=7s")
    assert rule_of(one, "=7h") == "transfer limit"
    two = P("perevodnoy players=3 trump=Ac stock=- hands=Ad/7hKd/JdQd attacker=0 table=7s")
    assert "=7h" in legal(two)
    duel = P("perevodnoy players=2 trump=Ac stock=- hands=Ad/7hKdQdJd attacker=0 table=7s,7c")
    assert rule_of(duel, "=7h") == "transfer limit"


def test_dm_drawcheck_result_only_after_the_bout():
    """DM-DRAWCHECK; VARIANTS §1.8 Draw; S0:297 'at the end of the game, no one has any cards
    left'; S1:99. Not decided mid-bout; a draw when both hands empty; otherwise the holder
    loses."""
    s = play(P("podkidnoy players=2 trump=Ac stock=- hands=Ks/As attacker=0"), "Ks")
    assert not s.is_over and s.to_act == 1
    s = play(s, "As>Ks")
    assert s.is_over and s.outcome.draw and s.outcome.loser is None
    s = play(P("podkidnoy players=2 trump=Ac stock=- hands=Ks/As6d attacker=0"), "Ks", "As>Ks")
    assert s.is_over and s.outcome.loser == 1 and s.outcome.order == (0, 1)


def test_dm_leave_lb_earlyend_empty_hand_with_stock_left_draws_again():
    """DM-LEAVE / LB-EARLYEND; VARIANTS §1.8 'A player who empties his hand while the stock
    still has cards just draws again'; S0:295 'provided that cards the deck is over'."""
    s = P("podkidnoy players=2 trump=Ac stock=Ac7c8c9cTcJcQc7d8d9d attacker=0 "
          "hands=6s/9sTdJdQdKdAd")
    s = play(s, "6s")
    assert not s.out
    s = play(s, "9s>6s")  # P0 has no card to throw: the bout ends, everyone refills
    assert not s.is_over and s.outcome is None and not s.out
    assert len(hand(s, 0)) == 6 and len(hand(s, 1)) == 6 and len(s.stock) == 3
    assert (s.attacker, s.defender, s.phase_name) == (1, 0, "lead")


@pytest.mark.parametrize("variant", ["simple", "podkidnoy", "perevodnoy"])
def test_cs_emptypass_no_pass_at_bout_start(variant):
    """CS-EMPTYPASS; VARIANTS §1.3 'LEAD: A plays a legal opening set': with an empty table the
    attacker must lead (S0:278 'The game begins with the player's move with the lowest trump
    card'; S0:293 'You can walk either with one cards any value, or from several cards of the
    same value'); pass and take are refused."""
    for seed in range(30):
        s = new_game(variant, players=2 + seed % 5, seed=seed)
        assert all(a.kind_name == "attack" for a in s.legal_actions())
        assert rule_of(s, "pass") == "lead"
        with pytest.raises(IllegalActionError):
            s.apply(parse_action("take"))


def test_cs_noop_ace_covers_king():
    """CS-NOOP (a); VARIANTS §1.2 beat relation (S0:214). Trump clubs, K of hearts led: A of
    hearts covers, Q of hearts does not; applying the cover covers the king."""
    s = P("podkidnoy players=2 trump=Ac stock=AcTc hands=Jd/AhQh7s table=Kh")
    assert "Ah>Kh" in legal(s) and "Qh>Kh" not in legal(s)
    s = play(s, "Ah>Kh")
    assert s.table_pairs() == [(C("Kh"), C("Ah"))]


def test_cs_noop_every_legal_action_changes_state_and_legal_iff_apply():
    """CS-NOOP (b); VARIANTS §1.3 state machine: over 1,000 seeded random games (2-6 players,
    the three base games) every legal action changes the position and is accepted by apply.
    No seed line: engine decision, VARIANTS §1.3 (an invariant of the state machine, not a
    rule of play)."""
    variants = ("simple", "podkidnoy", "perevodnoy")
    for seed in range(1000):
        s = new_game(variants[seed % 3], players=2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            acts = s.legal_actions()
            assert acts
            a = acts[rng.randrange(len(acts))]
            nxt = s.apply(a)
            assert fingerprint(nxt) != fingerprint(s), (seed, str(a))
            s = nxt


def test_cs_xfertarget_transfer_needs_defenders_own_card():
    """CS-XFERTARGET; VARIANTS §1.6 'D may add a card of the same rank'; S1:71 'by placing his
    card of the same value'. The next player's 8 does not give the defender a transfer."""
    none = P("perevodnoy players=3 trump=Ac stock=- hands=Ad/9sQhKd/8dJdQdKc attacker=0 "
             "table=8s")
    assert not any(a.startswith("=") for a in legal(none))
    ok = P("perevodnoy players=3 trump=Ac stock=- hands=Ad/8hQhKd/9dJdQdKcTsTh attacker=0 "
           "table=8s")
    assert "=8h" in legal(ok)


def test_lb_trump_is_the_turned_up_card():
    """LB-TRUMP; VARIANTS §1.1 Trump; S0:291 'the next card is opened ... its suit determines
    the trump card'; S1:63 'The draw is completed with the card revealed when dealt'. The
    trump suit is the face-up card's suit; the card is the last in the stock, seen by every
    seat; whoever draws the last card holds it. 6 players: the dealer's last card."""
    for seed in range(10):
        s = new_game("podkidnoy", players=2, seed=seed)
        assert s.trump_suit == suit_of(s.trump_card) and s.stock[0] == s.trump_card
        for seat in range(2):
            assert parse_censored(position_text(s, seat)).stock[0] == s.trump_card
        for before, _, after in random_walk(s, random.Random(seed)):
            if before.stock and not after.stock:
                holders = [p for p in range(2) if after.hands[p] >> s.trump_card & 1]
                assert len(holders) == 1
                break
    for seed in range(5):
        s = new_game("podkidnoy", players=6, seed=seed)
        last = shuffled_pack(36, seed)[35]
        assert s.trump_card == last and last in hand(s, s.deal.dealer)
        for seat in range(6):
            shown = parse_censored(position_text(s, seat)).hands[s.deal.dealer]
            assert last in shown and (seat == s.deal.dealer or HIDDEN in shown)


def test_fa_lowtrump_first_attacker():
    """FA-LOWTRUMP; VARIANTS §1.8 First attacker: lowest trump (S0:212 'The player with the
    smallest trump card starts the first move'); no trump -> lowest card, ties clockwise from
    the dealer's left (S0:247); later deals: the player left of the fool (S1:6)."""
    specific = 0
    for seed in range(300):
        s = new_game("podkidnoy", players=3, seed=seed)
        assert s.attacker == lowest_trump_holder(s) or lowest_trump_holder(s) is None
        assert s.defender == (s.attacker + 1) % 3
        if s.trump_suit == DIAMONDS and s.attacker == 2:
            specific += 1
            trumps0 = [c for c in cards_of(s.hands[0]) if suit_of(c) == DIAMONDS]
            low2 = min(rank_of(c) for c in cards_of(s.hands[2]) if suit_of(c) == DIAMONDS)
            assert all(rank_of(c) > low2 for c in trumps0) and s.defender == 0
    assert specific
    for seed in range(3000):
        s = new_game("podkidnoy+deck.size=52", players=3, seed=seed)
        if lowest_trump_holder(s) is None:
            order = [(s.deal.dealer + i) % 3 for i in (1, 2, 3)]
            low = min(rank_of(c) for h in s.hands for c in cards_of(h))
            first = next(p for p in order if any(rank_of(c) == low for c in cards_of(s.hands[p])))
            assert s.attacker == first
            break
    else:
        pytest.fail("no deal without trumps found")
    end = play(P("podkidnoy players=3 trump=6h stock=- attacker=0 hands=7s/9s/Kd6c"),
               "7s", "9s>7s")
    later = new_game("podkidnoy", players=3, seed=1, match=next_match_context(end))
    assert later.attacker == (end.outcome.loser + 1) % 3


def test_dg_subsets_single_card_throw_ins_after_take():
    """DG-SUBSETS; VARIANTS §1.5 throw-ins one card at a time after TAKE. P1 (10 cards) takes
    6s; P0 holding 6h 6d 6c 9s 9h is offered only single sixes and pass; the 9s are refused.
    S0:302 'You can also throw cards, when player decided to accept cards'; S1:97 'The cards
    that are thrown must match the value of the cards that the player picks up'. One card per
    throw action is the engine's move granularity (engine decision, VARIANTS §1.5)."""
    s = P("podkidnoy players=2 trump=Ac stock=AcKc hands=6h6d6c9s9h/7c7d8c8d8hTcTdThJcJd "
          "attacker=0 table=6s")
    s = play(s, "take")
    thrown = 0
    while s.to_act == 0 and s.taking:
        acts = legal(s)
        assert acts == {card for card in ("6h", "6d", "6c") if C(card) in hand(s, 0)} | {"pass"}
        assert rule_of(s, "9s") == "throw-in rank"
        if acts == {"pass"}:
            break
        s = play(s, sorted(acts - {"pass"})[0])
        thrown += 1
    assert thrown == 3


def test_dg_subsets_random_games_always_finish():
    """DG-SUBSETS: 1,000 random-vs-random games (2-6 players, three base games) all finish
    within a bounded number of moves (VARIANTS §1.3: every bout ends, S1:97 'has beaten all
    the cards that he was offered to beat, or has beaten exactly six cards'; the game ends,
    S0:217 'until one player is left with the cards')."""
    variants = ("simple", "podkidnoy", "perevodnoy")
    for seed in range(1000):
        s = new_game(variants[seed % 3], players=2 + seed % 5, seed=seed)
        outcome, steps = random_playout(s, random.Random(seed))
        assert outcome is not None and steps < 2000


def test_later_deal_context_is_used():
    """FA-LOWTRUMP later-deal part, via MatchContext directly (§1.8 B5 default from_under_fool,
    S1:6 'from under the fool, the player who sits to the left of the fool goes first')."""
    s = new_game("podkidnoy", players=3, seed=2,
                 match=MatchContext(game_number=2, dealer=1, previous_fool=1))
    assert (s.attacker, s.defender) == (2, 0)
