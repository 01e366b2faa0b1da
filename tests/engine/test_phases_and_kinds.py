"""Phases and action kinds are enums declared once (issue 17 item 1: no module re-declares
their numbers to dodge an import circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bito
from bito.games.durak.actions import KIND_NAMES, Kind
from bito.games.durak.phases import NEUTRAL, PHASE_NAMES, UNCOVERED, Phase
from bito.kernel import layout

DURAK = Path(bito.__file__).parent / "games" / "durak"
PHASE_WORDS = {p.name for p in Phase} | {"NEUTRAL", "UNCOVERED"}


def _declared_numbers(path: Path) -> list[str]:
    """Module-level names bound to a bare integer that spell a phase or a table mark
    (``_LEAD = 0``, ``CALL_PHASE: Final = 5``, ``_NEUTRAL = -2``); an enum's members, in its
    class body, are its own."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        numbers = [v for v in ast.walk(value) if isinstance(v, ast.Constant)
                   and isinstance(v.value, int) and not isinstance(v.value, bool)]
        words = [n for n in names if n.strip("_").removesuffix("_PHASE") in PHASE_WORDS]
        if words and numbers and not isinstance(value, ast.Call):
            found.extend(words)
    return found


def test_no_durak_module_but_phases_numbers_a_phase() -> None:
    """Every module names the phases through :class:`Phase`."""
    redeclared = {p.name: _declared_numbers(p) for p in DURAK.glob("*.py")
                  if p.name != "phases.py"}
    assert not {k: v for k, v in redeclared.items() if v}
    assert _declared_numbers(DURAK / "phases.py") == ["UNCOVERED", "NEUTRAL"]  # it sees them


def test_phase_names_are_the_position_words() -> None:
    """Position text writes a phase by its name (``phase=throw``)."""
    assert tuple(p.name.lower() for p in Phase) == PHASE_NAMES
    assert PHASE_NAMES[Phase.THROW] == "throw"
    assert (UNCOVERED, NEUTRAL) == (-1, -2)


def test_the_kernel_numbers_phases_as_the_engine() -> None:
    """The compiled kernel keeps plain ints for numba; they must be the enum's values."""
    assert (layout.LEAD_PHASE, layout.DEFEND_PHASE, layout.THROW_PHASE,
            layout.OVER_PHASE) == (Phase.LEAD, Phase.DEFEND, Phase.THROW, Phase.OVER)


def test_every_kind_has_one_name() -> None:
    """The move log and the errors name every kind, each differently: the core's kinds and
    the kinds variant hooks registered (numbered above the core's, with prefixes of their
    own)."""
    from bito.games.durak.actions import HOOKED_KINDS

    assert HOOKED_KINDS, "transfer.show_trump (#96) registers a kind"
    assert set(KIND_NAMES) == set(Kind) | set(HOOKED_KINDS)
    assert min(HOOKED_KINDS) > max(Kind)
    assert len(set(KIND_NAMES.values())) == len(KIND_NAMES)
    prefixes = [n.prefix for n in HOOKED_KINDS.values()]
    assert len(set(prefixes)) == len(prefixes)


def test_a_hooked_kind_is_registered_by_name_and_numbered_for_it() -> None:
    """Kinds are allocated, never chosen: a second rule cannot take a number, a name, a
    prefix or a typed word another already reads as its move."""
    from bito.games.durak.actions import FIRST_HOOKED_KIND, HOOKED_KINDS, register_kind

    assert sorted(HOOKED_KINDS) == list(range(FIRST_HOOKED_KIND,
                                              FIRST_HOOKED_KIND + len(HOOKED_KINDS)))
    taken = next(iter(HOOKED_KINDS.values()))
    for clash in ({"name": taken.name, "prefix": "\u00a7", "word": "zz1"},
                  {"name": "zz name", "prefix": taken.prefix, "word": "zz2"},
                  {"name": "zz name", "prefix": "\u00a7", "word": taken.word},
                  {"name": "zz name", "prefix": "$", "word": "zz3"},
                  {"name": "zz name", "prefix": "\u00a7", "word": "swap"},
                  {"name": "attack", "prefix": "\u00a7", "word": "zz4"}):
        with pytest.raises(ValueError, match="taken"):
            register_kind(pretty="-", **clash)
    assert len(HOOKED_KINDS) == len(set(HOOKED_KINDS))
