"""The batch environment: every row's mask is its deal's legal actions, finished deals pay the
outcome and are re-dealt, and one seed gives one run."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from bito.env.batch import BatchEnv, benchmark  # noqa: E402
from bito.env.payoff import seat_returns  # noqa: E402


def _random_actions(rng, masks):  # type: ignore[no-untyped-def]
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def test_rows_follow_their_deals() -> None:
    env = BatchEnv("perevodnoy", 3, num_envs=4, opponents="random", seat="rotate", seed=2)
    obs, masks = env.reset()
    assert obs.shape == (4, env.obs_size) and masks.shape == (4, env.codec.size)
    rng = np.random.default_rng(0)
    dones_seen = 0
    for _ in range(80):
        for i, state in enumerate(env.states):
            assert state.to_act == env.seats[i]
            legal = sorted(env.codec.indices(state.legal_actions()))
            assert np.flatnonzero(masks[i]).tolist() == legal
        obs, rewards, dones, masks = env.step(_random_actions(rng, masks))
        for i in range(env.num_envs):
            done = env.finished[i]
            if dones[i]:
                dones_seen += 1
                assert done is not None and done[0].is_over
                assert rewards[i] == seat_returns(done[0].outcome, 3)[done[1]]
                assert not env.states[i].is_over  # already re-dealt
            else:
                assert done is None and rewards[i] == 0.0
    assert dones_seen > 0


def test_same_seed_same_run() -> None:
    runs = []
    for _ in range(2):
        env = BatchEnv("podkidnoy", 2, num_envs=3, opponents="heuristic", seed=9)
        obs, masks = env.reset()
        rng = np.random.default_rng(3)
        total = np.zeros(3)
        for _ in range(40):
            obs, rewards, _, masks = env.step(_random_actions(rng, masks))
            total += rewards
        runs.append((obs.copy(), total))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_benchmark_reports_speed() -> None:
    row = benchmark(envs=4, steps=5)
    assert row["learner_steps_per_s"] > 0 and row["engine_moves_per_s"] > 0


@pytest.mark.parametrize(("variant", "players"), [("believe_not_believe_2", 3), ("heaped", 2),
                                                  ("czech_fool", 2)])
def test_rows_of_other_families_follow_their_games(variant: str, players: int) -> None:
    """The batch environment takes any family (the kit the adapters share): each row's mask
    is its game's legal set, a finished game pays its outcome."""
    env = BatchEnv(variant, players, num_envs=3, opponents="random", seat="rotate", seed=1)
    _, masks = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(150):
        for i, state in enumerate(env.states):
            legal = sorted(env.codec.index(a) for a in state.legal_actions())
            assert np.flatnonzero(masks[i]).tolist() == legal
        _, rewards, dones, masks = env.step(_random_actions(rng, masks))
        for i in np.flatnonzero(dones):
            finished = env.finished[i]
            assert finished is not None
            assert rewards[i] == seat_returns(finished[0].outcome, players)[finished[1]]
