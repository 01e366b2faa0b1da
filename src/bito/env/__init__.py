"""Research interfaces: bito's games for reinforcement-learning and game-theory tools.

Everything here sits on two pieces shared by every adapter:

* :class:`~bito.env.codec.ActionCodec`: one integer per possible action of a rules object, a
  fixed count and a legal-action mask;
* :class:`~bito.env.observation.ObservationEncoder`: one flat ``float32`` vector per seat,
  made of named planes, computed from the seat's :meth:`~bito.games.durak.DurakState.view`
  only, so it can never hold a hidden card.

The games played one card at a time (the shedding family and *Fool!*) have the same two
pieces in :mod:`bito.env.cardplay` and their adapters in :mod:`bito.env.cardplay_gym`,
:mod:`bito.env.cardplay_pz` and :mod:`bito.env.cardplay_spiel`.

The adapters (:mod:`bito.env.gymnasium`, :mod:`bito.env.pettingzoo`, :mod:`bito.env.openspiel`)
and the batch environment (:mod:`bito.env.batch`) need the ``rl`` extra
(``pip install 'bito[rl]'``); importing one without it raises an ImportError that says so.
See ``docs/rl.md``.
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
