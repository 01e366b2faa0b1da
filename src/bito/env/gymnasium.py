"""A Gymnasium environment: one learning seat against bito's bots.

Importing this module registers three ids for the Durak family (and four for the shedding and
trick families: :mod:`bito.env.cardplay_gym`)::

    import gymnasium as gym
    import bito.env.gymnasium  # noqa: F401  (registers the ids)

    env = gym.make("bito/Podkidnoy-v0")
    env = gym.make("bito/Perevodnoy-v0", opponents=("random",))
    env = gym.make("bito/Durak-v0", variant="podkidnoy+no_trump", players=3)

The agent plays seat ``seat`` (0 unless told); every other seat is a bot from
:func:`bito.bots.make_bot`. After each agent action the bots play until it is the agent's turn
again or the deal is over. The reward arrives at the end (:func:`bito.env.payoff.seat_returns`:
-1 for the fool, +1/(players-1) for everyone else, 0 for a draw).

Observations are the :class:`~bito.env.observation.ObservationEncoder` vector; actions the
:class:`~bito.env.codec.ActionCodec` integers. ``env.action_masks()`` (the name
sb3-contrib's MaskablePPO looks for) and ``info["action_mask"]`` give the legal entries.
An illegal action ends the episode with reward -1 and ``info["illegal"]``, unless the
environment was made with ``illegal="raise"``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.codec import codec_for, durak_rules
from bito.env.observation import ObservationEncoder
from bito.env.payoff import seat_returns
from bito.games.durak import DurakState, new_game
from bito.rules import Rules

gym: Any = require("gymnasium", "bito.env.gymnasium")
np: Any = require("numpy", "bito.env.gymnasium")
spaces = gym.spaces


class DurakEnv(gym.Env):  # type: ignore[misc]
    """One seat of a Durak-family deal against bots (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, variant: Rules | str = "podkidnoy", players: int = 2,
                 opponents: Sequence[str] | str = ("heuristic",), seat: int = 0,
                 illegal: str = "lose", render_mode: str | None = None) -> None:
        self.rules = durak_rules(variant)
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
            _opponent(name, 0)  # unknown names fail here, with the list of known bots
        self.opponent_names = tuple(names)
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        # A throw-away deal checks the seat count against the rules before any reset.
        new_game(self.rules, players, seed=0)
        self.codec = codec_for(self.rules)
        self.encoder = ObservationEncoder(self.rules, players)
        self.observation_space = spaces.Box(0.0, 1.0, shape=(self.encoder.size,),
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.state: DurakState | None = None
        self._bots: dict[int, Bot] = {}

    # --- gymnasium API -------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        if options and "game_seed" in options:
            game_seed = int(options["game_seed"])
        bot_seeds = random.Random(game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self._bots = {s: _opponent(name, bot_seeds.randrange(2**62))
                      for s, name in zip(others, self.opponent_names, strict=True)}
        self.state = new_game(self.rules, self.players, seed=game_seed)
        self._play_bots()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None:
            raise RuntimeError("call reset() before step()")
        if state.is_over:
            raise RuntimeError("the deal is over: call reset()")
        act = self.codec.action(int(action))
        if not state.is_legal(act):
            if self.illegal == "raise":
                raise state.explain_illegal(act)
            info = self._info()
            info["illegal"] = str(act)
            self.state = None
            return self._observe(state), -1.0, True, False, info
        self.state = state.apply(act)
        self._play_bots()
        done = self.state.is_over
        reward = seat_returns(self.state.outcome, self.players)[self.seat] if done else 0.0
        return self._observe(), reward, done, False, self._info()

    def action_masks(self) -> Any:
        """The legal-action mask of the agent's current decision (all zeros when over)."""
        if self.state is None or self.state.is_over:
            return np.zeros(self.codec.size, dtype=np.int8)
        return self.codec.mask(self.state)

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            return _render_view(self.state, self.seat)
        return None

    # --- helpers -------------------------------------------------------------------------

    def _play_bots(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and state.to_act != self.seat:
            seat = state.to_act
            state = state.apply(self._bots[seat].choose(state.view(seat)))
        self.state = state

    def _observe(self, state: DurakState | None = None) -> Any:
        st = state or self.state
        assert st is not None
        return self.encoder.encode(st.view(self.seat))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self.state is not None and self.state.is_over:
            info["outcome"] = self.state.outcome
        return info


def _opponent(name: str, seed: int) -> Bot:
    """A bot by name; ``"greedy"`` is the reference twin of the vector environment's compiled
    greedy opponent (:class:`bito.env.greedy.GreedyBot`), so the two environments can be
    played side by side."""
    if name == "greedy":
        from bito.env.greedy import GreedyBot

        return GreedyBot(seed)
    return make_bot(name, seed)


def _render_view(state: DurakState, seat: int) -> str:
    from bito.games.durak.render import render_view

    return render_view(state.view(seat), [f"seat {s}" for s in range(state.players)])


_REGISTERED = False


def register_envs() -> None:
    """Register ``bito/Podkidnoy-v0``, ``bito/Perevodnoy-v0`` and ``bito/Durak-v0``; and for
    the shedding and trick families (:mod:`bito.env.cardplay_gym`) ``bito/CzechFool-v0``,
    ``bito/AdjacentRank-v0``, ``bito/Fool-v0`` and ``bito/CardPlay-v0`` (any spec)."""
    global _REGISTERED
    if _REGISTERED:
        return
    entry = "bito.env.gymnasium:DurakEnv"
    # gymnasium.make_vec(id, num_envs=N) steps N deals in compiled code (bito.env.vector)
    vector_entry = "bito.env.vector:DurakVectorEnv"
    for env_id, kwargs in (("bito/Podkidnoy-v0", {"variant": "podkidnoy"}),
                           ("bito/Perevodnoy-v0", {"variant": "perevodnoy"}),
                           ("bito/Durak-v0", {})):
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=entry, vector_entry_point=vector_entry,
                         kwargs=kwargs)
    cards = "bito.env.cardplay_gym:CardPlayEnv"  # the shedding and trick families
    card_ids: tuple[tuple[str, dict[str, object]], ...] = (
        ("bito/CzechFool-v0", {"variant": "czech_fool"}),
        ("bito/AdjacentRank-v0", {"variant": "ontoys_adjacent_rank", "players": 3}),
        ("bito/Fool-v0", {"variant": "friese_fool", "players": 4}),
        ("bito/CardPlay-v0", {}))
    for env_id, card_kwargs in card_ids:
        if env_id not in gym.registry:
            gym.register(id=env_id, entry_point=cards, kwargs=card_kwargs)
    _REGISTERED = True


register_envs()
