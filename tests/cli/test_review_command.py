"""``bito review`` (issue 36): text and JSON output, the progress bar on stderr, and bad input
refused with exit 2 and the field named (docs/cli.md's convention). Rules in play: podkidnoy
(VARIANTS.md #3); small playout budgets, no clock.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from bito.cli import main
from bito.games import new_game
from bito.games.game import Game
from bito.record import record_from_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _saved(tmp_path: Path, people: tuple[int, ...] | None = (0,), moves: int = 400) -> str:
    state = new_game("podkidnoy", 2, seed=21)
    game = Game(state)
    rng = random.Random(21)
    while not game.state.is_over and len(game) < moves:
        legal = game.state.legal_actions()
        game.push(legal[rng.randrange(len(legal))])
    path = tmp_path / "game.jsonl"
    seats = None if people is None else list(people)
    path.write_text(record_from_game(game, ["You", "Anna"], people=seats).to_jsonl(),
                    encoding="utf-8")
    return str(path)


def test_review_prints_every_decision_and_a_summary(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved(tmp_path)
    code, out, err = run(capsys, "review", path, "--playouts", "60", "--lang", "en")
    assert code == 0, err
    assert "Summary" in out and "accuracy" in out
    assert "You (seat 0)" in out and "Anna (seat 1)" not in out  # the person's seat only
    assert "moves (100%)" in err  # the progress bar ends on stderr
    marked = [line for line in out.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert marked and all(line.split(". ", 1)[1].startswith("You: ") for line in marked)
    assert all(" — " in line for line in marked)  # each with its category and reason


def test_review_json_is_one_object_for_tools(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved(tmp_path, people=None, moves=30)
    code, out, _ = run(capsys, "review", path, "--json", "--playouts", "40", "--seat", "1",
                       "--no-progress")
    assert code == 0
    data = json.loads(out)
    assert data["seats"] == [1] and data["playouts"] == 40
    assert all(m["seat"] == 1 for m in data["moves"])
    assert {m["category"] for m in data["moves"]} <= {
        "best", "good", "inaccuracy", "mistake", "blunder"}
    summary = data["summaries"][0]
    assert sum(summary["counts"].values()) == len(data["moves"])


@pytest.mark.parametrize(("args", "words"), [
    (["missing.jsonl"], ["cannot read", "missing.jsonl"]),
    (["@corrupt", "--seat", "0"], ["malformed record", "line 2"]),
    (["@header"], ["malformed record", "players"]),
    (["@good", "--seat", "5"], ["--seat", "0 to 1"]),
    (["@good", "--playouts", "0"], ["--playouts"]),
    (["@censored"], ["censored_for"]),
])
def test_bad_input_is_refused_with_the_field_named(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   args: list[str], words: list[str]) -> None:
    good = _saved(tmp_path, moves=10)
    files = {"@good": good}
    lines = Path(good).read_text(encoding="utf-8").splitlines()
    corrupt = tmp_path / "corrupt.jsonl"
    corrupt.write_text(lines[0] + "\n{not json\n", encoding="utf-8")
    files["@corrupt"] = str(corrupt)
    header = json.loads(lines[0])
    header["players"] = "two"
    bad_header = tmp_path / "header.jsonl"
    bad_header.write_text(json.dumps(header) + "\n", encoding="utf-8")
    files["@header"] = str(bad_header)
    from bito.record import load_record

    censored = tmp_path / "censored.jsonl"
    censored.write_text(load_record("\n".join(lines)).censored(0).to_jsonl(), encoding="utf-8")
    files["@censored"] = str(censored)
    argv = [files.get(a, str(tmp_path / a) if a.endswith(".jsonl") else a) for a in args]
    code, out, err = run(capsys, "review", *argv, "--no-progress", "--lang", "en")
    assert code == 2, (out, err)
    assert "Traceback" not in out + err
    line = err.strip().splitlines()
    assert len(line) == 1 and line[0].startswith("bito review: error: "), err
    for word in words:
        assert word in line[0], (word, line[0])
