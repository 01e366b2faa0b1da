"""The preludes' phase 2 is a Durak game (VARIANTS.md §3.9 #67, #68): once the stock is used up
the prelude's one word, ``turn``, is no longer a move, and typing it must be refused with an
IllegalActionError naming the rule, never fail inside the Durak explainer. The Durak game of
phase 2 passes the same checks as every new game (``setup.check_game``).
"""

from __future__ import annotations

import pytest

from bito.errors import IllegalActionError, RulesError
from bito.games import new_game
from bito.games.bouts.common import TURN
from bito.games.durak.explain import explain
from bito.games.durak.handoff import start_from_hands
from bito.rules import rules_for


def _phase_two(game: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    s = new_game(game, players=players, seed=seed)
    while s.main is None and not s.is_over:
        s = s.apply(s.parse_action("turn"))
    return s


@pytest.mark.parametrize(("game", "players", "seed"), [
    ("two_phase_japanese", 2, 4025927690), ("two_phase_japanese", 4, 7),
    ("deck_duel_prelude", 2, 1573930492), ("deck_duel_prelude", 3, 12),
])
def test_turn_after_the_handoff_is_refused_by_the_prelude_rule(game: str, players: int,
                                                                seed: int) -> None:
    """#67; S0:133 "When the deck is played, the game of the Japanese fool begins" (#68;
    S0:174 "When the deck is played, the game is played according to the rules of a throw-in
    or transfer fool"): phase 1's ``turn``, parsed by the state itself, is an illegal move in
    phase 2, refused naming the prelude, and the state is left as it was."""
    s = _phase_two(game, players, seed)
    assert s.main is not None and not s.is_over
    before = str(s)
    with pytest.raises(IllegalActionError) as raised:
        s.apply(s.parse_action("turn"))
    assert raised.value.rule == "prelude"
    assert "phase 1 is over" in raised.value.detail
    assert str(s) == before
    # the Durak moves of phase 2 still play
    s.apply(s.legal_actions()[0])


def test_the_durak_explainer_names_a_rule_for_a_foreign_move() -> None:
    """#67; S0:133: the Durak explainer is total, even for a move of another family's
    notation handed on by a wrapping state (no TypeError comparing its kind)."""
    s = _phase_two("two_phase_japanese", 2, 4025927690)
    err = explain(s.main, TURN)
    assert isinstance(err, IllegalActionError)
    assert err.rule == "not a Durak move"


def test_the_handoff_checks_the_phase_two_game() -> None:
    """#67; S0:133 "the game of the Japanese fool begins": the hand-off deals its Durak game
    through setup.check_game, so rules that cannot seat these players are refused by the
    rule's key (here team.layout=opposite at 3 seats), not dealt."""
    rules = rules_for("podkidnoy+team.layout=opposite")
    hands = [0b111, 0b111000, 0b111000000]
    with pytest.raises(RulesError) as raised:
        start_from_hands(rules, hands, dealer=0, seed=0)
    assert raised.value.key == "players"


def test_a_bad_phase_two_option_is_refused_at_new_game() -> None:
    """#67; S0:133: a phase-2 option the Durak game refuses at this seat count is refused
    when the game is set up, naming the prelude's key, not at the hand-off mid-game."""
    with pytest.raises(RulesError) as raised:
        new_game("two_phase_japanese+prelude.main=podkidnoy"
                 "+prelude.main_options=team.layout=opposite", players=3, seed=0)
    assert raised.value.key == "prelude.main_options"
