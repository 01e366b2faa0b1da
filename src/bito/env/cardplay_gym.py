"""A Gymnasium environment for the card-play families: one learning seat against bito's bots
in Czech fool and its options, the adjacent-rank game or *Fool!*.

::

    import gymnasium as gym
    import bito.env.gymnasium  # noqa: F401  (registers the ids)

    env = gym.make("bito/CzechFool-v0")
    env = gym.make("bito/Fool-v0", players=4, opponents=("random",))
    env = gym.make("bito/CardPlay-v0", variant="czech_fool+shed.rounds=1", players=3)

The same contract as :class:`bito.env.gymnasium.DurakEnv`: the bots play until it is the
agent's turn again; observations are :class:`~bito.env.cardplay.CardPlayEncoder` vectors,
actions :class:`~bito.env.cardplay.CardPlayCodec` integers, ``action_masks()`` and
``info["action_mask"]`` give the legal entries; the reward arrives at the end of the game
(the whole match of rounds): :func:`bito.env.payoff.seat_returns`, -1 for the loser,
+1/(players-1) for everyone else, 0 when nobody loses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.cardplay import card_play_rules, codec_for_cards, encoder_for_cards
from bito.env.payoff import seat_returns
from bito.errors import IllegalActionError

gym: Any = require("gymnasium", "bito.env.cardplay_gym")
np: Any = require("numpy", "bito.env.cardplay_gym")


class CardPlayEnv(gym.Env):  # type: ignore[misc]
    """One seat of a shedding or *Fool!* game against bots (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: str = "czech_fool", players: int = 2,
                 opponents: Sequence[str] | str = ("heuristic",), seat: int = 0,
                 illegal: str = "lose", render_mode: str | None = None) -> None:
        self.family, self.rules = card_play_rules(variant)
        self.variant = variant
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
            make_bot(name, 0)  # unknown names fail here, with the list of known bots
        self.opponent_names = tuple(names)
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self.codec = codec_for_cards(self.rules, players)  # deals once: checks the seat count
        self.encoder = encoder_for_cards(self.rules, players)
        self.observation_space = gym.spaces.Box(-1.0, 1.0, shape=(self.encoder.size,),
                                                dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.codec.size)
        self.state: Any = None
        self._bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        if options and "game_seed" in options:
            game_seed = int(options["game_seed"])
        bot_seeds = random.Random(game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: make_bot(name, bot_seeds.randrange(2**62))
                      for s, name in zip(others, self.opponent_names, strict=True)}
        self.state = self.family.new_game(self.rules, self.players, seed=game_seed)
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over:
            raise RuntimeError("the game is over: call reset()")
        act = self.codec.action(int(action))
        try:
            after = state.apply(act)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal"] = str(act)
            self.state = None
            return self.encoder.encode(state.view(self.seat)), -1.0, True, False, info
        self.state = after
        self._play_bots()
        done = bool(self.state.is_over)
        reward = seat_returns(self.state.outcome, self.players)[self.seat] if done else 0.0
        return self._observe(), reward, done, False, self._info()

    def action_masks(self) -> Any:
        """The legal-action mask of the agent's decision (all zeros when the game is over)."""
        if self.state is None or self.state.is_over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.state)

    def render(self) -> str | None:
        """What the agent's seat sees, as text (its own hand, never another's)."""
        if self.render_mode == "ansi" and self.state is not None:
            return str(self.state.view(self.seat))
        return None

    def _play_bots(self) -> None:
        state = self.state
        while not state.is_over and state.to_act != self.seat:
            seat = state.to_act
            state = state.apply(self._bots[seat].choose(state.view(seat)))
        self.state = state

    def _observe(self) -> Any:
        return self.encoder.encode(self.state.view(self.seat))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.state is not None and self.state.is_over:
            info["outcome"] = self.state.outcome
        return info
