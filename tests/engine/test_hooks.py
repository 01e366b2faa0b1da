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


def test_the_hook_modules_docstring_lists_the_same_ten_points() -> None:
    """Issue 32 item 3 asks for a narrow protocol, about ten points: ``hooks.py``'s own table
    of points (its module docstring) names exactly the public methods of ``Hook``, ten of
    them, so the protocol cannot widen without both descriptions saying so."""
    import re

    import bito.games.durak.hooks as protocol_module

    doc = protocol_module.__doc__ or ""
    table = doc[doc.index("====="):]
    listed = {m.group(1) for m in re.finditer(r"^``(\w+)``", table, re.M)}
    protocol = {name for name, value in vars(Hook).items()
                if callable(value) and not name.startswith("_")}
    assert listed == protocol
    assert len(protocol) == 10


def _moves_hooks(order: list[str]) -> tuple[Hook, Hook]:
    """A hook that makes the lead's moves and one that amends every list, each noting in
    ``order`` what it was handed."""
    from bito.games.durak.actions import PASS_ACTION, TAKE_ACTION
    from bito.games.durak.phases import Phase

    class Maker(Hook):
        name = "maker"
        phases = frozenset({int(Phase.LEAD)})

        def applies(self, rules: Rules, players: int) -> bool:
            return True

        def moves(self, state: Any, acts: list[Any]) -> list[Any]:
            order.append(f"maker {len(acts)}")
            return [PASS_ACTION] if state.phase == Phase.LEAD else acts

    class Amender(Hook):
        name = "amender"

        def applies(self, rules: Rules, players: int) -> bool:
            return True

        def moves(self, state: Any, acts: list[Any]) -> list[Any]:
            order.append(f"amender {len(acts)}")
            return [*acts, TAKE_ACTION]

    return Maker(), Amender()


def test_a_hook_makes_the_moves_of_its_phases_and_every_hook_amends_them() -> None:
    """``moves(state, acts)`` is one point for both jobs: in a phase a hook lists in
    ``phases`` the core makes no moves, that hook is asked first with an empty list and its
    list replaces the core's, then the other hooks amend it; in any other phase the core's
    list goes through every hook in installation order."""
    import copy

    from bito.games.durak import new_game as deal_durak
    from bito.games.durak.actions import PASS_ACTION, TAKE_ACTION

    order: list[str] = []
    maker, amender = _moves_hooks(order)
    lead = deal_durak("podkidnoy", players=2, seed=3)
    core_leads = lead.legal_actions()
    defend = lead.apply(core_leads[0])
    core_defence = defend.legal_actions()
    hooks = select((amender, maker), lead.deal.rules, 2)  # the amender installed first
    assert hooks.moves == (amender.moves, maker.moves)
    deal = copy.copy(lead.deal)
    object.__setattr__(deal, "hooks", hooks)  # this deal's hook set, for the two states
    for state in (lead, defend):
        state.deal = deal
        state.forget_legal()

    assert lead.legal_list() == [PASS_ACTION, TAKE_ACTION]
    assert order == ["maker 0", "amender 1"]  # the core's leads were never handed on
    order.clear()
    assert defend.legal_list() == [*core_defence, TAKE_ACTION]
    assert order == [f"amender {len(core_defence)}", f"maker {len(core_defence) + 1}"]


def test_select_refuses_two_makers_of_one_phase_and_phases_without_moves() -> None:
    """One phase's list has one maker (which one would win is not a rule a reader could
    find), and a hook that lists phases must make their moves."""
    from bito.games.durak.phases import Phase

    maker, _ = _moves_hooks([])
    other, _ = _moves_hooks([])
    with pytest.raises(TypeError, match="already makes"):
        select((maker, other), Rules(), 2)

    class Idle(Hook):
        name = "idle"
        phases = frozenset({int(Phase.DEFEND)})

        def applies(self, rules: Rules, players: int) -> bool:
            return True

    with pytest.raises(TypeError, match="phases"):
        select((Idle(),), Rules(), 2)


#: An option value that makes each installed hook that makes a phase's moves apply.
MAKERS_ON: dict[str, dict[str, Any]] = {
    "#24": {"specials_joker_gifts": True},
    "#59": {"defense_face_down": True},
    "#58": {"deal_owner_sees_hand": False},
    "#4-6,": {"lead_strongest_only": True},
    "#31": {"exchange_mode": "choose"},
}


def test_no_rule_mix_has_two_hooks_making_one_phases_moves() -> None:
    """Every pair of installed hooks that list a phase in common (#58's hands held face out
    make every phase's moves) is a rule mix ``check_game`` refuses, naming an option, so
    ``select`` never meets two makers of one phase in a game."""
    from dataclasses import replace

    from bito.errors import RulesError
    from bito.games.durak.setup import check_game

    makers = [h for h in HOOKS if h.phases]
    assert {h.name.split()[0] for h in makers} == set(MAKERS_ON)
    clashing = [(a, b) for i, a in enumerate(makers) for b in makers[i + 1:]
                if a.phases & b.phases]
    assert clashing  # #58 meets every other maker
    for a, b in clashing:
        rules = replace(Rules(), **MAKERS_ON[a.name.split()[0]], **MAKERS_ON[b.name.split()[0]])
        assert a.applies(rules, 2) and b.applies(rules, 2)
        with pytest.raises(RulesError):
            check_game(rules, 2)


def test_a_refused_move_is_named_by_the_hook_that_owns_its_kind() -> None:
    """``Refusal`` is asked of the rule set's hooks and of the hook owning the action's kind
    even where the rules do not play it: #97's swap typed in a game without the swap is
    refused with #97's own reason, not the core's generic one."""
    from bito.errors import IllegalActionError
    from bito.games.durak import parse_action
    from bito.games.durak.trump_swap import SwapRefused

    state = new_game("podkidnoy", players=2, seed=1)
    with pytest.raises(IllegalActionError) as refused:
        state.apply(parse_action("%6h"))
    assert refused.value.reason is SwapRefused.TRUMP_SWAP


def test_the_codec_numbers_a_hooks_moves_through_its_position_point() -> None:
    """``CodecBlocks`` is a position request every installed hook answers: #96's show and
    #97's swap number their moves only under the rules that play them."""
    from bito.games.durak.hooks import CodecBlocks
    from bito.games.durak.show_trump import HOOK as SHOW
    from bito.games.durak.trump_swap import HOOK as SWAP

    plain, both = Rules(), resolve("perevodnoy+show_trump_transfer+trump_swap").rules
    cards = tuple(sorted(set(both.deck())))
    for hook, block in ((SHOW, "show trump"), (SWAP, "trump swap")):
        assert hook.position(CodecBlocks(plain, cards)) == []
        named = [name for name, _ in hook.position(CodecBlocks(both, cards))]
        assert named == [block]
