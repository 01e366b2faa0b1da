"""The Gymnasium contract every bito family keeps: one learning seat against bito's bots, who
play until it is the agent's turn again; observations are the family's encoder vectors,
actions its codec's integers, ``action_masks()`` and ``info["action_mask"]`` the legal
entries, and the reward arrives at the end (:func:`bito.env.payoff.seat_returns`).

:class:`SeatEnv` holds it once; a family's environment (:mod:`bito.env.gymnasium` for Durak,
:mod:`bito.env.cardplay_gym` for the card-play families) says only how it deals, checks a
move and draws its seat's view, so an agent trained on one meets the same contract on the
other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.payoff import seat_returns
from bito.errors import IllegalActionError

gym: Any = require("gymnasium", "bito.env.seat_env")
np: Any = require("numpy", "bito.env.seat_env")


class SeatEnv(gym.Env):  # type: ignore[misc]
    """One seat of a game against bots over an engine with ``to_act``, ``is_over``,
    ``outcome``, ``view`` and ``apply``; ``codec`` and ``encoder`` are the family's."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}
    #: what one episode is called in messages: a Durak deal, a card-play family's game
    episode = "game"

    state: Any
    codec: Any
    encoder: Any
    players: int

    def take_seat(self, players: int, opponents: Sequence[str] | str, seat: int,
                  illegal: str, render_mode: str | None) -> None:
        """Check and keep the seat, the opponents (one name for all, or one a seat) and
        what an illegal action does, refusing a bad one by name before any reset."""
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

    def make_spaces(self, low: float) -> None:
        """The spaces, once ``codec`` and ``encoder`` are set; ``low`` is the least value an
        observation holds (a family's encoder may use -1)."""
        self.observation_space = gym.spaces.Box(low, 1.0, shape=(self.encoder.size,),
                                                dtype=np.float32)
        self.action_space = gym.spaces.Discrete(self.codec.size)
        self.state = None
        self._bots: dict[int, Bot] = {}

    # --- what a family says ------------------------------------------------------------------

    def opponent(self, name: str, seed: int) -> Bot:
        """The bot ``name`` seeded with ``seed``."""
        return make_bot(name, seed)

    def deal(self, seed: int) -> Any:
        """The engine's new game for ``seed``."""
        raise NotImplementedError

    def play(self, state: Any, act: Any) -> Any:
        """The state after ``act``; an illegal one raises IllegalActionError naming the rule."""
        return state.apply(act)

    def seat_text(self) -> str:
        """What the agent's seat sees, as text (its own hand, never another's)."""
        return str(self.state.view(self.seat))

    # --- gymnasium API -----------------------------------------------------------------------

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
        self.state = self.deal(game_seed)
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over:
            raise RuntimeError(f"the {self.episode} is over: call reset()")
        act = self.codec.action(int(action))
        try:
            after = self.play(state, act)
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
            return self.seat_text()
        return None

    # --- helpers -----------------------------------------------------------------------------

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
