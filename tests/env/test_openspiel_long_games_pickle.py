"""OpenSpiel states pickle and deep-copy at any length: long deals (4-player podkidnoy,
3-player perevodnoy, big fool, believe-not-believe) and a history thousands of moves long."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("numpy")

import bito.env.openspiel as bos  # noqa: E402


@pytest.mark.parametrize("params", [
    {"variant": "podkidnoy", "players": 4},
    {"deals": 20, "variant": "perevodnoy", "players": 3},
    {"variant": "big_fool", "players": 4},
    {"variant": "believe_not_believe", "players": 2},
])
def test_random_sim_test_serializes_long_deals(params: dict[str, object]) -> None:
    """pyspiel serialises the state at every step of a random deal; these deals run past the
    few hundred moves at which a linked move history used to overflow the stack."""
    game = pyspiel.load_game("python_bito_durak", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _played_state(moves: int) -> object:
    game = pyspiel.load_game("python_bito_durak", {"deals": 10})
    state = game.new_initial_state()
    state.apply_action(1)
    rng = random.Random(0)
    for _ in range(moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_history_of_thousands_of_moves_pickles_and_copies() -> None:
    """A state whose recorded history is 5,000 moves long (a synthetic tail appended to a real
    deal, longer than any deal we have seen) round-trips through pickle and deepcopy with its
    perfect-recall string intact."""
    state = _played_state(3)
    pos = state.pos
    tail = pos.tail
    for k in range(5000):
        text = "t" if k % 2 else "p"
        tail = bos._Moves(tail, (text, text), (0, 0))  # the move as each seat saw it
    state.pos = bos._Position(pos.engine, pos.start, pos.moves, pos.played, tail)
    expected = state.information_state_string(0)
    assert expected.count(" p") >= 2500

    back = pickle.loads(pickle.dumps(state))
    assert back.information_state_string(0) == expected
    assert back.information_state_string(1) == state.information_state_string(1)
    assert str(back) == str(state)

    clone = copy.deepcopy(state)
    assert clone.information_state_string(0) == expected
    serialized = pyspiel.serialize_game_and_state(state.get_game(), state)
    _, again = pyspiel.deserialize_game_and_state(serialized)
    assert again.information_state_string(0) == expected


def test_a_round_trip_keeps_playing_the_same_deal() -> None:
    """After unpickling, the deal continues exactly as the original: same legal actions,
    same information state after the same move."""
    state = _played_state(6)
    back = pickle.loads(pickle.dumps(state))
    assert back.legal_actions() == state.legal_actions()
    a = state.legal_actions()[0]
    state.apply_action(a)
    back.apply_action(a)
    assert back.information_state_string(0) == state.information_state_string(0)
