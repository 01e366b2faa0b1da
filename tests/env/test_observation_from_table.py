"""Every family's observation is built from the seat's table model (issue 33 item 2: the RL
observation builders draw from it, in the model's learner's build) and is identical to what the
encoders wrote from the engine's view before (``frozen_encoders.py``): over random games of
every catalogue game of every family, at every seat count it takes, and of every Durak house
rule the environments accept, for every seat at every step."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from frozen_encoders import old_bouts, old_card_play, old_durak  # noqa: E402

from bito.env.bouts import BoutsEncoder  # noqa: E402
from bito.env.coverage import covered_specs, family_games  # noqa: E402
from bito.env.kit import kit_for  # noqa: E402
from bito.errors import BitoError  # noqa: E402
from bito.games.family import family_for  # noqa: E402
from bito.games.tables import TableModel, facts_of, table_of  # noqa: E402

GAMES = [(spec, n) for fam, spec, seats in family_games() if fam != "durak" for n in seats]


def _durak_games() -> list[tuple[str, int]]:
    """Every Durak catalogue game and every Durak house rule the environments accept (on its
    base game), each at its smallest seat count, at 4 and at the most it takes up to 6."""
    accepted = {spec: seats for fam, spec, seats in family_games() if fam == "durak"}
    for spec in covered_specs():
        if spec not in accepted:
            seats = []
            for n in range(2, 7):
                try:
                    kit_for(spec, n)
                except (BitoError, ValueError):
                    continue
                seats.append(n)
            accepted[spec] = tuple(seats)
    return sorted((spec, n) for spec, seats in accepted.items() if seats
                  for n in {seats[0], max(s for s in seats if s <= 6)} | ({4} & set(seats)))


DURAK_GAMES = _durak_games()
#: Moves per game: enough to reach every phase (a sound judged, a claim doubted, a round
#: scored, a prelude's hand-over) while the sweep stays short.
MOVES = 150


def _sweep(spec: str, players: int, old: Callable[[Any, Any], Any], games: int) -> None:
    """Random games of ``spec``: every seat's observation at every step equals ``old``'s."""
    kit = kit_for(spec, players)
    rng = random.Random(f"{spec}/{players}")
    for game in range(games):
        state = kit.deal(rng.randrange(1 << 30))
        for _ in range(MOVES):
            for seat in range(players):
                view = state.view(seat)
                new = kit.encoder.encode(view)
                was = old(kit.encoder, view)
                if np.array_equal(new, was):  # the planes that differ are named below
                    continue
                differ = [name for name, s in kit.encoder.planes.items()
                          if not np.array_equal(new[s], was[s])]
                pytest.fail(f"{spec} at {players}, game {game}, seat {seat}: {differ}")
            if state.is_over:
                break
            state = state.apply(rng.choice(list(state.legal_actions())))


@pytest.mark.parametrize(("spec", "players"), GAMES)
def test_observation_from_the_table_model_is_the_old_one(spec: str, players: int) -> None:
    bouts = isinstance(kit_for(spec, players).encoder, BoutsEncoder)
    _sweep(spec, players, old_bouts if bouts else old_card_play, games=2)


def test_the_durak_sweep_holds_the_rules_that_add_to_the_view() -> None:
    """The sweep below covers the Durak rules whose planes the model had to learn: the
    personal trumps (#16), the secret trump card (#18), the face-down covers (#59), a stock
    rebuilt from the discard (#38) and the partnerships (#53)."""
    specs = {spec for spec, _ in DURAK_GAMES}
    assert {"podkidnoy", "perevodnoy", "podkidnoy+own_trumps", "podkidnoy+secret_trump",
            "believe_not_believe", "podkidnoy+recycle_discard", "team_fool"} <= specs


@pytest.mark.parametrize(("spec", "players"), DURAK_GAMES)
def test_the_durak_observation_from_the_table_model_is_the_old_one(spec: str,
                                                                   players: int) -> None:
    _sweep(spec, players, old_durak, games=1)


def _less_words(model: TableModel) -> TableModel:
    """The whole model less what is only said to a person: the moves and their order, what
    the seat to act is doing and is asked to do, every note, the vocabulary's rules, wild
    cards and trump in words."""
    return dataclasses.replace(
        model, moves=(), order=(), doing="", prompt="",
        seats=tuple(dataclasses.replace(s, note="") for s in model.seats),
        zones=tuple(dataclasses.replace(z, note="") for z in model.zones),
        vocabulary=dataclasses.replace(model.vocabulary, notes=(), wild=(), trump_words=""))


@pytest.mark.parametrize("spec", sorted({spec for spec, _ in GAMES} | {
    "podkidnoy", "perevodnoy", "team_fool", "believe_not_believe", "podkidnoy+own_trumps",
    "podkidnoy+secret_trump", "podkidnoy+tossing_dummy", "podkidnoy+counter_throw",
    "podkidnoy+points_fool", "podkidnoy+buy_in"}))
def test_the_learners_build_is_the_whole_model_less_its_words(spec: str) -> None:
    """What the encoders read (``facts_of``) is the model every face draws, fact for fact:
    only the words are left out, and every seat's learner's build equals its whole model
    less them, at every step of a random game."""
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = 4 if family.seats_partners(rules) else max(3, rules.players_min)
    players = min(players, rules.max_players)
    state = family.new_game(spec, players, seed=11)
    rng = random.Random(11)
    for _ in range(MOVES):
        for seat in range(players):
            view = state.view(seat)
            assert facts_of(view) == _less_words(table_of(view)), (spec, seat)
        if state.is_over:
            break
        state = state.apply(rng.choice(list(state.legal_actions())))
