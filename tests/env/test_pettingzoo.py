"""The PettingZoo adapter passes PettingZoo's api_test and seed_test, and is in its registry."""

from __future__ import annotations

import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from bito.env.pettingzoo import env  # noqa: E402


@pytest.mark.parametrize(("variant", "players"), [("podkidnoy", 2), ("perevodnoy", 3)])
def test_api_test(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players), num_cycles=300)


def test_seed_test() -> None:
    seed_test(lambda: env(variant="perevodnoy", players=3), num_cycles=300)


def test_registered_and_plays_to_the_end() -> None:
    e = pettingzoo.make("aec", "bito/Durak-v0", variant="podkidnoy", players=2)
    e.reset(seed=4)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.sum() >= 1
        e.step(int(mask.nonzero()[0][0]))
    state = e.unwrapped.state
    assert state.is_over
    loser = state.outcome.loser
    if loser is not None:
        assert rewards[f"player_{loser}"] == -1.0
    assert sum(rewards.values()) == 0.0
