"""House-rule TOML files (a user's own table rules) are parsed, checked and reported by key."""

from __future__ import annotations

import pytest

from bito.errors import RulesError
from bito.games.durak import new_game
from bito.rules import resolve
from bito.rules.house import parse_house_rules


def test_options_from_a_file_change_the_rules_of_the_base() -> None:
    resolved = parse_house_rules(
        'base = "perevodnoy"\n[options]\n"throw_in.by" = "neighbours"\n'
        'draw.order = "defender_first"\n')
    base = resolve("perevodnoy").rules
    assert resolved.rules.throw_in_by == "neighbours" != base.throw_in_by
    assert resolved.rules.draw_order == "defender_first" != base.draw_order
    assert resolved.rules.transfer_enabled is True
    state = new_game(resolved.rules, players=4, seed=3)
    assert state.legal_actions()


def test_an_unknown_option_is_rejected_with_its_key_and_line() -> None:
    with pytest.raises(RulesError) as err:
        parse_house_rules('base = "podkidnoy"\n[options]\n"throw_in.bogus" = 3\n')
    assert err.value.key == "throw_in.bogus"
    assert "line 3" in str(err.value)


def test_a_bad_value_names_the_key() -> None:
    with pytest.raises(RulesError) as err:
        parse_house_rules('[options]\n"draw.order" = "whoever"\n')
    assert err.value.key == "draw.order"
    assert "line 2" in str(err.value)


def test_an_option_contradicting_a_modifier_of_the_base_is_a_conflict() -> None:
    with pytest.raises(RulesError) as err:
        parse_house_rules('base = "podkidnoy+defender_draws_first"\n[options]\n'
                          '"draw.order" = "attacker_first"\n')
    assert err.value.key == "draw.order"
    assert "defender_draws_first" in str(err.value)


def test_malformed_toml_is_rejected() -> None:
    with pytest.raises(RulesError, match="not valid TOML"):
        parse_house_rules("base = \n")


def test_sim_accepts_a_house_rules_file(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from bito.cli import main

    path = tmp_path / "table.toml"
    path.write_text('base = "perevodnoy"\n[options]\n"throw_in.by" = "neighbours"\n')
    code = main(["sim", "--rules", str(path), "--players", "4", "--games", "6",
                 "--bots", "random", "--json", "--no-progress"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["errors"] == 0
    assert "throw_in.by=neighbours" in out["variant"]


def test_play_rejects_a_bad_house_rules_file_naming_the_key(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from bito.cli import main

    path = tmp_path / "bad.toml"
    path.write_text('[options]\n"draw.order" = "whoever"\n')
    code = main(["play", "--rules", str(path)])
    assert code == 2
    assert "draw.order" in capsys.readouterr().err


@pytest.mark.parametrize("limit", [1000, 100_000])
def test_deep_nesting_is_refused_whatever_the_recursion_limit(limit: int) -> None:
    """A file nested thousands deep is refused as bad TOML before parsing, the same under the
    interpreter's default recursion limit and under one a library raised (the parser would
    otherwise read it, or not, depending on that limit); a file nested as deep as a real one
    (an inline table in an array) still reads."""
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        with pytest.raises(RulesError, match="nested more than"):
            parse_house_rules("base = " + "[" * 5000 + "]" * 5000 + "\n")
        with pytest.raises(RulesError, match="nested more than"):
            parse_house_rules("x = " + "{a = " * 40 + "1" + "}" * 40 + "\n")
    finally:
        sys.setrecursionlimit(old)
    text = 'base = "podkidnoy"  # [[[[ [ in a comment\nname = "a [[[[[[[[[[[[[[[[[[ name"\n'
    assert parse_house_rules(text).rules == resolve("podkidnoy").rules
