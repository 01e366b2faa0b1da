"""No code of the games decides on a refusal's words (issue 32 item 3).

A rule that needs to know why the core refuses a move asks a typed reason
(``reasons.TransferRefusal.bar``, an error's ``reason`` member), never the message text,
which is written for people and may be reworded or translated, nor the rule's name, which is
kept for records. The walk below finds
text tests (``startswith``, ``endswith``, ``find``, ``in``) on the text of a refusal: an
exception's ``reason``/``message``/``args``, ``str()`` of a caught exception, or what
``transfer_block()`` returns.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bito.games

GAMES = Path(bito.games.__file__).parent
TEXT_ATTRS = {"reason", "message", "args", "msg"}
TEXT_TESTS = {"startswith", "endswith", "find", "index", "count"}


def _is_refusal_text(node: ast.AST, caught: set[str]) -> bool:
    if isinstance(node, ast.Attribute) and node.attr in TEXT_ATTRS:
        return True
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "str" and node.args and isinstance(node.args[0], ast.Name)
            and node.args[0].id in caught):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "transfer_block")


def text_tests(source: str) -> list[str]:
    """The places in ``source`` that test a refusal's text."""
    tree = ast.parse(source)
    caught = {h.name for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.name}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in TEXT_TESTS
                and _is_refusal_text(node.func.value, caught)) or (isinstance(node, ast.Compare)
              and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
              and any(_is_refusal_text(c, caught) for c in node.comparators)):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_finder_finds_the_old_forms() -> None:
    """The forms a rule once used to read the core's refusals (#96 read
    ``transfer_block()``'s message), and the typed forms it finds nothing in."""
    old = ('block = state.transfer_block()\n'
           'if state.transfer_block().startswith(("transfer limit", "transfer window")): pass\n'
           'try:\n    f()\nexcept IllegalActionError as e:\n'
           '    if "cap" in str(e): pass\n'
           '    if e.reason.endswith("limit"): pass\n'
           '    if "window" in e.message: pass\n')
    assert len(text_tests(old)) == 4
    typed = ('refusal = state.transfer_block()\n'
             'if refusal is not None and refusal.bar is TransferBar.CARD_LIMIT: pass\n'
             'if "limit" in names: pass\n')
    assert text_tests(typed) == []


def test_no_game_module_reads_a_refusals_text() -> None:
    found = {}
    for path in sorted(GAMES.rglob("*.py")):
        tests = text_tests(path.read_text(encoding="utf-8"))
        if tests:
            found[path.relative_to(GAMES).as_posix()] = tests
    assert found == {}


#: The modules that say a refusal in a player's words: they too decide on the typed reason.
READERS = (GAMES.parent / "server" / "refusals.py", GAMES.parent / "tui.py",
           GAMES.parent / "tui_words.py")


def name_tests(source: str, variables: bool = True) -> list[str]:
    """The places in ``source`` that decide on a refusal's rule name or detail: ``x.rule ==
    "..."`` (or ``!=``), and a word looked for ``in`` an ``x.detail``; with ``variables``, the
    same on variables called ``rule`` and ``detail`` (a refusal's fields unpacked)."""

    def _called(node: ast.AST, name: str) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == name) or (
            variables and isinstance(node, ast.Name) and node.id == name)

    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        named = any(_called(n, "rule") for n in sides)
        literal = any(isinstance(n, ast.Constant) and isinstance(n.value, str) for n in sides)
        by_name = named and literal and any(isinstance(op, (ast.Eq, ast.NotEq))
                                            for op in node.ops)
        by_detail = (isinstance(node.left, ast.Constant) and isinstance(node.left.value, str)
                     and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
                     and any(_called(c, "detail") for c in node.comparators))
        if by_name or by_detail:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_name_finder_finds_decisions_on_names() -> None:
    old = ('if error.rule == "beat relation": pass\n'
           'if "covered" in error.detail: pass\n'
           'if err.rule != "ambiguous": pass\n'
           'rule, detail = error.rule, error.detail\n'
           'if rule == "defend" and "covered" in detail: pass\n')
    assert len(name_tests(old)) == 5
    typed = ('if error.reason is Refused.BEAT: pass\n'
             'if error.reason in (Refused.TARGET_GONE, Refused.TARGET_COVERED): pass\n')
    assert name_tests(typed) == []


def test_no_game_or_reader_decides_on_a_rules_name() -> None:
    """Issue 32 item 3: the games and the modules that say refusals in words decide on the
    reason's member; the rule's name and the detail are for records and people."""
    found = {}
    for path in (*sorted(GAMES.rglob("*.py")), *READERS):
        # a game's own variables called ``rule`` name rule options, not refusals
        tests = name_tests(path.read_text(encoding="utf-8"), variables=path in READERS)
        if tests:
            found[path.name] = tests
    assert found == {}
