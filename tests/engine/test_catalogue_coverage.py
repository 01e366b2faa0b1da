"""Every catalogue id has a rule scenario that cites it (issue 17, "tests named by rule").

A scenario is a test function under ``tests/rules/`` whose docstring cites the id as ``#N``
(N its catalogue number, not followed by another digit, so ``#5`` is not read out of ``#52``).
The docstrings are read with ``ast``, never by importing the modules, so a file that fails to
import still counts for what it says; a test that cites nothing counts for nothing. An id with
no scenario fails here by name: there is no allow-list, because an id that nothing plays
through its rule is an id nobody checked.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from bito.rules.registry import all_variants

RULES = Path(__file__).resolve().parents[1] / "rules"
CITE = re.compile(r"#(\d+)(?!\d)")


def cited_numbers(doc: str) -> set[int]:
    """The catalogue numbers a docstring cites."""
    return {int(m.group(1)) for m in CITE.finditer(doc)}


def scenario_docstrings(folder: Path) -> Iterator[tuple[str, str]]:
    """(``file::test``, docstring) of every test function in the folder's test modules."""
    for path in sorted(folder.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    node.name.startswith("test")):
                yield f"{path.name}::{node.name}", ast.get_docstring(node) or ""


def citations() -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for name, doc in scenario_docstrings(RULES):
        for number in cited_numbers(doc):
            out.setdefault(number, []).append(name)
    return out


def test_citation_reads_whole_numbers() -> None:
    """``#5`` inside ``#52`` is not a citation of #5; ``#5,`` and ``(#5)`` are."""
    assert cited_numbers("#52 no_skip_after_take") == {52}
    assert cited_numbers("#5, S1:60 (and #24)") == {5, 24}
    assert cited_numbers("issue 4, no id") == set()


def test_the_catalogue_is_all_there() -> None:
    """VARIANTS.md §2 lists 95 entries; the registry holds each number once."""
    numbers = [v.number for v in all_variants()]
    assert len(numbers) == len(set(numbers)) >= 95
    assert set(range(1, 96)) <= set(numbers)


def test_every_catalogue_id_has_a_scenario_that_cites_it() -> None:
    """Issue 17 item 8: each of the catalogue ids is cited by at least one rule scenario."""
    cited = citations()
    missing = [f"#{v.number} {v.id}" for v in all_variants() if v.number not in cited]
    assert not missing, f"no scenario under tests/rules cites: {', '.join(missing)}"


def test_scenarios_cite_only_catalogue_ids() -> None:
    """A ``#N`` in a scenario's docstring names a catalogue entry: a typo (``#965``) or a
    number no entry has would make the coverage above count the wrong thing."""
    known = {v.number for v in all_variants()}
    stray = {n: names for n, names in citations().items() if n not in known}
    assert not stray, f"scenarios cite numbers no catalogue entry has: {stray}"
