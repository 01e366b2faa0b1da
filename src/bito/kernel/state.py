"""A kernel position with the reference engine's protocol, for search.

:class:`KernelState` takes over a reference :class:`~bito.games.durak.state.DurakState` and
offers ``legal_actions``/``apply``/``is_over`` with the reference :class:`Action` objects, so a
search can expand nodes on the kernel and play rollouts from them without converting back.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bito.errors import IllegalActionError
from bito.games.durak.actions import Action
from bito.games.durak.state import DurakState
from bito.kernel import layout as L
from bito.kernel.batch import playouts_from
from bito.kernel.convert import (
    CardIndex,
    action_code,
    action_of,
    converted,
    kernel_snapshot,
)
from bito.kernel.core import legal_actions_of, step_of

_MASKS = np.empty(L.MAX_ACTIONS, np.int64)
_METAS = np.empty(L.MAX_ACTIONS, np.int64)


class KernelState:
    """A position held in a kernel array. Immutable from outside, like ``DurakState``."""

    __slots__ = ("_legal", "array", "index")

    def __init__(self, array: np.ndarray, index: CardIndex | None = None) -> None:
        self.array = array
        self.index = index
        """The deck's card numbering (:func:`~bito.kernel.convert.card_index`); None: the
        reference codes themselves."""
        self._legal: list[Action] | None = None

    @classmethod
    def from_state(cls, state: DurakState) -> KernelState:
        """Take over a reference position (its rules must be :func:`bito.kernel.supports`ed)."""
        from bito.kernel import supports_state

        if not supports_state(state):
            raise ValueError("the kernel does not play these rules; use the reference engine")
        return cls(*converted(state))

    @property
    def to_act(self) -> int:
        return int(self.array[L.TO_ACT])

    @property
    def phase(self) -> int:
        return int(self.array[L.PHASE])

    @property
    def is_over(self) -> bool:
        return bool(self.array[L.RESULT])

    @property
    def loser(self) -> int | None:
        """The fool once the game is over (None for a draw or while it runs)."""
        return int(self.array[L.LOSER]) if self.array[L.RESULT] == 1 else None

    def legal_actions(self) -> list[Action]:
        """The actions of the seat to act, as reference :class:`Action` objects (the same set
        as the reference engine lists; the tests hold the two to it)."""
        if self._legal is None:
            n = legal_actions_of(self.array, _MASKS, _METAS)
            self._legal = [action_of(_MASKS[i], _METAS[i], self.index) for i in range(n)]
        return list(self._legal)

    def apply(self, action: Action) -> KernelState:
        """The position after ``action``; this one is left untouched."""
        if action not in self.legal_actions():
            raise IllegalActionError("illegal action", f"{action} is not legal here (the "
                                     "reference engine's apply names the rule it breaks)")
        nxt = KernelState(self.array.copy(), self.index)
        mask, meta = action_code(action, self.index)
        step_of(nxt.array, mask, meta)
        return nxt

    def random_playouts(self, n: int, seed: int) -> list[int | None]:
        """``n`` random playouts to the end: the fool of each (None for a draw)."""
        from bito.kernel import MAX_STEPS, _kernel_seed, _losers

        losers = np.empty(n, np.int64)
        playouts_from(self.array, None, n, _kernel_seed(seed), losers, MAX_STEPS)
        return _losers(losers)

    def snapshot(self) -> dict[str, Any]:
        """Every rules fact of the position (the differential tests' unit of comparison)."""
        return kernel_snapshot(self.array, self.index)
