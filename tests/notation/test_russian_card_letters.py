"""Cards typed in Russian letters (docs/notation.md, "Cards in Russian letters"): ranks В Д К Т
and 10, suits п ч б к (or т), read by position, in either case; every parser that reads a card
reads them, and the terminal takes a move typed so.
"""

from __future__ import annotations

import io
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bito.cards import (
    RUSSIAN_RANKS,
    RUSSIAN_SUITS,
    card_russian,
    card_str,
    parse_card,
    split_cards,
    standard_deck,
)
from bito.errors import InvalidNotationError
from bito.games.durak import new_game, parse_action

#: Every suited card of a 52-card deck and its second-deck twin.
EVERY_CARD = standard_deck(52, copies=2)


def _cases(text: str) -> st.SearchStrategy[str]:
    """The text with each letter in upper or lower case, as Hypothesis chooses."""
    return st.tuples(*[st.sampled_from(sorted({ch.lower(), ch.upper()})) for ch in text]).map(
        "".join)


@given(st.sampled_from(EVERY_CARD).flatmap(
    lambda c: st.tuples(st.just(c), _cases(card_russian(c)))))
def test_every_cards_russian_form_parses_to_the_same_card(case: tuple[int, str]) -> None:
    """Round trip: a card written in Russian letters, in any mix of cases, is that card."""
    code, text = case
    assert parse_card(text) == code


def test_the_russian_forms_use_only_russian_letters_and_digits() -> None:
    """The written form is what a Russian keyboard types: Cyrillic letters, digits, and the
    twin's apostrophe (nothing Latin that would look alike)."""
    for code in EVERY_CARD:
        text = card_russian(code)
        assert all(ch.isdigit() or ch == "'" or "\u0400" <= ch <= "\u04ff" for ch in text), text


@pytest.mark.parametrize(("russian", "latin"), [
    ("Вп", "Js"), ("вп", "Js"), ("ВП", "Js"), ("10ч", "Th"), ("Тб", "Ad"), ("дк", "Qc"),
    ("Кк", "Kc"), ("Тт", "Ac"), ("Тк", "Ac"), ("6ч", "6h"), ("9Б", "9d"),
])
def test_the_documented_examples(russian: str, latin: str) -> None:
    assert card_str(parse_card(russian)) == latin


def test_a_letter_that_is_a_rank_and_a_suit_is_read_by_its_position() -> None:
    """К is король first and крести second; Т is туз first and трефы second."""
    for letter in set(RUSSIAN_RANKS) & set(RUSSIAN_SUITS):
        for suit in "пчбк":
            assert card_str(parse_card(letter + suit))[0] == RUSSIAN_RANKS[letter]
        assert card_str(parse_card("6" + letter)) == "6" + RUSSIAN_SUITS[letter]


def test_cyrillic_te_is_the_ace_and_latin_t_the_ten() -> None:
    """The documented look-alike: the same shape, two ranks, each by its alphabet."""
    assert card_str(parse_card("Тп")) == "As"  # Cyrillic Т: туз
    assert card_str(parse_card("Tп")) == "Ts"  # Latin T: the ten


@pytest.mark.parametrize(("russian", "latin"), [
    ("Тп>10п", "As>Ts"), ("=Вп", "=Js"), ("6ч/Тч", "Ah>6h"), ("Вп+Вч", "Js+Jh"),
    ("transfer дб", "=Qd"),
])
def test_moves_with_russian_cards(russian: str, latin: str) -> None:
    assert parse_action(russian) == parse_action(latin)


def test_a_run_of_russian_cards_back_to_back() -> None:
    assert split_cards("Вп10чТб") == split_cards("JsThAd")


@pytest.mark.parametrize(("text", "position", "words"), [
    ("Жп", 0, "in Russian 2-10 В Д К Т"), ("Вж", 1, "in Russian п ч б к"),
    ("Тпп", 0, "a card is a rank and a suit"),
])
def test_an_unknown_russian_letter_points_at_itself(text: str, position: int,
                                                    words: str) -> None:
    with pytest.raises(InvalidNotationError) as caught:
        parse_card(text)
    assert caught.value.position == position
    assert words in caught.value.reason


def test_the_terminal_takes_a_move_typed_in_russian_letters(
        capsys: pytest.CaptureFixture[str]) -> None:
    """`bito play`: the human leads by typing his card in Russian; the game shows it played."""
    from bito.cli import main

    seed = next(s for s in range(200) if new_game("podkidnoy", 2, seed=s).to_act == 0)
    lead = new_game("podkidnoy", 2, seed=seed).legal_actions()[0]
    typed = card_russian(lead.cards[0])
    sys.stdin = io.StringIO(f"{typed}\nquit\n")
    try:
        code = main(["play", "--seed", str(seed), "--bots", "random"])
    finally:
        sys.stdin = sys.__stdin__
    out = capsys.readouterr().out
    assert code == 0
    assert "Not a move here" not in out and "unknown rank" not in out
    assert "You attack" in out
