"""Research interfaces: bito's games for reinforcement-learning and game-theory tools.

Every adapter (:mod:`bito.env.gymnasium`, :mod:`bito.env.pettingzoo`, :mod:`bito.env.openspiel`)
plays any game of any family through one :class:`~bito.env.kit.GameKit`, which takes the
game from the family seam (:mod:`bito.games.family`) and picks the family's two pieces:

* an action numbering: one integer per possible action, a fixed count and a legal-action
  mask (:class:`~bito.env.codec.ActionCodec` for the Durak family,
  :class:`~bito.env.cardplay.CardPlayCodec` for the shedding, trick and social families,
  :class:`~bito.env.bouts.BoutsCodec` for the bout family);
* an observation encoder: one flat ``float32`` vector per seat, made of named planes,
  computed from the seat's ``view`` only, so it can never hold a hidden card
  (:class:`~bito.env.observation.ObservationEncoder`, :class:`~bito.env.cardplay.CardPlayEncoder`,
  :class:`~bito.env.bouts.BoutsEncoder`).

Every adapter scores a finished game with :func:`bito.env.payoff.seat_returns` (partners
share their team's result). The adapters and the batch environment (:mod:`bito.env.batch`)
need the ``rl`` extra (``pip install 'bito[rl]'``); importing one without it raises an
ImportError that says so. See ``docs/rl.md``.
"""

from __future__ import annotations

__all__ = ["ActionCodec", "ObservationEncoder"]


def __getattr__(name: str) -> object:
    # Lazy, so that ``import bito.env`` alone never needs numpy.
    if name == "ActionCodec":
        from bito.env.codec import ActionCodec

        return ActionCodec
    if name == "ObservationEncoder":
        from bito.env.observation import ObservationEncoder

        return ObservationEncoder
    raise AttributeError(name)
