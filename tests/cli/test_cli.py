"""The ``bito`` command end to end: play driven by piped stdin, variants, sim, replay, bench.

Most tests call :func:`bito.cli.main` in-process (fast, and capsys sees everything); one runs
the real command in a subprocess to prove the entry point and piped stdin work.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bito.cards import standard_deck
from bito.cli import ProgressBar, main
from bito.games.durak import DEFEND, TAKE, TRANSFER, new_game
from bito.notation import parse_position
from bito.tui import resolve_input

ALL_ONES = "1\n" * 3000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_with_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                   text: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, *argv)


def result_line(out: str) -> str:
    lines = [ln for ln in out.splitlines() if ln.startswith("Result:")]
    assert len(lines) == 1, out[-2000:]
    return lines[0]


def seed_where_seat_leads(seat: int, players: int = 2) -> int:
    """A seed whose first attacker is ``seat`` (so the human moves first)."""
    for seed in range(200):
        if new_game("podkidnoy", players, seed=seed).to_act == seat:
            return seed
    raise AssertionError("no such seed")


# --- play ---------------------------------------------------------------------------------


def test_play_scripted_game_runs_to_the_end_and_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The real command, fed '1' (the first legal move) on a pipe, plays a whole game; the
    saved record replays to the same result."""
    record = tmp_path / "game.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "bito.cli", "play", "--seed", "11", "--bots", "random",
         "--save", str(record)],
        input=ALL_ONES, capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout
    played = result_line(proc.stdout)
    assert "fool" in played or "Draw" in played
    assert "Anna attacks" in proc.stdout or "You attack" in proc.stdout
    assert "Your move" in proc.stdout and "take" in proc.stdout
    assert record.exists()

    code, out, err = run(capsys, "replay", str(record), "--to-end")
    assert code == 0, err
    assert result_line(out) == played


def test_play_shows_the_screen_a_player_needs(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seed = seed_where_seat_leads(0, players=3)
    code, out, _ = run_with_input(capsys, monkeypatch, "quit\n", "play", "--players", "3",
                                  "--seed", str(seed), "--bots", "random")
    assert code == 0
    assert "Trump" in out or "trump" in out
    assert "stock 18" in out and "discard 0" in out
    assert "Anna (random)" in out and "Boris (random)" in out
    assert "Your hand [you attack, your move]:" in out
    assert " 1. " in out  # numbered legal moves
    assert "Game stopped (you quit)" in out


def test_illegal_and_malformed_input_is_explained_and_the_game_goes_on(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seed = seed_where_seat_leads(0)
    state = new_game("podkidnoy", 2, seed=seed)
    missing = next(c for c in standard_deck(36) if not state.hands[0] >> c & 1)
    from bito.cards import card_pretty, card_str

    script = f"{card_str(missing)}\nzz9\npass\n99\n1\nquit\n"
    code, out, _ = run_with_input(capsys, monkeypatch, script, "play", "--seed", str(seed),
                                  "--bots", "random")
    assert code == 0
    # said to the player ("you"), not of "seat 0"
    assert f"Not allowed: you do not hold {card_pretty(missing)}." in out
    assert "seat 0" not in out.split("Type 'help'")[1]
    assert "Cannot read that move: unknown rank 'z'" in out
    assert "\n  zz9\n  ^" in out  # points at the text
    assert "you attack: open the bout with a card; you cannot pass (lead)" in out
    assert "Not allowed: choose 1 to" in out
    assert "You attack" in out  # the game went on after the errors
    assert "Game stopped (you quit)" in out


def test_end_of_input_saves_an_unfinished_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    seed = seed_where_seat_leads(0)
    record = tmp_path / "partial.jsonl"
    code, out, _ = run_with_input(capsys, monkeypatch, "1\n", "play", "--seed", str(seed),
                                  "--bots", "random", "--save", str(record))
    assert code == 0
    assert "Game stopped (input ended)" in out
    assert "Game saved" in out
    code, out, err = run(capsys, "replay", str(record), "--to-end")
    assert code == 0, err
    assert "not finished" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "--variant", "nosuch"], "no such variant"),
    (["play", "--players", "7"], "seats 2 to 6 players, not 7"),
    (["play", "--deck", "24", "--players", "5"], "seats 2 to 4 players"),
    (["play", "--bots", "random,random", "--players", "2"], "one name per opponent"),
    (["play", "--bots", "nobody"], "unknown bot 'nobody'"),
    (["play", "--seat", "2"], "--seat must be 0 to 1"),
    (["play", "--variant", "podkidnoy+deck.size=24", "--deck", "52"], "deck.size"),
    (["variants", "nosuch"], "no such variant"),
    (["sim", "--variant", "nosuch"], "no such variant"),
])
def test_bad_input_is_a_clear_error_with_exit_code_2(
        capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert out == ""


def test_eight_players_with_52_cards(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_with_input(capsys, monkeypatch, "quit\n", "play", "--deck", "52",
                                  "--players", "8", "--bots", "random", "--seed", "3")
    assert code == 0
    assert "52 cards, 8 players" in out
    assert "seat 7: Zoya (random)" in out


def test_resolve_input_numbers_notation_and_a_bare_covering_card() -> None:
    state = parse_position("perevodnoy players=3 trump=6h stock=6h hands=8c/9dKd6s/AcAd "
                           "table=7d attacker=0 bout=1")
    assert state.to_act == 1
    by_card = resolve_input("9d", state)
    assert by_card.kind == DEFEND and str(by_card) == "9d>7d"
    assert resolve_input("take", state).kind == TAKE
    assert str(resolve_input("1", state)) == "9d>7d"  # numbers count cheapest first
    assert str(resolve_input("2", state)) == "Kd>7d"
    assert resolve_input("3", state).kind == TAKE
    state2 = parse_position("perevodnoy players=3 trump=6h stock=6h hands=7d8c/7s9dKd/AcAdAs "
                            "table=7c attacker=0 bout=1")
    assert resolve_input("=7s", state2).kind == TRANSFER
    assert resolve_input("7s", state2).kind == TRANSFER  # only a transfer uses 7s here


# --- variants -----------------------------------------------------------------------------


def test_variants_json_lists_the_base_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    assert code == 0
    data = json.loads(out)
    assert isinstance(data, list)
    ids = {v["id"] for v in data}
    assert {"simple", "podkidnoy", "perevodnoy"} <= ids
    for v in data:
        assert isinstance(v["names"], list) and isinstance(v["family"], str) and v["family"]
    assert {v["family"] for v in data if v["id"] in ("simple", "podkidnoy")} == {"durak"}


def test_variants_list_and_one_variant_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    assert "podkidnoy" in out and "Подкидной дурак" in out
    code, out, _ = run(capsys, "variants", "perevodnoy")
    assert code == 0
    assert "transfer" in out.lower()
    assert "transfer.enabled = true" in out
    code, out, _ = run(capsys, "variants", "Transfer fool")  # by alias
    assert code == 0 and out.startswith("perevodnoy")
    code, out, _ = run(capsys, "variants", "uncapped_after_stock")
    assert code == 0 and "Applies to:" in out


def test_variants_spec_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "perevodnoy+uncapped_after_stock")
    assert code == 0
    assert "throw_in.uncapped_after_stock = true" in out
    code, out, _ = run(capsys, "variants", "--options")
    assert code == 0
    assert "throw_in.by  [all | neighbours]" in out
    code, out, _ = run(capsys, "variants", "--options", "--json")
    keys = {o["key"] for o in json.loads(out)}
    assert "deck.size" in keys and "transfer.enabled" in keys


# --- sim ----------------------------------------------------------------------------------


def test_sim_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "sim", "--variant", "podkidnoy", "--players", "2", "--games",
                       "12", "--bots", "random,random", "--seed", "4", "--json")
    assert code == 0
    data = json.loads(out)
    for key in ("variant", "players", "games", "errors", "draws", "losses_by_bot",
                "mean_actions", "games_per_second"):
        assert key in data
    assert data["errors"] == 0 and data["games"] == 12 and data["players"] == 2
    assert sum(data["losses_by_bot"].values()) + data["draws"] == 12


def test_sim_table_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "sim", "--variant", "perevodnoy", "--players", "3",
                         "--games", "6", "--bots", "random")
    assert code == 0
    assert "non-loss rate" in out and "errors 0" in out
    assert "6/6 games (100%)" in err


def test_progress_bar_redraws_in_place_on_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    bar = ProgressBar(4, stream)
    for i in range(1, 5):
        bar(i, 4)
    bar.close()
    text = stream.getvalue()
    assert text.startswith("\r[") and "4/4 games (100%)" in text and text.endswith("\n")


# --- replay -------------------------------------------------------------------------------


def _saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                monkeypatch: pytest.MonkeyPatch) -> Path:
    record = tmp_path / "g.jsonl"
    run_with_input(capsys, monkeypatch, ALL_ONES, "play", "--seed", "2", "--bots", "random",
                   "--save", str(record))
    assert record.exists()
    return record


def test_replay_steps_forward_back_and_jumps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = _saved_game(tmp_path, capsys, monkeypatch)
    code, out, _ = run_with_input(capsys, monkeypatch, "\nn\nb\n7\nq\n", "replay", str(record))
    assert code == 0
    shown = re.findall(r"(Start of the game \(move 0|Move \d+) of", out)
    assert shown == ["Start of the game (move 0", "Move 1", "Move 2", "Move 1", "Move 7"]


def test_replay_of_a_malformed_record_names_the_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    record = _saved_game(tmp_path, capsys, monkeypatch)
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[2] = "{not json"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(bad), "--to-end")
    assert code == 2
    assert "line 3" in err and out == ""
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err


# --- bench and help -----------------------------------------------------------------------


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--json", "--games", "20")
    assert code == 0
    data = json.loads(out)
    assert {"results", "python", "machine"} <= set(data)
    names = [r["name"] for r in data["results"]]
    assert names == ["podkidnoy-2p", "podkidnoy-4p", "perevodnoy-2p"]
    for r in data["results"]:
        assert r["engine"] == "reference" and r["games"] == 20
        assert r["games_per_second"] > 0 and r["mean_actions"] > 10


def test_bench_repeat_reports_the_median_run_and_every_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--repeat K`` measures every case K times; the row is the median run's, with every
    run's rate beside it (a noisy machine's single run says little)."""
    code, out, _ = run(capsys, "bench", "--json", "--games", "5", "--repeat", "4")
    assert code == 0
    data = json.loads(out)
    assert data["repeat"] == 4
    for r in data["results"]:
        runs = r["runs"]
        assert len(runs) == 4 and len(r["cpu_runs"]) == 4
        ranked = sorted(runs)
        assert r["games_per_second"] == ranked[1]  # the lower middle of four
        assert r["best_games_per_second"] == ranked[-1]
        assert r["worst_games_per_second"] == ranked[0]
        assert r["games"] == 5
    code, _, err = run(capsys, "bench", "--games", "5", "--repeat", "0")
    assert code == 2 and "--repeat" in err
    code, out, _ = run(capsys, "bench", "--games", "5", "--repeat", "3")
    assert code == 0 and "median of 3" in out


@pytest.mark.parametrize("command", ["play", "variants", "sim", "replay", "bench"])
def test_help_everywhere(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert out.startswith(f"usage: bito {command}") and "examples:" in out
