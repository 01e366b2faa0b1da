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

from collections.abc import Sequence
from typing import Any

from bito.bots import Bot, make_bot
from bito.env._optional import require
from bito.env.codec import codec_for, durak_rules
from bito.env.observation import ObservationEncoder
from bito.env.seat_env import SeatEnv
from bito.games.durak import DurakState, new_game
from bito.rules import Rules

gym: Any = require("gymnasium", "bito.env.gymnasium")
np: Any = require("numpy", "bito.env.gymnasium")


class DurakEnv(SeatEnv):
    """One seat of a Durak-family deal against bots (see the module docstring)."""

    episode = "deal"

    def __init__(self, variant: Rules | str = "podkidnoy", players: int = 2,
                 opponents: Sequence[str] | str = ("heuristic",), seat: int = 0,
                 illegal: str = "lose", render_mode: str | None = None) -> None:
        self.rules = durak_rules(variant)
        self.variant = variant
        self.take_seat(players, opponents, seat, illegal, render_mode)
        # A throw-away deal checks the seat count against the rules before any reset.
        new_game(self.rules, players, seed=0)
        self.codec = codec_for(self.rules)
        self.encoder = ObservationEncoder(self.rules, players)
        self.make_spaces(low=0.0)
        self.state: DurakState | None = None

    def opponent(self, name: str, seed: int) -> Bot:
        """A bot by name; ``"greedy"`` is the reference twin of the vector environment's
        compiled greedy opponent (:class:`bito.env.greedy.GreedyBot`), so the two
        environments can be played side by side."""
        if name == "greedy":
            from bito.env.greedy import GreedyBot

            return GreedyBot(seed)
        return make_bot(name, seed)

    def deal(self, seed: int) -> DurakState:
        return new_game(self.rules, self.players, seed=seed)

    def play(self, state: Any, act: Any) -> DurakState:
        if not state.is_legal(act):
            raise state.explain_illegal(act)
        after: DurakState = state.apply(act)
        return after

    def seat_text(self) -> str:
        from bito.games.durak.render import render_view

        assert self.state is not None
        view = self.state.view(self.seat)
        return str(render_view(view, [f"seat {s}" for s in range(self.state.players)]))


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
