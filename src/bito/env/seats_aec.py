"""The PettingZoo AEC contract every bito family keeps: agents ``player_k``, one agent acts at
a time, ``{"observation", "action_mask"}`` observations, the reward at the end of the game
(:func:`bito.env.payoff.seat_returns`), collected by every agent in turn.

:class:`SeatsAEC` holds it once; a family's environment (:mod:`bito.env.pettingzoo` for
Durak, :mod:`bito.env.cardplay_pz` for the card-play families) says only how a game is dealt,
how a move is checked and applied, and how a seat's view is drawn, so the two cannot drift
apart in what a learner sees.
"""

from __future__ import annotations

from typing import Any

from bito.env._optional import require
from bito.env.payoff import seat_returns

pz: Any = require("pettingzoo", "bito.env.seats_aec")
gym: Any = require("gymnasium", "bito.env.seats_aec")
np: Any = require("numpy", "bito.env.seats_aec")


class SeatsAEC(pz.AECEnv):  # type: ignore[misc]
    """One agent a seat over an engine with ``to_act``, ``is_over``, ``outcome``, ``view``
    and ``apply``; ``codec`` and ``encoder`` are the family's."""

    state: Any
    codec: Any
    encoder: Any

    def seat_agents(self, variant: str, players: int, render_mode: str | None,
                    omniscient: bool, low: float) -> None:
        """Name the agents and their spaces once ``codec`` and ``encoder`` are set; ``low``
        is the least value an observation holds (a family's encoder may use -1)."""
        self.omniscient = bool(omniscient)
        self.variant = variant
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        obs_space = gym.spaces.Dict({
            "observation": gym.spaces.Box(low, 1.0, shape=(self.encoder.size,),
                                          dtype=np.float32),
            "action_mask": gym.spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(self.codec.size)
                              for a in self.possible_agents}
        self.state = None
        self._rng: Any = None

    # --- what a family says ------------------------------------------------------------------

    def deal(self, seed: int) -> Any:
        """The engine's new game for ``seed``."""
        raise NotImplementedError

    def play(self, state: Any, action: int) -> Any:
        """The state after the codec's ``action``; an illegal one raises naming the rule."""
        raise NotImplementedError

    def seat_text(self, seat: int) -> str:
        """What ``seat`` may see, as text."""
        raise NotImplementedError

    # --- the AEC API ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(0, 2**62))
        if options and "game_seed" in options:
            game_seed = int(options["game_seed"])
        self.state = self.deal(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state
        assert state is not None, "call reset() first"
        seat = self.possible_agents.index(agent)
        if state.to_act == seat and not state.is_over:
            mask = self.codec.mask(state)
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self.encoder.encode(state.view(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        after = self.play(self.state, int(action))
        self._cumulative_rewards[agent] = 0.0
        state = self.state = after
        if state.is_over:
            scores = seat_returns(state.outcome, self.players)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[s]
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"outcome": state.outcome} for a in self.agents}
            # Everyone collects the final reward in turn, starting with the next seat.
            nxt = (self.possible_agents.index(agent) + 1) % self.players
            self.agent_selection = self.possible_agents[nxt]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[state.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting agent's view as text (the whole game only with ``omniscient=True``)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        if self.omniscient:
            return str(self.state)
        return self.seat_text(self.possible_agents.index(self.agent_selection))

    def close(self) -> None:
        pass
