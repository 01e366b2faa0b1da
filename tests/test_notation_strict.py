"""Malformed action text is refused with a caret at the character at fault."""

from __future__ import annotations

import pytest

from bito.errors import InvalidNotationError
from bito.games.durak import attack, parse_action
from bito.notation import parse_card


@pytest.mark.parametrize("text, at", [("Ac+", 2), ("+Ac", 0), ("7d++7s", 3), ("7d+7d", 3)])
def test_stray_plus_signs_and_repeated_cards_are_pointed_at(text: str, at: int) -> None:
    with pytest.raises(InvalidNotationError) as err:
        parse_action(text)
    assert err.value.position == at


def test_a_well_formed_multi_card_lead_still_parses() -> None:
    assert parse_action("7d+7s") == attack(parse_card("7d"), parse_card("7s"))
