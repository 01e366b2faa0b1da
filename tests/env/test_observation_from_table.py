"""The card-play and bout families' observations are built from the seat's table model
(issue 33 item 2: the RL observation builders draw from it) and are identical to what the
encoders wrote from the engine's view before (``frozen_encoders.py``): over random games of
every catalogue game of these families, at every seat count it takes, for every seat at every
step."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from frozen_encoders import old_bouts, old_card_play  # noqa: E402

from bito.env.bouts import BoutsEncoder  # noqa: E402
from bito.env.coverage import family_games  # noqa: E402
from bito.env.kit import kit_for  # noqa: E402

GAMES = [(spec, n) for fam, spec, seats in family_games() if fam != "durak" for n in seats]
#: Moves per game: enough to reach every phase (a sound judged, a claim doubted, a round
#: scored, a prelude's hand-over) while the sweep stays short.
MOVES = 150


@pytest.mark.parametrize(("spec", "players"), GAMES)
def test_observation_from_the_table_model_is_the_old_one(spec: str, players: int) -> None:
    kit = kit_for(spec, players)
    old = old_bouts if isinstance(kit.encoder, BoutsEncoder) else old_card_play
    rng = random.Random(f"{spec}/{players}")
    for game in range(2):
        state = kit.deal(rng.randrange(1 << 30))
        for _ in range(MOVES):
            for seat in range(players):
                view = state.view(seat)
                new = kit.encoder.encode(view)
                was = old(kit.encoder, view)
                differ = [name for name, s in kit.encoder.planes.items()
                          if not np.array_equal(new[s], was[s])]
                assert not differ, f"{spec} at {players}, game {game}, seat {seat}: {differ}"
            if state.is_over:
                break
            state = state.apply(rng.choice(list(state.legal_actions())))
