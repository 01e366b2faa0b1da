"""Perft counting and golden-file reading shared by the variant perft tests.

A golden file holds a ``spec`` line, then ``seed PLAYERS SEED ; n1 n2 ...`` or
``position TEXT ; n1 n2 ...`` lines: the leaf counts at depths 1, 2, ... from that start.
"""

from __future__ import annotations

from pathlib import Path

from bito.games.durak import DurakState, new_game
from bito.notation import parse_position

GOLDEN = Path(__file__).parent / "golden"


def perft(state: DurakState, depth: int) -> int:
    """Leaves exactly ``depth`` actions below ``state`` (a finished game has no actions)."""
    if depth == 0:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def tree(text: str, depth: int) -> list[int]:
    """Perft counts at depths 1..``depth`` from a position given as text."""
    state = parse_position(text)
    return [perft(state, d) for d in range(1, depth + 1)]


def read_golden(name: str, spec: str = "") -> tuple[str, list[tuple[str, DurakState, list[int]]]]:
    """The spec and the (start, state, counts) lines of ``golden/<name>.txt``; ``spec`` is
    the variant of a file without a ``spec`` line (the base games' files, named by it)."""
    out = []
    for raw in (GOLDEN / f"{name}.txt").read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw.startswith("spec "):
            spec = raw.removeprefix("spec ").strip()
            continue
        start, _, numbers = raw.rpartition(" ; ")
        kind, _, rest = start.partition(" ")
        if kind == "seed":
            players, seed = map(int, rest.split())
            state = new_game(spec, players=players, seed=seed)
        else:
            assert kind == "position", raw
            state = parse_position(rest)
        out.append((start, state, [int(n) for n in numbers.split()]))
    return spec, out
