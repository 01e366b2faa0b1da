"""The hook boundary (docs/architecture.md, "Where variants plug in"): the core runs over the
hooks a rule set selects and never imports a variant module that has one.

Issue 17's shape, checked from the code itself: the import statements of the core, the hook
sets the deals select, and the points each hook overrides.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any

import pytest

import bito.games.durak.state as core
from bito.games import new_game
from bito.games.durak.hooks import EMPTY, GENERAL, POINTS, Hook, Turn, select
from bito.games.durak.installed import HOOKS
from bito.rules import Rules, resolve


def _imported_modules(module: object) -> set[str]:
    """Every module the source file of ``module`` imports, at any depth of its code."""
    tree = ast.parse(Path(inspect.getfile(module)).read_text())  # type: ignore[arg-type]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def _hook_modules() -> set[str]:
    return {type(h).__module__ for h in HOOKS}


def test_the_core_imports_no_hook_module() -> None:
    """The core (state.py) reaches a variant with its own hook only through the deal's hook
    set: importing the module would put the variant's rules back into the core."""
    imported = _imported_modules(core)
    assert _hook_modules(), "installed.HOOKS lists the variant hooks"
    assert not imported & _hook_modules()
    assert "bito.games.durak.installed" not in imported


#: The stock group's modules: the hook and its position-text half.
STOCK_MODULES = {"bito.games.durak.stock", "bito.games.durak.position_stock"}


#: What a reader outside the engine may take from the stock group: its view record and its
#: memory key (the tallies and face-down counts a seat sees; the cards the sweep counts).
#: What a reader outside the engine may name: the view record and the memory key, and for the
#: compiled kernel's converter (which writes the group's rule facts into its position array)
#: the rule's own facts: which rules the group holds, the figures' lowest rank, the six.
STOCK_READINGS = {"bito.games.durak.stock.Tallies", "bito.games.durak.position_stock.BOOKS",
                  "bito.games.durak.stock.plays_stock_rules", "bito.games.durak.stock.FIGURE_LOW",
                  "bito.games.durak.stock.SIX"}


def test_only_hooks_import_the_stock_group() -> None:
    """#31, #34-38, #61-63 are one hook (``stock.HOOK``): the state machine, the views, the
    position writer and reader and the deal reach it through the deal's hook set, never by
    importing it. Only ``installed`` (which lists it), the stock hook's own position half and
    other hook modules (for the ``Books`` type) may name it; a reader outside the engine (a
    face, a bot, the sweep) may name its view record and its memory key, and the kernel's
    converter the rule facts it compiles, nothing more."""
    import bito

    allowed = _hook_modules() | STOCK_MODULES | {"bito.games.durak.installed"}
    root = Path(inspect.getfile(bito)).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name in allowed:
            continue
        inside = name.startswith("bito.games.durak.")
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            named: set[str] = set()
            if isinstance(node, ast.ImportFrom) and node.module in STOCK_MODULES:
                named = {f"{node.module}.{a.name}" for a in node.names}
                if not inside and named <= STOCK_READINGS:
                    continue
            elif isinstance(node, ast.Import):
                named = {a.name for a in node.names} & STOCK_MODULES
            if named:
                offenders.append(f"{name}:{node.lineno}")
    assert not offenders, offenders


#: The core of the Durak engine: the state machine, the deal, the views, the position text
#: and its reader, the renderer, the explainer, what beats what, the playouts, the moves, the
#: phases and the hook protocol. Only ``setup``, ``position`` and ``explain`` may import
#: ``installed`` (the list of hooks: to select a rule set's hooks, to read every hook's
#: position fields, to ask the hook that owns a kind of move).
CORE_MODULES = ("state", "view", "setup", "position", "position_text", "render", "explain",
                "relation", "playout", "actions", "phases", "reasons", "beats", "hooks", "facts")
MAY_LIST_THE_HOOKS = {"setup", "position", "explain"}


@pytest.mark.parametrize("name", CORE_MODULES)
def test_no_core_module_imports_a_variant_module(name: str) -> None:
    """Issue 17: what a variant shows, sets up or reads back goes through the hook points
    (``view``, ``query``'s ``Shown``, ``HandOrder``, ``OpenHands`` and ``PositionDefender``,
    ``deal_facts`` and its record's lot, ...), so no core module names a variant module, not even
    for a type."""
    import importlib

    module = importlib.import_module(f"bito.games.durak.{name}")
    imported = _imported_modules(module)
    variants = _hook_modules() | STOCK_MODULES
    assert not imported & variants, sorted(imported & variants)
    if name not in MAY_LIST_THE_HOOKS:
        assert "bito.games.durak.installed" not in imported


def test_the_stock_group_is_a_hook_the_base_games_do_not_select() -> None:
    """The stock rules switch on by the hook's ``applies``, not by a fact of the deal."""
    from bito.games.durak import stock
    from bito.games.durak.setup import Deal

    assert stock.HOOK in HOOKS
    assert "stock_rules" not in {f for f in Deal.__dataclass_fields__}
    for spec in ("simple", "podkidnoy", "perevodnoy", "podkidnoy+no_stock",
                 "podkidnoy+piled_up"):
        assert stock.HOOK not in select(HOOKS, resolve(spec).rules, 3).hooks, spec
    for spec in ("podkidnoy+exchange", "podkidnoy+draw_when_empty", "podkidnoy+gradual_access",
                 "podkidnoy+arithmetic_progression", "podkidnoy+buy_in",
                 "podkidnoy+recycle_discard", "podkidnoy+points_fool",
                 "podkidnoy+figure_count", "podkidnoy+epaulettes",
                 "podkidnoy+exchange.mode=choose"):
        assert stock.HOOK in select(HOOKS, resolve(spec).rules, 3).hooks, spec


def test_every_hook_module_exports_one_hook_that_is_installed() -> None:
    """Each variant module with behaviour of its own exports ``HOOK``, listed once."""
    import importlib

    assert len(set(map(id, HOOKS))) == len(HOOKS)
    for name in _hook_modules():
        module = importlib.import_module(name)
        assert isinstance(module.HOOK, Hook) and module.HOOK in HOOKS, name
        assert module.HOOK.name, name


@pytest.mark.parametrize("spec", ["simple", "podkidnoy", "perevodnoy"])
def test_the_base_games_run_over_empty_hook_lists(spec: str) -> None:
    """VARIANTS.md §1: the base games select no hook, so every point is an empty tuple."""
    for players in (2, 3, 6):
        hooks = new_game(spec, players=players, seed=1).deal.hooks
        assert hooks is EMPTY or not hooks.hooks
        assert all(getattr(hooks, point) == () for point in POINTS)
        assert not hooks.steps


@pytest.mark.parametrize("spec, name", [
    ("believe_not_believe", "#59"),
    ("podkidnoy+blind_face_out", "#58"),
    ("podkidnoy+exchange.mode=choose", "#31"),
    ("podkidnoy+tossing_dummy", "#56"),
    ("perevodnoy+playing_dummy", "#57"),
    ("podkidnoy+self_throw", "#39-51"),
    ("perevodnoy+show_trump_transfer", "#96"),
    ("pairs_only", "#4-6"),
    ("simple_partial_defense", "#3"),
    ("team_fool", "#53-55"),
    ("podkidnoy+buy_in", "#34-38"),
    ("podkidnoy+exchange", "#34-38"),
    ("podkidnoy+points_fool", "#34-38"),
    ("podkidnoy+gradual_access", "#34-38"),
    ("podkidnoy+joker_gift", "#24"),
    ("podkidnoy+joker_gift_block_combo", "#24"),
    ("akulina", "#73"),
    ("perevodnoy_refusal", "#9"),
    ("podkidnoy+own_trumps", "#16"),
    ("podkidnoy+secret_trump", "#18"),
    ("podkidnoy+no_stock", "#32"),
    ("perevodnoy+transfer.new_defender_beats=transfer_cards_only+transfer.neutralised=discard",
     "#11"),
])
def test_a_variant_selects_its_hook_and_only_the_points_it_overrides(spec: str, name: str
                                                                    ) -> None:
    """A rule set selects the hook of its variant; each point holds the hook's method only if
    the hook's class overrides it (a hook pays nothing at points it does not use)."""
    rules = resolve(spec).rules
    hooks = select(HOOKS, rules, 4)
    chosen = [h for h in hooks.hooks if h.name.startswith(name)]
    assert len(chosen) == 1, hooks.names
    hook = chosen[0]
    for point in POINTS:
        overridden = getattr(type(hook), point) is not getattr(Hook, point)
        bound = [f for f in getattr(hooks, point) if getattr(f, "__self__", None) is hook]
        assert bool(bound) == overridden, point
    for kind in hook.kinds:
        assert hooks.steps[kind] == hook.step


def test_a_hook_overriding_a_general_point_must_list_what_it_plays() -> None:
    """A hook asked at every moment would make every rule set pay for it on every move, so
    ``select`` refuses one that overrides ``goes_on`` (``on``, ``query``) but lists no
    moments (events, questions)."""

    class Quiet(Hook):
        name = "a test hook"

        def applies(self, rules: Rules, players: int) -> bool:
            return True

        def goes_on(self, state: Any, moment: Any) -> bool:
            return False

    with pytest.raises(TypeError, match="moments"):
        select((Quiet(),), Rules(), 2)

    class Listed(Quiet):
        moments = frozenset({Turn.REFILL})

    chosen = select((Listed(),), Rules(), 2)
    assert set(chosen.goes_on_at) == {Turn.REFILL}
    assert chosen.stepping == chosen.played == () and chosen.laid == ()


def test_every_installed_hook_lists_what_its_general_points_play() -> None:
    for hook in HOOKS:
        for point, listed in GENERAL.items():
            overrides = getattr(type(hook), point) is not getattr(Hook, point)
            assert overrides == bool(getattr(hook, listed)), (hook.name, point)


def test_a_settled_question_is_answered_by_the_first_hook_that_plays_it() -> None:
    """``HandOrder``, ``NextBout`` and ``LeadShape`` are settled, not amended: the first hook
    (in installation order) that lists the question answers it alone, and with no such hook
    the core's answer stands."""
    from bito.games.durak.hooks import HandOrder, LeadShape, NextBout, settle

    asked: list[str] = []

    class Orders(Hook):
        questions = frozenset({HandOrder, NextBout, LeadShape})

        def __init__(self, name: str, order: tuple[int, ...]) -> None:
            self.name, self.order = name, order

        def applies(self, rules: Rules, players: int) -> bool:
            return True

        def query(self, state: Any, question: Any, answer: Any) -> Any:
            asked.append(self.name)
            return self.order

    first, second = Orders("first", (3, 1, 2)), Orders("second", (2, 1, 3))
    hooks = select((first, second), Rules(), 2)
    assert settle(hooks, None, HandOrder(0), (1, 2, 3)) == (3, 1, 2)  # type: ignore[arg-type]
    assert asked == ["first"]
    assert hooks.next_bout == (first.query,) and hooks.lead_shape == (first.query,)
    assert settle(EMPTY, None, HandOrder(0), (1, 2, 3)) == (1, 2, 3)  # type: ignore[arg-type]


def test_the_documented_hook_points_are_the_protocol() -> None:
    """docs/architecture.md's table of points names exactly the points a ``Hook`` has (its
    public methods), so the protocol and its description cannot drift apart."""
    import re

    doc = (Path(__file__).parents[2] / "docs" / "architecture.md").read_text()
    section = doc[doc.index("The points, in the groups"):doc.index("The moments of `goes_on`")]
    documented = {m.group(1) for m in re.finditer(r"^\| [^|]+ \| `(\w+)", section, re.M)}
    protocol = {name for name, value in vars(Hook).items()
                if callable(value) and not name.startswith("_")}
    assert documented == protocol
    count = re.search(r"\((\d+) in all", section)
    assert count is not None and int(count.group(1)) == len(protocol)
