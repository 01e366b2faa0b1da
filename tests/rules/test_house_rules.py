"""House rules #74-#79 (VARIANTS.md §3.10) stacked on the base games.

Each test names the catalogue id and the seed line it checks. Expectations are derived from the
rule (e.g. from the pack order a seed stands for, see ``conftest.shuffled_pack``).
"""

from __future__ import annotations

import random

import pytest

from bito.cards import ACE, rank_of
from bito.errors import RulesError
from bito.games.durak import MatchContext, new_game, next_match_context
from bito.rules import resolve
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
    rule_of,
    shuffled_pack,
)

# --- #74 ace_not_trump_indicator -----------------------------------------------------------------


@pytest.mark.parametrize("source", ["stock_top", "bottom_card", "any_card"])
def test_ace_never_trump_indicator_over_many_seeds(source):
    """#74 ace_not_trump_indicator; S0:3 'Ace cannot be a trump card.' Over many deals and every
    trump.source: the turned-up card is never an ace, it still lies at the bottom of the stock
    (drawn last), and no card is created or lost by burying the ace."""
    spec = f"podkidnoy+ace_not_trump_indicator+trump.source={source}"
    for seed in range(150):
        players = 2 + seed % 4
        s = new_game(spec, players=players, seed=seed)
        assert rank_of(s.trump_card) != ACE
        assert s.stock[0] == s.trump_card
        assert_conserved(s)
        undealt = shuffled_pack(36, seed)[6 * players:]
        assert sorted(s.stock) == sorted(undealt)


def test_ace_turned_up_is_buried_and_next_card_turned():
    """#74: 'a turned-up ace is buried in the stock and the next card is turned' (§3.10 yaml);
    S0:3. When the card after the deal is an ace, the trump card is the first non-ace after it,
    and the ace stays in the stock, not at the bottom."""
    hits = 0
    for seed in range(400):
        pack = shuffled_pack(36, seed)
        rest = pack[12:]
        if rank_of(rest[0]) != ACE:
            continue
        hits += 1
        s = new_game("podkidnoy+ace_not_trump_indicator", players=2, seed=seed)
        expected = next(c for c in rest if rank_of(c) != ACE)
        assert s.trump_card == expected
        assert rest[0] in s.stock[1:]
        plain = new_game("podkidnoy", players=2, seed=seed)
        assert plain.trump_card == rest[0]  # the house rule is what changed it
        assert plain.hands == s.hands
    assert hits >= 5


def test_reject_aces_and_lowest_rank():
    """#74 A1 option reject=[A, L]: neither an ace nor the lowest rank (6) may be turned up.
    The ace is S0:3 'Ace cannot be a trump card.'; the lowest rank has no seed line: engine
    decision, VARIANTS §3.10 #74 A1 ('some groups also reject the lowest card; not in the
    seeds')."""
    for seed in range(120):
        s = new_game("podkidnoy+ace_not_trump_indicator=A,L", players=3, seed=seed)
        assert rank_of(s.trump_card) not in (ACE, 6)
        assert s.stock[0] == s.trump_card
        assert_conserved(s)


def test_ace_rule_off_by_default():
    """#74 is a house rule, off by default (§1.1 Trump default: the next card, whatever it is;
    S0:291 'the next card is opened and placed on the table, its suit determines the trump
    card')."""
    aces = [s for s in (new_game("podkidnoy", 2, seed) for seed in range(200))
            if rank_of(s.trump_card) == ACE]
    assert aces


# --- #75 first_bout_cap_five ---------------------------------------------------------------------

FIVE_COVERED = "7c<Qc,7s<Qs,7d<Qd,8c<Kc,8s<Ks"
HANDS8 = "8d7hJhAcAs/9c9s9dTcTsTdJcJs"


def test_first_bout_cap_five():
    """#75 first_bout_cap_five; S0:304 'At the first rebound, you must not throw more than four
    cards(the total number of cards is five)'. In bout 0 a 6th card is refused."""
    s = P(f"podkidnoy+first_bout_cap_five players=2 trump=6h stock=6hAh hands={HANDS8} "
          f"table={FIVE_COVERED} phase=throw throwers=0 to_act=0 bout=0")
    assert legal(s) == {"pass"}
    assert rule_of(s, "8d") == "throw-in limit"


def test_first_bout_cap_five_only_in_first_bout():
    """#75: 'first bout of each deal' only (S0:304 'At the first rebound, you must not throw
    more than four cards'); from bout 1 on the usual cap of 6 applies (S0:304 'the total
    number of cards for discarding is six')."""
    s = P(f"podkidnoy+first_bout_cap_five players=2 trump=6h stock=6hAh hands={HANDS8} "
          f"table={FIVE_COVERED} bout=1")
    assert {"8d", "7h"} <= legal(s)


def test_first_bout_cap_five_sixth_card_when_defender_takes():
    """#75; S0:304 'but if player does not fight back, then you can throw in the 6th card'."""
    s = P("podkidnoy+first_bout_cap_five players=2 trump=6h stock=6hAh hands=8dKhAcAs/"
          "9c9s9dTcTsTdJc table=7c,7s,7d,8c,8s taking=1 bout=0")
    assert s.to_act == 0 and "8d" in legal(s)
    s = play(s, "8d")
    assert hand(s, 1) >= cards("7c7s7d8c8s8d")  # bout over, six cards taken
    assert s.bout == 1


def test_first_bout_cap_five_reached_by_play():
    """#75 in play: the 5th card closes the throw round of bout 0; a 6th is never offered
    (S0:304 'you must not throw more than four cards(the total number of cards is five)')."""
    s = P("podkidnoy+first_bout_cap_five players=2 trump=6h stock=6hAh "
          "hands=8s8d7hAcAs/9c9s9dTcTsTdJcJsKs table=7c<Qc,7s<Qs,7d<Qd,8c<Kc bout=0")
    assert {"8s", "8d"} <= legal(s)
    s = play(s, "8s")
    assert s.phase_name == "defend"
    s = play(s, "Ks>8s")
    assert s.bout == 1 and C("8d") in hand(s, 0) and s.discard >> C("8s") & 1


# --- #76 uncapped_after_stock --------------------------------------------------------------------

SIX_COVERED = "7c<Qc,7s<Qs,7d<Qd,8c<Kc,8s<Ks,8d<Kd"


def test_uncapped_after_stock_allows_seventh_card():
    """#76 uncapped_after_stock; S0:304 'But this rule is valid as long as there is cards' ...
    'you can throw in as many cards as the bouncer has in hand'. Stock empty, D holds 8: the
    7th card is legal."""
    s = P("podkidnoy+uncapped_after_stock players=2 trump=6h stock=- "
          f"hands=7h8hJhAcAs/9c9s9dTcTsTdJcJs table={SIX_COVERED} phase=throw throwers=0 "
          "to_act=0")
    assert {"7h", "8h", "pass"} == legal(s)
    s = play(s, "7h", "8h")
    assert len(s.attack) == 8


def test_uncapped_after_stock_still_capped_while_stock_lasts():
    """#76: the cap of 6 holds 'as long as there is cards' in the stock (S0:304)."""
    s = P("podkidnoy+uncapped_after_stock players=2 trump=6h stock=6hAh "
          f"hands=7h8hJhAcAs/9c9s9dTcTsTdJcJs table={SIX_COVERED} phase=throw throwers=0 "
          "to_act=0")
    assert legal(s) == {"pass"}


def test_uncapped_after_stock_still_limited_by_defender_hand():
    """#76: 'as many cards as the bouncer has in hand' (S0:304): D holds 1 card with 1
    uncovered - nothing more."""
    s = P("podkidnoy+uncapped_after_stock players=2 trump=6h stock=- "
          "hands=7h8hJhAcAs/9c table=7c<Qc,7s phase=throw throwers=0 to_act=0")
    assert legal(s) == {"pass"}
    assert rule_of(s, "7h") == "throw-in limit"


# --- #77 defender_draws_first --------------------------------------------------------------------


def test_defender_draws_first_then_attacker_then_clockwise():
    """#77 defender_draws_first; S0:249 'But sometimes the bouncer gets there first'; A1 Rec.:
    defender, then the bout's attacker, then the rest clockwise (the order after the defender
    has no seed line: engine decision, VARIANTS §3.10 #77 A1). 4 players, stock of 3: the
    defender (1), the attacker (0) and seat 2 get one each; seat 3 gets nothing."""
    s = P("podkidnoy+defender_draws_first players=4 trump=6h stock=6hAcAd attacker=0 "
          "hands=8cJsQsKsQd/9sTdJcQcKcTc/8hJhQhKhAh/8dTsThJdKd table=7s")
    s = play(s, "9s>7s", "pass", "pass", "pass")
    assert not s.stock
    assert C("Ad") in hand(s, 1) and C("Ac") in hand(s, 0) and C("6h") in hand(s, 2)
    assert len(hand(s, 3)) == 5


# --- #78 no_transfer_first_bout ------------------------------------------------------------------

XFER = ("perevodnoy{} players=3 trump=6h stock=6hAh attacker=0 hands=AcKc/7hKdQs/JcJdQd "
        "table=7s bout={} game={} under_fool={}")


def test_transfer_in_first_bout_allowed_by_default():
    """§1.6 B10 / #8 A4: first-bout transfer allowed by default. No seed line: engine
    decision, VARIANTS §1.6 B10 (a product decision against S0:307 'The first round cannot be
    transferred if the participants play the first game')."""
    assert "=7h" in legal(P(XFER.format("", 0, 0, 0)))


def test_no_transfer_first_bout_first_game():
    """#78 no_transfer_first_bout=first_game; S0:307 'The first round cannot be transferred if
    the participants play the first game'."""
    mod = "+no_transfer_first_bout=first_game"
    first = P(XFER.format(mod, 0, 0, 0))
    assert "=7h" not in legal(first)
    assert rule_of(first, "=7h") == "no transfer in the first bout"
    assert "=7h" in legal(P(XFER.format(mod, 1, 0, 0)))  # later bout
    assert "=7h" in legal(P(XFER.format(mod, 0, 1, 0)))  # later game


def test_no_transfer_first_bout_default_value_is_first_game():
    """#78: the modifier without a value means first_game (registry default, S0:307)."""
    assert resolve("perevodnoy+no_transfer_first_bout").rules.transfer_first_bout == "first_game"
    with pytest.raises(RulesError):
        resolve("podkidnoy+no_transfer_first_bout")  # applies to perevodnoy only


def test_no_transfer_first_bout_under_fool():
    """#78 no_transfer_first_bout=under_fool; S4:4 'Встречаются компании, в которых первый ход
    делается «под дурака», в этом случае перевести карты первого хода нельзя'; S1:72."""
    mod = "+no_transfer_first_bout=under_fool"
    under = P(XFER.format(mod, 0, 1, 1))
    assert rule_of(under, "=7h") == "no transfer in the first bout"
    assert "=7h" in legal(P(XFER.format(mod, 0, 1, 0)))  # not led at the fool
    assert "=7h" in legal(P(XFER.format(mod, 1, 1, 1)))  # not the first bout


def test_under_fool_deal_from_match_context_blocks_first_transfer():
    """#78 under_fool with #79 under_fool: the deal is led at the previous fool, so no transfer
    in bout 0 (S4:4); with from_under_fool it is not led at him (S1:6) and transfers stay on."""
    for seed in range(20):
        ctx = MatchContext(game_number=1, dealer=2, previous_fool=2, previous_winner=0)
        s = new_game("perevodnoy+no_transfer_first_bout=under_fool+next_game_leader=under_fool",
                     players=4, seed=seed, match=ctx)
        assert s.defender == 2 and s.deal.under_fool
        for lead in s.legal_actions():
            after = s.apply(lead)
            assert not any(a.kind_name == "transfer" for a in after.legal_actions())
    allowed = 0
    for seed in range(20):
        ctx = MatchContext(game_number=1, dealer=2, previous_fool=2, previous_winner=0)
        s = new_game("perevodnoy+no_transfer_first_bout=under_fool", players=4, seed=seed,
                     match=ctx)
        assert s.defender == 0 and not s.deal.under_fool
        for lead in s.legal_actions():
            after = s.apply(lead)
            allowed += any(a.kind_name == "transfer" for a in after.legal_actions())
    assert allowed > 0


@pytest.mark.parametrize("leader_rule,winner", [
    ("previous_winner", 1), ("from_under_fool", None), ("left_of_dealer", None),
])
def test_under_fool_ban_whenever_first_lead_is_at_the_fool(leader_rule, winner):
    """#78 under_fool: 'not in the first bout of a deal led under the fool' (§1.6 B10, #78 yaml
    'forbidden_when_first_lead_is_under_fool'); S4:4 'первый ход делается «под дурака», в этом
    случае перевести карты первого хода нельзя'. Whatever rule picked the first attacker, when
    the first defender is the previous fool the first bout may not be transferred.
    3 players, fool = seat 2: previous_winner=1 leads at the fool; in a 2-player match every
    other rule leads at the fool too."""
    players = 3 if leader_rule == "previous_winner" else 2
    fool = 2 if players == 3 else 1
    dealer = fool
    for seed in range(10):
        ctx = MatchContext(game_number=1, dealer=dealer, previous_fool=fool,
                           previous_winner=winner if winner is not None else 0)
        s = new_game(f"perevodnoy+no_transfer_first_bout=under_fool+next_game_leader="
                     f"{leader_rule}", players=players, seed=seed, match=ctx)
        assert s.defender == fool
        for lead in s.legal_actions():
            after = s.apply(lead)
            transfers = [a for a in after.legal_actions() if a.kind_name == "transfer"]
            assert not transfers, (seed, str(lead), [str(t) for t in transfers])


# --- #79 next_game_leader ------------------------------------------------------------------------

CTX = MatchContext(game_number=1, dealer=2, previous_fool=2, previous_winner=0)


@pytest.mark.parametrize("rule,attacker,defender", [
    ("from_under_fool", 3, 0),   # the fool's left neighbour attacks his own left (S1:6, S0:278)
    ("under_fool", 1, 2),        # the fool's right neighbour attacks the fool (S1:6, S1:124)
    ("previous_winner", 0, 1),   # S0:293 'the player who won the previous game'
    ("left_of_dealer", 3, 0),    # S1:53 'The player next to the dealer begins'
])
def test_next_game_leader(rule, attacker, defender):
    """#79 next_game_leader; 4 players, previous fool = dealer = seat 2, winner = seat 0.
    S1:6 'from under the fool, the player who sits to the left of the fool goes first' /
    'under the fool, that is, the player who sits to the right of fool'; S0:293; S1:53."""
    for seed in range(5):
        s = new_game(f"podkidnoy+next_game_leader={rule}", players=4, seed=seed, match=CTX)
        assert (s.attacker, s.defender) == (attacker, defender)
        assert s.deal.dealer == 2


def test_next_game_leader_default_is_from_under_fool():
    """§1.8 B5 default from_under_fool; S1:6; S0:217 resolved to from_under_fool."""
    s = new_game("podkidnoy", players=4, seed=3, match=CTX)
    assert (s.attacker, s.defender) == (3, 0)


def test_next_game_leader_lowest_trump():
    """#79 lowest_trump: as in the first deal. No seed line for later deals: engine decision,
    VARIANTS §3.10 #79 (the first-deal rule is S0:212 'The player with the smallest trump card
    starts the first move')."""
    for seed in range(15):
        s = new_game("podkidnoy+next_game_leader=lowest_trump", players=4, seed=seed, match=CTX)
        holder = lowest_trump_holder(s)
        if holder is not None:
            assert s.attacker == holder


@pytest.mark.parametrize("rule", ["from_under_fool", "under_fool", "previous_winner",
                                  "left_of_dealer"])
def test_first_deal_and_after_draw_lowest_trump_leads(rule):
    """§1.8: first deal - holder of the lowest trump (S0:212); #79 description: after a drawn
    deal (no fool) the lowest trump leads. The option changes only later deals with a fool."""
    spec = f"podkidnoy+next_game_leader={rule}"
    for seed in range(10):
        for ctx in (MatchContext(), MatchContext(game_number=1, dealer=1)):
            s = new_game(spec, players=3, seed=seed, match=ctx)
            holder = lowest_trump_holder(s)
            if holder is not None:
                assert s.attacker == holder


def test_next_game_leader_needs_a_value():
    """#79 is a set of values with no default for the bare modifier: the players pick one,
    S1:6 'in the following games there are 2 options for the first move' … 'The appropriate
    first move option is chosen by the players before the game'. The error names the
    choices."""
    with pytest.raises(RulesError):
        resolve("podkidnoy+next_game_leader")
    with pytest.raises(RulesError):
        resolve("podkidnoy+next_game_leader=sideways")


def test_match_of_played_games_follows_loser_deals_and_from_under_fool():
    """§1.8 / #79 over real games: after each deal the fool deals the next one and, by default,
    the player on his left attacks (S4:1 'Проигравший сдает'; S1:6)."""
    state = new_game("podkidnoy", players=4, seed=100)
    rng = random.Random(100)
    fools = 0
    for game in range(6):
        end = final_state(state, rng)
        ctx = next_match_context(end)
        assert ctx.game_number == game + 1
        state = new_game("podkidnoy", players=4, seed=200 + game, match=ctx)
        if end.outcome.loser is None:
            assert ctx.dealer == end.deal.dealer
        else:
            fools += 1
            assert state.deal.dealer == end.outcome.loser
            assert state.attacker == (end.outcome.loser + 1) % 4
    assert fools >= 3


def test_left_of_dealer_first_attacker_rule_every_deal():
    """§3.1 #2 'player left of dealer leads' as first_attacker.rule=left_of_dealer (S1:53 'The
    player next to the dealer begins his turn')."""
    for seed in range(10):
        s = new_game("podkidnoy+first_attacker.rule=left_of_dealer", players=3, seed=seed)
        assert s.attacker == (s.deal.dealer + 1) % 3
