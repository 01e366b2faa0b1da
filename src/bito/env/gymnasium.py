"""A Gymnasium environment: one learning seat against bito's bots, in any game of any family.

Importing this module registers the ids::

    import gymnasium as gym
    import bito.env.gymnasium  # noqa: F401  (registers the ids)

    env = gym.make("bito/Podkidnoy-v0")
    env = gym.make("bito/Perevodnoy-v0", opponents=("random",))
    env = gym.make("bito/Durak-v0", variant="podkidnoy+no_trump", players=3)
    env = gym.make("bito/Cheat-v0", players=3)
    env = gym.make("bito/Game-v0", variant="chinese", players=4)   # any catalogue game

The agent plays seat ``seat`` (0 unless told); every other seat is a bot from
:func:`bito.bots.make_bot`. After each agent action the bots play until it is the agent's turn
again or the game is over. The reward arrives at the end (:func:`bito.env.payoff.seat_returns`:
-1 for the losing side, +1/(sides-1) for each other side's members, 0 for a draw).

Observations are the game's encoder vectors and actions its codec's integers (chosen by
family: :mod:`bito.env.kit`). ``env.action_masks()`` (the name sb3-contrib's MaskablePPO looks
for) and ``info["action_mask"]`` give the legal entries. An illegal action ends the episode
with reward -1 and ``info["illegal"]``, unless the environment was made with
``illegal="raise"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.kit import GameKit, kit_for
from bito.env.payoff import seat_returns
from bito.errors import IllegalActionError
from bito.rules import Rules

gym: Any = require("gymnasium", "bito.env.gymnasium")
np: Any = require("numpy", "bito.env.gymnasium")


class GameEnv(gym.Env):  # type: ignore[misc]
    """One seat of a game of any family against bots (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: Rules | str = "podkidnoy", players: int = 2,
                 opponents: Sequence[str] | str = ("heuristic",), seat: int = 0,
                 illegal: str = "lose", render_mode: str | None = None) -> None:
        self.kit: GameKit = kit_for(variant, players)  # refuses a bad game or seat count
        self.variant = variant
        self.family = self.kit.family
        self.rules = self.kit.rules
        self.codec = self.kit.codec
        self.encoder = self.kit.encoder
        self.players = players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player game")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        names = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(names) == 1:
            names = names * (players - 1)
        if len(names) != players - 1:
            raise ValueError(f"opponents: give one bot name or {players - 1}, not {len(names)}")
        for name in names:
            self.opponent(name, 0)  # unknown names fail here, with the list of known bots
        self.opponent_names = tuple(names)
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = gym.spaces.Box(self.kit.low, 1.0, shape=(self.encoder.size,),
                                                dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.codec.size)
        self.state: Any = None
        self._bots: dict[int, Bot] = {}

    def opponent(self, name: str, seed: int) -> Bot:
        """A bot by name; ``"greedy"`` is the reference twin of the vector environment's
        compiled greedy opponent (:class:`bito.env.greedy.GreedyBot`, Durak only), so the two
        environments can be played side by side."""
        if name == "greedy":
            from bito.env.greedy import GreedyBot

            return GreedyBot(seed)
        return make_bot(name, seed)

    # --- gymnasium API -------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        if options and "game_seed" in options:
            game_seed = int(options["game_seed"])
        bot_seeds = random.Random(game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: self.opponent(name, bot_seeds.randrange(2**62))
                      for s, name in zip(others, self.opponent_names, strict=True)}
        self.state = self.kit.deal(game_seed)
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over:
            raise RuntimeError(f"the {self.kit.episode} is over: call reset()")
        act = self.codec.action(int(action))
        try:
            after = self.kit.play(state, act)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal"] = str(act)
            self.state = None
            return self._observe(state), -1.0, True, False, info
        self.state = after
        self._play_bots()
        done = bool(self.state.is_over)
        reward = seat_returns(self.state.outcome, self.players)[self.seat] if done else 0.0
        return self._observe(), reward, done, False, self._info()

    def action_masks(self) -> Any:
        """The legal-action mask of the agent's decision (all zeros when it is over)."""
        if self.state is None or self.state.is_over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.state)

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            names = [f"seat {s}" for s in range(self.players)]
            return self.kit.seat_text(self.state, self.seat, names)
        return None

    # --- helpers -------------------------------------------------------------------------------

    def _play_bots(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and state.to_act != self.seat:
            seat = state.to_act
            state = state.apply(self._bots[seat].choose(state.view(seat)))
        self.state = state

    def _observe(self, state: Any = None) -> Any:
        st = self.state if state is None else state
        assert st is not None
        return self.encoder.encode(st.view(self.seat))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.state is not None and self.state.is_over:
            info["outcome"] = self.state.outcome
        return info


#: The name of :class:`GameEnv` from when it played the Durak family only.
DurakEnv = GameEnv

#: Registered ids and their fixed arguments; ``bito/Game-v0`` takes any ``variant``.
ENV_IDS: dict[str, dict[str, object]] = {
    "bito/Podkidnoy-v0": {"variant": "podkidnoy"},
    "bito/Perevodnoy-v0": {"variant": "perevodnoy"},
    "bito/Durak-v0": {},
    "bito/CzechFool-v0": {"variant": "czech_fool"},
    "bito/AdjacentRank-v0": {"variant": "ontoys_adjacent_rank", "players": 3},
    "bito/Fool-v0": {"variant": "friese_fool", "players": 4},
    "bito/CardPlay-v0": {"variant": "czech_fool"},
    "bito/Cheat-v0": {"variant": "believe_not_believe_2"},
    "bito/AnimalSounds-v0": {"variant": "animal_sounds"},
    "bito/ChinaFool-v0": {"variant": "chinese"},
    "bito/Game-v0": {},
}

#: The ids whose Durak deals the compiled vector environment can also step
#: (``gymnasium.make_vec(id, num_envs=N)``, :mod:`bito.env.vector`).
VECTOR_IDS = ("bito/Podkidnoy-v0", "bito/Perevodnoy-v0", "bito/Durak-v0")

_REGISTERED = False


def register_envs() -> None:
    """Register every id of :data:`ENV_IDS` (once)."""
    global _REGISTERED
    if _REGISTERED:
        return
    for env_id, kwargs in ENV_IDS.items():
        if env_id in gym.registry:
            continue
        vector = "bito.env.vector:DurakVectorEnv" if env_id in VECTOR_IDS else None
        gym.register(id=env_id, entry_point="bito.env.gymnasium:GameEnv",
                     vector_entry_point=vector, kwargs=kwargs)
    _REGISTERED = True


register_envs()
