"""Variants I in the registry and on the command line (issue 3, VARIANTS.md §2 rows 13-30, 80-84).

Every id in scope resolves by its id, names and aliases; house rules stack on the bases they
name and are refused, naming the option, where they contradict the game; ``bito variants`` lists
them and ``bito variants ID`` says which bases a house rule accepts; ids the engine does not
play yet are refused with the option at fault.
"""

from __future__ import annotations

import re

import pytest

from bito.cli import main
from bito.errors import RulesError, UnknownVariantError
from bito.games.durak import new_game
from bito.rules import resolve
from bito.rules.house import parse_house_rules
from bito.rules.options import pending_options
from bito.rules.registry import lookup, normalise

#: The ids and catalogue numbers of issue 3 (VARIANTS.md §2).
ISSUE3 = {
    "japanese": 13, "japanese_revealed_trump": 14, "no_trump": 15, "own_trumps": 16,
    "suitless": 17, "secret_trump": 18, "royal": 19, "ace_only_by_trump": 20, "big_fool": 21,
    "big_fool_twin_block": 22, "albanian": 23, "joker_gift": 24, "double_joker": 25,
    "single_joker": 26, "novosibirsk_two_joker": 27, "wild_58": 28, "estonian": 29,
    "capital": 30, "japanese_diamond_indicator": 80, "double_joker_color_only": 81,
    "own_trumps_binding": 82, "joker_gift_block_combo": 84,
}
#: The catalogue's "game" entries (a base of their own); the rest are house rules that stack.
GAMES = {"japanese", "japanese_revealed_trump", "japanese_diamond_indicator", "big_fool",
         "big_fool_twin_block", "estonian", "capital"}


def sample_spec(vid: str) -> str:
    """A spec that plays ``vid``: the game itself, or a house rule on podkidnoy (or, if it does
    not take podkidnoy, on its first base)."""
    v = lookup(vid)
    if v.kind == "game":
        return vid
    base = "podkidnoy" if "podkidnoy" in v.applies_to else v.applies_to[0]
    return f"{base}+{vid}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("vid", sorted(ISSUE3))
def test_every_id_resolves_by_id_names_and_aliases(vid: str) -> None:
    """Issue 3 "Each id is a registered variant: reachable by its id and by its names and
    aliases" (VARIANTS §2 rows 13-30, 80-84): the catalogue number matches, each name finds the
    same entry, also typed in another case and with spaces or hyphens."""
    v = lookup(vid)
    assert (v.id, v.number, v.family) == (vid, ISSUE3[vid], "durak")
    assert (v.kind == "game") == (vid in GAMES)
    assert v.names
    for name in v.names:
        assert lookup(name).id == vid
        assert lookup(name.upper()).id == vid
    assert lookup(vid.replace("_", " ").title()).id == vid
    assert lookup(vid.replace("_", "-")).id == vid
    assert normalise(vid) == vid


def test_unknown_name_is_refused() -> None:
    with pytest.raises(UnknownVariantError):
        lookup("japaneese")


@pytest.mark.parametrize("vid", sorted(ISSUE3.keys() - GAMES))
def test_house_rule_alone_is_not_a_game(vid: str) -> None:
    """A house rule needs a game to stack on (docs/variants.md "Naming a game"); the error names
    the rule and shows how to stack it."""
    with pytest.raises(RulesError) as info:
        resolve(vid)
    assert vid in str(info.value) and "+" in str(info.value)


@pytest.mark.parametrize("vid", sorted(ISSUE3.keys() - GAMES))
def test_house_rule_stacks_on_every_base_it_names(vid: str) -> None:
    """Issue 3 "modifiers that stack on any base they allow" (§0.3 applies_to): on each base
    listed, the house rule's own options are in force and the base's others are kept."""
    v = lookup(vid)
    assert v.applies_to
    for base in v.applies_to:
        base_rules = resolve(base).rules
        rules = resolve(f"{base}+{vid}").rules
        for key, value in v.options.items():
            attr = key.replace(".", "_")
            want = tuple(value) if isinstance(value, list) else value
            assert getattr(rules, attr) == want, (base, key)
        assert rules.transfer_enabled == base_rules.transfer_enabled
        assert rules.throw_in_enabled == base_rules.throw_in_enabled


def test_no_trump_on_transfer_fool() -> None:
    """Issue 3's example "no_trump on perevodnoy" (#15, S0:7 "differs from other varieties only
    in that the game is played without trump cards")."""
    rules = resolve("perevodnoy+no_trump").rules
    assert rules.trump_source == "none" and rules.transfer_enabled
    s = new_game("perevodnoy+no_trump", players=4, seed=3)
    assert s.trumps == frozenset()


@pytest.mark.parametrize(("spec", "key"), [
    ("podkidnoy+no_trump+trump.source=fixed", "trump.source"),  # #15 removes trumps
    ("podkidnoy+double_joker+double_joker_color_only", "specials.joker"),  # two joker systems
    ("podkidnoy+single_joker+novosibirsk_two_joker", "deck.jokers"),
    ("podkidnoy+double_joker_color_only+trump.reject_indicator=A", "trump.reject_indicator"),
    ("podkidnoy+single_joker+deck.jokers=2", "deck.jokers"),
])
def test_contradicting_stack_is_refused_naming_the_key(spec: str, key: str) -> None:
    """Two parts of one spec that set the same option differently are refused with the option's
    key (docs/variants.md; VARIANTS §5.2)."""
    with pytest.raises(RulesError) as info:
        resolve(spec)
    assert key in str(info.value)


def test_house_rule_refused_on_japanese_when_it_does_not_name_it() -> None:
    """#17 applies_to [simple, podkidnoy, perevodnoy] (S0:15), unlike #19 and #23 which add
    japanese (S0:59, S0:89): stacking suitless on Japanese should be refused, naming suitless."""
    with pytest.raises(RulesError) as info:
        resolve("japanese+suitless")
    assert "suitless" in str(info.value)


def test_cli_lists_every_id_and_marks_the_pending(capsys: pytest.CaptureFixture[str]) -> None:
    """``bito variants`` lists every issue-3 id; exactly those whose options the engine does not
    play yet carry "(not playable yet)"."""
    code, out, _ = run(capsys, "variants")
    assert code == 0
    for vid in ISSUE3:
        line = next((ln for ln in out.splitlines() if re.match(rf"#\d+\s+{vid}\s", ln)), None)
        assert line is not None, vid
        pending = bool(pending_options(resolve(sample_spec(vid)).rules))
        assert ("not playable yet" in line) == pending, line


@pytest.mark.parametrize("vid", sorted(ISSUE3.keys() - GAMES))
def test_cli_says_which_bases_a_house_rule_accepts(vid: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 3 "`bito variants ID` says which bases a modifier accepts": the "Applies to" line
    names bases, and each one named really accepts the house rule."""
    code, out, _ = run(capsys, "variants", vid)
    assert code == 0
    line = next(ln for ln in out.splitlines() if ln.startswith("Applies to:"))
    named = [b.strip() for b in line.removeprefix("Applies to:").split("(")[0].split(",")]
    assert named and all(named)
    for base in named:
        assert resolve(f"{base}+{vid}").rules is not None


@pytest.mark.parametrize("vid", sorted(ISSUE3))
def test_playable_ids_deal_and_pending_ones_are_refused(vid: str) -> None:
    """Issue 3: each id plays at every player count it allows; an id the engine does not play
    yet is refused naming the option (docs/variants.md, "Status"), never half-played."""
    spec = sample_spec(vid)
    rules = resolve(spec).rules
    waiting = pending_options(rules)
    if waiting:
        with pytest.raises(RulesError) as info:
            new_game(spec, players=2, seed=0)
        assert waiting[0].split("=")[0] in str(info.value)
        return
    for players in range(rules.players_min, min(rules.max_players, 6) + 1):
        s = new_game(spec, players=players, seed=players)
        assert sum(h.bit_count() for h in s.hands) == 6 * players
        assert s.legal_actions()


def test_sim_accepts_a_combination_on_the_command_line(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    """Issue 3 "A user can name a combination on the command line": ``bito sim`` plays
    podkidnoy+royal+ace_only_by_trump without errors."""
    code, out, _ = run(capsys, "sim", "--variant", "podkidnoy+royal+ace_only_by_trump",
                       "--players", "3", "--games", "4", "--bots", "random", "--json",
                       "--no-progress")
    assert code == 0
    assert '"errors": 0' in out


def test_house_rules_file_starts_from_a_variants_i_game() -> None:
    """Issue 3 "a small TOML file that starts from any registered variant and changes options":
    Japanese fool with the royal pair (#13 + beats.royal of #19) deals diamonds as trump and
    plays the royal relation."""
    resolved = parse_house_rules('name = "Royal Japanese"\nbase = "japanese"\n[options]\n'
                                 '"beats.royal" = true\n')
    rules = resolved.rules
    assert rules.beats_royal and rules.trump_source == "fixed" and rules.beats_restricted_suit
    s = new_game(rules, players=3, seed=4)
    assert s.trumps == frozenset({1}) and s.legal_actions()


def test_house_rules_file_contradicting_its_base_names_key_and_line() -> None:
    """Issue 3 "an unknown or conflicting option is rejected naming the key": a file built on
    podkidnoy+no_trump that turns a trump up again is refused at trump.source, line 4."""
    with pytest.raises(RulesError) as info:
        parse_house_rules('name = "x"\nbase = "podkidnoy+no_trump"\n[options]\n'
                          '"trump.source" = "stock_top"\n')
    assert info.value.key == "trump.source" and "line 4" in str(info.value)
