"""The CLI's error convention (docs/cli.md): bad input of any kind is one line on stderr,
``bito <command>: error: ...``, exit code 2, found before any game is played; never a
traceback, never an error on stdout with exit 0.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import bito.arena
from bito import cli
from bito.cli import main
from bito.errors import BitoError


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(result: tuple[int, str, str], command: str, *words: str) -> str:
    """Exit 2, exactly one line on stderr in the convention's form, nothing about it on
    stdout; returns the line."""
    code, out, err = result
    lines = err.splitlines()
    assert code == 2, (code, out, err)
    assert len(lines) == 1, err
    assert lines[0].startswith(f"bito {command}: error: "), err
    assert "Traceback" not in out + err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played makes the test fail: the errors must come before the work."""
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(bito.arena, "run_arena", refuse)
    monkeypatch.setattr("bito.sim.run_sim", refuse)


def _record(tmp_path: Path, *lines: object) -> str:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n",
                    encoding="utf-8")
    return str(path)


HEADER = {"bito": "record", "version": 1, "variant": "podkidnoy", "players": 2, "seed": 1}


# --- rules files ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["play", "sim"])
def test_a_rules_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       no_games: None, command: str) -> None:
    """A rules file in another encoding is bad input naming the file."""
    bad = tmp_path / "latin1.toml"
    bad.write_bytes('name = "Küche"\nbase = "podkidnoy"\n'.encode("latin-1"))
    assert_usage_error(run(capsys, command, "--rules", str(bad)), command, "UTF-8",
                       "latin1.toml")


def test_a_deeply_nested_rules_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    no_games: None) -> None:
    """TOML nested thousands deep is refused as invalid, not a RecursionError."""
    deep = tmp_path / "deep.toml"
    deep.write_text("base = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    assert_usage_error(run(capsys, "sim", "--rules", str(deep)), "sim", "TOML")


def test_a_rules_file_based_on_the_tournament(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path, no_games: None) -> None:
    """#64 is a way of running many games, not a game a rules file can start from."""
    rules = tmp_path / "t.toml"
    rules.write_text('base = "tournament"\n', encoding="utf-8")
    assert_usage_error(run(capsys, "sim", "--rules", str(rules)), "sim", "base", "tournament")


# --- counts and output paths ---------------------------------------------------------------

def test_sim_with_zero_deals(capsys: pytest.CaptureFixture[str], no_games: None) -> None:
    """A match has at least one deal."""
    assert_usage_error(run(capsys, "sim", "--deals", "0", "--games", "1"), "sim", "--deals")


def test_arena_plot_into_a_missing_folder_is_refused_before_the_games(
        capsys: pytest.CaptureFixture[str], no_games: None) -> None:
    """The plot's folder is checked before any game (the fixture fails on a game)."""
    assert_usage_error(run(capsys, "arena", "--bots", "random,heuristic", "--pairs", "1",
                           "--plot", "/nonexistent/x.svg"), "arena", "--plot", "/nonexistent")


@pytest.mark.parametrize("target", ["/nonexistent/game.jsonl", "."])
def test_play_save_where_no_file_can_be_written(capsys: pytest.CaptureFixture[str],
                                                target: str) -> None:
    """--save into a missing folder or onto a folder is refused before the deal."""
    code, out, err = run(capsys, "play", "--seed", "1", "--save", target, stdin="quit\n")
    assert_usage_error((code, out, err), "play", "--save")
    assert "Durak" not in out  # no game was shown


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("variant", ["podkidnoy", "czech_fool"])
def test_play_save_on_a_full_disk(capsys: pytest.CaptureFixture[str], variant: str) -> None:
    """A disk that fills up is seen only when writing: the game is played, then the failure
    is the command's error (stderr, exit 2), not a remark on stdout with exit 0."""
    code, out, err = run(capsys, "play", "--variant", variant, "--seed", "1", "--save",
                         "/dev/full", stdin="quit\n")
    line = assert_usage_error((code, out, err), "play", "--save", "/dev/full")
    assert "cannot write" in line
    assert "/dev/full" not in out


# --- replay --------------------------------------------------------------------------------

def test_replay_of_deeply_nested_json(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    """JSON nested thousands deep is a malformed record, not a RecursionError."""
    path = _record(tmp_path, HEADER, "[" * 20000 + "]" * 20000)
    assert_usage_error(run(capsys, "replay", path, "--to-end"), "replay", "line 2")


def test_replay_of_an_outcome_after_an_unfinished_game(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    """An outcome line may only follow a game that the recorded actions finish."""
    path = _record(tmp_path, HEADER, {"outcome": {"loser": 0, "order": [1, 0], "draw": False}})
    assert_usage_error(run(capsys, "replay", path, "--to-end"), "replay", "outcome",
                       "not over")


def test_replay_of_a_header_whose_game_and_variant_disagree(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Czech fool is a shedding game: a header calling it Durak is malformed, not replayed
    as Durak under the wrong name."""
    path = _record(tmp_path, {**HEADER, "game": "durak", "variant": "czech_fool"})
    assert_usage_error(run(capsys, "replay", path, "--to-end"), "replay", "czech_fool",
                       "game")


def test_replay_of_a_file_that_is_not_utf8(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"\xff\xfe\x00")
    assert_usage_error(run(capsys, "replay", str(path)), "replay", "UTF-8")


# --- missing optional dependencies ---------------------------------------------------------

def test_a_bot_whose_extra_is_missing(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch, no_games: None) -> None:
    """``dmc`` needs numpy (the rl extra); without it, sim says so before any game."""
    monkeypatch.setitem(sys.modules, "bito.env.agent", None)  # importing it now fails
    assert_usage_error(run(capsys, "sim", "--bots", "dmc,random", "--games", "1"), "sim",
                       "dmc")
    assert_usage_error(run(capsys, "arena", "--bots", "dmc,random", "--pairs", "1"), "arena",
                       "dmc")


def test_arena_of_three_players_without_openskill(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  no_games: None) -> None:
    """Tables of 3+ are rated with OpenSkill: missing, it is reported before the games."""
    monkeypatch.setitem(sys.modules, "openskill", None)
    assert_usage_error(run(capsys, "arena", "--players", "3", "--bots",
                           "random,heuristic,random", "--pairs", "1"), "arena", "openskill",
                       "bito[arena]")


def test_arena_plot_without_matplotlib(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                       no_games: None) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert_usage_error(run(capsys, "arena", "--bots", "random,heuristic", "--pairs", "1",
                           "--plot", str(tmp_path / "p.svg")), "arena", "matplotlib")


# --- play: whatever is typed, never a traceback --------------------------------------------

@pytest.mark.parametrize("word", ["believe", "doubt", "не верю"])
def test_believe_typed_in_a_game_without_face_down_covers(
        capsys: pytest.CaptureFixture[str], word: str) -> None:
    """#59's calls typed in podkidnoy are refused like any illegal move; the game goes on."""
    code, out, err = run(capsys, "play", "--seed", "1", stdin=f"{word}\nquit\n")
    assert code == 0, err
    assert "Traceback" not in out + err and err == ""
    assert "Game stopped (you quit)" in out


def test_the_terminal_game_survives_any_bito_error_from_the_explainer(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever error of bito's own the engine's explainer raises for an illegal move, the
    player sees one line and types again (the explainer itself is total: see
    tests/rules/test_illegal_moves_named.py)."""
    error = BitoError("the explainer's own words")
    from bito.games.durak import DurakState

    def explain(self: DurakState, action: object) -> Exception:
        raise error

    monkeypatch.setattr(DurakState, "explain_illegal", explain)
    code, out, err = run(capsys, "play", "--seed", "1", stdin="believe\nquit\n")
    assert code == 0 and err == ""
    refusals = [ln for ln in out.splitlines() if "Not a move here" in ln]
    assert len(refusals) == 1
    assert "Game stopped (you quit)" in out


# --- the real command ----------------------------------------------------------------------

def test_the_installed_command_prints_one_line(tmp_path: Path) -> None:
    """The console script itself (subprocess): one stderr line, exit 2, empty stdout."""
    proc = subprocess.run([sys.executable, "-m", "bito", "sim", "--deals", "0"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines() == [proc.stderr.strip()]
    assert proc.stderr.startswith("bito sim: error: --deals")


def test_an_unexpected_error_is_still_one_line(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug of ours reaches the user as one line naming it (exit 1), not a traceback."""
    def broken(_: object) -> int:
        raise KeyError("boom")

    monkeypatch.setattr(cli, "cmd_bench", broken)
    monkeypatch.delenv("BITO_TRACEBACK", raising=False)
    code, out, err = run(capsys, "bench")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("bito bench: internal error: KeyError")
