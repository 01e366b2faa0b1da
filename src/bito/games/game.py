"""An interactive game: a state plus its history, with ``push`` and ``pop``.

States are immutable, so history is simply the list of earlier states; ``pop`` is O(1).
"""

from __future__ import annotations

from bito.games.durak import Action, DurakState, parse_action


class Game:
    """A game in progress, for play, replay and search."""

    def __init__(self, state: DurakState) -> None:
        self.start = state
        self.state = state
        self._states: list[DurakState] = []
        self.actions: list[Action] = []
        self.seats: list[int] = []

    def push(self, action: Action | str) -> DurakState:
        """Play an action (an :class:`Action` or its text); return the new state."""
        if isinstance(action, str):  # each family reads its own notation
            reader = getattr(self.state, "parse_action", parse_action)
            act = reader(action)
        else:
            act = action
        seat = self.state.to_act
        new = self.state.apply(act)
        self._states.append(self.state)
        self.actions.append(act)
        self.seats.append(seat)
        self.state = new
        return new

    def pop(self) -> Action:
        """Take back the last action."""
        if not self._states:
            raise IndexError("no action to take back")
        self.state = self._states.pop()
        self.seats.pop()
        return self.actions.pop()

    def __len__(self) -> int:
        return len(self.actions)
