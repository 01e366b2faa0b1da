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
    state = e.unwrapped.game
    assert state.is_over
    loser = state.outcome.loser
    if loser is not None:
        assert rewards[f"player_{loser}"] == -1.0
    assert sum(rewards.values()) == 0.0


def _hidden_from(state, seat: int) -> set[int]:  # type: ignore[no-untyped-def]
    """Cards ``seat`` may not see: other hands' cards nobody knows, and the stock under its
    face-up trump card."""
    hidden: set[int] = set()
    for other, hand in enumerate(state.hands[:state.players]):
        if other != seat:
            hidden |= {c for c in range(hand.bit_length()) if hand >> c & 1
                       and not state.known[other] >> c & 1}
    hidden |= {c for c in state.stock if c != state.deal.trump_card}
    return hidden


@pytest.mark.parametrize(("variant", "players"), [("podkidnoy", 2), ("perevodnoy", 3)])
def test_render_shows_only_what_the_acting_seat_sees(variant: str, players: int) -> None:
    """The ansi render is the acting agent's view: no hidden card's text appears in it, at any
    point of a deal; ``omniscient=True`` draws the hidden cards too (docs/rl.md)."""
    from bito.cards import card_pretty

    e = env(variant=variant, players=players, render_mode="ansi")
    full = env(variant=variant, players=players, render_mode="ansi", omniscient=True)
    e.reset(seed=3)
    full.reset(seed=3)
    shown_hidden = 0
    for step, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        state = e.unwrapped.game
        hidden = _hidden_from(state, e.possible_agents.index(agent))
        text = e.render()
        assert agent.replace("_", " ") in text or agent in text
        assert not [card_pretty(c) for c in hidden if card_pretty(c) in text], step
        shown_hidden += sum(card_pretty(c) in full.render() for c in hidden)
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)
        full.step(action)
    assert shown_hidden > 0


def test_render_test() -> None:
    """PettingZoo's own render check, on the acting seat's render."""
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: env(variant="perevodnoy", players=3,
                                             render_mode=render_mode))


@pytest.mark.parametrize(("variant", "players"), [("podkidnoy", 2), ("believe_not_believe_2", 3)])
def test_state_is_every_seats_observation_side_by_side(variant: str, players: int) -> None:
    """``env.state()`` (PettingZoo's global state, for a centralised critic) works through
    the wrappers: it lies in ``state_space`` and is each seat's observation in seat order, so
    it holds every hand."""
    import numpy as np

    e = env(variant=variant, players=players)
    e.reset(seed=5)
    for step, _agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        state = e.state()
        assert e.unwrapped.state_space.contains(state)
        size = obs["observation"].size
        for seat, name in enumerate(e.possible_agents):
            part = state[seat * size:(seat + 1) * size]
            assert np.array_equal(part, e.observe(name)["observation"])
        if step > 40:
            break
        e.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
