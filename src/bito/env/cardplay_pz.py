"""The PettingZoo AEC environment of the card-play families (Czech fool and its options, the
adjacent-rank game, *Fool!*): every seat is an agent.

Made through :func:`bito.env.pettingzoo.env`, which picks it for a spec of these families;
the contract is the Durak environment's (agents ``player_k``, one agent acts at a time,
``{"observation", "action_mask"}`` observations, the reward at the end of the game, an
illegal action ends it with -1 for its author). Observations and actions:
:mod:`bito.env.cardplay`. ``render_mode="ansi"`` draws what the agent to act may see (its
own hand, the table, counts); the whole position, every hand included, only with
``omniscient=True``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bito.env._optional import require
from bito.env.cardplay import card_play_rules, codec_for_cards, encoder_for_cards
from bito.env.payoff import seat_returns

pz: Any = require("pettingzoo", "bito.env.cardplay_pz")
gym: Any = require("gymnasium", "bito.env.cardplay_pz")
np: Any = require("numpy", "bito.env.cardplay_pz")


class CardPlayAEC(pz.AECEnv):  # type: ignore[misc]
    """The bare AEC environment; :func:`bito.env.pettingzoo.env` wraps it."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "bito_cardplay_v0", "render_modes": ["ansi"], "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant: str = "czech_fool", players: int = 2,
                 render_mode: str | None = None, omniscient: bool = False) -> None:
        super().__init__()
        self.omniscient = bool(omniscient)
        self.family, self.rules = card_play_rules(variant)
        self.variant = variant
        self.players = players
        self.render_mode = render_mode
        self.codec = codec_for_cards(self.rules, players)  # deals once: checks the seat count
        self.encoder = encoder_for_cards(self.rules, players)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        obs_space = gym.spaces.Dict({
            "observation": gym.spaces.Box(-1.0, 1.0, shape=(self.encoder.size,),
                                          dtype=np.float32),
            "action_mask": gym.spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(self.codec.size)
                              for a in self.possible_agents}
        self.state: Any = None
        self._rng: Any = None

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
        self.state = self.family.new_game(self.rules, self.players, seed=game_seed)
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
        state = self.state
        assert state is not None
        self._cumulative_rewards[agent] = 0.0
        # An illegal action raises IllegalActionError naming the rule; the wrapper of
        # bito.env.pettingzoo.env never lets one through (it ends the game first).
        state = self.state = state.apply(self.codec.action(int(action)))
        if state.is_over:
            scores = seat_returns(state.outcome, self.players)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[s]
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"outcome": state.outcome} for a in self.agents}
            nxt = (self.possible_agents.index(agent) + 1) % self.players
            self.agent_selection = self.possible_agents[nxt]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[state.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting agent's view as text (the whole position only with ``omniscient``)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        if self.omniscient:
            return str(self.state)
        seat = self.possible_agents.index(self.agent_selection)
        return f"{self.agent_selection}\n{self.state.view(seat)}"

    def close(self) -> None:
        pass
