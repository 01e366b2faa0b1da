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


def test_legal_actions_belong_to_the_caller() -> None:
    """Changing the list returned by legal_actions() cannot change what the state accepts."""
    from bito.games.durak import new_game

    state = new_game("podkidnoy", 2, seed=4)
    acts = state.legal_actions()
    first = acts.pop(0)
    acts.clear()
    assert state.legal_actions()[0] == first
    state.apply(first)


def test_a_transfer_respects_the_first_bout_cap() -> None:
    """#75 with perevodnoy (S0:304 'no more than five cards'): a transfer adds an attack card,
    so it may not take the first bout past the cap."""
    from bito.notation import parse_position

    state = parse_position("perevodnoy+throw_in.first_bout_cap=2 players=3 trump=Ah stock=Ah "
                           "hands=8c9c/7s8d9dTd/JcQcKcAc table=7c,7d attacker=0 bout=0")
    assert all(a.kind_name != "transfer" for a in state.legal_actions())
    later = parse_position("perevodnoy+throw_in.first_bout_cap=2 players=3 trump=Ah stock=Ah "
                           "hands=8c9c/7s8d9dTd/JcQcKcAc table=7c,7d attacker=0 bout=1")
    assert any(a.kind_name == "transfer" for a in later.legal_actions())
