"""How every bito environment numbers its actions and lays out its observation vector, for
any family: actions in named blocks (each new action once, in the order given), planes side by
side. One place keeps the Durak codec and the card-play codec numbering alike, so an index
means the same kind of thing in both (a block's range is where a policy's head looks)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

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
