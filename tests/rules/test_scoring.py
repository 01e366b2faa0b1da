"""Variants II: scoring and the tournament (VARIANTS.md §3.8, #61-64).

Tallies are counted by hand from the rule text for small positions; the outcome, the views,
the records and ``bito sim --json`` must carry them. The tournament is checked for the shape
S0:310 gives it: many players, several stages, one winner.
"""

from __future__ import annotations

import json
import random

import pytest

from bito.cli import main
from bito.games.durak import DEFEND, Outcome, new_game
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.stock import Tallies
from bito.tournament import run_tournament, seat_tables
from conftest import P, play, random_walk

# --- #61 points_fool ------------------------------------------------------------------------

POINTS = ("podkidnoy+points_fool players=3 trump=6h stock=- hands=7c8cAd/9s9dQcKc/JcJdAs "
          "table=7s,7d attacker=0 defender=1")


def test_points_count_the_attack_cards_covered_in_a_bito() -> None:
    """#61 points_fool; S0:80 "the player who knocks off the most cards wins"; A1: a point per
    attack card covered in a bout that ended in bito: two covers, two points."""
    s = play(P(POINTS), "9s>7s", "9d>7d", "pass", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).points == (0, 2, 0)
    assert s.view(2).extension(Tallies) == Tallies((0, 0, 0), (0, 2, 0))


def test_points_nothing_for_a_bout_that_was_taken() -> None:
    """#61: covers in a bout the defender then takes score nothing."""
    s = play(P(POINTS), "9s>7s", "take", "pass", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).points == (0, 0, 0)


def test_points_discarded_counts_every_card_of_the_bout() -> None:
    """#61 A1 option count=all_cards_discarded (score.points=discarded): 2 attack + 2 covers."""
    s = P(POINTS.replace("points_fool", "points_fool=discarded"))
    s = play(s, "9s>7s", "9d>7d", "pass", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).points == (0, 4, 0)


def test_points_top_scorers_share_the_win() -> None:
    """#61 A2: ties share the win; A3: the fool is still the fool."""
    o = Outcome(loser=2, order=(0, 1, 2), draw=False, points=(3, 3, 1))
    assert o.top_scorers == (0, 1)
    assert o.to_json()["top_scorers"] == [0, 1] and o.to_json()["loser"] == 2
    assert Outcome(loser=1, order=(0, 1), draw=False).to_json().keys() == {"loser", "order",
                                                                           "draw"}


def test_points_reach_the_outcome_at_the_end_of_a_game() -> None:
    """#61: the final outcome carries everyone's points, and they add up to the covers made
    in bouts that ended in bito, counted here from the moves themselves."""
    for seed in range(6):
        s = new_game("podkidnoy+points_fool", players=3, seed=seed)
        expected = [0, 0, 0]
        final = s
        for before, action, after in random_walk(s, random.Random(seed)):
            final = after
            if after.bout == before.bout and not after.is_over:
                continue  # the bout goes on
            covers = sum(1 for d in before.defence if d >= 0) + (action.kind == DEFEND)
            if after.discard >> before.attack[0] & 1:  # bito: the table went to the discard
                expected[before.defender] += covers
        assert final.outcome is not None
        assert list(final.outcome.points) == expected


# --- #62 figure_count -----------------------------------------------------------------------


def test_figures_count_tens_to_aces_covered() -> None:
    """#62 figure_count; S0:166 "cards worth more than nine, that is: tens, jacks, queens,
    kings, aces ... how many face cards they have recaptured": Ts and Qd covered, 9s not."""
    s = P("podkidnoy+figure_count players=2 trump=6h stock=- hands=7c8c/JsKdAsTh "
          "table=Ts,Qd,9s attacker=0 defender=1")
    s = play(s, "Js>Ts", "Kd>Qd", "As>9s", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).figures == (0, 2)


def test_figures_covered_then_taken_do_not_count() -> None:
    """#62; S0:166 "If the player first recaptured the figured cards, but then more were thrown
    at him, the figured cards are not counted ... (the player takes)"."""
    s = P("podkidnoy+figure_count players=2 trump=6h stock=- hands=7cJc/JsAsTh "
          "table=Ts attacker=0 defender=1")
    s = play(s, "Js>Ts", "Jc", "pass", "take", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).figures == (0, 0)


# --- #63 epaulettes -------------------------------------------------------------------------


@pytest.mark.parametrize(("attack", "wear"), [
    ("6s,6d", 2), ("6s", 1), ("6h", 0), ("6s,7s", 0)])
def test_epaulettes_for_a_last_attack_of_plain_sixes(attack: str, wear: int) -> None:
    """#63 epaulettes; S1:63 "If the last move under him was made by two sixes, then the loser
    is declared a fool with shoulder straps", S0:199 "a non-winning six or two sixes": seat 1
    cannot cover the last attack, takes it and is the fool; a six of the trump suit (hearts)
    or a card that is not a six spoils it (A1)."""
    s = P(f"podkidnoy+epaulettes players=2 trump=6h stock=- hands=-/8c9cTc "
          f"table={attack} attacker=0 defender=1 out=0")
    assert [str(a) for a in s.legal_actions()] == ["take"]
    s = play(s, "take")
    assert s.outcome is not None and s.outcome.loser == 1
    assert s.outcome.epaulettes == wear
    assert ("epaulettes" in s.outcome.to_json()) == bool(wear)


def test_epaulettes_reach_the_record_and_the_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    """#63 and #61: the outcome's tallies are in a game record and in `bito sim --json`."""
    rc = main(["sim", "--variant", "podkidnoy+points_fool+figure_count+epaulettes",
               "--players", "2", "--games", "20", "--bots", "random", "--json",
               "--no-progress"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0 and data["errors"] == 0
    tallies = data["tallies"]
    assert sum(tallies["top_scorer_by_bot"].values()) >= 20  # every game has top scorers
    assert set(tallies) >= {"points_by_bot", "figures_by_bot"}
    s = new_game("podkidnoy+points_fool", players=2, seed=1)
    end = s
    for _, _, after in random_walk(s, random.Random(1)):
        end = after
    assert end.outcome is not None
    assert end.outcome.to_json()["points"] == list(end.outcome.points)


# --- #64 tournament -------------------------------------------------------------------------


def test_seat_tables_never_leave_a_player_alone() -> None:
    """#64 A1 (configurable table size): the fewest tables, sizes within one of each other;
    a player alone (an odd number at tables of two) has a bye."""
    for n in range(2, 30):
        for size in (2, 3, 4, 6):
            tables = seat_tables(list(range(n)), size)
            sizes = [len(t) for t in tables]
            assert sum(sizes) == n and max(sizes) <= size
            assert min(sizes) >= 2 or (size == 2 and n % 2 and sizes.count(1) == 1)
            assert max(sizes) - min(sizes) <= 1
            assert len(tables) == -(-n // size)


def test_tournament_ends_with_one_winner() -> None:
    """#64 tournament; S0:310 "a competition of a large number of players to be eliminated ...
    the only one player ... will become the winner of the tournament. This competition is
    multi-stage": 7 entrants at tables of 3; each stage eliminates one fool per table."""
    t = run_tournament("podkidnoy", ["random"] * 4 + ["heuristic"] * 3, table=3, seed=5)
    assert t.winner is not None
    standings = t.standings()
    assert sorted(standings) == list(range(7)) and standings[0] == t.winner
    assert t.stages >= 3
    for stage in range(1, t.stages + 1):
        tables = [r for r in t.tables if r.stage == stage]
        fallen = [r.fool for r in tables if r.fool is not None]
        assert len(fallen) == len({w for s, _, w in t.eliminated if s == stage})
        assert all(f in r.seats for r in tables for f in [r.fool] if f is not None)
    out_stage = {w: s for s, _, w in t.eliminated}
    stages = [out_stage[w] for w in standings[1:]]
    assert stages == sorted(stages, reverse=True)  # later elimination, better place


def test_tournament_command_prints_standings(capsys: pytest.CaptureFixture[str]) -> None:
    """#64: `bito tournament` runs headless with bots and reports the standings."""
    rc = main(["tournament", "--entrants", "5", "--table", "3", "--bots", "random",
               "--json"])
    data = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert [row["place"] for row in data["standings"]] == [1, 2, 3, 4, 5]
    assert data["standings"][0]["entrant"] == data["winner"]
    assert main(["sim", "--variant", "tournament", "--games", "1"]) != 0
