"""The Gymnasium adapter passes Gymnasium's own checker, masks match the engine, and the
reward is the deal's outcome for the agent's seat."""

from __future__ import annotations

import warnings

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import bito.env.gymnasium  # noqa: E402,F401  (registers the ids)
from bito.env.payoff import seat_returns  # noqa: E402


@pytest.mark.parametrize(("env_id", "kwargs"), [
    ("bito/Podkidnoy-v0", {}),
    ("bito/Perevodnoy-v0", {"opponents": "random"}),
    ("bito/Durak-v0", {"variant": "podkidnoy+no_trump", "players": 3, "opponents": "random"}),
])
def test_check_env(env_id: str, kwargs: dict) -> None:
    env = gym.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures too
        check_env(env.unwrapped)


def test_masks_and_rewards_follow_the_engine() -> None:
    env = gym.make("bito/Podkidnoy-v0", opponents=("random",)).unwrapped
    rng = np.random.default_rng(0)
    results = set()
    for episode in range(6):
        obs, info = env.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            mask = env.action_masks()
            assert np.array_equal(mask, info["action_mask"])
            legal = env.state.legal_actions()
            assert env.state.to_act == env.seat
            assert sorted(env.codec.indices(legal)) == np.flatnonzero(mask).tolist()
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, done, truncated, info = env.step(action)
            assert env.observation_space.contains(obs) and not truncated
        assert reward == seat_returns(env.state.outcome, 2)[env.seat]
        results.add(reward)
    assert results <= {-1.0, 0.0, 1.0}


def test_illegal_action_loses_or_raises() -> None:
    env = gym.make("bito/Podkidnoy-v0").unwrapped
    env.reset(seed=3)
    bad = int(np.flatnonzero(env.action_masks() == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated) == (-1.0, True) and "illegal" in info
    strict = gym.make("bito/Podkidnoy-v0", illegal="raise").unwrapped
    strict.reset(seed=3)
    with pytest.raises(Exception, match=r"\w"):
        strict.step(bad)


def test_bad_arguments_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        gym.make("bito/Durak-v0", opponents=("nobody",))
    with pytest.raises(ValueError, match="opponents"):
        gym.make("bito/Durak-v0", players=3, opponents=("random", "random", "random"))
    with pytest.raises(ValueError, match="players"):
        gym.make("bito/Durak-v0", players=9)
