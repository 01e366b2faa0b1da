"""Every family in every ecosystem (issue 33 item 5): each catalogue game of the shedding,
trick, social and bout families, and the Durak family's partnership game, passes Gymnasium's
``check_env``, PettingZoo's ``api_test`` and ``seed_test`` and OpenSpiel's
``random_sim_test`` (serialisation included) through the one adapter stack, at its fewest
seats and, a game or two per family, at every other seat count it takes; masks follow the
engine; the observation reads only the seat's view."""

from __future__ import annotations

import random
import warnings

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import bito.env.gymnasium  # noqa: E402  (registers the ids)
import bito.env.openspiel  # noqa: E402,F401  (registers python_bito_durak)
from bito.env.coverage import family_games  # noqa: E402
from bito.env.kit import kit_for  # noqa: E402
from bito.env.pettingzoo import env  # noqa: E402
from bito.games import family_for, new_game  # noqa: E402

#: Catalogue games outside the Durak family (the Durak family has its own sweeps in
#: test_action_codec.py and test_observation.py), and the Durak family's partnership game.
OTHER_GAMES = [(fam, spec, seats) for fam, spec, seats in family_games() if fam != "durak"]
FEWEST = [(spec, seats[0]) for _, spec, seats in OTHER_GAMES] + [("team_fool", 4)]


#: One game per family (two for the bouts, whose engines differ most), at every other seat
#: count it takes: the adjacent-rank game up to 10, *Fool!* up to 8, team_fool at 6.
REPRESENTATIVES = ("czech_fool", "ontoys_adjacent_rank", "friese_fool", "believe_not_believe_2",
                   "animal_sounds", "chinese", "heaped", "polish_fool", "deck_duel_prelude",
                   "team_fool")
SEAT_SWEEP = [(spec, n) for _, spec, seats in family_games() if spec in REPRESENTATIVES
              for n in seats if (spec, n) not in FEWEST]


def test_every_family_has_its_games_in_the_environments() -> None:
    """Every family that deals games has every catalogue game of it in the environments
    (the social and bout families were refused before)."""
    families = {fam for fam, _, _ in family_games()}
    assert families == {"durak", "shedding", "tricks", "social", "bouts"}
    ids = {spec for _, spec, _ in family_games()}
    assert {"believe_not_believe_2", "animal_sounds", "chinese", "two_phase_japanese",
            "heaped", "chain_fool", "polish_fool", "team_fool"} <= ids


@pytest.mark.parametrize(("variant", "players"), FEWEST + SEAT_SWEEP)
def test_gymnasium_check_env(variant: str, players: int) -> None:
    e = gym.make("bito/Game-v0", variant=variant, players=players, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures too
        check_env(e.unwrapped)


@pytest.mark.parametrize(("variant", "players"), FEWEST + SEAT_SWEEP)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players), num_cycles=60)
    seed_test(lambda: env(variant=variant, players=players), num_cycles=60)


@pytest.mark.parametrize(("variant", "players"), FEWEST + SEAT_SWEEP)
def test_openspiel_random_sim_with_serialization(variant: str, players: int) -> None:
    """A move cap of 120 keeps the serialised replays short (a capped game is drawn)."""
    game = pyspiel.load_game("python_bito_durak", {"variant": variant, "players": players,
                                                   "deals": 20, "max_game_length": 120})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("env_id", "players"), [
    ("bito/Cheat-v0", 3), ("bito/AnimalSounds-v0", 2), ("bito/ChinaFool-v0", 4)])
def test_new_ids_play_against_the_default_bots(env_id: str, players: int) -> None:
    """The new ids, against the default opponent (the heuristic bot): whole games where
    the mask is the engine's legal set and the episode ends with the outcome's reward."""
    from bito.env.payoff import seat_returns

    e = gym.make(env_id, players=players).unwrapped
    rng = np.random.default_rng(2)
    obs, info = e.reset(seed=3)
    done, reward, steps = False, 0.0, 0
    while not done and steps < 3000:
        legal = {e.codec.index(a) for a in e.state.legal_actions()}
        assert set(np.flatnonzero(info["action_mask"])) == legal
        assert e.observation_space.contains(obs)
        obs, reward, done, _, info = e.step(int(rng.choice(sorted(legal))))
        steps += 1
    if done:
        assert reward == seat_returns(info["outcome"], players)[0]


GAMES_FOR_PROPERTIES = [(spec, seats[0]) for _, spec, seats in OTHER_GAMES
                        if family_for(spec).name in ("social", "bouts")]


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES_FOR_PROPERTIES), seed=st.integers(0, 2**31),
       moves=st.integers(0, 200))
def test_social_and_bout_masks_round_trip(game: tuple[str, int], seed: int,
                                          moves: int) -> None:
    """Anywhere in a random social or bout game: legal ⇔ masked, every legal action's
    integer names it back, and the hand plane is the seat's own hand."""
    from bito.cards import cards_of

    variant, players = game
    kit = kit_for(variant, players)
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    assert int(kit.codec.mask(state).sum()) == len(legal)
    for a in legal:
        assert kit.codec.action(kit.codec.index(a)) == a
    for seat in range(players):
        view = state.view(seat)
        vec = kit.encoder.encode(view)
        assert kit.low <= vec.min() and vec.max() <= 1.0
        hand = vec[kit.encoder.planes["hand"]]
        assert sorted(kit.codec.cards[i] for i in np.flatnonzero(hand)) == \
            sorted(cards_of(view.hand))


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from([g for g in GAMES_FOR_PROPERTIES if g[0] != "two_phase_japanese"
                             and g[0] != "deck_duel_prelude"]),
       seed=st.integers(0, 2**31), moves=st.integers(0, 150), world_seed=st.integers(0, 2**31))
def test_social_and_bout_observations_are_blind_to_hidden_cards(
        game: tuple[str, int], seed: int, moves: int, world_seed: int) -> None:
    """Re-deal every card a seat cannot see (the family's world sampler): the seat's
    observation does not change. (The preludes' first phase has no decision to hide.)"""
    variant, players = game
    kit = kit_for(variant, players)
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    seat = state.to_act
    view = state.view(seat)
    sampler = family_for(variant).samplers()[type(view)]()
    if hasattr(sampler, "observe"):
        sampler.observe(view)
    world = sampler.sample(view, random.Random(world_seed))
    assert np.array_equal(kit.encoder.encode(world.view(seat)), kit.encoder.encode(view))


def test_cheat_face_down_cards_stay_out_of_the_others_information_state() -> None:
    """Cheat (#85): a card put down face down is ``?`` in the other seats' information
    state and in no plane of their information-state tensor, while its owner's has it."""
    game = pyspiel.load_game("python_bito_durak", {"variant": "believe_not_believe_2",
                                                   "players": 3, "deals": 5})
    state = game.new_initial_state()
    state.apply_action(2)
    actor = state.current_player()
    put = next(a for a in state.legal_actions()
               if state.action_to_string(actor, a) not in ("claim", "doubt", "pass"))
    card = state.action_to_string(actor, put)
    state.apply_action(put)
    for seat in range(3):
        text = state.information_state_string(seat)
        tensor = np.asarray(state.information_state_tensor(seat))
        played = tensor[game.observation_tensor_size():].reshape(3, -1)
        if seat == actor:
            assert text.endswith(" " + card) and played[0].sum() == 1
        else:
            assert text.endswith(" ?") and played.sum() == 0


@pytest.mark.parametrize(("variant", "players"), [("believe_not_believe_2", 3),
                                                  ("chinese", 3), ("czech_fool", 2)])
def test_resampled_worlds_keep_the_players_information_state(variant: str,
                                                              players: int) -> None:
    """Outside the Durak family, ``resample_from_infostate`` re-deals through the family's
    world sampler: the player's information state, observation and legal actions stay, the
    other hands move."""
    game = pyspiel.load_game("python_bito_durak", {"variant": variant, "players": players,
                                                   "deals": 10})
    state = game.new_initial_state()
    state.apply_action(4)
    rng = np.random.RandomState(2)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.is_terminal()
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = 0
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        moved += world.engine.hands != state.engine.hands
    assert moved > 0
