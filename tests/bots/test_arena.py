"""The arena: duplicate deals, scores, ratings, SPRT and the command line.

Rating and SPRT arithmetic is checked against values derived from the Elo formula on synthetic
records; the play itself is checked on real games between the real bots."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from bito.arena import run_arena, tables_for
from bito.arena.games import GameJob, GameRecord, jobs_for, play_job
from bito.arena.ratings import elo_ratings, mean_interval
from bito.arena.sprt import expected_score, sprt
from bito.sim import derive_seed


def test_duplicate_deals_swap_the_seats_on_the_same_cards() -> None:
    jobs = jobs_for("podkidnoy", 2, [("heuristic", "random")], range(3), seed=5)
    assert len(jobs) == 6
    first, second = play_job(jobs[0]), play_job(jobs[1])
    assert (jobs[0].deal, jobs[1].deal) == (0, 0)
    assert (jobs[0].rotation, jobs[1].rotation) == (0, 1)
    # Same deal seed, bots in swapped seats: each bot index still gets one score per game.
    for rec in (first, second):
        assert rec.error is None
        assert sorted(rec.scores) in ([0.0, 1.0], [0.5, 0.5])
    from bito.games import new_game

    a = new_game("podkidnoy", 2, seed=derive_seed(5, 0))
    b = new_game("podkidnoy", 2, seed=derive_seed(5, 0))
    assert a.hands == b.hands


def test_heuristic_beats_random_in_a_small_arena() -> None:
    result = run_arena("podkidnoy", 2, ["random", "heuristic"], pairs=12, seed=3)
    data = result.to_json()
    assert {"variant", "players", "pairs", "bots"} <= set(data)
    assert data["variant"] == "podkidnoy" and data["players"] == 2 and data["pairs"] == 12
    bots = {b["name"]: b for b in data["bots"]}
    assert bots["random"]["rating"] == 0.0  # the anchor
    assert bots["heuristic"]["rating"] > 200
    assert bots["heuristic"]["score"] > 0.8
    assert math.isclose(bots["heuristic"]["score"] + bots["random"]["score"], 1.0)
    lo, hi = bots["heuristic"]["interval"]
    assert lo <= bots["heuristic"]["score"] <= hi
    assert data["games"] == 24 and data["errors"] == 0


def _records(score_b: float, sets: int) -> list[GameRecord]:
    """Synthetic duplicate pairs of A (index 0) against B (index 1): B wins a share
    ``score_b`` of all games (rounded per pair)."""
    out = []
    wins_b = round(score_b * 2 * sets)
    for d in range(sets):
        for r in range(2):
            b_wins = wins_b > 0
            wins_b -= b_wins
            job = GameJob("podkidnoy", 2, ("a", "b"), 0, d, r, 0)
            scores = (0.0, 1.0) if b_wins else (1.0, 0.0)
            out.append(GameRecord(job, scores, 0 if b_wins else 1, False, 10))
    return out


def test_elo_fit_matches_the_elo_formula() -> None:
    recs = _records(0.76, 2000)
    ratings = elo_ratings(recs, ["a", "b"], anchor="a", bootstrap=50)
    expected = 400 * math.log10(0.76 / 0.24)  # about 200
    assert ratings["a"][0] == 0.0
    assert abs(ratings["b"][0] - expected) < 3
    low, high = ratings["b"][1].low, ratings["b"][1].high
    assert low < ratings["b"][0] < high and high - low < 60


def test_mean_interval_shrinks_with_more_data() -> None:
    _, small = mean_interval([0.0, 1.0] * 10)
    _, large = mean_interval([0.0, 1.0] * 1000)
    assert (small.high - small.low) > 5 * (large.high - large.low)


def test_sprt_decides_both_ways() -> None:
    better = [1.0, 0.5, 1.0, 0.75, 1.0, 0.5, 1.0, 0.75] * 10
    assert sprt(better).verdict == "H1"
    same = [0.5, 0.25, 0.75, 0.5] * 200
    assert sprt(same).verdict == "H0"
    assert sprt([1.0] * 5).verdict == "continue"  # too few pairs for any verdict
    assert math.isclose(expected_score(0.0), 0.5)
    with pytest.raises(ValueError):
        sprt(better, elo0=10, elo1=5)


def test_tables() -> None:
    assert tables_for(["a", "b", "c"], 2, "round-robin") == [("a", "b"), ("a", "c"),
                                                              ("b", "c")]
    assert tables_for(["a", "b", "c"], 2, "gauntlet") == [("a", "b"), ("a", "c")]
    assert tables_for(["s", "h", "h", "h"], 4, "round-robin") == [("s", "h", "h", "h")]
    with pytest.raises(ValueError, match="seats need"):
        tables_for(["a", "b"], 3, "round-robin")
    with pytest.raises(ValueError, match="exactly two"):
        tables_for(["a", "b", "c"], 2, "sprt")


def test_four_player_table_uses_openskill() -> None:
    result = run_arena("podkidnoy", 4, ["heuristic", "random", "random", "random"], pairs=3,
                       seed=2)
    data = result.to_json()
    assert data["rating_system"] == "openskill"
    assert data["games"] == 12  # 3 deals x 4 rotations
    bots = {b["name"]: b for b in data["bots"]}
    assert bots["heuristic"]["rating"] > bots["random"]["rating"]


def test_cli_arena_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "ladder.svg"
    out = subprocess.run(
        [sys.executable, "-m", "bito.cli", "arena", "--bots", "random,easy", "--pairs", "4",
         "--json", "--no-progress", "--plot", str(plot), "--workers", "2"],
        capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["pairs"] == 4 and {b["name"] for b in data["bots"]} == {"random", "easy"}
    assert plot.read_text().lstrip().startswith("<?xml")
    bad = subprocess.run([sys.executable, "-m", "bito.cli", "arena", "--bots", "random,nobody"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode != 0 and "nobody" in bad.stderr


def test_arena_on_local_ray_matches_local() -> None:
    pytest.importorskip("ray")
    from bito.executors import make_executor

    local = run_arena("podkidnoy", 2, ["random", "heuristic"], pairs=2, seed=9)
    ex = make_executor("ray", 2)
    try:
        on_ray = run_arena("podkidnoy", 2, ["random", "heuristic"], pairs=2, seed=9,
                           executor=ex)
    finally:
        ex.close()
    assert [r.scores for r in on_ray.records] == [r.scores for r in local.records]


def test_playout_budget_makes_search_games_repeatable() -> None:
    """``--playouts`` takes the clock out of the search levels: the same seed plays the same
    games however busy the machine is (a ``--think-ms`` run could not promise this)."""
    jobs = jobs_for("podkidnoy", 2, [("easy", "medium")], range(1), seed=4, playouts=24)
    first = [play_job(j) for j in jobs]
    again = [play_job(j) for j in jobs]
    assert [(r.scores, r.actions) for r in first] == [(r.scores, r.actions) for r in again]
    assert all(r.error is None for r in first)
    result = run_arena("podkidnoy", 2, ["easy", "medium"], pairs=1, seed=4, playouts=24)
    assert result.to_json()["playouts"] == 24
    assert [r.actions for r in result.records] == [r.actions for r in first]


def test_cli_arena_rejects_a_playout_budget_below_one() -> None:
    bad = subprocess.run([sys.executable, "-m", "bito.cli", "arena", "--bots", "easy,strong",
                          "--playouts", "0"], capture_output=True, text=True, timeout=120,
                         check=False)
    assert bad.returncode != 0 and "--playouts" in bad.stderr


def test_every_pair_score_is_given_and_chunks_pool_by_pairs() -> None:
    """``--json`` lists every duplicate pair's score (``set_scores``) so a long run made of
    chunks pools by pairs (tools/arena_merge.py): the pairs' mean is the seat's score, and the
    pooled interval over two chunks is the normal interval over all their pairs."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    from arena_merge import merge  # type: ignore[import-not-found]  # (a script in tools/)

    chunks = []
    for seed in (3, 4):
        data = run_arena("podkidnoy", 2, ["random", "heuristic"], pairs=6, seed=seed).to_json()
        for seat in data["matchups"][0]["seats"]:
            assert len(seat["set_scores"]) == 6
            assert all(x in (0.0, 0.25, 0.5, 0.75, 1.0) for x in seat["set_scores"])
            assert math.isclose(sum(seat["set_scores"]) / 6, seat["score"], abs_tol=1e-3)
        chunks.append(data)
    pooled = {r["bot"]: r for r in merge([json.dumps(c) for c in chunks])["by_pairs"]}
    xs = [x for c in chunks for s in c["matchups"][0]["seats"] if s["bot"] == "heuristic"
          for x in s["set_scores"]]
    mean, iv = mean_interval(xs)
    assert pooled["heuristic"]["pairs"] == 12
    assert math.isclose(pooled["heuristic"]["score"], mean, abs_tol=1e-4)
    lo, hi = pooled["heuristic"]["interval"]  # (not clamped to [0, 1], mean_interval is)
    assert math.isclose(max(0.0, lo), iv.low, abs_tol=1e-3)
    assert math.isclose(min(1.0, hi), iv.high, abs_tol=1e-3)
