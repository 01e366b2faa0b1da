"""Matches of several deals (VARIANTS.md §1.8, #79): the fool deals next and the first
attacker of a later deal follows ``next_game_leader``; the CLI plays and simulates matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bito.cli import main
from bito.record import load_record
from bito.sim import run_sim


def test_sim_matches_make_next_game_leader_matter() -> None:
    """#79 (S0:217, S1:6 "under the fool"): with matches of several deals the house rule
    changes who attacks whom, so the results of the same seeded run differ; with single deals
    it cannot matter (every deal is a first deal)."""
    base = run_sim("podkidnoy", 3, 60, ["random"] * 3, seed=9, deals=4)
    under = run_sim("podkidnoy+next_game_leader=under_fool", 3, 60, ["random"] * 3, seed=9,
                    deals=4)
    single = run_sim("podkidnoy", 3, 60, ["random"] * 3, seed=9)
    single_under = run_sim("podkidnoy+next_game_leader=under_fool", 3, 60, ["random"] * 3,
                           seed=9)
    assert base.errors == under.errors == 0
    assert single.losses_by_seat == single_under.losses_by_seat
    assert base.losses_by_seat != under.losses_by_seat or base.total_actions != \
        under.total_actions


def test_play_a_match_saves_every_deal_and_the_fool_deals_next(tmp_path: Path) -> None:
    """§1.8 (S4:1 "Проигравший сдает"): the loser of a deal deals the next one."""
    save = tmp_path / "match.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "bito.cli", "play", "--seed", "3", "--players", "3",
         "--deals", "2", "--save", str(save)],
        input="1\n" * 5000, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first = load_record((tmp_path / "match-1.jsonl").read_text())
    second = load_record((tmp_path / "match-2.jsonl").read_text())
    fool = first.replay()[-1].outcome
    assert fool is not None
    assert second.header["match"]["game_number"] == 1
    if fool.loser is not None:
        assert second.header["match"]["dealer"] == fool.loser
        assert second.header["match"]["previous_fool"] == fool.loser
    assert "Deal 2 of 2" in done.stdout


def test_sim_json_reports_errors_zero_for_matches(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["sim", "--players", "2", "--games", "20", "--deals", "5", "--bots", "random",
                 "--json", "--no-progress"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["errors"] == 0 and data["games"] == 20

