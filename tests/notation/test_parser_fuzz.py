"""Every parser of user text (cards, actions of every family, positions, records, rules files,
variant specs) answers bad input with the project's own errors (the BitoError family), never a
raw Python error, and within bounded time and memory.

Inputs: arbitrary text, bytes decoded leniently, and mutations (insert, delete, duplicate,
replace, repeat) of real texts taken from played games. Counts and lengths are bounded by what
the largest deck allows (``bito.cards.MAX_CARDS``), so a crafted record cannot exhaust memory.
"""

from __future__ import annotations

import contextlib
import json
import random
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import MAX_CARDS, parse_card, split_cards
from bito.errors import BitoError, InvalidNotationError
from bito.games import new_game, parse_action_for
from bito.games.durak.actions import parse_action, parse_revealed
from bito.games.game import Game
from bito.notation import parse_censored, parse_position, position_text
from bito.record import GameRecord, load_record, record_from_game
from bito.rules import resolve
from bito.rules.house import parse_house_rules

# One spec per family, and a few Durak variants whose actions have their own notation.
FAMILY_SPECS = ("czech_fool", "english_fool", "friese_fool", "animal_sounds",
                "believe_not_believe_2", "chinese", "heaped")
DURAK_SPECS = ("podkidnoy", "perevodnoy", "believe_not_believe", "podkidnoy+joker_gift",
               "blind_fool", "big_fool")


def _play(spec: str, players: int, seed: int, limit: int = 60) -> tuple[list[Any], list[Any]]:
    state = new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    states, actions = [state], []
    while not state.is_over and len(actions) < limit:
        action = rng.choice(list(state.legal_actions()))
        actions.append(action)
        state = state.apply(action)
        states.append(state)
    return states, actions


def _corpus() -> dict[str, list[str]]:
    """Real texts from a few short random games: the seeds the mutations start from."""
    actions: list[str] = ["take", "pass", "believe", "doubt", "#3", "=#2", "#1(9d)>6h",
                          "@Th>6h", "Th>9c+Ts", "^Jh", "~7c", "$Kc+7s", "!6h7h", "=6s+6h"]
    family_actions: list[str] = ["draw", "Qh=s", "7h8c", "g12", "1", "turn", "sound"]
    positions: list[str] = []
    records: list[str] = []
    for k, spec in enumerate(DURAK_SPECS):
        try:
            states, acts = _play(spec, 2 + k % 3, k)
        except BitoError:
            continue
        actions += [str(a) for a in acts[:25]]
        for st_ in states[::10]:
            positions.append(position_text(st_))
            positions.append(position_text(st_, 0))
    for k, spec in enumerate(FAMILY_SPECS):
        try:
            _, acts = _play(spec, 2, k, limit=20)
        except BitoError:
            continue
        family_actions += [str(a) for a in acts]
    game = Game(new_game("podkidnoy", 2, seed=5))
    rng = random.Random(5)
    for _ in range(30):
        if game.state.is_over:
            break
        game.push(rng.choice(game.state.legal_actions()))
    full: GameRecord = record_from_game(game)
    records.append(full.to_jsonl())
    records.append(full.censored(0).to_jsonl())
    rules = [
        'name = "Kitchen"\nbase = "perevodnoy+uncapped_after_stock"\n\n[options]\n'
        '"throw_in.by" = "neighbours"\ndraw.order = "defender_first"\n',
        'base = "podkidnoy"\n[options]\ntrump.reject_indicator = ["A"]\n',
        'description = "x"\nbase = "simple"\n',
    ]
    specs = ["podkidnoy+joker_gift", "perevodnoy+throw_in.by=neighbours", "simple",
             "czech_fool+shed.rounds=3", "friese_fool+fool.hand_size=8"]
    return {"actions": actions, "family_actions": family_actions, "positions": positions,
            "records": records, "rules": rules, "specs": specs}


CORPUS = _corpus()


def _lenient(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


#: Replacements that have broken parsers: counts, huge numbers, markers, nesting, odd digits.
PIECES = ("?", "*", "9" * 40, "9" * 5000, "??*99999999", "#", "@", "/", "=", "+", ">", "<",
          "(", ")", "\n", "'", "²", "-1", "[", "{", '"', "\\", "\x00")


@st.composite
def mutated(draw: st.DrawFn, seeds: list[str]) -> str:
    """A real text with a few random edits: what a typo, a truncated file or a hostile
    editor makes of it."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("insert", "delete", "duplicate", "replace", "repeat")))
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        if op == "insert":
            text = text[:i] + draw(st.text(max_size=6)) + text[i:]
        elif op == "delete":
            text = text[:i] + text[j:]
        elif op == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif op == "replace":
            piece = draw(st.sampled_from(PIECES))
            text = text[:i] + piece + text[j:]
        else:  # a stretch repeated many times
            text = text[:i] + text[i:j] * draw(st.integers(2, 400)) + text[j:]
    return text


def _only_bito_errors(parse: Callable[[str], object], text: str) -> None:
    with contextlib.suppress(BitoError):  # any other exception fails the test
        parse(text)


FUZZ = settings(max_examples=150, deadline=5000, suppress_health_check=[HealthCheck.too_slow])


def _any_text(seeds: str) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=80), st.binary(max_size=80).map(_lenient),
                     mutated(CORPUS[seeds]))


def _all_card_parsers(text: str) -> None:
    _only_bito_errors(parse_card, text)
    _only_bito_errors(lambda t: parse_card(t, allow_hidden=True), text)
    _only_bito_errors(split_cards, text)
    _only_bito_errors(lambda t: split_cards(t, allow_hidden=True), text)


@FUZZ
@given(_any_text("positions"))
def test_card_parsers_raise_only_notation_errors(text: str) -> None:
    """Cards and card lists: bad text is an InvalidNotationError, never a crash."""
    _all_card_parsers(text)


@FUZZ
@given(_any_text("actions"))
def test_durak_action_parser_raises_only_notation_errors(text: str) -> None:
    """Durak actions, and the censored form with a turned-up card (#58)."""
    _only_bito_errors(parse_action, text)
    _only_bito_errors(parse_revealed, text)


@FUZZ
@given(st.sampled_from(FAMILY_SPECS), _any_text("family_actions"))
def test_every_family_action_parser_raises_only_notation_errors(spec: str, text: str) -> None:
    """The other families' action notation (shedding, tricks, social, bouts)."""
    _only_bito_errors(lambda t: parse_action_for(spec, t), text)


@FUZZ
@given(_any_text("positions"))
def test_position_parsers_raise_only_notation_errors(text: str) -> None:
    """Full and censored positions."""
    _only_bito_errors(parse_position, text)
    _only_bito_errors(parse_censored, text)


@FUZZ
@given(_any_text("records"))
def test_record_loader_raises_only_record_errors(text: str) -> None:
    """Records, mutated anywhere (header, action lines, views, outcome)."""
    _only_bito_errors(load_record, text)


def _line_mutated_record() -> st.SearchStrategy[str]:
    """A record whose one line (or one header value) is replaced by fuzz."""
    @st.composite
    def build(draw: st.DrawFn) -> str:
        lines = draw(st.sampled_from(CORPUS["records"])).splitlines()
        i = draw(st.integers(0, len(lines) - 1))
        entry = json.loads(lines[i])
        key = draw(st.sampled_from(sorted(entry)))
        entry[key] = draw(st.one_of(
            st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
            st.text(max_size=20), mutated([str(entry[key])]),
            st.lists(st.integers(-3, 20), max_size=4),
            st.dictionaries(st.text(max_size=8), st.integers(-3, 20), max_size=3)))
        lines[i] = json.dumps(entry)
        return "\n".join(lines) + "\n"
    return build()


@FUZZ
@given(_line_mutated_record())
def test_record_fields_of_any_type_raise_only_record_errors(text: str) -> None:
    """Each JSON field of a record given a value of another type or out of range."""
    _only_bito_errors(load_record, text)


@FUZZ
@given(_any_text("rules"))
def test_rules_file_parser_raises_only_rules_errors(text: str) -> None:
    """House-rule TOML files."""
    _only_bito_errors(parse_house_rules, text)


@FUZZ
@given(_any_text("specs"))
def test_variant_spec_parser_raises_only_rules_errors(text: str) -> None:
    """Variant specs (``base+modifier+key=value``)."""
    _only_bito_errors(resolve, text)


# --- the reproducers of the issue, and memory bounds -----------------------------------------

def test_nested_cover_marks_are_refused_without_recursion() -> None:
    """``@`` once marks an own cover; three thousand of them are bad text, not a stack overflow."""
    with pytest.raises(InvalidNotationError):
        parse_action("@" * 3000 + "7h>6h")


@pytest.mark.parametrize("text", ["#" + "9" * 5000, "#" + "9" * 400, "#0", "#²", "=#" + "9" * 30])
def test_hand_positions_are_bounded_numbers(text: str) -> None:
    """A blind play's hand position (#58) is a number from 1 to at most the largest deck."""
    with pytest.raises(InvalidNotationError):
        parse_action(text)


@pytest.mark.parametrize("text", ["??*100000000", "??*" + "9" * 5000, f"??*{MAX_CARDS + 1}",
                                  f"??*{MAX_CARDS}??*1", "??*²"])
def test_hidden_card_counts_are_bounded_by_the_deck(text: str) -> None:
    """``??*N`` may not claim more cards than the largest deck holds; refusing it builds
    nothing (peak memory stays small)."""
    tracemalloc.start()
    try:
        with pytest.raises(InvalidNotationError):
            split_cards(text, allow_hidden=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_the_largest_hidden_count_is_still_read() -> None:
    """The bound is the deck, not lower: a full 2-copy deck of hidden cards parses."""
    assert len(split_cards(f"??*{MAX_CARDS}", allow_hidden=True)) == MAX_CARDS


@pytest.mark.parametrize("parse", [parse_action, parse_card, split_cards, parse_position,
                                   parse_censored])
def test_huge_texts_are_refused_up_front(parse: Callable[[str], object]) -> None:
    """A megabyte of text is refused by its length, with a short message."""
    with pytest.raises(InvalidNotationError) as info:
        parse("6h" * 500_000)
    assert len(str(info.value)) < 300


def test_deeply_nested_json_in_a_record_is_a_record_error() -> None:
    """A record line of a hundred thousand nested lists is a RecordError, not RecursionError."""
    header = json.dumps({"bito": "record", "version": 1, "variant": "podkidnoy",
                         "players": 2, "seed": 1})
    for line in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(BitoError):
            load_record(header + "\n" + line + "\n")
        with pytest.raises(BitoError):
            load_record(line + "\n")


def test_deeply_nested_toml_in_a_rules_file_is_a_rules_error() -> None:
    """A rules file nesting arrays a hundred thousand deep is a RulesError."""
    with pytest.raises(BitoError):
        parse_house_rules("base = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(BitoError):
        parse_house_rules("x = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n")


def test_a_third_twin_is_bad_text() -> None:
    """Two decks at most (``6h'`` is the second deck's twin): ``7s''`` names no card."""
    with pytest.raises(InvalidNotationError):
        parse_action("7s''")
    with pytest.raises(InvalidNotationError):
        split_cards("6h7s''")


@pytest.mark.parametrize("spec", ["podkidnoy+deck.size=5²2", "podkidnoy+lead.max=" + "9" * 5000])
def test_option_numbers_are_ascii_and_bounded(spec: str) -> None:
    """A numeric option written with a superscript or thousands of digits is a RulesError."""
    with pytest.raises(BitoError):
        resolve(spec)


def test_a_number_too_long_for_int_in_a_record_is_a_record_error() -> None:
    """JSON allows a 5,000-digit number; Python's int() refuses it: a RecordError."""
    with pytest.raises(BitoError):
        load_record('{"bito": "record", "version": 1, "variant": "podkidnoy", "players": 2, '
                    '"seed": ' + "1" * 5000 + "}\n")


def test_a_number_too_long_for_int_in_a_rules_file_is_a_rules_error() -> None:
    """TOML allows a 5,000-digit integer; Python's int() refuses it: a RulesError."""
    with pytest.raises(BitoError):
        parse_house_rules("base = " + "9" * 5000 + "\n")


@pytest.mark.parametrize("field", ["idle=²0.0", "bout=" + "9" * 5000, "passes=²", "out=0²"])
def test_numbers_in_a_position_are_ascii_and_bounded(field: str) -> None:
    """A position's numbers are 0-9 digits, at most 20 of them (no count or seed needs more)."""
    with pytest.raises(InvalidNotationError):
        parse_position("podkidnoy players=2 trump=7d stock=7d hands=6c/6d table=- "
                       f"phase=lead attacker=0 {field}")
