"""The Durak engine's boundary: code outside ``bito.games.durak`` uses only its public API.

Issue 17's first rule of shape (GUIDE.md §1a): bots, the kernel's verifier, the RL codec and
the other families talk to the core through documented public names, so the core can change
its insides without breaking them. The private names are derived from the package itself (with
``ast``), so a new private member is covered the day it is written.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "bito"
DURAK = SRC / "games" / "durak"
PACKAGE = "bito.games.durak"


#: Uses outside the games of a private name that Durak's state happens to share, on an object
#: that is not a Durak state: (module, receiver as written, attribute).
OWN_ELSEWHERE: frozenset[tuple[str, str, str]] = frozenset()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> list[tuple[str, Path, ast.Module]]:
    return [(_module_name(p), p, ast.parse(p.read_text(encoding="utf-8"), str(p)))
            for p in sorted(SRC.rglob("*.py"))]


def _member_names(tree: ast.Module) -> set[str]:
    """The private attributes and methods the classes of ``tree`` define: methods, class-level
    names, ``__slots__`` entries and ``self._x = ...`` assignments."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    names.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    for target in item.targets:
                        if isinstance(target, ast.Name):
                            names.add(target.id)
                            if target.id == "__slots__" and isinstance(item.value, ast.Tuple):
                                names.update(e.value for e in item.value.elts
                                             if isinstance(e, ast.Constant)
                                             and isinstance(e.value, str))
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id == "self"):
            names.add(node.attr)
    return {n for n in names if _private(n)}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _inside(module: str) -> bool:
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def _durak_private_members(modules: list[tuple[str, Path, ast.Module]]) -> set[str]:
    out: set[str] = set()
    for name, _, tree in modules:
        if _inside(name):
            out |= _member_names(tree)
    return out


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def violations() -> list[str]:
    """Every use of a Durak-private name outside the package, as ``module:line: what``."""
    modules = _modules()
    durak_private = _durak_private_members(modules)
    # Another family's own private members are its business: ``s._step`` in the Mau-Mau
    # engine is the Mau-Mau state's, not Durak's. Names a family package defines in its own
    # classes are exempt there; elsewhere (bots, env, kernel) only what OWN_ELSEWHERE names.
    own: dict[str, set[str]] = {}
    for name, path, tree in modules:
        if name.startswith("bito.games."):
            own.setdefault(_package_of(name, path), set()).update(_member_names(tree))
    found: list[str] = []
    for name, path, tree in modules:
        if _inside(name):
            continue
        mine = own.get(_package_of(name, path), set())
        durak_aliases: set[str] = set()  # local names bound to a Durak module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _resolve(name, path.name == "__init__.py", node)
                if not _inside(source):
                    continue
                for alias in node.names:
                    if _private(alias.name):
                        found.append(f"{name}:{node.lineno}: imports {source}.{alias.name}")
                    elif source == PACKAGE or f"{source}.{alias.name}".startswith(PACKAGE + "."):
                        durak_aliases.add(alias.asname or alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if _inside(alias.name):
                        durak_aliases.add(alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                receiver = node.value
                if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
                    continue
                if (isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                        and receiver.func.id == "super"):
                    continue
                if isinstance(receiver, ast.Name) and receiver.id in durak_aliases \
                        and receiver.id != "bito":
                    found.append(f"{name}:{node.lineno}: uses {receiver.id}.{node.attr}")
                elif (node.attr in durak_private and node.attr not in mine
                      and (name, ast.unparse(receiver), node.attr) not in OWN_ELSEWHERE):
                    found.append(f"{name}:{node.lineno}: uses ._{node.attr.lstrip('_')}")
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                  and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str)
                  and node.args[1].value in durak_private and node.args[1].value not in mine):
                found.append(f"{name}:{node.lineno}: {node.func.id}(..., "
                             f"{node.args[1].value!r})")
    return found


def test_private_members_are_found() -> None:
    """The scan must see the state's private members, or it would pass vacuously."""
    names = _durak_private_members(_modules())
    assert len(names) >= 10, sorted(names)


def test_no_private_durak_name_outside_the_package() -> None:
    """GUIDE.md §1a, issue 17 item 1: no module outside ``bito.games.durak`` imports an
    underscore name of it or touches a private member of its state."""
    found = violations()
    assert not found, "private Durak names used outside bito.games.durak:\n" + "\n".join(found)
