"""Face-down covers (#59) and counter-throws (#49) are not played together.

#49's added cards are of the covering card's rank (S0:191 "he has the right to put this (these)
card"), and the cover becomes an attack card the original attacker must beat at once; #59
keeps every cover face down until the attacker's call (S4:16). A counter would show what lies
face down before the call, and the catalogue gives the pair no meaning, so the rule mix is
refused where every rule mix is checked: ``new_game`` (docs/variants.md, "Where rules meet").
"""

from __future__ import annotations

import pytest

from bito.errors import RulesError
from bito.games.durak import new_game


@pytest.mark.parametrize("spec", ["believe_not_believe+counter_throw",
                                  "believe_not_believe+defense.counter=true",
                                  "simple+counter_throw+defense.face_down=true"])
@pytest.mark.parametrize("players", [2, 3])
def test_counter_throws_with_face_down_covers_are_refused_naming_both_keys(
        spec: str, players: int) -> None:
    """#59 (S4:14-16) with #49 (S0:191): refused at new_game with a RulesError whose key is
    one option and whose message names the other."""
    with pytest.raises(RulesError) as info:
        new_game(spec, players=players, seed=1)
    assert info.value.key == "defense.face_down"
    assert "defense.counter" in str(info.value)


def test_each_rule_alone_still_deals() -> None:
    """#59 and #49 each stay playable on their own bases."""
    new_game("believe_not_believe", players=2, seed=1)
    new_game("simple+counter_throw", players=2, seed=1)
