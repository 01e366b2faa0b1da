"""A partnership game ends with the team that lost (#53-55, issue 33 item 3): the fool's
partner loses with him whatever he holds, so he is not listed among the winners, and a player
on the losing team is never told "You are not the fool"."""

from __future__ import annotations

import re
import subprocess
import sys

from test_terminal_pty import SRC


def _end(seed: int) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "bito", "play", "--variant", "team_fool", "--players", "4",
         "--seed", str(seed), "--bots", "easy", "--color", "never"], input="1\n" * 800,
        capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr[-800:]
    return done.stdout.splitlines()[-2:]


def test_team_fool_ends_with_the_losing_and_the_winning_team() -> None:
    """#53 (team_fool, partners sit opposite: You and Boris, Anna and Vera)."""
    partners = {"You": "Boris", "Boris": "You", "Anna": "Vera", "Vera": "Anna"}
    seen = set()
    for seed in range(1, 9):
        result, verdict = _end(seed)
        m = re.search(r"(You|\w+)(?: \(easy\))? (?:is|are) the fool", result)
        assert m is not None, result
        fool = m.group(1)
        losers = re.search(r"[Tt]eam loses: ([^.]+)\.", result)
        winners = re.search(r"The winning team: ([^.]+)\.", result)
        assert losers and winners, result
        assert fool in losers.group(1) and partners[fool] in losers.group(1)
        assert fool not in winners.group(1) and partners[fool] not in winners.group(1)
        ours = fool in ("You", "Boris")
        assert verdict == ("Your team loses. Better luck next time!" if ours
                           else "Your team wins. Well played!")
        assert "not the fool" not in verdict
        seen.add(ours)
        if len(seen) == 2:
            break
    assert seen == {True, False}, "both a lost and a won game were seen"
