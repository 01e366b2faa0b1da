"""Partnership games pay the team's result to every member (#53-55, VARIANTS.md §3.6: the
fool's team loses), in every adapter: -1 for each member of the losing team, +1/(T-1) for
each member of the other teams, zero-sum over the seats (docs/rl.md, "The payoff")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bito.env.payoff import best_return, seat_returns
from bito.games.durak.teams import team_of_seats, teams_of
from bito.games.protocol import Outcome

np = pytest.importorskip("numpy")


@given(layout=st.sampled_from(["opposite", "alternating", "none"]),
       players=st.sampled_from([4, 6, 8]), data=st.data())
def test_partners_share_the_result_and_the_sum_is_zero(layout: str, players: int,
                                                        data: st.DataObject) -> None:
    """#53-55: whoever of a team is the fool, every member of that team scores -1 and every
    other seat the same positive share; without teams the fool alone pays."""
    team_of = team_of_seats(layout, players)
    teams = teams_of(team_of)
    loser = data.draw(st.integers(0, players - 1))
    order = (*(s for s in range(players) if s != loser), loser)
    outcome = Outcome(loser=loser, order=order, teams=teams,
                      losing_team=team_of[loser] if team_of else None)
    returns = seat_returns(outcome, players)
    assert abs(sum(returns)) < 1e-9
    losing = set(teams[team_of[loser]]) if teams else {loser}
    assert {returns[s] for s in losing} == {-1.0}
    winners = {returns[s] for s in range(players) if s not in losing}
    assert len(winners) == 1 and winners.pop() == best_return(teams, players)


def test_no_result_before_the_end_or_on_a_draw() -> None:
    assert seat_returns(None, 4) == [0.0] * 4
    drawn = Outcome(loser=None, order=(0, 1, 2, 3), draw=True, teams=((0, 2), (1, 3)))
    assert seat_returns(drawn, 4) == [0.0] * 4


def _team_fool_pz_returns(seed: int) -> tuple[dict[str, float], Outcome]:
    from bito.env.pettingzoo import env

    e = env(variant="team_fool", players=4)
    e.reset(seed=seed)
    total: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        e.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
    return total, e.unwrapped.game.outcome


def test_pettingzoo_team_fool_pays_the_fools_partner_too() -> None:
    """The issue's case: team_fool, 4 players, seed 1, first legal actions: the fool is
    player_0, the losing team (0, 2); player_2 loses with him."""
    pytest.importorskip("pettingzoo")
    total, outcome = _team_fool_pz_returns(1)
    assert outcome.loser is not None and outcome.teams
    losing = outcome.teams[outcome.losing_team]
    assert outcome.loser in losing and len(losing) == 2
    for seat in range(4):
        expected = -1.0 if seat in losing else 1.0
        assert total[f"player_{seat}"] == expected
    assert sum(total.values()) == 0.0


def test_openspiel_team_fool_pays_the_fools_partner_too() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import bito.env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_bito_durak", {"variant": "team_fool", "players": 4,
                                                   "deals": 4})
    assert game.max_utility() == 1.0  # two teams: a winner's share is the whole point
    state = game.new_initial_state()
    state.apply_action(1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    outcome = state.engine.outcome
    assert outcome.loser is not None
    partner = next(s for s in outcome.teams[outcome.losing_team] if s != outcome.loser)
    returns = state.returns()
    assert returns[outcome.loser] == returns[partner] == -1.0
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0]


def test_gymnasium_team_fool_pays_the_agent_when_its_partner_is_the_fool() -> None:
    """The agent in seat 2: in the first game where its partner (seat 0) is the fool, its
    reward is -1 although it went out."""
    gym = pytest.importorskip("gymnasium")
    import bito.env.gymnasium  # noqa: F401

    e = gym.make("bito/Durak-v0", variant="team_fool", players=4, seat=2,
                 opponents="random").unwrapped
    rng = np.random.default_rng(0)
    for episode in range(40):
        _, info = e.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = e.step(action)
        outcome = info["outcome"]
        if outcome.loser == 0:
            assert reward == -1.0
            return
        if outcome.loser is not None:
            assert reward == (-1.0 if outcome.loser == 2 else 1.0)
    pytest.fail("no game of 40 where the agent's partner was the fool")


def test_batch_environment_pays_the_team_result() -> None:
    """The batch environment scores with the same function."""
    from bito.env.batch import BatchEnv

    env = BatchEnv("team_fool", players=4, num_envs=4, opponents="random", seat=2, seed=0)
    _, masks = env.reset()
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(3000):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        _, rewards, dones, masks = env.step(actions)
        for i in np.flatnonzero(dones):
            finished = env.finished[i]
            assert finished is not None
            state, seat = finished
            if state.outcome.loser is not None:
                assert rewards[i] == seat_returns(state.outcome, 4)[seat]
                assert rewards[i] == (-1.0 if state.outcome.loser in (0, 2) else 1.0)
                seen += 1
        if seen >= 3:
            return
    assert seen > 0

