"""Option values are typed from one list: each text-valued option's field on ``Rules`` is a
``Literal`` that its OptionSpec reads its choices from, so mypy refuses a misspelt value in a
comparison; facts combining several options are properties of ``Rules``; nothing in
``src/bito`` reads an option with ``getattr(rules, "...", default)``.

Both sides of every check are read from the code (the specs, the annotations, the source
tree), never written out here.
"""

from __future__ import annotations

import ast
import dataclasses
import typing
from pathlib import Path

import pytest

from bito.kernel import layout as L
from bito.rules import OPTION_SPECS, Rules, rules_for
from bito.rules.options import LEAD_PATTERNS, REJECTABLE

SRC = Path(__file__).resolve().parents[2] / "src" / "bito"
HINTS = typing.get_type_hints(Rules)
TEXT_SPECS = [s for s in OPTION_SPECS.values()
              if s.choices and all(isinstance(c, str) for c in s.choices)]


@pytest.mark.parametrize("spec", TEXT_SPECS, ids=lambda s: s.key)
def test_text_option_field_is_the_literal_of_its_choices(spec: typing.Any) -> None:
    """The field's annotation is a Literal of exactly the spec's choices, in their order."""
    hint = HINTS[spec.attr]
    assert typing.get_origin(hint) is typing.Literal, f"{spec.attr}: {hint}"
    assert typing.get_args(hint) == spec.choices


def test_every_literal_field_has_a_spec_with_those_choices() -> None:
    """No Literal-typed field without a spec that lists the same values."""
    for name, hint in HINTS.items():
        if typing.get_origin(hint) is typing.Literal:
            spec = next(s for s in OPTION_SPECS.values() if s.attr == name)
            assert spec.choices == typing.get_args(hint), name


def test_list_options_are_tuples_of_their_literal() -> None:
    """``trump.reject_indicator`` and ``lead.patterns`` hold values of one Literal each, the
    same values ``Rules`` accepts (REJECTABLE, LEAD_PATTERNS)."""
    for attr, allowed in (("trump_reject_indicator", REJECTABLE),
                          ("lead_patterns", LEAD_PATTERNS)):
        outer = HINTS[attr]
        assert typing.get_origin(outer) is tuple
        item, dots = typing.get_args(outer)
        assert dots is Ellipsis
        assert typing.get_origin(item) is typing.Literal
        assert typing.get_args(item) == allowed


def test_kernel_numberings_name_only_option_values() -> None:
    """The kernel's own numberings of ``draw.order`` and ``trump.source`` name values of those
    options, each once; every draw order is numbered (the kernel plays them all, §1.7 B7)."""
    draw = OPTION_SPECS["draw.order"].choices
    source = OPTION_SPECS["trump.source"].choices
    assert draw is not None and source is not None
    assert sorted(L.DRAW_RULES) == sorted(draw)
    assert len(set(L.TRUMP_SOURCES)) == len(L.TRUMP_SOURCES)
    assert set(L.TRUMP_SOURCES) <= set(source)


# --- derived facts ---------------------------------------------------------------------------


@pytest.mark.parametrize(("shape", "most"), [("same_rank", 0), ("single", 1),
                                              ("same_rank_1or2", 2), ("rozaliev", 2),
                                              ("patterns", 0), ("same_suit", 0)])
def test_lead_most_follows_the_shape(shape: str, most: int) -> None:
    """§1.4 B2 / #73: one card; one or two of a rank; Rozaliev's lead is a pair (plus any
    card, counted apart); the other shapes are limited by lead.max alone (0)."""
    assert rules_for(f"podkidnoy+lead.shape={shape}").lead_most == most


@pytest.mark.parametrize(("first", "cap", "want"), [(0, 6, 0), (5, 6, 5), (8, 6, 6)])
def test_first_bout_cap_never_exceeds_the_cap(first: int, cap: int, want: int) -> None:
    """#75: the first bout's cap (0: none of its own) is never above throw_in.cap."""
    rules = Rules().with_options(**{"throw_in.first_bout_cap": first, "throw_in.cap": cap})
    assert rules.first_bout_cap == want


@pytest.mark.parametrize("option", ["defense.second_try=per_card", "lead.stock_top=once",
                                    "defense.exchange=2", "defense.self_throw=true",
                                    "throw_in.after_take_mode=cunning", "defense.counter=true"])
def test_each_extra_bout_move_turns_bout_extras_on(option: str) -> None:
    """#39-51: any one of the extra bout moves makes the rules play them; the base game none."""
    assert not Rules().bout_extras
    assert rules_for(f"podkidnoy+{option}").bout_extras


# --- no untyped option reads ---------------------------------------------------------------

_OPTION_ATTRS = {f.name for f in dataclasses.fields(Rules)}

#: getattr calls that name an option attribute but read something else, with why.
_NOT_RULES: set[tuple[str, str, str]] = set()


def _reads_in(source: str) -> list[tuple[int, str, str]]:
    """Every ``getattr(obj, "literal", ...)`` in ``source`` on something that looks like a
    rules object, or naming an attribute of ``Rules``: (line, object, attribute)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "getattr" and len(node.args) >= 2):
            continue
        obj, name = node.args[0], node.args[1]
        if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
            continue
        text = ast.unparse(obj)
        if text.endswith("rules") or name.value in _OPTION_ATTRS:
            out.append((node.lineno, text, name.value))
    return out


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan is not vacuous: it sees reads on rules objects and of option names, and
    leaves other getattr calls alone."""
    found = _reads_in('getattr(rules, "x", 0)\ngetattr(r, "lead_max")\n'
                      'getattr(view.rules, "y", None)\ngetattr(state, "moves", None)\n')
    assert found == [(1, "rules", "x"), (2, "r", "lead_max"), (3, "view.rules", "y")]


def test_no_getattr_reads_of_rules() -> None:
    """Options are read as typed attributes (or through a declared protocol), never by
    ``getattr(rules, "...", default)``, which hides a misspelt or renamed option."""
    bad = [f"{rel}:{line}: getattr({obj}, {name!r})"
           for path in sorted(SRC.rglob("*.py"))
           for rel in [path.relative_to(SRC).as_posix()]
           for line, obj, name in _reads_in(path.read_text(encoding="utf-8"))
           if (rel, obj, name) not in _NOT_RULES]
    assert not bad, "\n".join(bad)


def test_mypy_refuses_a_misspelt_option_value(tmp_path: Path) -> None:
    """The point of the Literals: comparing an option with a value it never takes (a typo)
    is a type error, and a value it does take is not."""
    mypy = pytest.importorskip("mypy.api")
    probe = tmp_path / "probe.py"
    probe.write_text("from bito.rules import Rules\n\n\n"
                     "def typo(rules: Rules) -> bool:\n"
                     "    return rules.draw_order == 'atacker_first'\n\n\n"
                     "def fine(rules: Rules) -> bool:\n"
                     "    return rules.draw_order == 'attacker_first'\n", encoding="utf-8")
    root = SRC.parents[1]
    out, _, status = mypy.run(["--strict", "--cache-dir", str(root / ".mypy_cache"),
                               "--config-file", str(root / "pyproject.toml"), str(probe)])
    assert status == 1, out
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "probe.py:5:" in errors[0], out
    assert "comparison-overlap" in errors[0]


def test_cli_asks_the_family_whether_it_seats_partners() -> None:
    """§3.6 #53-55: partnerships need an even number of seats, and the CLI says so before the
    engine refuses; a game of another family (no team options at all) is not asked for them."""
    from bito.cli import UsageError, _check_players
    from bito.games import family_rules_for

    teams = rules_for("double_fool")
    assert teams.team_layout != "none"
    odd = next(n for n in range(teams.players_min, teams.max_players + 1) if n % 2)
    with pytest.raises(UsageError, match="partners"):
        _check_players(teams, odd, "double_fool")
    _check_players(teams, odd + 1, "double_fool")
    shedding = family_rules_for("czech_fool")
    _check_players(shedding, shedding.players_min + 1, "czech_fool")
