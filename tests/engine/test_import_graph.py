"""The layer rule (GUIDE.md §1): each layer imports only from the layers under it.

The engines (``bito.games``) sit under the bots, the arena, the RL adapters and every
interface; an engine that imports one of them closes a circle (the search bots import each
family's world sampler, so a sampler importing the bots' dealing helpers was one). Imports
inside functions count too: a late import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import bito

SRC = Path(bito.__file__).parent

#: Packages and modules above the games layer, which no engine may import.
ABOVE_GAMES = ("bito.bots", "bito.arena", "bito.env", "bito.server", "bito.cli", "bito.tui",
               "bito.tui_families", "bito.sim", "bito.sweep", "bito.tournament")


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, at the top or inside a function (absolute names)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package)


def import_statements(tree: ast.AST, package: str) -> Iterator[tuple[str, list[str]]]:
    """Each import in ``tree`` as (the module named, the names taken from it: none for a
    plain ``import``); ``package`` anchors relative imports."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield base, [a.name for a in node.names]


def imports_of(text: str, package: str) -> set[str]:
    """The modules a source text imports; ``package`` anchors its relative imports."""
    out: set[str] = set()
    for base, names in import_statements(ast.parse(text), package):
        out.add(base)
        out.update(f"{base}.{name}" for name in names)
    return out


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_no_engine_imports_a_layer_above_it() -> None:
    """GUIDE.md §1 layers: no module under bito.games imports bito.bots, the arena, the RL
    adapters, the server, the CLI or the terminal."""
    found = []
    for path in sorted((SRC / "games").rglob("*.py")):
        for name in sorted(imports(path)):
            if any(_under(name, up) for up in ABOVE_GAMES):
                found.append(f"{_module(path)} imports {name}")
    assert found == []


def test_world_samplers_deal_with_the_games_layer_helpers() -> None:
    """The dealing routine the samplers share lives in the games layer; the bots' module
    re-exports it, so both names are one function."""
    from bito.bots import worlds as bot_worlds
    from bito.games import worlds

    assert bot_worlds.deal_slots is worlds.deal_slots
    assert bot_worlds.Unsatisfiable is worlds.Unsatisfiable
    assert worlds.mask([0, 3]) == 0b1001


def test_the_scan_sees_late_and_relative_imports() -> None:
    """The checker itself: an import inside a function and a relative import are found."""
    late = "def f():\n    from bito.bots.worlds import deal_slots\n"
    assert "bito.bots.worlds" in imports_of(late, "bito.games.shedding")
    relative = "from ...bots import worlds\n"
    assert "bito.bots.worlds" in imports_of(relative, "bito.games.shedding")
    assert "bito.games.worlds" in imports(SRC / "games" / "shedding" / "worlds.py")


# --- cycles --------------------------------------------------------------------------------

def _runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules of src/bito that ``path`` imports when it runs. ``from pkg import mod``
    depends on ``mod`` (a package's ``__init__`` importing its own modules is no circle);
    ``from mod import name`` on ``mod``. Imports under ``if TYPE_CHECKING:`` are for the type
    checker only and are left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = [ast.Pass()]
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for base, taken in import_statements(tree, package):
        names.update(f"{base}.{n}" if f"{base}.{n}" in modules else base
                     for n in taken or [""])
    out = set()
    for name in names:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name and name != module:
            out.add(name)
    return out


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected parts of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    top = stack.pop()
                    on.discard(top)
                    part.add(top)
                    if top == node:
                        break
                if len(part) > 1:
                    found.append(part)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    """Two modules importing each other, late or not, are one circle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [{"a", "b", "c"}]


def test_no_import_cycle() -> None:
    """GUIDE.md §1a: modules import in one direction. Imports inside functions count (a late
    import is still a dependency); type-only imports do not. (The Durak state printed itself
    through the position module that builds states: the writer now lives apart.)"""
    paths = {_module(p): p for p in SRC.rglob("*.py")}
    graph = {m: _runtime_imports(p, set(paths)) for m, p in paths.items()}
    assert sum(len(v) for v in graph.values()) > 300  # the graph was really read
    assert not _cycles(graph), [sorted(c) for c in _cycles(graph)]
