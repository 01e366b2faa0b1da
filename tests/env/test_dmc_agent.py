"""The shipped dmc bot: numpy only, legal moves, a clear refusal outside its training game,
and (on fixed deals, so the check is deterministic) a clear edge over the random bot."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("numpy")

from bito.bots import make_bot
from bito.env.agent import DEFAULT_WEIGHTS
from bito.games.durak import new_game


def test_weights_are_small_and_torch_is_not_needed() -> None:
    assert DEFAULT_WEIGHTS.stat().st_size < 400_000
    probe = ("import sys; from bito.bots import make_bot; from bito.games.durak import new_game;"
             "s = new_game('podkidnoy', 2, seed=1); make_bot('dmc').choose(s.view(s.to_act));"
             "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_beats_random_on_fixed_deals() -> None:
    wins = 0
    games = 20
    for g in range(games):  # new_game("podkidnoy", 2, seed=g), seats alternating
        dmc_seat = g % 2
        bots = {dmc_seat: make_bot("dmc", g), 1 - dmc_seat: make_bot("random", g)}
        state = new_game("podkidnoy", 2, seed=g)
        while not state.is_over:
            state = state.apply(bots[state.to_act].choose(state.view(state.to_act)))
        wins += state.outcome.loser == 1 - dmc_seat
    assert wins / games > 0.6  # docs/rl.md: 0.76 over 200 arena games


def test_refuses_other_games_clearly() -> None:
    """The network refuses a game it was not trained for; the ``dmc`` bot seated at one says
    so once and lets the heuristic play (issue 33: every bot plays every game)."""
    from bito.env.agent import DMCBot

    state = new_game("podkidnoy", 3, seed=1)
    with pytest.raises(ValueError, match="trained for 2-player"):
        DMCBot().choose(state.view(state.to_act))
    bot = make_bot("dmc")
    with pytest.warns(UserWarning, match="trained for 2-player"):
        move = bot.choose(state.view(state.to_act))
    assert move in state.legal_actions()
