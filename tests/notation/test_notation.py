"""Notation (GUIDE §3): cards, actions and positions round-trip; bad text is pointed at.

Position fields are documented in ``bito.notation``; errors are InvalidNotationError whose
``position`` is the index of the offending character (or the start of the field at fault).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import (
    HIDDEN,
    card,
    card_pretty,
    card_str,
    cards_of,
    parse_card,
    special,
    split_cards,
    standard_deck,
)
from bito.errors import InvalidNotationError
from bito.games.durak import PASS_ACTION, TAKE_ACTION, attack, defend, parse_action, transfer
from bito.notation import parse_censored, parse_position, position_text, rules_spec
from bito.rules import Rules, resolve
from conftest import P, fingerprint, game_specs, legal, random_walk, start

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def error_at(fn, text: str) -> InvalidNotationError:
    with pytest.raises(InvalidNotationError) as info:
        fn(text)
    return info.value


# --- cards ---------------------------------------------------------------------------------------


def test_every_card_round_trips():
    """GUIDE §3 cards: rank 2-9 T J Q K A, suit c d h s; round trip for every card, twins."""
    for c in standard_deck(52, jokers=2, copies=2):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_pretty(c)) == c
    assert card_str(card(10, 2)) == "Th" and card_pretty(card(10, 2)) == "10♥"
    assert parse_card("10h") == parse_card("Th") == parse_card("th") == parse_card("T♥")
    assert parse_card("6h'") == card(6, 2, 1) and card_str(card(6, 2, 1)) == "6h'"
    assert parse_card("RJ") == special("RJ")
    assert parse_card("??", allow_hidden=True) == HIDDEN and card_str(HIDDEN) == "??"


@pytest.mark.parametrize("text,position", [("1h", 0), ("Xs", 0), ("6x", 1), ("6", 0),
                                           ("6hh", 0), ("??", 0)])
def test_bad_card_points_at_character(text, position):
    """GUIDE §2 'InvalidNotationError (points at the text)': the bad rank or suit."""
    assert error_at(parse_card, text).position == position


def test_card_runs():
    """Cards back to back, with spaces/commas/plus; '-' is none; ??*N hidden cards."""
    assert split_cards("6h7hAs") == split_cards("6h 7h,As") == split_cards("6h+7h+As")
    assert split_cards("-") == [] and split_cards("") == []
    assert split_cards("10h9c") == [card(10, 2), card(9, 0)]
    assert split_cards("As??*3", allow_hidden=True) == [card(14, 3)] + [HIDDEN] * 3
    assert error_at(split_cards, "6h7x8s").position == 3
    assert error_at(split_cards, "6h 7h Zs").position == 6
    assert error_at(split_cards, "??*3").position == 0  # hidden cards not allowed here


# --- actions -------------------------------------------------------------------------------------


def test_action_text_forms():
    """Actions (GUIDE §3, actions.py table): attack '6h', '6h+6s'; defend 'Th>6h'; transfer
    '=6s'; 'take'; 'pass'; friendly spellings."""
    six_h, six_s, ten_h = parse_card("6h"), parse_card("6s"), parse_card("Th")
    assert parse_action("6h") == attack(six_h) and str(attack(six_h)) == "6h"
    assert parse_action("6s+6h") == parse_action("6h+6s") == attack(six_h, six_s)
    assert parse_action("Th>6h") == parse_action("6h/Th") == defend(ten_h, six_h)
    assert str(defend(ten_h, six_h)) == "Th>6h"
    assert parse_action("=6s") == parse_action("transfer 6s") == transfer(six_s)
    assert str(transfer(six_s)) == "=6s"
    for word in ("take", "t", "беру", "TAKE"):
        assert parse_action(word) == TAKE_ACTION
    for word in ("pass", "bito", "done", "p", "бито", "пас"):
        assert parse_action(word) == PASS_ACTION
    assert str(TAKE_ACTION) == "take" and str(PASS_ACTION) == "pass"
    assert eval(repr(defend(ten_h, six_h)), {"parse_action": parse_action}) == defend(ten_h,
                                                                                    six_h)


@pytest.mark.parametrize("text,position", [
    ("Tx>6h", 1), ("Th>6x", 4), ("=6x", 2), ("  =6x", 4), ("6h/Tx", 4), ("6h7x", 3),
    ("", 0), ("6h+6h", 3),
])
def test_bad_action_points_at_character(text, position):
    """GUIDE §2 errors point at the text: the offending character of a move."""
    assert error_at(parse_action, text).position == position


@SETTINGS
@given(game_specs(), st.integers(0, 2**32 - 1))
def test_every_legal_action_round_trips(spec, cseed):
    """Every action the engine offers reads back from its text (context-free, like UCI)."""
    s = start(spec)
    for before, _, _ in random_walk(s, random.Random(cseed)):
        for a in before.legal_actions():
            assert parse_action(str(a)) == a


# --- positions -----------------------------------------------------------------------------------


@SETTINGS
@given(game_specs(), st.integers(0, 2**32 - 1))
def test_position_text_round_trips(spec, cseed):
    """GUIDE §3 positions: a one-line text that sets up any position. position_text ->
    parse_position gives the same position (text, state and legal actions) at every step."""
    s = start(spec)
    rng = random.Random(cseed)
    for before, _, _ in random_walk(s, random.Random(cseed)):
        if rng.random() < 0.7:
            continue
        text = position_text(before)
        again = parse_position(text)
        assert position_text(again) == text
        assert legal(again) == legal(before)
        assert fingerprint(again)[:-1] == fingerprint(before)[:-1]


@SETTINGS
@given(game_specs(), st.integers(0, 2**32 - 1))
def test_censored_position_matches_what_the_seat_may_see(spec, cseed):
    """GUIDE §3 'a censored flavour for one seat': the seat's own hand exactly, others as known
    cards plus ??; the stock as the face-up trump card plus ??; every other field as in the
    full position, and no seed."""
    s = start(spec)
    rng = random.Random(cseed)
    for before, _, _ in random_walk(s, random.Random(cseed)):
        if rng.random() < 0.8:
            continue
        full = dict(w.split("=", 1) for w in position_text(before).split()[1:])
        for seat in range(before.players):
            text = position_text(before, seat)
            c = parse_censored(text)
            assert "seed" not in c.fields
            for key, value in full.items():
                if key not in ("seed", "stock", "hands"):
                    assert c.fields[key] == value, key
            assert sorted(c.hands[seat]) == cards_of(before.hands[seat])
            for other in range(before.players):
                if other != seat:
                    shown = [x for x in c.hands[other] if x != HIDDEN]
                    assert sorted(shown) == cards_of(before.known[other] & before.hands[other])
                    assert len(c.hands[other]) == before.hands[other].bit_count()
            assert len(c.stock) == len(before.stock)
            if before.stock:
                assert c.stock[0] == before.trump_card


def test_example_position_from_the_docs():
    """The notation docstring example parses and reads back the same facts."""
    s = P("podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<9d,Qs attacker=0")
    assert s.trump_card == parse_card("6h") and list(s.stock) == [parse_card("6h"),
                                                                    parse_card("9c")]
    assert s.table_pairs() == [(parse_card("7d"), parse_card("9d")), (parse_card("Qs"), -1)]
    assert s.phase_name == "defend" and s.to_act == 1 and s.defender == 1
    assert s.discard.bit_count() == 36 - 2 - 4 - 3
    assert parse_position(position_text(s)).table_pairs() == s.table_pairs()


GOOD = "podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<9d,Qs attacker=0"


GOOD24 = "podkidnoy+deck.size=24 players=2 trump=9h stock=9hTc hands=JcQc/7cJd"


@pytest.mark.parametrize("text,at,words", [
    (GOOD + " foo=1", "foo=1", "unknown field"),
    (GOOD + " attacker=1", "attacker=1", "twice"),
    (GOOD + " nonsense", "nonsense", "key=value"),
    (GOOD.replace("TcJd", "TcJx"), "x ", "suit"),
    (GOOD.replace("players=2", "players=9"), "9 ", "players"),
    (GOOD.replace("players=2", "players=two"), "two", "players"),
    (GOOD.replace("stock=6h9c", "stock=9c6h"), "9c6h", "bottom card"),
    (GOOD.replace("trump=6h", "trump=6q"), "6q", "trump"),
    (GOOD.replace("hands=7c8c/TcJd", "hands=7c8c"), "7c8c ", "hands"),
    (GOOD.replace("table=7d<9d,Qs", "table=7d<9x,Qs"), "7d<9x", "table"),
    (GOOD + " phase=sideways", "sideways", "phase"),
    (GOOD + " out=7", "=7", "out"),
    (GOOD.replace("podkidnoy", "nonsense"), "nonsense", "rules"),
    (GOOD24, "JcQc/7cJd", "24-card deck"),
    (GOOD + " known=Tc/-", "Tc/-", "known"),
])
def test_malformed_position_points_at_the_field(text, at, words):
    """GUIDE §2 'InvalidNotationError (points at the text)': the error names the field and its
    position is where the bad value starts (or the bad character inside it)."""
    e = error_at(parse_position, text)
    assert words in str(e)
    expected = text.rindex(at) + (1 if at.startswith("=") else 0)
    assert e.position == expected, (e.position, text[e.position:])


def test_card_twice_in_two_fields_points_at_a_field():
    """parse_position docstring: 'Raises InvalidNotationError pointing at the field at fault,
    including for impossible positions (a card twice, ...)'. 9c in the stock and in a hand:
    the error must point into one of those two fields, not at the start of the line."""
    text = "podkidnoy players=2 trump=6h stock=6h9c hands=7c9c/TcJd"
    e = error_at(parse_position, text)
    assert "twice" in str(e)
    stock_at, hands_at = text.index("6h9c"), text.index("7c9c")
    assert stock_at <= e.position < stock_at + 4 or hands_at <= e.position < len(text)


def test_missing_trump_points_at_the_end():
    text = "podkidnoy players=2 stock=- hands=7c/Tc"
    e = error_at(parse_position, text)
    assert "trump" in e.reason and e.position == len(text)


def test_impossible_positions_are_rejected():
    """A card twice, a hand of another deck, a defender with fewer cards than uncovered."""
    assert "twice" in str(error_at(parse_position, GOOD.replace("TcJd", "TcJd7c")))
    assert "uncovered" in str(error_at(parse_position, GOOD.replace("TcJd", "Tc")
                                       .replace("table=7d<9d,Qs", "table=7d,Qs")))
    assert "missing" in str(error_at(parse_position, GOOD + " discard=As"))


def test_rules_spec_with_two_reject_ranks():
    """#74 A1 option reject=[A, L] ('With the value A,L the lowest rank is refused as well',
    catalogue description): the option must be writable in a variant spec, so positions of
    such games read back (rules_spec writes 'trump.reject_indicator=A,L')."""
    rules = Rules().with_options(**{"trump.reject_indicator": ["A", "L"]})
    assert rules.trump_reject_indicator == ("A", "L")
    assert resolve(rules_spec(rules)).rules == rules
    assert resolve("podkidnoy+ace_not_trump_indicator=A,L").rules == rules
