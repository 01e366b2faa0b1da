"""How every bito environment numbers its actions and lays out its observation vector, for
any family: actions in named blocks (each new action once, in the order given), planes side by
side. One place keeps the Durak codec and the card-play codec numbering alike, so an index
means the same kind of thing in both (a block's range is where a policy's head looks)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Generic, TypeVar

from bito.env._optional import require

np: Any = require("numpy", "bito.env.numbering")

A = TypeVar("A", bound=Hashable)


class Numbering(Generic[A]):
    """Actions numbered block by block; ``blocks[name]`` is the block's (start, end) range.

    ``keep_empty``: a block that adds no new action still gets its (empty) range, for a
    codec whose blocks are always all present."""

    def __init__(self, keep_empty: bool = False) -> None:
        self.keep_empty = keep_empty
        self.actions: list[A] = []
        self.blocks: dict[str, tuple[int, int]] = {}
        self.seen: set[A] = set()

    def block(self, name: str, acts: Iterable[A]) -> None:
        """Append the actions not yet numbered and note the block's range."""
        start = len(self.actions)
        for act in acts:
            if act not in self.seen:
                self.seen.add(act)
                self.actions.append(act)
        if self.keep_empty or len(self.actions) > start:
            self.blocks[name] = (start, len(self.actions))


def lay_out(pieces: Iterable[tuple[str, int]]) -> tuple[dict[str, slice], int]:
    """The planes (name: its slice of the vector) of ``pieces`` (name, width) side by side,
    and the vector's size."""
    planes: dict[str, slice] = {}
    at = 0
    for name, width in pieces:
        planes[name] = slice(at, at + width)
        at += width
    return planes, at


def blank_vector(size: int, out: Any = None) -> Any:
    """An observation vector of ``size`` zeros: ``out`` cleared when given (an encoder writes
    into the caller's buffer), else a new ``float32`` one."""
    if out is None:
        return np.zeros(size, dtype=np.float32)
    out.fill(0.0)
    return out


class NumberedActions(Generic[A]):
    """A codec's conversions between actions and their integers, once :meth:`keep` has
    taken a finished :class:`Numbering`."""

    #: what the numbering belongs to, for the message about an action it never holds
    scope = "this game"

    def keep(self, numbering: Numbering[A]) -> None:
        self.blocks = numbering.blocks
        self.actions: tuple[A, ...] = tuple(numbering.actions)
        self._index: dict[A, int] = {a: i for i, a in enumerate(self.actions)}
        self.size = len(self.actions)

    def index(self, action: A) -> int:
        """The integer of an action; ValueError if the game can never produce it."""
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"action {action} is outside the action numbering of "
                             f"{self.scope} (it can never be legal here)") from None

    def action(self, index: int) -> A:
        """The action numbered ``index``; ValueError when out of range."""
        if not 0 <= int(index) < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        return self.actions[int(index)]

    def legal_indices(self, state: Any) -> list[int]:
        """The integers of the legal actions of ``state`` (of the seat to act)."""
        return [self._index[a] for a in state.legal_actions()]

    def mask(self, legal: Any) -> Any:
        """An ``int8`` vector of length :attr:`size`: 1 where the action is legal (``legal``
        is a state or its legal actions)."""
        acts = legal if isinstance(legal, Sequence) else legal.legal_actions()
        out = np.zeros(self.size, dtype=np.int8)
        for a in acts:
            out[self.index(a)] = 1
        return out

    def describe(self, index: int) -> str:
        """Short text of an action by index (``7d``, ``Th>6h``, ``take``)."""
        return str(self.action(index))
