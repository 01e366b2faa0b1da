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

from collections.abc import Sequence
from typing import Any

from bito.env.cardplay import card_play_rules, codec_for_cards, encoder_for_cards
from bito.env.seat_env import SeatEnv


class CardPlayEnv(SeatEnv):
    """One seat of a shedding or *Fool!* game against bots (see the module docstring)."""

    def __init__(self, variant: str = "czech_fool", players: int = 2,
                 opponents: Sequence[str] | str = ("heuristic",), seat: int = 0,
                 illegal: str = "lose", render_mode: str | None = None) -> None:
        self.family, self.rules = card_play_rules(variant)
        self.variant = variant
        self.take_seat(players, opponents, seat, illegal, render_mode)
        self.codec = codec_for_cards(self.rules, players)  # deals once: checks the seat count
        self.encoder = encoder_for_cards(self.rules, players)
        self.make_spaces(low=-1.0)

    def deal(self, seed: int) -> Any:
        return self.family.new_game(self.rules, self.players, seed=seed)
