"""The server's parts stay in their own rooms (issue 31, item 5).

One object once ran the whole server (``Lobby``: 955 lines, 60 methods) and one function
built every route (``create_app``: 317 lines). These checks read the source and fail if that
grows back: the Lobby is composed of parts, each a small class that is handed what it uses
(never the Lobby), in a module that imports only the data it shares with the others; the
routes live in one module per concern, and only the app adds them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "src" / "bito" / "server"

#: each part of the Lobby: its class, and the bito.server modules its module may import
PARTS: dict[str, tuple[str, set[str]]] = {
    "table": ("Room", {"games", "render", "storage"}),
    "holding": ("Holding", {"table"}),
    "presence": ("Presence", {"holding", "render", "table"}),
    "tablebots": ("TableBots", {"botpool", "games", "storage", "table"}),
    "clock": ("Clock", {"db", "games", "storage", "table", "tablebots"}),
    "broadcast": ("Broadcast", {"games", "render", "table"}),
    "play": ("Play", {"botpool", "db", "games", "storage", "table"}),
    "sync": ("Sync", {"botpool", "db", "games", "holding", "render", "storage", "table"}),
    "seats": ("Seats", {"db", "games", "holding", "refusals", "storage", "table",
                        "tablebots"}),
}
PART_LINES = 400  # the largest part (sync) is about 360
PART_METHODS = 20
#: a data-access class has one method a query; anything else this size is a god object
ANY_CLASS_METHODS = 30
MODULE_LINES = 700
#: modules exempt from MODULE_LINES, and why
LONG_MODULES = {"webtext.py": "the catalogue of the web texts, one entry a key"}
FUNCTION_LINES = 180  # the largest route group (the accounts') is about 175


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _server_imports(tree: ast.Module) -> set[str]:
    """The bito.server modules a module imports (``from bito.server import x`` counts x)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "bito.server":
                found |= {a.name for a in node.names}
            elif node.module.startswith("bito.server."):
                found.add(node.module.removeprefix("bito.server."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("bito.server.") for a in node.names
                      if a.name.startswith("bito.server.")}
    return found


def _methods(cls: ast.ClassDef) -> int:
    return sum(isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef)) for x in cls.body)


def _classes(tree: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}


@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_part_of_the_lobby_is_small_and_imports_only_what_it_shares(part: str) -> None:
    path = SERVER / f"{part}.py"
    tree = _tree(path)
    name, allowed = PARTS[part]
    cls = _classes(tree)[name]
    assert path.read_text(encoding="utf-8").count("\n") <= PART_LINES, part
    assert _methods(cls) <= PART_METHODS, (part, _methods(cls))
    imported = _server_imports(tree)
    assert imported <= allowed, f"{part} imports {sorted(imported - allowed)}"
    # never the composer, the app or a web framework: a part works without them
    text = path.read_text(encoding="utf-8")
    assert "fastapi" not in text and "Lobby" not in [a.id for a in ast.walk(tree)
                                                     if isinstance(a, ast.Name)]


def test_a_part_is_handed_what_it_uses_not_the_lobby() -> None:
    """Narrow interfaces: no part's constructor takes the Lobby (which would share all its
    state, like a mixin)."""
    for part, (name, _) in PARTS.items():
        init = next((f for f in _classes(_tree(SERVER / f"{part}.py"))[name].body
                     if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
        if init is None:  # a dataclass
            continue
        for arg in init.args.args + init.args.kwonlyargs:
            shown = ast.unparse(arg.annotation) if arg.annotation else ""
            assert "Lobby" not in shown, (part, arg.arg)


def test_the_lobby_composes_every_part_and_stays_small() -> None:
    tree = _tree(SERVER / "rooms.py")
    lobby = _classes(tree)["Lobby"]
    assert _methods(lobby) <= PART_METHODS
    assert {p for p in PARTS} - {"table"} <= _server_imports(tree)
    assert (SERVER / "rooms.py").read_text(encoding="utf-8").count("\n") <= PART_LINES


def test_no_class_module_or_function_of_the_server_grows_back() -> None:
    paths = sorted(SERVER.rglob("*.py"))
    assert len(paths) > 30  # the walk found the server's modules
    for path in paths:
        tree = _tree(path)
        lines = path.read_text(encoding="utf-8").count("\n")
        if path.name not in LONG_MODULES:
            assert lines <= MODULE_LINES, (path.name, lines)
        for cls in _classes(tree).values():
            assert _methods(cls) <= ANY_CLASS_METHODS, (path.name, cls.name)
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and path.parent == SERVER:
                assert fn.end_lineno is not None
                assert fn.end_lineno - fn.lineno < FUNCTION_LINES, (path.name, fn.name)


def test_the_routes_are_grouped_by_concern_and_added_by_the_app_alone() -> None:
    routes = SERVER / "routes"
    groups = sorted(p.stem for p in routes.glob("*.py") if p.stem not in ("__init__", "inputs"))
    assert {"pages", "tables", "records", "websocket", "accounts"} <= set(groups)
    for stem in groups:
        tree = _tree(routes / f"{stem}.py")
        adds = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "add"]
        assert len(adds) == 1, stem
        assert adds[0].end_lineno is not None
        assert adds[0].end_lineno - adds[0].lineno < FUNCTION_LINES, stem
        # a route group never reaches into another
        others = {f"routes.{g}" for g in groups if g != stem}
        assert not _server_imports(tree) & others, stem
    app = _tree(SERVER / "app.py")
    create = next(f for f in app.body if isinstance(f, ast.FunctionDef)
                  and f.name == "create_app")
    assert create.end_lineno is not None and create.end_lineno - create.lineno < 120
    # no route is declared in the app itself
    decorated = [d for f in ast.walk(create) if isinstance(f, ast.AsyncFunctionDef)
                 for d in f.decorator_list]
    routes_here = [ast.unparse(d) for d in decorated if "app.get" in ast.unparse(d)
                   or "app.post" in ast.unparse(d) or "app.websocket" in ast.unparse(d)]
    assert routes_here == []
    users = [p.name for p in SERVER.rglob("*.py") if p.parent == SERVER
             and any(m.startswith("routes") for m in _server_imports(_tree(p)))]
    assert users == ["app.py"]
