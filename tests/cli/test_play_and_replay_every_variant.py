"""Every playable Variants I id through ``bito play`` and ``bito replay`` (issue 3).

Issue 3: "playable with `bito play` ... at every player count it allows". The terminal game is
fed '1' (the first legal move) on stdin against random bots until it ends; the saved record
then replays to the same result, which also round-trips the special cards (jokers, wild cards,
the mega card, twins) through the record's action notation.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from bito.cli import main
from bito.rules import resolve
from bito.rules.options import pending_options
from bito.rules.registry import all_variants

ISSUE3 = frozenset((*range(13, 31), 80, 81, 82, 84))
ALL_ONES = "1\n" * 20000


def specs() -> list[tuple[str, str, int]]:
    """(id, spec, players) for every playable issue-3 id; the player count cycles through what
    each allows so that, over the ids, 2 to 6 players are all played."""
    out = []
    for i, v in enumerate(v for v in all_variants() if v.number in ISSUE3):
        if v.kind == "game":
            spec = v.id
        else:
            base = "podkidnoy" if "podkidnoy" in v.applies_to else v.applies_to[0]
            spec = f"{base}+{v.id}"
        rules = resolve(spec).rules
        if pending_options(rules):
            continue
        out.append((v.id, spec, 2 + i % (min(6, rules.max_players) - 1)))
    return out


SPECS = specs()


def result_line(out: str) -> str:
    lines = [ln for ln in out.splitlines() if ln.startswith("Result:")]
    assert len(lines) == 1, out[-2000:]
    return lines[0]


@pytest.mark.parametrize(("vid", "spec", "players"), SPECS, ids=[v for v, _, _ in SPECS])
def test_play_to_the_end_and_replay(vid: str, spec: str, players: int, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / f"{vid}.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO(ALL_ONES))
    code = main(["play", "--variant", spec, "--players", str(players), "--seed", "5",
                 "--bots", "random", "--save", str(record)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Game over" in out
    played = result_line(out)
    code = main(["replay", str(record), "--to-end"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert result_line(out) == played
