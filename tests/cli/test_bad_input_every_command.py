"""Every ``bito`` command refuses bad input before any work, naming the flag at fault.

The convention (docs/cli.md, tests/cli/test_cli_error_convention.py): one line on stderr,
``bito <command>: error: ...``, exit code 2, no traceback. Here each command is run with each
kind of bad value — negative, zero where a count must be positive, ``nan``/``inf``, empty,
an unknown name, two flags that clash — while every function that does a command's work is
replaced by one that fails the test: an error found after the work started (a game played,
a progress line printed, a server started) cannot pass. Worker counts above the machine's
CPUs are lowered with a note, a missing extra is named with its install command, and Ctrl-C
exits 130 from every command.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_cli_error_convention import assert_usage_error, run

import bito.arena
import bito.arena.book
import bito.bench
import bito.server.serve
import bito.sim
import bito.sweep
import bito.tournament
import bito.tui
import bito.tui_families
from bito import cli
from bito.cli_checks import machine_cpus


def _refuse(*_: object, **__: object) -> None:
    raise AssertionError("work was started before the input was checked")


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game, benchmark, sweep or server started makes the test fail."""
    for target, name in ((bito.arena, "run_arena"), (bito.sim, "run_sim"),
                         (bito.tournament, "run_tournament"), (bito.bench, "run_bench"),
                         (bito.bench, "run_verify"), (bito.sweep, "run"),
                         (bito.tui.TerminalGame, "run"),
                         (bito.server.serve, "run_serve"), (bito.arena.book, "score_on_book")):
        monkeypatch.setattr(target, name, _refuse)


#: (command line, the flag the message must name), by command and kind of bad value.
BAD_INPUT: list[tuple[str, tuple[str, ...], str]] = [
    # play
    ("negative", ("play", "--players", "-1"), "--players"),
    ("zero", ("play", "--players", "0"), "--players"),
    ("negative", ("play", "--seat", "-1"), "--seat"),
    ("too big", ("play", "--players", "2", "--seat", "2"), "--seat"),
    ("zero", ("play", "--deals", "0"), "--deals"),
    ("empty", ("play", "--bots", ""), "--bots"),
    ("empty", ("play", "--bots", " , "), "--bots"),
    ("unknown", ("play", "--bots", "nosuchbot"), "--bots: unknown bot 'nosuchbot'"),
    ("unknown", ("play", "--variant", "nosuchgame"), "--variant"),
    ("negative", ("play", "--variant", "podkidnoy+deck.size=-1"), "deck.size"),
    ("clash", ("play", "--variant", "podkidnoy+deck.size=24", "--deck", "36"), "--deck"),
    ("missing folder", ("play", "--save", "/nonexistent/game.jsonl"), "--save"),
    # variants
    ("unknown", ("variants", "nosuchgame"), "nosuchgame"),
    # sim
    ("zero", ("sim", "--games", "0"), "--games"),
    ("negative", ("sim", "--games", "-5"), "--games"),
    ("zero", ("sim", "--deals", "0"), "--deals"),
    ("negative", ("sim", "--players", "-2"), "--players"),
    ("empty", ("sim", "--bots", ""), "--bots"),
    ("unknown", ("sim", "--bots", "nosuchbot"), "--bots: unknown bot 'nosuchbot'"),
    ("zero", ("sim", "--workers", "0", "--executor", "process"), "--workers"),
    ("negative", ("sim", "--workers", "-3"), "--workers"),
    ("unknown", ("sim", "--variant", "nosuchgame"), "--variant"),
    ("negative", ("sim", "--variant", "podkidnoy+deal.hand_size=-3"), "deal.hand_size"),
    ("missing file", ("sim", "--rules", "/nonexistent/house.toml"), "--rules"),
    # tournament
    ("empty", ("tournament", "--bots", ""), "--bots"),
    ("unknown", ("tournament", "--bots", "nosuchbot"), "--bots: unknown bot 'nosuchbot'"),
    ("too small", ("tournament", "--entrants", "1"), "--entrants"),
    ("zero", ("tournament", "--table", "0"), "--table"),
    ("too many", ("tournament", "--entrants", "9", "--table", "9"), "--table"),
    ("unknown", ("tournament", "--variant", "nosuchgame"), "--variant"),
    # arena
    ("zero", ("arena", "--bots", "random,heuristic", "--pairs", "0"), "--pairs"),
    ("negative", ("arena", "--bots", "random,heuristic", "--pairs", "-1"), "--pairs"),
    ("nan", ("arena", "--bots", "random,heuristic", "--think-ms", "nan"), "--think-ms"),
    ("inf", ("arena", "--bots", "random,heuristic", "--think-ms", "inf"), "--think-ms"),
    ("zero", ("arena", "--bots", "random,heuristic", "--think-ms", "0"), "--think-ms"),
    ("zero", ("arena", "--bots", "random,heuristic", "--playouts", "0"), "--playouts"),
    ("zero", ("arena", "--bots", "random,heuristic", "--workers", "0"), "--workers"),
    ("empty", ("arena", "--bots", ""), "--bots"),
    ("one name", ("arena", "--bots", "random"), "--bots"),
    ("unknown", ("arena", "--bots", "random,nosuchbot"), "--bots: unknown bot 'nosuchbot'"),
    ("clash", ("arena", "--sprt", "--elo0", "50", "--elo1", "10", "--pairs", "10",
               "--bots", "random,heuristic"), "--elo1"),
    ("nan", ("arena", "--sprt", "--elo0", "nan", "--bots", "random,heuristic"), "--elo0"),
    ("inf", ("arena", "--sprt", "--elo1", "inf", "--bots", "random,heuristic"), "--elo1"),
    ("clash", ("arena", "--sprt", "--bots", "random,easy,heuristic"), "--bots"),
    ("clash", ("arena", "--elo1", "10", "--bots", "random,heuristic"), "--sprt"),
    ("clash", ("arena", "--players", "3", "--bots", "random,heuristic"), "--bots"),
    ("unknown", ("arena", "--variant", "nosuchgame", "--bots", "random,heuristic"),
     "--variant"),
    ("wrong suffix", ("arena", "--bots", "random,heuristic", "--plot", "x.txt"), "--plot"),
    ("unknown", ("arena", "--book", "nosuchbook", "--bots", "random"), "--book"),
    ("clash", ("arena", "--book", "podkidnoy-2p-v1", "--bots", "random", "--seed", "1"),
     "--seed"),
    # bench
    ("nan", ("bench", "--seconds", "nan"), "--seconds"),
    ("inf", ("bench", "--seconds", "inf"), "--seconds"),
    ("negative", ("bench", "--seconds", "-1"), "--seconds"),
    ("zero", ("bench", "--seconds", "0"), "--seconds"),
    ("zero", ("bench", "--games", "0"), "--games"),
    ("zero", ("bench", "--repeat", "0"), "--repeat"),
    ("zero", ("bench", "--verify", "0"), "--verify"),
    ("zero", ("bench", "--verify", "1", "--workers", "0"), "--workers"),
    ("zero", ("bench", "--vector", "--envs", "0"), "--envs"),
    ("clash", ("bench", "--envs", "4"), "--envs"),
    ("clash", ("bench", "--workers", "2"), "--workers"),
    ("unknown", ("bench", "--engine", "reference", "--engine", "nosuchengine"), "--engine"),
    # sweep
    ("zero", ("sweep", "--games", "0"), "--games"),
    ("zero", ("sweep", "--jobs", "0"), "--jobs"),
    ("nan", ("sweep", "--seconds", "nan"), "--seconds"),
    ("inf", ("sweep", "--seconds", "inf"), "--seconds"),
    ("negative", ("sweep", "--seconds", "-1"), "--seconds"),
    ("zero", ("sweep", "--sample-every", "0"), "--sample-every"),
    ("unknown", ("sweep", "--only", "nosuchgame*"), "--only"),
    # serve: the checks before the server starts
    ("negative", ("serve", "--port", "-1"), "--port"),
    ("too big", ("serve", "--port", "70000"), "--port"),
    ("nan", ("serve", "--timer", "nan"), "--timer"),
    ("zero", ("serve", "--timer", "0"), "--timer"),
    ("negative", ("serve", "--bot-delay", "-1"), "--bot-delay"),
    ("inf", ("serve", "--bot-delay", "inf"), "--bot-delay"),
    ("zero", ("serve", "--timeouts-to-bot", "0"), "--timeouts-to-bot"),
    ("zero", ("serve", "--tables-per-hour", "0"), "--tables-per-hour"),
    ("negative", ("serve", "--bot-workers", "-1"), "--bot-workers"),
    ("inf", ("serve", "--bot-time-cap", "inf"), "--bot-time-cap"),
    ("nan", ("serve", "--ready-timeout", "nan"), "--ready-timeout"),
    ("zero", ("serve", "--session-days", "0"), "--session-days"),
    ("negative", ("serve", "--spectators-per-table", "-1"), "--spectators-per-table"),
    ("empty", ("serve", "--bot-levels", ""), "--bot-levels"),
    ("unknown", ("serve", "--bot-levels", "easy,nosuchbot"),
     "--bot-levels: unknown bot 'nosuchbot'"),
]


@pytest.mark.parametrize(("kind", "argv", "flag"), BAD_INPUT,
                         ids=[f"{a[0]}-{kind}-{flag}" for kind, a, flag in BAD_INPUT])
def test_bad_input_is_refused_before_any_work_naming_the_flag(
        capsys: pytest.CaptureFixture[str], no_work: None, kind: str, argv: tuple[str, ...],
        flag: str) -> None:
    """Exit 2, one line naming the flag (or the bad name), no traceback, nothing on stdout
    (so no game, table or progress was shown), and no work function was called."""
    code, out, err = run(capsys, *argv)
    assert_usage_error((code, out, err), argv[0], flag)
    assert out == ""


def test_sprt_hypotheses_are_checked_before_the_first_game(
        capsys: pytest.CaptureFixture[str], no_work: None) -> None:
    """H1 below H0 (no pair can ever decide) is refused with both flags named."""
    code, out, err = run(capsys, "arena", "--sprt", "--elo0", "50", "--elo1", "10", "--pairs",
                         "10", "--bots", "easy,strong")
    line = assert_usage_error((code, out, err), "arena", "--elo0", "--elo1")
    assert "greater" in line


def test_the_library_arena_refuses_sprt_hypotheses_before_playing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``run_arena`` itself: an SPRT that cannot decide is refused before its first batch."""
    from bito.arena import run as arena_run

    monkeypatch.setattr(arena_run, "_play", _refuse)
    with pytest.raises(ValueError, match="elo1 > elo0"):
        arena_run.run_arena("podkidnoy", 2, ["random", "heuristic"], 4, mode="sprt",
                            elo0=50, elo1=10)


def test_deck_beside_a_spec_that_sets_the_deck_names_both(
        capsys: pytest.CaptureFixture[str], no_work: None) -> None:
    """--deck and the spec's own deck.size are two places: the message names the flag and
    the spec, not the one option twice ("by option deck.size and by option deck.size")."""
    line = assert_usage_error(run(capsys, "play", "--variant", "podkidnoy+deck.size=24",
                                  "--deck", "36"), "play", "--deck 36", "--variant", "24")
    assert "by option" not in line


def test_a_negative_option_value_is_called_negative(capsys: pytest.CaptureFixture[str],
                                                    no_work: None) -> None:
    """deck.size=-1 is a number, only not an allowed one: it is not called "not a whole
    number", and the allowed sizes are listed."""
    line = assert_usage_error(run(capsys, "sim", "--variant", "podkidnoy+deck.size=-1"), "sim",
                              "deck.size", "negative", "36")
    assert "whole number" not in line


# --- workers --------------------------------------------------------------------------------

def _captured(monkeypatch: pytest.MonkeyPatch, target: object, name: str,
              result: object = None) -> dict[str, object]:
    """Replace a work function by one that records its keyword arguments."""
    seen: dict[str, object] = {}

    def record(*args: object, **kwargs: object) -> object:
        seen.update(kwargs)
        seen["args"] = args
        if result is None:
            raise KeyboardInterrupt  # stop the command once its arguments are seen
        return result

    monkeypatch.setattr(target, name, record)
    return seen


def test_sim_workers_beyond_the_cpus_are_capped_with_a_note(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _captured(monkeypatch, bito.sim, "run_sim")
    asked = machine_cpus() + 99997
    code, _, err = run(capsys, "sim", "--workers", str(asked), "--executor", "process",
                       "--games", "4", "--no-progress")
    assert code == 130  # the recorder stops the run, as Ctrl-C would
    assert seen["workers"] == machine_cpus()
    note = [ln for ln in err.splitlines() if "--workers" in ln]
    assert len(note) == 1 and str(asked) in note[0] and str(machine_cpus()) in note[0]


def test_sweep_jobs_beyond_the_cpus_are_capped(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _captured(monkeypatch, bito.sweep, "run")
    run(capsys, "sweep", "--jobs", str(machine_cpus() + 50), "--games", "1")
    assert seen["args"][2] == machine_cpus()  # type: ignore[index]


def test_workers_within_the_cpus_are_kept_without_a_note(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _captured(monkeypatch, bito.sim, "run_sim")
    _, _, err = run(capsys, "sim", "--workers", "1", "--executor", "process", "--games", "2",
                    "--no-progress")
    assert seen["workers"] == 1
    assert "--workers" not in err


# --- missing extras -------------------------------------------------------------------------

@pytest.mark.parametrize("command", [("sim", "--games", "1"),
                                     ("arena", "--bots", "random,heuristic", "--pairs", "1")])
def test_the_ray_executor_without_ray_names_the_extra(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, no_work: None,
        command: tuple[str, ...]) -> None:
    """``--executor ray`` without Ray: exit 2 with the install command, not an internal
    error, and before any game."""
    monkeypatch.setitem(sys.modules, "ray", None)  # importing it now fails
    assert_usage_error(run(capsys, *command, "--executor", "ray"), command[0], "--executor",
                       "pip install 'bito[ray]'")


def test_any_missing_package_reaching_the_command_is_named_with_its_extra(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The last line of defence: an ImportError from deep inside a command still names the
    package and the extra that installs it (exit 2), never "internal error"."""
    def needs_numba(_: object) -> int:
        raise ModuleNotFoundError("No module named 'numba'", name="numba")

    monkeypatch.setattr(cli, "cmd_bench", needs_numba)
    line = assert_usage_error(run(capsys, "bench"), "bench", "numba", "pip install 'bito[fast]'")
    assert "internal error" not in line


# --- Ctrl-C ---------------------------------------------------------------------------------

class _CtrlC(io.StringIO):
    """A keyboard whose first key is Ctrl-C."""

    def readline(self, *_: object) -> str:
        raise KeyboardInterrupt


@pytest.mark.parametrize("variant", ["podkidnoy", "czech_fool"])
def test_ctrl_c_in_play_exits_130(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch, variant: str) -> None:
    """Ctrl-C at the prompt leaves the game like the other commands: exit 130 (end of input
    stays exit 0, see test_docs_commands_run)."""
    monkeypatch.setattr(sys, "stdin", _CtrlC())
    code = cli.main(["play", "--variant", variant, "--seed", "1", "--no-auto"])
    out, err = capsys.readouterr()
    assert code == 130, (out, err)
    assert "Traceback" not in out + err


def test_ctrl_c_in_replay_exits_130(capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Stepping through a record: the end of input leaves with 0, Ctrl-C with 130."""
    record = tmp_path / "game.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--seed", "3", "--save", str(record)]) == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["replay", str(record)]) == 0
    monkeypatch.setattr(sys, "stdin", _CtrlC())
    assert cli.main(["replay", str(record)]) == 130
    assert "Traceback" not in capsys.readouterr().err


WORK: dict[str, tuple[Callable[[], object], str, tuple[str, ...]]] = {
    "sim": (lambda: bito.sim, "run_sim", ("sim", "--games", "1", "--no-progress")),
    "arena": (lambda: bito.arena, "run_arena", ("arena", "--bots", "random,heuristic",
                                                "--pairs", "1", "--no-progress")),
    "tournament": (lambda: bito.tournament, "run_tournament", ("tournament",)),
    "bench": (lambda: bito.bench, "run_bench", ("bench", "--games", "1")),
    "sweep": (lambda: bito.sweep, "run", ("sweep", "--games", "1")),
    "serve": (lambda: bito.server.serve, "run_serve", ("serve",)),
}


@pytest.mark.parametrize("command", sorted(WORK))
def test_ctrl_c_exits_130_from_every_command(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch,
                                             command: str) -> None:
    module, name, argv = WORK[command]
    _captured(monkeypatch, module(), name)  # raises KeyboardInterrupt when the work starts
    code, out, err = run(capsys, *argv)
    assert code == 130, (out, err)
    assert err.strip().endswith("interrupted") and "Traceback" not in err
