"""The examples people copy run: the README's "A taste of the API" block, and the ``>>>``
examples in the public functions' docstrings (issue 17, item 8).

An example that no longer runs is worse than none: it is the first code a newcomer types.
The README block is run as written (its ``print`` output captured) and must show a position;
every module of ``bito`` is searched for ``>>>`` examples, so an example added anywhere is
run here without being listed, and the key entry points must keep theirs.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import io
import pkgutil
import re
from pathlib import Path

import pytest

import bito

README = Path(__file__).resolve().parents[2] / "README.md"

#: The public functions a newcomer meets first; each must carry a runnable example.
KEY_EXAMPLES = ("bito.games.new_game", "bito.cards.parse_card",
                "bito.games.durak.actions.parse_action",
                "bito.games.durak.position.position_text")


def readme_api_block() -> str:
    """The first ```python block after the README's "A taste of the API" heading."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## A taste of the API", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found, "the README's API section has no ```python block"
    return found.group(1)


def test_readme_api_example_runs_and_prints_a_position() -> None:
    """README "A taste of the API": the block runs as written; it prints the position (the
    table and both seats of a two-player game) and the legal actions of the seat to act."""
    out = io.StringIO()
    namespace: dict[str, object] = {"__name__": "readme_example"}
    with contextlib.redirect_stdout(out):
        exec(compile(readme_api_block(), str(README), "exec"), namespace)
    printed = out.getvalue()
    assert "table:" in printed and "seat 0" in printed and "seat 1" in printed
    assert "trump" in printed and "parse_action(" in printed
    assert "view" in namespace  # the block ends by taking seat 0's view


def modules_with_examples() -> list[str]:
    """Every ``bito`` module whose source holds a ``>>>`` example (found without importing
    the ones that have none, so optional extras need not be installed)."""
    out = []
    root = Path(bito.__file__).parent
    for info in pkgutil.walk_packages([str(root)], prefix="bito."):
        rel = info.name.removeprefix("bito.").replace(".", "/")
        path = root / (f"{rel}/__init__.py" if info.ispkg else f"{rel}.py")
        if path.is_file() and ">>>" in path.read_text(encoding="utf-8"):
            out.append(info.name)
    return sorted(out)


def test_key_public_functions_have_examples() -> None:
    """The entry points named in issue 17 (new game, card and action text, position text and
    its round trip) each show how they are called."""
    for dotted in KEY_EXAMPLES:
        module, _, name = dotted.rpartition(".")
        doc = getattr(importlib.import_module(module), name).__doc__ or ""
        assert ">>>" in doc, f"{dotted} has no example"


@pytest.mark.parametrize("module", modules_with_examples())
def test_docstring_examples_run(module: str) -> None:
    """Each ``>>>`` example in the module gives the output its docstring shows."""
    result = doctest.testmod(importlib.import_module(module), report=True,
                             optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} failing example(s) in {module}"
