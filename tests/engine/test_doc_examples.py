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
import shlex
import sys
import textwrap
from collections.abc import Iterator
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


# --- every command and example in README.md and docs/*.md --------------------------------------

DOCS = (README, *sorted((README.parent / "docs").glob("*.md")))

#: Sizes a documented command is run with here: the docs show the real runs (2,000 pairs, a
#: benchmark of 200,000 games); the test only needs each to run as written, so its counts
#: are made small (never larger than written). A flag absent from the command is not added,
#: except where the command's own default is long (see ``_small``).
SMALL = {"--games": 2, "--pairs": 1, "--seconds": 0.2, "--verify": 1, "--repeat": 1,
         "--entrants": 4, "--playouts": 20, "--deals": 1}

#: Words that stand for a value the reader chooses (``--seed K``, ``--variant V``): such a
#: line is a template of a command, not a command.
PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z0-9_]*|.*\.\.\..*|\[.*|.*\])$")


def fenced_blocks(path: Path) -> Iterator[tuple[str, int, str]]:
    """(language, first line number, text) of each fenced block of a Markdown file, read
    line by line so that an opening fence is never mistaken for a closing one; a block
    inside a list item is dedented."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^( *)```(\w*)\s*$", lines[i])
        if not opening:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not re.match(r"^ *```\s*$", lines[j]):
            j += 1
        yield opening.group(2), i + 2, textwrap.dedent("\n".join(lines[i + 1:j]) + "\n")
        i = j + 1


def doc_commands() -> list[tuple[str, str]]:
    """(where, command) for every ``bito ...`` line of a shell block (fenced with no language,
    ``sh``, ``console``, ``shell`` or ``bash``) in README.md and docs/*.md, continuation lines
    joined; an output line (``bito replay: error: ...``) and a template with placeholders
    (``--seed K``) are not commands."""
    out = []
    for path in DOCS:
        for language, line_no, text in fenced_blocks(path):
            if language not in ("", "sh", "console", "shell", "bash"):
                continue
            for i, line in enumerate(re.sub(r"\\\n\s*", " ", text).splitlines()):
                line = line.strip().removeprefix("$ ")
                if not line.startswith("bito ") or re.match(r"bito [\w-]+: ", line):
                    continue  # not a command, or a command's output (``bito review: error:``)
                words = shlex.split(line, comments=True)
                if words[1].endswith(":") or any(PLACEHOLDER.match(w) for w in words[2:]):
                    continue
                out.append((f"{path.name}:{line_no + i}", shlex.join(words)))
    return out


def _small(words: list[str]) -> list[str]:
    """The command with its sizes made small (``SMALL``) and the search bots on a playout
    budget with no clock (``--think-ms`` dropped), so it runs in seconds whatever the load."""
    out: list[str] = []
    it = iter(words)
    for w in it:
        if w == "--think-ms":
            next(it)
            continue
        out.append(w)
        if w in SMALL:
            value = next(it)
            out.append(str(min(type(SMALL[w])(value), SMALL[w])))
    command = out[1]
    if command in ("bench", "sweep") and not {"--games", "--verify", "--vector"} & set(out):
        out += ["--games", "2"]
    if command == "arena":
        out += [] if "--pairs" in out else ["--pairs", "1"]
        out += [] if "--playouts" in out else ["--playouts", "20"]
        out.append("--no-progress")
    if command == "sim":
        out.append("--no-progress")
    return out


@pytest.fixture(scope="module")
def doc_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the documented commands run: the files they write (game.jsonl, ladder.svg) stay
    there, and the record the replay examples read is saved first, by ``bito play``."""
    from bito.cli import main

    folder = tmp_path_factory.mktemp("docs")
    with contextlib.chdir(folder), _no_stdin(), contextlib.redirect_stdout(io.StringIO()):
        assert main(["play", "--seed", "7", "--save", "game.jsonl"]) == 0
    return folder


@contextlib.contextmanager
def _no_stdin() -> Iterator[None]:
    """Standard input at its end, as for a command run with nothing to read."""
    saved = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        yield
    finally:
        sys.stdin = saved


COMMANDS = doc_commands()


def test_the_docs_show_commands_of_every_kind() -> None:
    """The extraction finds the documented commands (an empty list would pass below)."""
    found = {shlex.split(c)[1] for _, c in COMMANDS}
    assert {"play", "variants", "sim", "tournament", "arena", "replay", "bench", "sweep",
            "serve"} <= found


@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_docs_commands_run(where: str, command: str, doc_folder: Path,
                           monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    """Each documented ``bito`` command exits 0 as written (with small sizes), with nothing
    to read on standard input: ``bito play`` and ``bito replay`` end cleanly there. ``bito
    serve`` is checked up to the server's start (its flags accepted), not started."""
    import bito.server.serve
    from bito.cli import main

    monkeypatch.setattr(bito.server.serve, "run_serve", lambda args: 0)
    monkeypatch.setenv("BITO_LANG", "en")
    words = _small(shlex.split(command))
    with contextlib.chdir(doc_folder), _no_stdin():
        code = main(words[1:])
    out, err = capsys.readouterr()
    assert code == 0, (where, words, err[-2000:])
    assert "Traceback" not in out + err


def doc_python_blocks() -> list[tuple[str, str]]:
    """(where, code) for every ```python block in README.md and docs/*.md."""
    return [(f"{path.name}:{line_no}", text) for path in DOCS
            for language, line_no, text in fenced_blocks(path) if language == "python"]


PYTHON_BLOCKS = doc_python_blocks()


@pytest.mark.parametrize(("where", "code"), PYTHON_BLOCKS, ids=[w for w, _ in PYTHON_BLOCKS])
def test_docs_python_examples_run(where: str, code: str) -> None:
    """Each ```python example runs as written, on its own (it imports what it uses)."""
    namespace: dict[str, object] = {"__name__": "doc_example"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, where, "exec"), namespace)
