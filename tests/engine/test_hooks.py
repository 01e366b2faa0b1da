"""The hook boundary (docs/architecture.md, "Where variants plug in"): the core runs over the
hooks a rule set selects and never imports a variant module that has one.

Issue 17's shape, checked from the code itself: the import statements of the core, the hook
sets the deals select, and the points each hook overrides.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import bito.games.durak.state as core
from bito.games import new_game
from bito.games.durak.hooks import EMPTY, POINTS, Hook, select
from bito.games.durak.installed import HOOKS
from bito.rules import resolve


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
