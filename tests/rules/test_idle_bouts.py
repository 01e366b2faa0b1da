"""``end.idle_bouts``: an engine rule, not from the seeds (docs/variants.md, "Deals that crawl").

A deal where that many bouts in a row end in a take with nobody drawing or going out is
drawn. Issue 16's long sweep found the deal below: with the rule turned off
(``end.idle_bouts=0``, then allowed) random takes under #46's forced strongest leads wandered
for 20,000 moves without ever repeating a position, so ``end.repetition`` never fired. The
rule cannot be turned off any more; 0 is refused naming the option.
"""

from __future__ import annotations

import random

import pytest

from bito.errors import RulesError
from bito.games import new_game
from bito.rules.house import parse_house_rules
from bito.sweep import ACTION_CAP
from conftest import random_walk

#: The sweep's game 457,775 (seed 1, commit 4a0762b) without its ``end.idle_bouts=0``.
CRAWLING = "simple+lead_strongest+score.points=discarded+deck.order=descending"
CRAWLING_SEED = 994018737


def test_zero_is_refused_naming_the_option() -> None:
    with pytest.raises(RulesError, match=r"end\.idle_bouts") as typed:
        new_game(CRAWLING + "+end.idle_bouts=0", players=5, seed=CRAWLING_SEED)
    assert "0" in str(typed.value)
    with pytest.raises(RulesError, match=r"end\.idle_bouts"):
        parse_house_rules('base = "podkidnoy"\n[options]\nend.idle_bouts = 0\n')


@pytest.mark.parametrize("moves_seed", range(8))
def test_the_crawling_deal_now_ends(moves_seed: int) -> None:
    """The deal the sweep reported ends well inside the sweep's cap under random play, by one
    of the engine's two end rules (nobody can go out while the leads are forced)."""
    start = new_game(CRAWLING, players=5, seed=CRAWLING_SEED)
    end = start
    for _, _, after in random_walk(start, random.Random(moves_seed), limit=ACTION_CAP):
        end = after
    assert end.is_over and end.outcome is not None
    if end.outcome.draw:
        assert end.outcome.reason in ("idle", "repetition")


@pytest.mark.parametrize("limit", [20, 50, 100])
def test_the_draw_comes_after_exactly_limit_idle_bouts(limit: int) -> None:
    """With ``end.repetition`` off, only the idle rule can draw: the deal is drawn in the bout
    whose take makes ``limit`` takes in a row without a draw or anybody going out, counted
    here from the states themselves (stock size, players out, who took)."""
    spec = f"{CRAWLING}+end.repetition=0+end.idle_bouts={limit}"
    for moves_seed in range(4):
        state = new_game(spec, players=5, seed=CRAWLING_SEED)
        run = 0
        bout, stock, out = state.bout, len(state.stock), len(state.out)
        for before, _, after in random_walk(state, random.Random(moves_seed), limit=ACTION_CAP):
            if after.bout == bout and not after.is_over:
                continue
            took = after.discard == before.discard  # a bito moves the table to the discard
            # Progress since the last bout ended: a card drawn, or a player out (a player may
            # go out in the middle of a bout, by playing his last card).
            progress = len(after.stock) != stock or len(after.out) != out
            bout, stock, out = after.bout, len(after.stock), len(after.out)
            run = run + 1 if took and not progress else 0
            if after.is_over:
                if after.outcome.reason == "idle":
                    assert run == limit
                else:
                    assert run < limit
                break
