"""Rule scenarios for the three base games, VARIANTS.md §1.1-§1.9.

Each test names the catalogue section/id and the seed line it checks. Positions are written in
position notation; expected results are derived from the rule, never copied from the engine.
Seats are numbered clockwise: seat 0 attacks seat 1 (his left neighbour).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bito.cards import ACE, HIDDEN, card_str, cards_of, rank_of, standard_deck, suit_of
from bito.errors import RulesError
from bito.games.durak import new_game, next_match_context
from bito.notation import parse_censored, position_text
from conftest import (
    C,
    P,
    assert_conserved,
    cards,
    final_state,
    hand,
    legal,
    lowest_trump_holder,
    play,
    random_walk,
    rule_of,
    shuffled_pack,
    subsets_same_rank,
)

SUITS = "cdhs"



# --- §1.1 components and setup -------------------------------------------------------------------


@pytest.mark.parametrize("size,low", [(24, 9), (36, 6), (52, 2)])
def test_deck_sizes_and_ranks(size, low):
    """VARIANTS §1.1 Deck, #1/#7/#8; S0:289 'a deck of 36 cards. The smallest card is a six,
    the highest is an ace'; S0:3 'in the case of a 52-card deck'. 24 = 9..A."""
    s = new_game(f"podkidnoy+deck.size={size}", players=2, seed=11)
    dealt = [c for h in s.hands for c in cards_of(h)] + list(s.stock)
    assert len(dealt) == size == len(set(dealt))
    expected = {(r, su) for r in range(low, ACE + 1) for su in range(4)}
    assert {(rank_of(c), suit_of(c)) for c in dealt} == expected


@pytest.mark.parametrize("size,most", [(24, 4), (36, 6), (52, 8)])
def test_player_limits(size, most):
    """VARIANTS §1.1 Players: 2-6 with 36 cards, up to 8 with 52 (24 cards: 4 hands of 6);
    S0:291 'from two to six people'; S0:3 'in the case of a 52-card deck, up to 8 players'."""
    spec = f"podkidnoy+deck.size={size}"
    for n in range(2, most + 1):
        s = new_game(spec, players=n, seed=n)
        assert [h.bit_count() for h in s.hands] == [6] * n
    with pytest.raises(RulesError):
        new_game(spec, players=most + 1, seed=1)
    with pytest.raises(RulesError):
        new_game(spec, players=1, seed=1)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_six_each_one_at_a_time_from_dealers_left(players):
    """VARIANTS §1.1 Deal: one card at a time, clockwise from the dealer's left, 6 each;
    S1:63 'dealt one at a time. Each player must have six cards'; S0:291 'Each one is dealt
    6 cards'. The i-th card of the pack goes to seat dealer+1+i (mod n)."""
    for seed in range(15):
        s = new_game("podkidnoy", players=players, seed=seed)
        pack = shuffled_pack(36, seed)
        d = s.deal.dealer
        for i in range(6 * players):
            assert pack[i] in hand(s, (d + 1 + i) % players), (seed, i)


def test_dealer_is_chosen_by_lot_in_the_first_deal():
    """VARIANTS §1.1 First dealer by lot; S0:243 'for the first time he is determined by lot'."""
    dealers = Counter(new_game("podkidnoy", players=4, seed=seed).deal.dealer
                      for seed in range(200))
    assert set(dealers) == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_trump_card_is_next_card_turned_up_under_the_stock(players):
    """VARIANTS §1.1 Trump, B3 default: the next card after the deal is turned up and placed
    under the stock, the rest drawn in pack order; S0:291 'the next card is opened and placed
    on the table, its suit determines the trump card'."""
    for seed in range(15):
        s = new_game("podkidnoy", players=players, seed=seed)
        pack = shuffled_pack(36, seed)
        rest = pack[6 * players:]
        assert s.trump_card == rest[0]
        assert s.trump_suit == suit_of(rest[0])
        # stock is written bottom first: the trump card lies at the bottom, drawn last; the
        # other cards are drawn in pack order, so the top of the stock is the next pack card.
        assert list(s.stock) == [rest[0], *reversed(rest[1:])]


def test_trump_card_is_visible_to_every_seat():
    """VARIANTS §1.1 Trump: face up, 'visible to everyone'; S0:3 'the rest of the deck is
    placed on top so that the trump card is visible to everyone'."""
    s = new_game("podkidnoy", players=4, seed=5)
    for seat in range(4):
        v = s.view(seat)
        assert v.trump_card == s.trump_card and v.trump_card_in_stock
        censored = parse_censored(position_text(s, seat))
        assert censored.stock[0] == s.trump_card
        assert all(c == HIDDEN for c in censored.stock[1:])


@pytest.mark.parametrize("variant", ["simple", "podkidnoy", "perevodnoy"])
def test_trump_card_is_drawn_last_and_then_known_to_all(variant):
    """VARIANTS §1.1/§1.7: the face-up trump card is the last card drawn, and once drawn all
    know who holds it; S1:63 'The draw is completed with the card revealed when dealt';
    S1:53 'Drawing stops when the last card indicating the trump suit is taken'."""
    checked = 0
    for seed in range(12):
        s = new_game(variant, players=3, seed=seed)
        trump = s.trump_card
        for before, _, after in random_walk(s, random.Random(seed)):
            if after.stock:
                assert after.stock[0] == trump
                continue
            if before.stock:  # the stock just ran out: the trump card was the last drawn
                holder = [p for p in range(3) if after.hands[p] >> trump & 1]
                assert len(holder) == 1
                for seat in range(3):
                    assert after.view(seat).known[holder[0]] >> trump & 1
                checked += 1
    assert checked >= 10


@pytest.mark.parametrize("source", ["last_card", "bottom_card"])
def test_trump_source_last_or_bottom_card(source):
    """VARIANTS §1.1 B3 option trump.source=last_card/bottom_card: the last (bottom) card of
    the pack is turned up; S0:3 'the next (or the last, possibly any of the deck) card is
    revealed'; S0:243 'The top (less often - bottom) card of the deck is revealed'."""
    for seed in range(15):
        s = new_game(f"podkidnoy+trump.source={source}", players=3, seed=seed)
        pack = shuffled_pack(36, seed)
        assert s.trump_card == pack[-1]
        assert s.stock[0] == pack[-1]  # still drawn last
        assert sorted(s.stock) == sorted(pack[18:])


def test_trump_source_any_card():
    """VARIANTS §1.1 B3 option trump.source=any_card; S0:3 'possibly any of the deck': some
    undealt card, not always the top or the bottom one, and it is drawn last."""
    positions = set()
    for seed in range(40):
        s = new_game("podkidnoy+trump.source=any_card", players=2, seed=seed)
        rest = shuffled_pack(36, seed)[12:]
        assert s.trump_card in rest and s.stock[0] == s.trump_card
        assert sorted(s.stock) == sorted(rest)
        positions.add(rest.index(s.trump_card))
    assert positions - {0, len(rest) - 1}, "any_card never picked a middle card"


def test_whole_deck_dealt_dealers_last_card_is_public_trump():
    """VARIANTS §1.1 Trump, B3: whole deck dealt (6 players x 6 = 36) - the last dealt card is
    shown, fixes the trump, and its receiver (the dealer) keeps it; S0:243 'the whole deck is
    dealt, and the last card is appointed as the trump card'."""
    for seed in range(10):
        s = new_game("podkidnoy", players=6, seed=seed)
        pack = shuffled_pack(36, seed)
        d = s.deal.dealer
        assert not s.stock
        assert s.trump_card == pack[35] and s.trump_suit == suit_of(pack[35])
        assert pack[35] in hand(s, d)
        for seat in range(6):
            assert s.view(seat).known[d] >> pack[35] & 1
            shown = parse_censored(position_text(s, seat)).hands[d]
            assert pack[35] in shown
        final = final_state(s, random.Random(seed))
        assert final.is_over


# --- §1.2 beat relation --------------------------------------------------------------------------


def _expected_beaters(attack_card: int, trump: int, deck: list[int]) -> set[int]:
    out = set()
    for d in deck:
        if d == attack_card:
            continue
        same_suit_higher = (suit_of(d) == suit_of(attack_card)
                            and rank_of(d) > rank_of(attack_card))
        trump_on_plain = suit_of(d) == trump and suit_of(attack_card) != trump
        if same_suit_higher or trump_on_plain:
            out.add(d)
    return out


@pytest.mark.parametrize("size", [36, 52, 24])
def test_beat_relation_exhaustive(size):
    """VARIANTS §1.2: d beats a iff same suit and higher, or d is trump and a is not; a trump
    only by a higher trump; S0:214 'the same suit ... but with a larger denomination'; S0:247
    'A trump card can only be beaten by a trump card of greater significance'."""
    deck = list(standard_deck(size))
    for trump in (SUITS if size == 36 else "h"):
        trump_card = next(c for c in deck if card_str(c)[1] == trump)
        for a in deck:
            others = [c for c in deck if c != a]
            text = (f"podkidnoy+deck.size={size} players=2 trump={card_str(trump_card)} stock=- "
                    f"hands=-/{''.join(card_str(c) for c in others)} table={card_str(a)}")
            s = P(text)
            covers = {a2.cards[0] for a2 in s.legal_actions() if a2.kind_name == "defend"}
            assert covers == _expected_beaters(a, "cdhs".index(trump), deck), card_str(a)


@pytest.mark.parametrize("cover", ["8s", "Kd", "Qc"])
def test_beat_relation_violation_names_the_rule(cover):
    """VARIANTS §1.2; S0:214: a lower card of the suit or another non-trump suit does not beat.
    The error names the beat relation."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=As/8sKdQcTs table=9s")
    assert rule_of(s, f"{cover}>9s") == "beat relation"
    assert "Ts>9s" in legal(s)


def test_trump_beaten_only_by_higher_trump():
    """VARIANTS §1.2; S0:289 'in its suit is only valid in ascending order'; S1:6 'repulsed
    accordingly with a trump card of higher value'."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=Ks/As6h8hKd table=7h")
    assert {a for a in legal(s) if ">" in a} == {"8h>7h"}
    assert rule_of(s, "As>7h") == "beat relation"
    assert rule_of(s, "6h>7h") == "beat relation"


def test_defender_may_take_even_when_able_to_beat():
    """VARIANTS §1.2 'choose to take even if able to beat'; S0:247 'could not or did not want
    to beat off the move, he takes all the cards'."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=9dJd/8sAsKd table=7s")
    assert "8s>7s" in legal(s) and "take" in legal(s)
    s = play(s, "take", "pass")
    assert C("7s") in hand(s, 1)
    assert s.attacker == 0 and s.defender == 1  # 2 players: the taker skips, seat 0 again


def test_any_cover_order():
    """VARIANTS §1.2 'Each attack card is covered by exactly one defence card, in any order the
    defender likes'; S1:97."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=Jc/8s9dKcAc table=7s,8d")
    assert {"8s>7s", "9d>8d"} <= legal(s)
    first = play(s, "9d>8d")
    assert legal(first) >= {"8s>7s"}
    assert rule_of(first, "Kc>8d") == "defend"  # already covered


# --- §1.3 bout structure -------------------------------------------------------------------------


def test_bito_goes_to_discard_and_defender_attacks_next():
    """VARIANTS §1.3: all covered -> table to the discard pile, next attacker = D; S0:278 'If
    the player covers all the cards, the turn goes to him'; S1:63 'the move belongs to the one
    who fought back'."""
    s = P("podkidnoy players=3 trump=6h stock=- hands=7sJc/9sQd/Kd6c attacker=0")
    s = play(s, "7s", "9s>7s", "pass", "pass")
    assert s.discard >> C("7s") & 1 and s.discard >> C("9s") & 1
    assert not s.attack
    assert (s.attacker, s.defender, s.to_act, s.phase_name) == (1, 2, 1, "lead")


def test_take_skips_the_defender():
    """VARIANTS §1.3: after a take, next attacker = first active player left of D; S0:249 'he
    misses the move, and the person sitting on the left will'; S1:63 'the person sitting to
    the left of the one who took the card moves'."""
    s = P("podkidnoy players=3 trump=6h stock=- hands=7sJc/9sQd/Kd6c attacker=0")
    s = play(s, "7s", "take", "pass", "pass")
    assert hand(s, 1) == cards("9sQd7s")
    assert (s.attacker, s.defender) == (2, 0)


def test_take_in_two_player_game_attacker_leads_again():
    """VARIANTS §1.3 take -> next attacker = first active player left of D, which with two
    players is the attacker again; S1:63."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=7sJc/9sQd attacker=0")
    s = play(s, "7s", "take", "pass")
    assert (s.attacker, s.defender) == (0, 1)


def test_roles_skip_players_who_are_out():
    """VARIANTS §1.3 'If the player who should attack next is already out, the role passes to
    the next active player on the left; likewise for the defender'. No seed line: engine
    decision, VARIANTS §1.3 (the nearest text is the team rule S1:66 'Yu dropped out of the
    game. Instead of Y, S goes under W', a partner moving up)."""
    base = "podkidnoy players=4 trump=6h stock=- hands=7sJc/9sQdKh/-/Kd6c8c out=2 attacker=0"
    bito = play(P(base), "7s", "9s>7s", "pass", "pass")
    assert (bito.attacker, bito.defender) == (1, 3)  # seat 2 is out
    taking = play(P(base), "7s", "take")
    assert taking.throwers == (0, 3)
    taken = play(taking, "pass", "pass")
    assert (taken.attacker, taken.defender) == (3, 0)


def test_defender_out_after_bito_passes_attack_to_his_left():
    """VARIANTS §1.3/§1.8: D covers with his last card (stock empty) and is out (S1:99 'the
    player who was the first to have no cards in his hand leaves the game'), so the attack
    that S0:278 'If the player covers all the cards, the turn goes to him' gives him passes to
    the next active player on his left (that hand-on has no seed line: engine decision,
    VARIANTS §1.3)."""
    s = P("podkidnoy players=3 trump=6h stock=- hands=7sJc/9s/Kd6c attacker=0")
    s = play(s, "7s", "9s>7s")  # D has no cards: out, nothing can be thrown at him
    assert 1 in s.out
    assert (s.attacker, s.defender) == (2, 0)


# --- §1.4 simple: leads, no throw-ins ------------------------------------------------------------


LEAD_HAND = "7c7d7h9s9cKd"


def _lead_sets(s):
    return {a.cards for a in s.legal_actions()}


def test_simple_lead_one_or_more_of_one_rank():
    """VARIANTS §1.4 default lead.shape=same_rank; S0:293 'either with one cards any value, or
    from several cards of the same value'."""
    s = P(f"simple players=2 trump=6s stock=- hands={LEAD_HAND}/8c8dJsQsKsAs")
    assert _lead_sets(s) == subsets_same_rank(s.hands[0], 6)
    assert rule_of(s, "7c+9s") == "lead shape"


def test_lead_shape_single():
    """VARIANTS §1.4 B2 option lead.shape=single; S0:213 'You can start your turn from any card
    you like'."""
    s = P(f"simple+lead.shape=single players=2 trump=6s stock=- hands={LEAD_HAND}/8c8dJsQsKsAs")
    assert _lead_sets(s) == {(c,) for c in cards_of(s.hands[0])}
    assert rule_of(s, "7c+7d") == "lead shape"


def test_lead_shape_one_or_two():
    """VARIANTS §1.4 B2 option lead.shape=same_rank_1or2; S0:247 'He lays down one or two cards
    of the same value'."""
    s = P("simple+lead.shape=same_rank_1or2 players=2 trump=6s stock=- "
          f"hands={LEAD_HAND}/8c8dJsQsKsAs")
    assert _lead_sets(s) == subsets_same_rank(s.hands[0], 2)
    assert rule_of(s, "7c+7d+7h") == "lead shape"


def test_lead_shape_rozaliev():
    """VARIANTS §1.4 B2 option lead.shape=rozaliev: a single, a pair, or a pair plus any one
    card; S1:53 'from any card, or from two cards of the same value ... and one more card'."""
    s = P("simple+lead.shape=rozaliev players=2 trump=6s stock=- "
          f"hands={LEAD_HAND}/8c8dJsQsKsAs")
    h = cards_of(s.hands[0])
    pairs = [p for p in subsets_same_rank(s.hands[0], 2) if len(p) == 2]
    expected = {(c,) for c in h} | set(pairs)
    expected |= {tuple(sorted((*p, x))) for p in pairs for x in h if x not in p}
    assert _lead_sets(s) == expected
    assert rule_of(s, "9s+9c+7c+7d") == "lead shape"


def test_lead_never_more_than_defender_holds():
    """VARIANTS §1.4 'never more than the defender holds'; S0:293 'must not be more than the
    number of cards in the hands of the player under whom'. D holds 2: no 3-card lead."""
    s = P("simple players=2 trump=6s stock=6s8h hands=7c7d7hAc/9cTc")
    assert max(len(a.cards) for a in s.legal_actions()) == 2
    assert rule_of(s, "7c+7d+7h") == "lead limit"


def test_lead_max_option():
    """VARIANTS §3.1 #1 lead.max: min(6, defender_hand); S0:293. With lead.max=2 a 3-card lead
    is refused even though D holds 6."""
    s = P("simple+lead.max=2 players=2 trump=6s stock=- hands=7c7d7hAc/9cTcJcQcKcAs")
    assert max(len(a.cards) for a in s.legal_actions()) == 2
    assert rule_of(s, "7c+7d+7h") == "lead limit"


def test_simple_no_throw_in_bout_ends_when_all_covered():
    """VARIANTS §1.4 'No throw-ins: once the lead is made nothing can be added'; S0:293 'If
    player covered everything cards, then you can not throw new cards'; S1:53 'The move is made
    once'. The attacker holds another 7 but the bout ends at once."""
    s = P("simple players=3 trump=6h stock=- hands=7s7cJc/9sQd/Kd7d attacker=0")
    s = play(s, "7s", "9s>7s")
    assert s.phase_name == "lead" and not s.attack
    assert s.discard >> C("7s") & 1 and s.discard >> C("9s") & 1
    assert (s.attacker, s.defender) == (1, 2)


def test_simple_take_ends_bout_without_throw_ins():
    """VARIANTS §1.4 (no throw-ins, also after a take); S1:53 'cards cannot be tossed'."""
    s = P("simple players=2 trump=6h stock=- hands=7s7cJc/9sQd attacker=0")
    s = play(s, "7s", "take")
    assert hand(s, 1) == cards("9sQd7s") and hand(s, 0) == cards("7cJc")
    assert s.phase_name == "lead" and s.to_act == 0


def test_simple_cover_all_or_take_all():
    """VARIANTS §1.4 'The defender must cover all cards or take all of them'; S0:293 'If he
    cannot cover at least one cards, he is obliged to take'; S1:53."""
    s = P("simple players=2 trump=6h stock=- hands=Ac/9s8d8cQd table=7s,7d")
    s = play(s, "9s>7s")
    assert legal(s) == {"8d>7d", "Qd>7d", "take"}
    assert rule_of(s, "pass") == "pass"
    taken = play(s, "take")
    assert hand(taken, 1) == cards("8d8cQd7s9s7d")  # covered pair taken too


# --- §1.5 podkidnoy: throw-ins -------------------------------------------------------------------


def test_throw_in_any_rank_on_the_table_attack_or_defence():
    """VARIANTS §1.5 What may be thrown: any card whose rank equals any table card (attack or
    defence), any suit; S0:302 'any card on the table, including those that were moved and
    those with which they were wings'; S1:63 'as well as with which the player fights back'."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=7c9dTsAc/9s8s8dJd table=7s")
    s = play(s, "9s>7s")
    assert legal(s) == {"7c", "9d", "pass"}
    assert rule_of(s, "Ts") == "throw-in rank"


def test_throw_in_order_main_attacker_first_then_clockwise_with_reentry():
    """VARIANTS §1.5 Who/order: the attacker first, then clockwise; he may throw again when the
    right comes round; S0:302 'player who walked has the right of the first action'; S0:304
    'Walking player can throw again when it comes to him again in a circle'; S1:63."""
    s = P("podkidnoy players=4 trump=6h stock=- hands=7s8dKs/9sTdJcQcAh/7cAc/7dKc attacker=0")
    s = play(s, "7s", "9s>7s")
    assert s.throwers == (0, 2, 3)
    expected_turns = [  # (move, seat that acts next)
        ("pass", 2), ("pass", 3), ("7d", 3), ("pass", 0), ("pass", 2), ("7c", 2),
        ("pass", 3), ("pass", 0), ("pass", 1),
    ]
    assert s.to_act == 0
    for move, nxt in expected_turns:
        s = play(s, move)
        assert s.to_act == nxt, move
    assert s.phase_name == "defend"


def test_two_players_only_attacker_throws_and_his_pass_ends_bout():
    """VARIANTS §1.5 'With 2 players only the attacker throws'; S1:97 'otherwise after the
    word beat the move is considered beaten'."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=7s7cKs/9sTcAh attacker=0")
    s = play(s, "7s", "9s>7s")
    assert s.throwers == (0,) and s.to_act == 0
    s = play(s, "pass")
    assert s.phase_name == "lead" and (s.attacker, s.defender) == (1, 0)


def test_throw_in_after_take_is_allowed_and_taken_too():
    """VARIANTS §1.5 Throw after TAKE: allowed, and D must take them too; S0:302 'You can also
    throw cards, when player decided to accept cards'; S1:97."""
    s = P("podkidnoy players=3 trump=6h stock=- hands=8s8hKc/6c7cJdQdKdAd/8dAc attacker=0")
    s = play(s, "8s", "take")
    assert s.taking and s.to_act == 0 and "8h" in legal(s)
    s = play(s, "8h", "pass")
    assert s.to_act == 2
    s = play(s, "8d", "pass", "pass")
    assert hand(s, 1) >= cards("8s8h8d")
    assert hand(s, 1).__len__() == 9


SIX_COVERED = "7c<Qc,7s<Qs,7d<Qd,8c<Kc,8s<Ks,8d<Kd"
CAP_HANDS = "7h8hJhAcAs/9c9s9dTcTsTdJcJs"  # D holds 8 cards (after an earlier take)


def test_cap_six_attack_cards_per_bout():
    """VARIANTS §1.5 Cap: at most 6 attack cards per bout; S1:63 'In total, no more than six
    cards can be thrown'. D holds 8, stock not empty: with 6 attack cards down, the attacker
    may only pass, and his 7h is refused by the throw-in limit."""
    s = P(f"podkidnoy players=2 trump=6h stock=6hAh hands={CAP_HANDS} table={SIX_COVERED} "
          "phase=throw throwers=0 to_act=0")
    assert legal(s) == {"pass"}
    assert rule_of(s, "7h") == "throw-in limit"


def test_sixth_card_closes_the_throw_round_and_its_cover_ends_the_bout():
    """VARIANTS §1.5 Cap 6 and End of bout ('Beating exactly six also ends it'); S1:97 'has
    beaten exactly six cards'. After the 6th card nobody is asked to throw, and covering it
    ends the bout although the attacker still holds throwable 7h/8h."""
    five = SIX_COVERED.rsplit(",", 1)[0]
    s = P("podkidnoy players=2 trump=6h stock=6hAh hands=8d7h8hJhAcAs/9c9s9dTcTsTdJcJsKd "
          f"table={five}")
    assert s.phase_name == "throw" and {"8d", "7h", "8h"} <= legal(s)
    s = play(s, "8d")
    assert s.phase_name == "defend" and s.to_act == 1
    s = play(s, "Kd>8d")
    assert s.phase_name == "lead" and s.bout == 1 and not s.attack
    assert s.discard >> C("Kd") & 1 and s.discard >> C("8d") & 1
    assert (s.attacker, s.defender) == (1, 0)


def test_throw_in_limit_defender_hand_s0_302_example():
    """VARIANTS §1.5 worked cap example; S0:302 'the player has three cards, he was given one,
    and he decided to accept it ... he can only add two'."""
    s = P("podkidnoy players=2 trump=6h stock=6hAhKhQh hands=7s7c7d7hJcQc/8sTdJd attacker=0")
    s = play(s, "7s", "take")
    assert {"7c", "7d", "7h"} <= legal(s)
    s = play(s, "7c")
    assert {"7d", "7h"} <= legal(s)
    s = play(s, "7d")  # the 2nd extra card: the limit is reached, the bout closes
    assert hand(s, 1) == cards("8sTdJd7s7c7d")
    assert C("7h") in hand(s, 0)
    at_limit = P("podkidnoy players=2 trump=6h stock=6hAhKhQh hands=7hJcQc/8sTdJd "
                 "table=7s,7c,7d taking=1 phase=throw throwers=0 to_act=0")
    assert legal(at_limit) == {"pass"}
    assert rule_of(at_limit, "7h") == "throw-in limit"


def test_uncovered_cards_never_exceed_defender_hand_while_defending():
    """VARIANTS §1.5 Cap: 'the number of uncovered attack cards may never exceed D's current
    hand size'; S0:302 'you cannot throw more cards than the beating player has left'. D holds
    2 after covering: at most 2 more cards, although the cap of 6 leaves room for 5."""
    s = P("podkidnoy players=2 trump=6h stock=6hAh hands=7c7d7hQc/9s8c8d attacker=0 table=7s")
    s = play(s, "9s>7s")
    assert s.to_act == 0
    s = play(s, "7c")
    assert "7d" in legal(s)
    s = play(s, "7d")
    assert s.phase_name == "defend" and s.to_act == 1  # no room for 7h


def test_throw_in_by_neighbours_option():
    """VARIANTS §1.5 Who/order, option throw_in.by=neighbours: only the defender's two
    neighbours throw in. No seed line: engine decision, VARIANTS §1.5 (an engine option, in
    neither the seeds nor the catalogue). The default it narrows is S0:302 'the other players
    have the right to throw their cards according to the same rules'. 4 players, seat 1
    defends: seats 0 and 2 may throw, seat 3 may not (by default all three may)."""
    text = ("podkidnoy+throw_in.by=neighbours players=4 trump=6h stock=- "
            "hands=7sKs/9sTdJcQcAh/7cAc/7dKc attacker=0")
    s = play(P(text), "7s", "9s>7s")
    assert s.throwers == (0, 2)
    s = play(s, "pass", "pass")
    assert s.phase_name == "lead" and s.attacker == 1
    everyone = play(P(text.replace("+throw_in.by=neighbours", "")), "7s", "9s>7s")
    assert everyone.throwers == (0, 2, 3)


# --- §1.6 perevodnoy: transfers ------------------------------------------------------------------


XFER3 = "perevodnoy players=3 trump=6h stock=- attacker=0 "


def test_transfer_needs_same_rank():
    """VARIANTS §1.6 Transfer move: 'a card of the same rank as the attack cards'; S1:71 'by
    placing his card of the same value next to the one similar to him'."""
    s = P(XFER3 + "hands=Ac/8h9sKdQs/JcJdQd table=8s")
    assert {a for a in legal(s) if a.startswith("=")} == {"=8h"}
    assert rule_of(s, "=9s") == "transfer rank"


def test_transfer_new_defender_defends_all_cards_and_may_transfer_again():
    """VARIANTS §1.6: the left neighbour defends all attack cards incl. the transfer card and
    may transfer again; S0:307 'Next player can re-translate if he has a card of the same
    rank'; S1:72 'who can, in turn, put a seven, move the move further'."""
    s = P(XFER3 + "hands=7dTcTs8hAd/7hJcQc/7cTh9hAs table=7s")
    s = play(s, "=7h")
    assert (s.attacker, s.defender, s.to_act) == (1, 2, 2)
    assert {"Th>7s", "9h>7s", "As>7s", "9h>7h", "Th>7h", "=7c"} <= legal(s)
    s = play(s, "=7c")  # chain: round to seat 0, the original attacker
    assert (s.attacker, s.defender, s.to_act) == (2, 0, 0)
    assert s.uncovered == 3
    targets = {a.target for a in s.legal_actions() if a.kind_name == "defend"}
    assert targets == cards("7s7h7c")
    assert rule_of(s, "=7d") == "transfer limit"  # seat 1 holds 2 < 4 cards


def test_transfer_in_two_player_game_goes_back_to_attacker():
    """VARIANTS §1.6 'In a 2-player game the transfer goes back to the original attacker'.
    No seed line: engine decision, VARIANTS §1.6 (implied by seating; the only text is
    S1:74 'transfer cards back' in the refusal variant #9)."""
    s = P("perevodnoy players=2 trump=6h stock=- hands=TsJsQs/7hKc table=7s")
    s = play(s, "=7h")
    assert (s.attacker, s.defender, s.to_act) == (1, 0, 0)
    assert legal(s) == {"Ts>7s", "Js>7s", "Qs>7s", "take"}


def test_transfer_only_before_first_cover():
    """VARIANTS §1.6 Window, B9: 'Only while no card has been covered yet'; S1:72 'Transfer is
    possible only when the player has not started to fight back'; S4:4."""
    s = P(XFER3 + "hands=Ac/7d9sKhQh/JcJdQd table=7s,7h")
    assert "=7d" in legal(s)
    s = play(s, "9s>7s")
    assert "=7d" not in legal(s)
    assert rule_of(s, "=7d") == "transfer window"


def test_transfer_limited_by_next_players_hand():
    """VARIANTS §1.6 Cap: forbidden if the next player holds fewer cards than the attack cards
    after the transfer; S1:72 'has fewer cards than the transfer, then the transfer is
    prohibited'; S0:307 'You cannot transfer more cards than the next one player has'."""
    short = P(XFER3 + "hands=Ac/7hKd/Jc table=7s")
    assert "=7h" not in legal(short)
    assert rule_of(short, "=7h") == "transfer limit"
    enough = P(XFER3 + "hands=Ac/7hKd/JcJd table=7s")
    assert "=7h" in legal(enough)


def test_transferrer_throws_in_first_then_clockwise():
    """VARIANTS §1.6 'Who throws after a transfer: the transferring player becomes the main
    attacker (first right to throw); others clockwise after him'. No seed line: engine
    decision, VARIANTS §1.6 ('not stated' there). Throw-ins stay on (perevodnoy = podkidnoy
    + transfer, S0:307 'Further, the game completely coincides with a throw-in fool')."""
    s = P(XFER3 + "hands=9cAc/8dJd9h/9s9dKs table=8s")
    s = play(s, "=8d", "9s>8s", "9d>8d")
    assert s.phase_name == "throw" and s.throwers == (1, 0) and s.to_act == 1
    assert "9h" in legal(s)  # a 9 (defence rank) may be thrown by the transferrer
    s = play(s, "pass")
    assert s.to_act == 0 and "9c" in legal(s)


def test_transfer_on_simple_base_no_throw_ins():
    """VARIANTS §1.6 B8 option throw_in.enabled=false (transfer on simple); S0:224 'Otherwise,
    all the rules are the same with a simple fool'. After covering everything the bout ends."""
    s = P("perevodnoy+throw_in.enabled=false players=3 trump=6h stock=- attacker=0 "
          "hands=9cAc/8dJd9h/9s9dKs table=8s")
    s = play(s, "=8d", "9s>8s", "9d>8d")
    assert s.phase_name == "lead" and (s.attacker, s.defender) == (2, 0)


def test_forbid_transfer_if_trump_on_table_option():
    """VARIANTS §1.6 B12 option transfer.forbid_if_trump_on_table (literal S0:307 'as well as if
    there is a trump card on the table'). Off by default."""
    base = "perevodnoy{} players=3 trump=6h stock=- attacker=0 hands=Ac/7dKdQs/JcJdQd table=7h"
    assert "=7d" in legal(P(base.format("")))
    literal = P(base.format("+transfer.forbid_if_trump_on_table=true"))
    assert "=7d" not in legal(literal)
    assert rule_of(literal, "=7d") == "transfer"
    non_trump = P(base.format("+transfer.forbid_if_trump_on_table=true").replace(
        "table=7h", "table=7s"))
    assert "=7d" in legal(non_trump)


# --- §1.7 drawing --------------------------------------------------------------------------------

# Podkidnoy, 3 players: seat 0 led 7s, seat 1 covered it, seat 2 threw 7d; seat 1 now covers
# 7d with Td. Stock: the trump card 6h at the bottom and 9c on top. After the bout seat 0 and
# seat 2 hold 5 cards (need 1 each) and seat 1 holds 3 (needs 3).
DRAW3 = ("{} players=3 trump=6h stock=6h9c attacker=0 "
         "hands=8c8dJsQsKs/TdJcQcKc/8hJhQhKhAh table=7s<9s,7d")


@pytest.mark.parametrize("option,expected", [
    ("", {0: "9c", 2: "6h"}),                                           # attacker, others, D last
    ("+draw.order=attacker_then_strict_clockwise", {0: "9c", 1: "6h"}),  # 0, 1, 2
    ("+defender_draws_first", {1: "9c6h"}),                              # D first (#77)
])
def test_draw_order_when_stock_runs_out(option, expected):
    """VARIANTS §1.7 / B7 draw order; default: attacker first, others clockwise, defender last
    (S0:293 'Takes first cards walked player, the bouncer takes the last one'); option
    attacker_then_strict_clockwise (S0:215; S1:6 'then all other players take clockwise');
    option defender_draws_first, #77 (S0:249 'sometimes the bouncer gets there first')."""
    s = P(DRAW3.format("podkidnoy" + option))
    before = [hand(s, p) for p in range(3)]
    s = play(s, "Td>7d", "pass", "pass")
    assert not s.stock
    for p in range(3):
        gained = hand(s, p) - before[p] - cards("7d7s9sTd")
        assert gained == (cards(expected[p]) if p in expected else set()), p


def test_draw_order_four_players_defender_last():
    """VARIANTS §1.7 default: the bout's attacker first, then the other players clockwise, the
    defender last; S1:63 'then the others clockwise; The one who escaped takes the last one'.
    4 players, stock of 3: seats 0, 2, 3 need one each; the defender (seat 1) gets nothing."""
    s = P("podkidnoy players=4 trump=6h stock=6hAcAd attacker=0 "
          "hands=8cJsQsKsQd/TdJcQcKc/8hJhQhKhAh/8s9c9dTcTh table=7s<9s,7d")
    s = play(s, "Td>7d", "pass", "pass", "pass")
    assert C("Ad") in hand(s, 0) and C("Ac") in hand(s, 2) and C("6h") in hand(s, 3)
    assert len(hand(s, 1)) == 3
    strict = P("podkidnoy+draw.order=attacker_then_strict_clockwise players=4 trump=6h "
               "stock=6hAcAd attacker=0 hands=8cJsQsKsQd/TdJcQcKc/8hJhQhKhAh/8s9c9dTcTh "
               "table=7s<9s,7d")
    strict = play(strict, "Td>7d", "pass", "pass", "pass")
    assert C("Ad") in hand(strict, 0) and hand(strict, 1) >= cards("Ac6h")


PEREV_DRAW = ("perevodnoy{} players=3 trump=6h stock=6h9c attacker=0 "
              "hands=JcQcKcAcJs/JdQdKdAdQs8d/9s9dJhQhKh table=8s")


@pytest.mark.parametrize("option,first,second", [
    ("", 1, 0),                          # right of the final defender first (S4:4)
    ("+draw.order=attacker_first", 0, 1),  # the bout's leader first (S1:109)
])
def test_perevodnoy_draw_order(option, first, second):
    """VARIANTS §1.6/§1.7 B7, #8 A5: after a transferred bout the player on the right of the
    final defender draws first (S4:4 'Добор карт начинает игрок, сидящий по правую руку от
    отбивающегося'; S1:72); option draw.order=attacker_first (S1:109 'The leading player draws
    cards from the deck first')."""
    s = P(PEREV_DRAW.format(option))
    s = play(s, "=8d", "9s>8s", "9d>8d", "pass", "pass")
    assert not s.stock
    assert C("9c") in hand(s, first) and C("6h") in hand(s, second)
    assert len(hand(s, 2)) == 3  # final defender last: nothing left for him


def test_refill_to_six_and_no_draw_above_six():
    """VARIANTS §1.7 'each player below 6 draws up to 6'; S0:293 'get cards from the deck
    missing to six'; S1:63. A player holding 6 or more (a taker) draws nothing."""
    checked = 0
    for seed in range(8):
        s = new_game("podkidnoy", players=3, seed=seed)
        for before, _, after in random_walk(s, random.Random(seed)):
            if after.bout == before.bout or not after.stock:
                continue
            stock = set(before.stock)
            for p in range(3):
                drawn = hand(after, p) & stock
                pre = len(hand(after, p)) - len(drawn)
                assert len(hand(after, p)) == max(6, pre)
                checked += 1
    assert checked > 50


# --- §1.8 end of game, draws, next deal ----------------------------------------------------------


def test_out_when_hand_and_stock_empty_mid_bout_game_continues():
    """VARIANTS §1.8 'A player is out when his hand is empty and the stock is empty'; S1:99
    'the player who was the first to have no cards in his hand leaves the game'. With 3 players
    the game goes on; the next attack skips him."""
    s = P("podkidnoy players=3 trump=6h stock=- attacker=0 hands=7s/9sJd/Kd6c")
    s = play(s, "7s")
    assert s.out == [0] and not s.is_over
    s = play(s, "9s>7s", "pass")
    assert not s.is_over and (s.attacker, s.defender) == (1, 2)


def test_game_ends_and_last_holder_is_fool():
    """VARIANTS §1.8 'The game ends when at most one player still holds cards; that player is
    the fool'; S0:217 'until one player is left with the cards ... considered a loser'."""
    s = P("podkidnoy players=3 trump=6h stock=- attacker=0 hands=7s/9s/Kd6c out=-")
    s = play(s, "7s", "9s>7s")
    assert s.is_over and s.outcome.loser == 2 and not s.outcome.draw
    assert s.outcome.order == (0, 1, 2)


@pytest.mark.parametrize("draw_allowed", [True, False])
def test_draw_when_last_bout_empties_everyone(draw_allowed):
    """VARIANTS §1.8 Draw, B11 end.draw_allowed: the last attacker plays his last card and the
    defender covers with his last card -> no fool (S0:297 'at the end of the game, no one has
    any cards left'; S1:99 'there is no loser'). With draws off, the last player to go out is
    the fool (option help, end.draw_allowed)."""
    spec = "podkidnoy" + ("" if draw_allowed else "+end.draw_allowed=false")
    s = P(f"{spec} players=2 trump=6h stock=- attacker=0 hands=Ks/As")
    s = play(s, "Ks")
    assert not s.is_over  # not decided mid-bout
    s = play(s, "As>Ks")
    assert s.is_over
    if draw_allowed:
        assert s.outcome.draw and s.outcome.loser is None
    else:
        assert not s.outcome.draw and s.outcome.loser == 1


def test_no_draw_when_defender_keeps_a_card():
    """VARIANTS §1.8 Draw, B11: a draw needs every hand empty, S0:297 'at the end of the game,
    no one has any cards left'; here the defender still holds a card, so he is the fool
    (S1:63 'A player who has cards in his hand when no one has any left is a loser')."""
    s = play(P("podkidnoy players=2 trump=6h stock=- attacker=0 hands=Ks/As6d"), "Ks", "As>Ks")
    assert s.is_over and s.outcome.loser == 1 and not s.outcome.draw


def test_next_match_context_loser_deals():
    """VARIANTS §1.1/§1.8 'afterwards the loser (fool) deals'; S4:1 'Проигравший сдает';
    S0:243 'the loser is appointed as the distributor'."""
    s = play(P("podkidnoy players=3 trump=6h stock=- attacker=0 dealer=2 hands=7s/9s/Kd6c"),
             "7s", "9s>7s")
    ctx = next_match_context(s)
    assert ctx.dealer == 2 == s.outcome.loser
    s = play(P("podkidnoy players=3 trump=6h stock=- attacker=1 dealer=0 hands=Kd6c/7s/9s"),
             "7s", "9s>7s")
    ctx = next_match_context(s)
    assert (ctx.dealer, ctx.game_number, ctx.previous_fool, ctx.previous_winner) == (0, 1, 0, 1)
    nxt = new_game("podkidnoy", players=3, seed=9, match=ctx)
    assert nxt.deal.dealer == 0
    pack = shuffled_pack(36, 9)
    assert pack[0] in hand(nxt, 1)  # the new dealer deals from his left


def test_next_match_context_after_draw_same_dealer():
    """VARIANTS §1.8 'After a draw there is no loser and the seeds name no dealer → Rec. the
    previous dealer deals again'. No seed line: engine decision, VARIANTS §1.8 (the draw
    itself is S0:297 'no one has any cards left')."""
    s = play(P("podkidnoy players=2 trump=6h stock=- attacker=0 dealer=1 hands=Ks/As"),
             "Ks", "As>Ks")
    ctx = next_match_context(s)
    assert ctx.dealer == 1 and ctx.previous_fool is None and ctx.game_number == 1
    s = play(P("podkidnoy players=2 trump=6h stock=- attacker=1 dealer=0 hands=As/Ks"),
             "Ks", "As>Ks")
    assert next_match_context(s).dealer == 0


def test_next_match_context_needs_finished_game():
    """VARIANTS §1.8 Next dealer: the next deal can only be set up once the previous one has
    ended, because its dealer is that deal's loser (S0:243 'the loser is appointed as the
    distributor'; S4:1 'Проигравший сдает')."""
    with pytest.raises(ValueError):
        next_match_context(new_game("podkidnoy", players=2, seed=1))


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_first_attacker_holds_lowest_trump_and_shows_it(players):
    """VARIANTS §1.8 'First attacker: first deal - holder of the lowest trump'; S0:212 'The
    player with the smallest trump card starts the first move'; S0:293. The card is shown."""
    for seed in range(25):
        s = new_game("podkidnoy", players=players, seed=seed)
        holder = lowest_trump_holder(s)
        if holder is None:
            continue
        assert s.attacker == holder and s.defender == (holder + 1) % players
        low = min((c for c in cards_of(s.hands[holder]) if suit_of(c) == s.trump_suit),
                  key=rank_of)
        for seat in range(players):
            assert s.view(seat).known[holder] >> low & 1


def _no_trump_deals(limit: int = 4000, want: int = 12):
    found = []
    for seed in range(limit):
        s = new_game("podkidnoy+deck.size=52", players=3, seed=seed)
        if lowest_trump_holder(s) is None:
            found.append(seed)
            if len(found) == want:
                break
    return found


NO_TRUMP_SEEDS = _no_trump_deals()


def test_no_trump_fallback_lowest_card_first_clockwise_from_dealers_left():
    """VARIANTS §1.8 B4 default: 'lowest card by rank; ties broken by the first such player
    clockwise from the dealer's left'; S0:247 'If this suit is not on hand, they decide on the
    lowest card'."""
    assert len(NO_TRUMP_SEEDS) >= 5
    for seed in NO_TRUMP_SEEDS:
        s = new_game("podkidnoy+deck.size=52", players=3, seed=seed)
        d = s.deal.dealer
        lowest = min(rank_of(c) for h in s.hands for c in cards_of(h))
        order = [(d + i) % 3 for i in range(1, 4)]
        expected = next(p for p in order if any(rank_of(c) == lowest
                                                for c in cards_of(s.hands[p])))
        assert s.attacker == expected, seed


def test_no_trump_fallback_lot():
    """VARIANTS §1.8 B4 option first_attacker.no_trump_fallback=lot; S1:6 'either by lot or
    determined by the lowest card'. Same deals, and the lot does not simply copy the
    lowest-card rule; the lot is not used when somebody holds a trump."""
    differs = 0
    for seed in NO_TRUMP_SEEDS:
        a = new_game("podkidnoy+deck.size=52", players=3, seed=seed)
        b = new_game("podkidnoy+deck.size=52+first_attacker.no_trump_fallback=lot", 3, seed)
        assert a.hands == b.hands and 0 <= b.attacker < 3
        differs += a.attacker != b.attacker
    assert differs >= 1
    for seed in range(10):
        c = new_game("podkidnoy+first_attacker.no_trump_fallback=lot", players=3, seed=seed)
        if lowest_trump_holder(c) is not None:
            assert c.attacker == lowest_trump_holder(c)


def test_every_random_game_conserves_cards_and_ends():
    """VARIANTS §1.3 state machine sanity over the three base games: every game ends with one
    fool (S0:217 'until one player is left with the cards. In this case, the player is
    considered a loser') or a draw (S0:297 'no one has any cards left'), every card in exactly
    one place (S0:247 'If the cards are discarded, they are discarded, and they are not used
    until the end of the game')."""
    for variant in ("simple", "podkidnoy", "perevodnoy"):
        for seed in range(6):
            s = new_game(variant, players=2 + seed % 5, seed=seed)
            end = final_state(s, random.Random(seed))
            assert_conserved(end)
            o = end.outcome
            assert o.draw == (o.loser is None)
            assert sorted(o.order) == sorted(set(o.order))
