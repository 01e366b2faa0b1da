"""The core keeps its own invariants (issue 32 item 1): a rule's module changes a game only
through the state's operations (``lay``, ``cover``, ``to_hand``, ``draw``, ``end_bout``, ...)
and keeps its memory under its own key, never by assigning a field of the state.

Checked from the source: the AST of every module in ``bito.games.durak`` other than the core's
own state machine (the position reader too builds its state through the state's ``placed``
constructor) is walked for an assignment to ``<name>.<field>`` or ``<name>.<field>[...]``
where ``<field>`` is one of :class:`~bito.games.durak.state.DurakState`'s slots, whatever the
name of the state variable. The operations themselves are checked to keep the table's masks
and counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bito.games.durak as durak_pkg
from bito.cards import MATCH_MASKS, parse_card
from bito.games import new_game
from bito.games.durak import bout_extras
from bito.games.durak.phases import NEUTRAL
from bito.games.durak.state import DurakState

#: The one module that sets the state's fields: the state machine itself (the position reader
#: builds a state through its `placed` constructor).
CORE_WRITERS = {"state.py"}
SLOTS = frozenset(DurakState.__slots__)


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, field) for each assignment to a state slot, direct or through an index."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for el in (target.elts if isinstance(target, ast.Tuple) else [target]):
                while isinstance(el, ast.Subscript):
                    el = el.value
                if (isinstance(el, ast.Attribute) and el.attr in SLOTS
                        and isinstance(el.value, ast.Name) and el.value.id != "self"):
                    found.append((node.lineno, el.attr))
    return found


def _modules() -> list[Path]:
    root = Path(durak_pkg.__file__).parent
    return sorted(p for p in root.glob("*.py") if p.name not in CORE_WRITERS)


def test_the_walk_sees_an_assignment() -> None:
    """The check itself: it finds the writes it is meant to refuse."""
    tree = ast.parse("state.phase = 1\ns.hands[0] |= 4\nst.attack, x = [], 1\nself.seen = ()")
    assert [f for _, f in _writes(tree)] == ["phase", "hands", "attack"]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_no_module_outside_the_core_assigns_a_state_field(path: Path) -> None:
    writes = _writes(ast.parse(path.read_text()))
    assert not writes, f"{path.name} assigns state fields (use the core's operations): {writes}"


def _state(spec: str = "podkidnoy", seed: int = 3) -> DurakState:
    s = new_game(spec, players=3, seed=seed)
    assert isinstance(s, DurakState)
    return s


def _table_consistent(s: DurakState) -> None:
    table = sum(1 << c for c in (*s.attack, *s.defence) if c >= 0)
    assert s.table_mask in (-1, table)
    assert (s.uncovered == sum(1 for d in s.defence if d == -1)
            or bout_extras.EXTRAS.of(s) is not None)
    assert len(s.attack) == len(s.defence)


def test_lay_cover_and_lift_keep_the_table() -> None:
    s = _state()
    seat = s.to_act
    card = min(c for c in range(160) if s.hands[seat] >> c & 1)
    s.from_hand(seat, 1 << card)
    s.lay((card,), MATCH_MASKS[card])
    assert s.attack == [card] and s.defence == [-1] and s.uncovered == 1
    assert s.table_ranks & MATCH_MASKS[card]
    _table_consistent(s)
    cover = parse_card("AS") if card != parse_card("AS") else parse_card("AH")
    s.cover(card, cover)
    assert s.defence == [cover] and s.uncovered == 0
    _table_consistent(s)
    lifted = s.lift(lambda a, d: a == card)
    assert lifted == 1 << card | 1 << cover
    assert s.attack == [] and s.table_ranks == 0
    _table_consistent(s)


def test_neutralise_counts_the_card_as_beaten() -> None:
    s = _state()
    s.lay((5,), MATCH_MASKS[5])
    s.neutralise(5)
    assert s.defence == [NEUTRAL] and s.uncovered == 0


def test_hand_operations_keep_what_is_known_inside_the_hand() -> None:
    s = _state()
    seat = 1
    card = next(c for c in s.stock)
    s.to_hand(seat, 1 << card, public=1 << card)
    assert s.hands[seat] >> card & 1 and s.known[seat] >> card & 1
    s.from_hand(seat, 1 << card)
    assert not s.hands[seat] >> card & 1 and not s.known[seat] >> card & 1


def test_draw_takes_the_top_of_the_stock() -> None:
    s = _state()
    top = s.stock[-1]
    before = len(s.stock)
    got = s.draw(0, 1)
    assert got == 1 << top and len(s.stock) == before - 1 and s.hands[0] >> top & 1


def test_memory_is_replaced_never_changed() -> None:
    s = _state()
    twin = s.copy()
    s.remember("key", 3)
    assert s.memory == {"key": 3} and twin.memory == {}
    s.remember("key", None)
    assert s.memory == {}


def test_only_a_rules_own_module_reads_its_memory() -> None:
    """The state keeps no window on a rule's memory (no ``gift``, ``extra`` or ``books``):
    each rule's typed key, owned by its module, is the one way to it."""
    from bito.games.durak import joker_gifts, position_stock

    assert not {"gift", "extra", "books"} & set(dir(DurakState))
    s = _state()
    joker_gifts.GIFT.keep(s, (0, 1, 2, 0, 0, False))
    bout_extras.EXTRAS.keep(s, bout_extras.Extras(tried=1))
    assert joker_gifts.GIFT.of(s) == (0, 1, 2, 0, 0, False)
    assert bout_extras.EXTRAS.of(s) == bout_extras.Extras(tried=1)
    assert position_stock.BOOKS.of(s) is None
