"""Variants II through the engine: partnerships (VARIANTS.md §3.6 #53 pair_fool, #54 double_fool,
#55 team_fool).

Each docstring cites the catalogue id and the seed line it checks (S0 = seeds/000_*.txt, S1 =
seeds/001_*.txt, S4 = seeds/004_*.txt). Positions are set up from position text; the expected
seats are read off the rule text, never off the engine.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.errors import RulesError
from bito.games.durak import new_game
from bito.games.durak.render import render_view
from bito.games.durak.teams import Partnership, Teams, played_seat, proxy_of, team_of_seats
from bito.notation import parse_position, position_text
from bito.rules import resolve
from bito.tui import result_text
from conftest import P, assert_conserved, legal, play, random_walk

#: Z, S, V, Yu of the seed (S1:66) are seats 0-3; partners Z-V (0, 2) and S-Yu (1, 3).
Z, S, V, YU = 0, 1, 2, 3


# --- who sits with whom ---------------------------------------------------------------------


def test_opposite_layout_pairs_seats_across_the_table() -> None:
    """#53/#54 (S0:194 "sitting opposite each other, who form the playing pairs"; S0:266
    "partners do not sit next to each other, but opposite"): with four players seat s partners
    s+2, with six players s+3; never a neighbour."""
    for n in (4, 6):
        team = team_of_seats("opposite", n)
        for s in range(n):
            assert team[s] == team[(s + n // 2) % n]
            assert team[s] != team[(s + 1) % n]
        assert len(set(team)) == n // 2


def test_alternating_layout_puts_an_opponent_between_partners() -> None:
    """#55 (S1:65 "the opponent sits between two partners"): two teams, every seat between
    two opponents, at four and six players."""
    for n in (4, 6):
        team = team_of_seats("alternating", n)
        assert len(set(team)) == 2
        for s in range(n):
            assert team[(s - 1) % n] != team[s] != team[(s + 1) % n]


@pytest.mark.parametrize("vid,counts", [("pair_fool", (4,)), ("double_fool", (4, 6)),
                                        ("team_fool", (4, 6))])
def test_seat_counts(vid: str, counts: tuple[int, ...]) -> None:
    """#53 "only four players" (S0:194); #54 "4 or 6 players" (S0:265); #55 two on two or
    three on three (S1:65): those counts deal, the others are refused naming ``players``."""
    for n in range(2, 8):
        if n in counts:
            assert new_game(vid, players=n, seed=n).players == n
        else:
            with pytest.raises(RulesError) as err:
                new_game(vid, players=n, seed=n)
            assert err.value.key == "players"


def test_teams_refuse_transfers_naming_the_option() -> None:
    """The catalogue plays every partnership on throw-in fool (§3.6 base: podkidnoy); a
    transfer to the transferrer's own partner is nowhere described, so the mix is refused."""
    with pytest.raises(RulesError) as err:
        new_game("double_fool+transfer.enabled=true", players=4, seed=1)
    assert err.value.key == "team.layout"


def test_pair_fool_is_double_fool_at_four_players() -> None:
    """#53 A3: with four players "only the attacker's pair throws" is "only the defender's
    opponents throw", so the two ids differ only in the seat counts they allow."""
    a, b = resolve("pair_fool").rules, resolve("double_fool").rules
    assert a.with_options(**{"players.max": 6}) == b


# --- whom the attack goes to, who throws in (#53, #54) -------------------------------------------

# Seat 1 is out; seat 3 led 7s at seat 0, whose partner (seat 2) holds a seven.
SKIP = "{spec} players=4 trump=6h stock=- hands=8sAcKc/-/7d9c/Qh table=7s attacker=3 " \
       "defender=0 out=1"


def test_partner_never_throws_in_at_his_partner() -> None:
    """#54 (S0:266 "you can't ... throw cards at him"), #53 (S0:194 "only players of one pair,
    to which the walking player belongs, have the right to throw up"): after seat 0 covers,
    his partner seat 2 holds 7d of a rank on the table but is never asked; the only thrower
    is seat 3, who passes, and the bout is bito. With ``team.throw_in=all`` seat 2 is asked."""
    s = play(P(SKIP.format(spec="double_fool")), "8s>7s")
    assert s.to_act == 3 and legal(s) == {"pass"}
    s = play(s, "pass")
    assert s.bout == 1 and not s.attack
    loose = play(P(SKIP.format(spec="double_fool+team.throw_in=all")), "8s>7s")
    assert (loose.to_act == 3 and legal(loose) == {"pass"})
    loose = play(loose, "pass")
    assert loose.to_act == 2 and "7d" in legal(loose)


def test_attack_skips_a_partner_to_reach_the_next_opponent() -> None:
    """#54 (S0:266 "you can't go to your partner ... You can only attack the enemy"), #53 A2
    (Rec. skip him): seat 0 beats off and attacks next; the next seat in play on his left is
    his partner (seat 2, seat 1 being out), so the attack goes on to seat 3. Under
    ``team.attack=next_seat`` (the literal alternative) it goes to seat 2."""
    for vid in ("double_fool", "pair_fool"):
        s = play(P(SKIP.format(spec=vid)), "8s>7s", "pass")
        assert (s.attacker, s.defender, s.to_act) == (0, 3, 0)
    s = play(P(SKIP.format(spec="double_fool+team.attack=next_seat")), "8s>7s", "pass")
    assert (s.attacker, s.defender) == (0, 2)


def test_both_partners_lose_when_one_team_is_left_with_cards() -> None:
    """#54 (S0:268 "If one member of the team leaves the game, and the second is left with the
    cards, then both of them are considered to be losers"), #53 "the loss is recorded for a
    pair" (S0:194): seat 2 (partner of the out seat 0) covers with his last card and goes
    out; seats 1 and 3, partners, still hold cards and may not attack each other: the game is
    over, their team (1) loses, and the fool named is the one holding more cards."""
    s = P("double_fool players=4 trump=6h stock=- hands=-/9c/8s/QhKhAh7d table=7s "
          "attacker=1 defender=2 out=0")
    s = play(s, "8s>7s")
    if not s.is_over:
        s = play(s, *["pass"] * (len(s.throwers)))
    assert s.is_over
    o = s.outcome
    assert o.teams == ((0, 2), (1, 3)) and o.losing_team == 1
    assert o.loser == 3 and not o.draw
    assert o.team_order == (0, 1)
    assert o.to_json()["losing_team"] == 1 and o.to_json()["teams"] == [[0, 2], [1, 3]]
    text = result_text(o.loser, o.draw, o.order, ["A", "B", "C", "D"], o.reason, o.teams)
    assert "D is the fool" in text and "B, D" in text


def test_one_of_each_pair_left_plays_on_as_plain_podkidnoy() -> None:
    """#54 (S0:269 "If one participant remains from each pair, they continue to play
    according to the rules of the usual Throwing a fool"): seats 2 and 3 are out; seat 0
    beats off seat 1's lead and the game goes on, seat 0 attacking seat 1."""
    s = P("double_fool players=4 trump=6h stock=- hands=8sAc/9cKd/-/- table=7s attacker=1 "
          "defender=0 out=2.3")
    s = play(s, "8s>7s")
    s = play(s, *["pass"] * len(s.throwers)) if s.phase == 2 else s
    assert not s.is_over
    assert (s.attacker, s.defender) == (0, 1)


def test_everyone_out_in_the_last_bout_is_a_draw() -> None:
    """#54 (S0:269 "If after the last deal all the players got rid of the cards, a draw is
    declared"), #55 (S1:67): seat 1 leads his last card at seat 0, who covers with his last;
    the other two are out: a draw, no losing team."""
    for vid in ("double_fool", "team_fool"):
        s = play(P(f"{vid} players=4 trump=6h stock=- hands=8s/-/-/- table=7s attacker=3 "
                   "defender=0 out=1.2"), "8s>7s")
        assert s.is_over and s.outcome.draw and s.outcome.losing_team is None


# --- the seat proxy (#55) -----------------------------------------------------------------------

# V (2) led 7s at Yu (3), who covers with his last card (the stock is empty).
PROXY = "{spec} players=4 trump=6h stock=- hands=9dJc/TcQc/AdKd/8s table=7s attacker=2 defender=3"


def test_partner_attacks_from_the_vacated_seat() -> None:
    """#55, the seed's own example (S1:66, S4:1 "Yu dropped out ... Instead of Yu, S goes under
    Z; in case of a rebound, Z goes under S"): Yu covers with his last card and is out; his
    seat's turn to attack comes next, so S attacks Z in his place; Z beats off and attacks S
    as usual."""
    s = play(P(PROXY.format(spec="team_fool")), "8s>7s")
    s = play(s, *["pass"] * len(s.throwers))
    assert YU in s.out
    assert (s.attacker, s.defender) == (S, Z)
    s = play(s, "Tc", "Jc>Tc")
    s = play(s, *["pass"] * len(s.throwers))
    assert (s.attacker, s.defender) == (Z, S)


def test_without_proxy_the_rotation_closes_up() -> None:
    """The same position under #54 (no proxy, S0:265): Yu's seat leaves the rotation, so the
    next in play on his left, Z, attacks S: the proxy rule is what makes S attack Z."""
    s = play(P(PROXY.format(spec="double_fool")), "8s>7s")
    s = play(s, *["pass"] * len(s.throwers))
    assert (s.attacker, s.defender) == (Z, S)


def test_partner_defends_in_the_vacated_seat_and_the_position_says_so() -> None:
    """#55 (S1:66 "his partner plays simultaneously in his and his place"): when the vacated
    seat's turn to be attacked comes (V attacks Yu's seat), S defends it from his own hand.
    The position text names the seat he plays (``plays=3``) and round-trips; the views show
    everyone the same."""
    s = P("team_fool players=4 trump=6h stock=- hands=9d/TcQc/7sKd/- table=- attacker=2 "
          "defender=1 out=3 plays=3")
    assert played_seat(s) == YU and s.defender == S
    text = position_text(s)
    assert "plays=3" in text
    back = parse_position(text)
    assert position_text(back) == text
    s = play(s, "7s")
    assert s.to_act == S
    s = play(s, "take")
    s = play(s, *["pass"] * len(s.throwers)) if s.phase == 2 else s
    # S took in Yu's seat: the player on that seat's left, Z, attacks next, at S's own seat.
    assert (s.attacker, s.defender, played_seat(s)) == (Z, S, S)
    assert "plays seat 3" not in render_view(s.view(Z), ["Z", "S", "V", "Yu"])


def test_proxy_is_the_nearest_partner_counter_clockwise() -> None:
    """#55 A1 (Rec. the nearest active partner counter-clockwise, the one who "sat before"
    the vacated seat), three on three: seat 3's partners are 1 and 5; with 3 out, 1 plays it;
    with 1 out as well, 5 does (S1:65)."""
    s = new_game("team_fool", players=6, seed=3)
    s.out_mask = 1 << 3
    assert proxy_of(s, 3) == 1
    s.out_mask = 1 << 3 | 1 << 1
    assert proxy_of(s, 3) == 5 and proxy_of(s, 1) == 5
    assert proxy_of(s, 0) == 0


# --- views, rendering ---------------------------------------------------------------------------


def test_views_show_partners_as_partners() -> None:
    """Issue 4 "Views show partners as partners": every seat's view carries the teams (public
    at the table, S0:194), ``partners()`` names the others of its team, and the terminal
    marks partners and opponents."""
    s = new_game("double_fool", players=6, seed=5)
    for seat in range(6):
        v = s.view(seat)
        teams = v.extension(Partnership)
        assert teams is not None and teams.teams == ((0, 3), (1, 4), (2, 5))
        assert teams.partners(seat) == ((seat + 3) % 6,)
    text = render_view(s.view(0), [f"P{i}" for i in range(6)])
    assert "P3" in text and "[partner]" in text.split("P3")[1].splitlines()[0]
    assert "[opponent]" in text.split("P1")[1].splitlines()[0]


# --- random play ------------------------------------------------------------------------------

TEAM_SPECS = ("pair_fool", "double_fool", "team_fool", "double_fool+team.attack=next_seat",
              "team_fool+team.throw_in=all", "double_fool+team.proxy=true",
              "team_fool+team.proxy=false", "simple+team.layout=opposite",
              "podkidnoy+team.layout=alternating+team.proxy=true+deck.size=52")


def _counts(spec: str) -> list[int]:
    rules = resolve(spec).rules
    return [n for n in (4, 6) if rules.players_min <= n <= rules.max_players]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TEAM_SPECS), st.integers(0, 2**31), st.booleans())
def test_random_team_games_keep_the_invariants(spec: str, seed: int, six: bool) -> None:
    """Random play under the team rules: cards are conserved, every legal action is accepted,
    the game ends; partners never attack or throw at each other (unless the literal options
    allow it); a vacated seat's proxy is always its owner's partner; views never hold another
    seat's hidden card; a finished game names a losing team that is the fool's."""
    counts = _counts(spec)
    n = counts[-1] if six else counts[0]
    s = new_game(spec, players=n, seed=seed)
    rules = s.rules
    teams = s.deal.fact(Teams)
    assert teams is not None
    team = teams.team_of
    rng = random.Random(seed)
    end = s
    for before, _action, after in random_walk(s, rng, limit=20_000):
        assert_conserved(after)
        if before.phase == 0 and rules.team_attack == "opponent":
            assert team[before.to_act] != team[before.defender], position_text(before)
        if before.phase == 2 and rules.team_throw_in == "opponents":
            assert team[before.to_act] != team[before.defender]
        if played_seat(after) >= 0 and not after.is_over:
            assert team[played_seat(after)] == team[after.defender]
            assert proxy_of(after, played_seat(after)) == after.defender
        for seat in range(n):
            v = after.view(seat)
            assert v.hand == after.hands[seat]
            for other in range(n):
                if other != seat:
                    assert v.known[other] & ~after.known[other] == 0
        end = after
    o = end.outcome
    assert o is not None and o.teams == teams.teams
    if o.loser is None:
        assert o.losing_team is None
    else:
        assert o.losing_team == team[o.loser]
        # Nobody of another team still held cards at the end.
        for seat in range(n):
            if end.hands[seat]:
                assert team[seat] == o.losing_team
