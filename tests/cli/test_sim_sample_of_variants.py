"""A small sample of the Variants I ``bito sim`` sweep, kept in CI (issue 3).

The full sweep (every id, every player count from 2 to 6, random and heuristic bots, hundreds of
games each) is ``tools/sweep_variants.py``; its figures are in docs/variants.md, "Variants I
sweep". Here each playable issue-3 id plays a few games at the smallest and the largest player
count (capped at 6) with random bots and with the heuristic bot, and must report 0 errors.
"""

from __future__ import annotations

import pytest

from bito.rules import resolve
from bito.rules.options import pending_options
from bito.rules.registry import all_variants
from bito.sim import run_sim

ISSUE3 = frozenset((*range(13, 31), 80, 81, 82, 84))
GAMES = 3

def specs() -> list[tuple[str, str]]:
    """(id, spec) for every playable issue-3 id: a game by its id, a house rule on podkidnoy
    (or on its first base when it does not take podkidnoy)."""
    out = []
    for v in all_variants():
        if v.number not in ISSUE3:
            continue
        if v.kind == "game":
            spec = v.id
        else:
            base = "podkidnoy" if "podkidnoy" in v.applies_to else v.applies_to[0]
            spec = f"{base}+{v.id}"
        if not pending_options(resolve(spec).rules):
            out.append((v.id, spec))
    return out


SPECS = specs()


def counts(spec: str) -> tuple[int, ...]:
    rules = resolve(spec).rules
    return tuple(sorted({rules.players_min, min(6, rules.max_players)}))


@pytest.mark.parametrize(("vid", "spec"), SPECS, ids=[v for v, _ in SPECS])
def test_random_bots_play_without_errors(vid: str, spec: str) -> None:
    """Issue 3 "bito sim --variant ID ... --bots random,... reports 0 errors ... at every player
    count it allows" (sample)."""
    for players in counts(spec):
        stats = run_sim(spec, players, GAMES, ["random"] * players, seed=players)
        assert stats.errors == 0, (vid, players, stats.errors_by_kind)
        assert stats.completed == GAMES and stats.total_actions > 0


@pytest.mark.parametrize(("vid", "spec"), SPECS, ids=[v for v, _ in SPECS])
def test_heuristic_bot_plays_without_errors(vid: str, spec: str) -> None:
    """Issue 3 "Do the same for the heuristic bot, which must play every variant without
    errors" (sample: heuristic against random, every seat filled). Games with a stock but no
    turned-up trump card (japanese, no_trump, own_trumps) once crashed the bot's card
    tracker."""
    for players in counts(spec):
        bots = ["heuristic" if k % 2 == 0 else "random" for k in range(players)]
        stats = run_sim(spec, players, GAMES, bots, seed=players)
        assert stats.errors == 0, (vid, players, stats.errors_by_kind)
