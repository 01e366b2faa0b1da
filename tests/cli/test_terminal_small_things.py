"""The small things players trip on (issue 22, "Why" and item 6): each a line a player reads."""

from __future__ import annotations

import io
import re
import sys

import pytest

from bito import cli
from bito.cli import main, match_verdict


def run_with_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                   text: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_match_of_deals_ends_with_a_verdict(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run_with_input(capsys, monkeypatch, "1\n" * 5000, "play", "--deals", "3",
                                    "--seed", "4", "--bots", "random", "--color", "never")
    assert code == 0, err
    assert out.count("so far") == 2  # after deals 1 and 2, not after the last
    fools = re.search(r"Times each player was the fool in 3 deals: You: (\d+), Anna: (\d+)\.",
                      out)
    assert fools is not None
    you, anna = int(fools.group(1)), int(fools.group(2))
    last = out.rstrip().splitlines()[-1]
    if you > anna:
        assert last.startswith("You were the fool most often")
    elif anna > you:
        assert last.startswith("Anna was the fool most often")
    else:
        assert "drawn" in last


def test_match_verdict_words() -> None:
    assert match_verdict(["You", "Anna"], [0, 0]).startswith("Nobody")
    assert "Anna and Boris" in match_verdict(["You", "Anna", "Boris"], [0, 2, 2])
    assert match_verdict(["You", "Anna"], [2, 1]) == \
        "You were the fool most often (2 times): you lose the match."
    assert match_verdict(["You", "Anna"], [0, 1]) == \
        "Anna was the fool most often (1 time) and loses the match."


@pytest.mark.parametrize(("save", "words"), [(False, "nothing is saved without --save"),
                                             (True, "quit (save the game and leave)")])
def test_help_says_quit_saves_only_when_it_does(
        save: bool, words: str, tmp_path: object, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["play", "--seed", "1", "--bots", "random", "--color", "never"]
    if save:
        argv += ["--save", f"{tmp_path}/g.jsonl"]
    _, out, _ = run_with_input(capsys, monkeypatch, "help\nquit\n", *argv)
    assert words in out
    assert "quit (save and leave)" not in out


def test_help_texts_have_no_doubled_percent_or_references(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95% intervals" in " ".join(out.split()) and "%%" not in out
    assert main(["variants", "--options"]) == 0
    out = capsys.readouterr().out
    doubled = re.findall(r"\((#\d+)[^)]*\) \(\1", out)
    assert not doubled, doubled


def test_first_use_of_the_fast_search_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before its playouts are compiled, a game with a search bot says it is compiling;
    once compiled, nothing is said; a game of heuristic bots never loads them."""
    pytest.importorskip("numba")
    from bito import kernel
    from bito.bots import rollouts

    if not kernel.available():
        pytest.skip("the kernel is switched off here")
    loaded: list[bool] = []
    monkeypatch.setattr(rollouts, "load_kernel_greedy", lambda: loaded.append(True) or True)
    said: list[str] = []
    monkeypatch.setattr(rollouts, "compiled_search_cached", lambda: False)
    cli._prepare_search(["strong"], False, said.append)
    low, high = rollouts.COMPILE_SECONDS
    assert len(said) == 1 and "compiling" in said[0] and loaded == [True]
    assert f"{low} to {high} seconds" in said[0]
    monkeypatch.setattr(rollouts, "compiled_search_cached", lambda: True)
    cli._prepare_search(["easy", "medium"], False, said.append)
    assert len(said) == 1 and loaded == [True, True]
    cli._prepare_search(["heuristic", "random"], False, said.append)
    assert loaded == [True, True]
    cli._prepare_search(["random"], True, said.append)  # --hint uses the strong bot
    assert loaded == [True, True, True]
