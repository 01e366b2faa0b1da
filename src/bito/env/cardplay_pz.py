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

from bito.env.cardplay import card_play_rules, codec_for_cards, encoder_for_cards
from bito.env.seats_aec import SeatsAEC


class CardPlayAEC(SeatsAEC):
    """The bare AEC environment; :func:`bito.env.pettingzoo.env` wraps it."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "bito_cardplay_v0", "render_modes": ["ansi"], "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant: str = "czech_fool", players: int = 2,
                 render_mode: str | None = None, omniscient: bool = False) -> None:
        super().__init__()
        self.family, self.rules = card_play_rules(variant)
        self.codec = codec_for_cards(self.rules, players)  # deals once: checks the seat count
        self.encoder = encoder_for_cards(self.rules, players)
        self.seat_agents(variant, players, render_mode, omniscient, low=-1.0)

    def deal(self, seed: int) -> Any:
        return self.family.new_game(self.rules, self.players, seed=seed)

    def play(self, state: Any, action: int) -> Any:
        # An illegal action raises IllegalActionError naming the rule; the wrapper of
        # bito.env.pettingzoo.env never lets one through (it ends the game first).
        return state.apply(self.codec.action(action))

    def seat_text(self, seat: int) -> str:
        return f"{self.agent_selection}\n{self.state.view(seat)}"
