"""A PettingZoo AEC environment: every seat is an agent.

::

    from bito.env.pettingzoo import env

    e = env(variant="perevodnoy", players=3)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). Exactly one agent acts at a time
(the engine's ``to_act``: throw-ins are offered in a fixed priority order), so the AEC
``agent_selection`` is simply the seat to act. Observations are dicts with ``observation``
(the :class:`~bito.env.observation.ObservationEncoder` vector of that seat's view) and
``action_mask`` (over the :class:`~bito.env.codec.ActionCodec` integers; all zeros when it
is not that agent's turn). Rewards arrive at the end of the deal
(:func:`bito.env.payoff.seat_returns`). An illegal action ends the deal with -1 for the
agent that made it (PettingZoo's ``TerminateIllegalWrapper``, as its classic games do).

``render_mode="ansi"`` draws what the agent to act (``agent_selection``) may see: its own
hand, the table, counts and the cards publicly known to be in other hands, never another
seat's hidden card, so a render can be shown to that player. The whole deal, every hand
and the stock included, is drawn only when the environment is made with ``omniscient=True``
(for debugging and spectators).

Czech fool and its options, the adjacent-rank game and *Fool!* (``env(variant="friese_fool",
players=4)``) are played by :class:`bito.env.cardplay_pz.CardPlayAEC` under the same contract.

The environment is registered in PettingZoo's registry as ``bito/Durak-v0``
(``pettingzoo.make("aec", "bito/Durak-v0", variant=..., players=...)``) when the installed
PettingZoo has one.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bito.env._optional import require
from bito.env.cardplay import is_card_play
from bito.env.codec import codec_for, durak_rules
from bito.env.observation import ObservationEncoder
from bito.env.seats_aec import SeatsAEC
from bito.games.durak import DurakState, new_game

pz: Any = require("pettingzoo", "bito.env.pettingzoo")
gym: Any = require("gymnasium", "bito.env.pettingzoo")
np: Any = require("numpy", "bito.env.pettingzoo")
_wrappers: Any = require("pettingzoo.utils.wrappers", "bito.env.pettingzoo")


def env(variant: str = "podkidnoy", players: int = 2, render_mode: str | None = None,
        omniscient: bool = False) -> Any:
    """The wrapped environment (illegal moves end the deal, order of calls enforced); a spec
    of the shedding or trick family gets :class:`bito.env.cardplay_pz.CardPlayAEC`."""
    e: Any
    if is_card_play(variant):
        from bito.env.cardplay_pz import CardPlayAEC

        e = CardPlayAEC(variant=variant, players=players, render_mode=render_mode,
                        omniscient=omniscient)
    else:
        e = raw_env(variant=variant, players=players, render_mode=render_mode,
                    omniscient=omniscient)
    e = _wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = _wrappers.AssertOutOfBoundsWrapper(e)
    return _wrappers.OrderEnforcingWrapper(e)


class raw_env(SeatsAEC):
    """The bare AEC environment; use :func:`env` unless you wrap it yourself."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "bito_durak_v0", "render_modes": ["ansi"], "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, variant: str = "podkidnoy", players: int = 2,
                 render_mode: str | None = None, omniscient: bool = False) -> None:
        super().__init__()
        self.rules = durak_rules(variant)
        new_game(self.rules, players, seed=0)  # checks the seat count against the rules now
        self.codec = codec_for(self.rules)
        self.encoder = ObservationEncoder(self.rules, players)
        self.seat_agents(variant, players, render_mode, omniscient, low=0.0)
        self.state: DurakState | None = None

    def deal(self, seed: int) -> DurakState:
        return new_game(self.rules, self.players, seed=seed)

    def play(self, state: Any, action: int) -> DurakState:
        act = self.codec.action(action)
        if not state.is_legal(act):
            raise state.explain_illegal(act)
        after: DurakState = state.apply(act)
        return after

    def seat_text(self, seat: int) -> str:
        from bito.games.durak.render import render_view

        assert self.state is not None
        return str(render_view(self.state.view(seat), self.possible_agents))


def register() -> None:
    """Add ``bito/Durak-v0`` to PettingZoo's AEC registry (PettingZoo >= 1.25 has one)."""
    reg = getattr(pz, "aec_registry", None)
    if reg is not None and "bito/Durak-v0" not in reg:
        pz.register("aec", "bito/Durak-v0", entry_point="bito.env.pettingzoo:env")


register()
