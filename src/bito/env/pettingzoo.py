"""A PettingZoo AEC environment: every seat is an agent, in any game of any family.

::

    from bito.env.pettingzoo import env

    e = env(variant="perevodnoy", players=3)        # or "believe_not_believe_2", "chinese"...
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Exactly one agent acts at a time
(the engine's ``to_act``: Durak's throw-ins are offered in a fixed priority order), so the AEC
``agent_selection`` is simply the seat to act. Observations are dicts with ``observation``
(the game's encoder vector of that seat's view, :mod:`bito.env.kit`) and ``action_mask``
(over the codec's integers; all zeros when it is not that agent's turn). Rewards arrive at the
end of the game (:func:`bito.env.payoff.seat_returns`: partners share their team's result).
An illegal action ends the game with -1 for the agent that made it (PettingZoo's
``TerminateIllegalWrapper``, as its classic games do).

``env.state()`` is the global state for centralised training: every seat's observation side
by side, seat 0 first (``env.state_space``); it holds every hand, so it is for a critic, never
for a policy that plays.

``render_mode="ansi"`` draws what the agent to act (``agent_selection``) may see: its own
hand, the table, counts and the cards publicly known to be in other hands, never another
seat's hidden card, so a render can be shown to that player. The whole game, every hand and
the stock included, is drawn only when the environment is made with ``omniscient=True``
(for debugging and spectators). The engine state is ``env.unwrapped.game``.

The environment is registered in PettingZoo's registry as ``bito/Durak-v0``
(``pettingzoo.make("aec", "bito/Durak-v0", variant=..., players=...)``) when the installed
PettingZoo has one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bito.env._optional import require
from bito.env.kit import GameKit, kit_for
from bito.env.payoff import seat_returns

pz: Any = require("pettingzoo", "bito.env.pettingzoo")
gym: Any = require("gymnasium", "bito.env.pettingzoo")
np: Any = require("numpy", "bito.env.pettingzoo")
_wrappers: Any = require("pettingzoo.utils.wrappers", "bito.env.pettingzoo")


def env(variant: str = "podkidnoy", players: int = 2, render_mode: str | None = None,
        omniscient: bool = False) -> Any:
    """The wrapped environment (illegal moves end the game, order of calls enforced)."""
    e: Any = raw_env(variant=variant, players=players, render_mode=render_mode,
                     omniscient=omniscient)
    e = _wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = _wrappers.AssertOutOfBoundsWrapper(e)
    return _wrappers.OrderEnforcingWrapper(e)


class raw_env(pz.AECEnv):  # type: ignore[misc]
    """The bare AEC environment; use :func:`env` unless you wrap it yourself."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "bito_durak_v0", "render_modes": ["ansi"], "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant: str = "podkidnoy", players: int = 2,
                 render_mode: str | None = None, omniscient: bool = False) -> None:
        super().__init__()
        self.kit: GameKit = kit_for(variant, players)  # refuses a bad game or seat count
        self.rules = self.kit.rules
        self.codec = self.kit.codec
        self.encoder = self.kit.encoder
        self.omniscient = bool(omniscient)
        self.variant = variant
        self.players = players
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        low = self.kit.low
        obs_space = gym.spaces.Dict({
            "observation": gym.spaces.Box(low, 1.0, shape=(self.encoder.size,),
                                          dtype=np.float32),
            "action_mask": gym.spaces.Box(0, 1, shape=(self.codec.size,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gym.spaces.Discrete(self.codec.size)
                              for a in self.possible_agents}
        self.state_space = gym.spaces.Box(low, 1.0, shape=(players * self.encoder.size,),
                                          dtype=np.float32)
        #: The engine state of the game in progress (None before the first reset).
        self.game: Any = None
        self._rng: Any = None

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
        self.game = self.kit.deal(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_act]

    def observe(self, agent: str) -> dict[str, Any]:
        game = self.game
        assert game is not None, "call reset() first"
        seat = self.possible_agents.index(agent)
        if game.to_act == seat and not game.is_over:
            mask = self.codec.mask(game)
        else:
            mask = np.zeros(self.codec.size, dtype=np.int8)
        return {"observation": self.encoder.encode(game.view(seat)), "action_mask": mask}

    def state(self) -> Any:
        """Every seat's observation side by side, seat 0 first (zeros before a reset)."""
        out = np.zeros(self.state_space.shape, dtype=np.float32)
        if self.game is not None:
            size = self.encoder.size
            for s in range(self.players):
                self.encoder.encode(self.game.view(s), out=out[s * size:(s + 1) * size])
        return out

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        # An illegal action raises IllegalActionError naming the rule; the wrapper of
        # env() never lets one through (it ends the game first).
        game = self.game = self.kit.play(self.game, self.codec.action(int(action)))
        self._cumulative_rewards[agent] = 0.0
        if game.is_over:
            scores = seat_returns(game.outcome, self.players)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = scores[s]
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"outcome": game.outcome} for a in self.agents}
            # Everyone collects the final reward in turn, starting with the next seat.
            nxt = (self.possible_agents.index(agent) + 1) % self.players
            self.agent_selection = self.possible_agents[nxt]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[game.to_act]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The acting agent's view as text (the whole game only with ``omniscient=True``)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        if self.omniscient:
            return str(self.game)
        seat = self.possible_agents.index(self.agent_selection)
        return self.kit.seat_text(self.game, seat, self.possible_agents)

    def close(self) -> None:
        pass


def register() -> None:
    """Add ``bito/Durak-v0`` to PettingZoo's AEC registry (PettingZoo >= 1.25 has one)."""
    reg = getattr(pz, "aec_registry", None)
    if reg is not None and "bito/Durak-v0" not in reg:
        pz.register("aec", "bito/Durak-v0", entry_point="bito.env.pettingzoo:env")


register()
