"""``bito variants`` tells the truth about how each entry is played (issue 22, item 4).

A house rule named alone plays on the game the catalogue ties it to; the list marks house
rules and explains stacking; ``--json`` says which entries play alone and what is dealt for
the others; the tournament entry is an event run by ``bito tournament``.
"""

from __future__ import annotations

import json

import pytest

from bito.cli import main
from bito.games import is_event
from bito.rules import all_variants, resolve
from bito.rules.options import pending_options

HOUSE_RULES = [v for v in all_variants() if v.kind == "modifier"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda v: v.id)
def test_a_house_rule_named_alone_plays_on_its_base(
        rule: object, capsys: pytest.CaptureFixture[str]) -> None:
    """``bito sim --variant RULE`` runs (on the rule's default base, said on stderr) and deals
    the same rules as the rule stacked on that base by hand."""
    base = rule.default_base  # type: ignore[attr-defined]
    ident = rule.id  # type: ignore[attr-defined]
    assert base in rule.applies_to or not rule.applies_to  # type: ignore[attr-defined]
    if rule.parameter and rule.parameter_default is None:  # type: ignore[attr-defined]
        code, _, err = run(capsys, "sim", "--variant", ident, "--games", "1")
        assert code == 2 and "needs a value" in err and ident in err
        return
    players = resolve(f"{base}+{ident}").rules.players_min
    code, out, err = run(capsys, "sim", "--variant", ident, "--games", "1", "--bots", "random",
                         "--players", str(players), "--no-progress", "--json")
    assert code == 0, err
    assert f"{ident} is a house rule; playing it on {base}: {base}+{ident}" in err
    assert json.loads(out)["variant"] == f"{base}+{ident}"


def test_the_catalogues_default_base_is_podkidnoy_unless_the_rule_only_fits_another() -> None:
    by_id = {v.id: v for v in HOUSE_RULES}
    assert by_id["no_trump"].default_base == "podkidnoy"  # VARIANTS.md §3.2 default_base
    assert by_id["no_transfer_first_bout"].default_base == "perevodnoy"  # applies to it only
    with pytest.raises(Exception, match=r"stack it on a game: podkidnoy\+no_trump"):
        resolve("no_trump")


def test_json_says_what_plays_alone_and_what_is_dealt(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    assert code == 0
    entries = json.loads(out)
    assert len(entries) == len(all_variants())
    for e in entries:
        if e["event"]:
            assert not e["playable"] and not e["plays_alone"] and e["plays_as"] is None
            assert e["how_to_play"].startswith("bito tournament")
        elif e["house_rule"]:
            assert not e["plays_alone"]  # it is dealt stacked, never as named
            if e["playable"]:
                assert e["plays_as"].startswith(f"{e['default_base']}+{e['id']}")
                assert not pending_options(resolve(e["plays_as"]).rules)
        else:
            assert e["plays_alone"] == e["playable"]
    assert any(e["event"] for e in entries)
    assert sum(e["house_rule"] for e in entries) == len(HOUSE_RULES)


def test_the_list_marks_house_rules_and_explains_stacking(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants")
    assert code == 0
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("#")}
    for rule in HOUSE_RULES:
        assert "house rule" in rows[rule.id]
    tournaments = [v.id for v in all_variants() if is_event(v.id)]
    assert tournaments and all(" event " in rows[t] for t in tournaments)
    footer = out.split("\n\n")[-1]
    assert "stacked on one with +" in footer and "podkidnoy+no_trump" in footer
    assert "S0:" not in out and "VARIANTS #" not in out  # no citations a player cannot open


def test_the_tournament_entry_describes_itself_and_runs_by_its_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "variants", "tournament")
    assert code == 0, err
    assert "bito tournament --variant GAME" in out
    code, out, err = run(capsys, "variants", "tournament", "--json")
    assert code == 0 and json.loads(out)["event"] is True
    code, out, err = run(capsys, "tournament", "--entrants", "4", "--table", "2",
                         "--bots", "random", "--json")
    assert code == 0, err
    assert len(json.loads(out)["standings"]) == 4
    code, _, err = run(capsys, "play", "--variant", "tournament")
    assert code == 2 and "bito tournament" in err
