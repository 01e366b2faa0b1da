"""An interactive game: a state plus its history, with ``push`` and ``pop``.

States are immutable, so history is simply the list of earlier states; ``pop`` is O(1).
A game of any family: ``Game[S]`` keeps states of type ``S`` (``Game(new_game(...))`` of a
Durak deal is a ``Game[DurakState]``).
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar, runtime_checkable

from bito.games.durak import parse_action
from bito.games.protocol import PlayAction, PlayState

S = TypeVar("S", bound=PlayState)


@runtime_checkable
class ReadsActions(Protocol):
    """A state that reads action text in its own game's notation (the families other than
    Durak, whose states know their notation)."""

    def parse_action(self, text: str) -> PlayAction: ...


class Game(Generic[S]):
    """A game in progress, for play, replay and search."""

    def __init__(self, state: S) -> None:
        self.start = state
        self.state = state
        self._states: list[S] = []
        self.actions: list[PlayAction] = []
        self.seats: list[int] = []

    def push(self, action: PlayAction | str) -> S:
        """Play an action (an action object or its text); return the new state."""
        act: PlayAction
        if isinstance(action, str):  # each family reads its own notation
            act = (self.state.parse_action(action) if isinstance(self.state, ReadsActions)
                   else parse_action(action))
        else:
            act = action
        seat = self.state.to_act
        new = self.state.apply(act)
        self._states.append(self.state)
        self.actions.append(act)
        self.seats.append(seat)
        self.state = new
        return new

    def pop(self) -> PlayAction:
        """Take back the last action."""
        if not self._states:
            raise IndexError("no action to take back")
        self.state = self._states.pop()
        self.seats.pop()
        return self.actions.pop()

    def __len__(self) -> int:
        return len(self.actions)
