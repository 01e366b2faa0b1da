"""Every family ends in one :class:`bito.games.protocol.Outcome` (GUIDE.md §1a: "the protocol
is typed, one ``Outcome``"), and its JSON keeps the keys each family's records have always
written: ``loser``, ``order``, ``draw``, then only what a game has.

Records written before the two outcome classes were merged must read back and compare equal,
so the keys, their order and when they are left out are the record format (docs/notation.md);
the expectations below are written from that format, not from running the code.
"""

from __future__ import annotations

import random

import pytest

import bito.games
import bito.games.durak
from bito.games import FAMILIES, family_for
from bito.games.family import EVENT_FAMILIES
from bito.games.protocol import Outcome, human_loser
from bito.rules import all_variants

GAMES = [v for v in all_variants() if v.kind == "game" and v.family not in EVENT_FAMILIES]


def test_one_class_under_every_name() -> None:
    """``bito.games.durak.Outcome`` stays importable and is the protocol's class."""
    assert bito.games.durak.Outcome is Outcome
    assert bito.games.Outcome is Outcome


@pytest.mark.parametrize("family_name", sorted(FAMILIES))
def test_every_family_ends_in_the_one_outcome(family_name: str) -> None:
    """A finished game of each family (random moves until it ends) holds an ``Outcome``, whose
    JSON starts with the three keys every record has."""
    specs = [v.id for v in GAMES if v.family == family_name]
    ended = 0
    for i, spec in enumerate(specs * 3):
        family = family_for(spec)
        rules = family.rules_for(spec)
        state = family.new_game(spec, rules.players_min, seed=100 + i)
        rng = random.Random(i)
        for _ in range(4000):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.outcome is None:
            continue
        ended += 1
        assert type(state.outcome) is Outcome
        assert list(state.outcome.to_json())[:3] == ["loser", "order", "draw"]
    assert ended


def test_a_plain_ending_writes_three_keys() -> None:
    """A game played out with nothing else to tell: the fool, the order, no draw."""
    assert Outcome(loser=2, order=(0, 1, 2), draw=False).to_json() == {
        "loser": 2, "order": [0, 1, 2], "draw": False}
    assert Outcome(loser=None, order=(1, 0), draw=True).to_json() == {
        "loser": None, "order": [1, 0], "draw": True}


def test_durak_keys_in_their_order() -> None:
    """#53-55 teams, #61-63 tallies, #57 the dummy: written after ``draw`` in this order, the
    points with their top scorers, the dummy with the person who lost (none when the dummy
    is the fool, #57 A1)."""
    out = Outcome(loser=3, order=(0, 2, 1, 3), draw=False, reason="repetition",
                  teams=((0, 2), (1, 3)), losing_team=1, points=(4, 6, 6, 0),
                  figures=(1, 2, 0, 0), epaulettes=2, dummy=3)
    data = out.to_json()
    assert list(data) == ["loser", "order", "draw", "reason", "teams", "losing_team", "points",
                          "top_scorers", "figures", "epaulettes", "dummy", "human_loser"]
    assert data["top_scorers"] == [1, 2] and data["human_loser"] is None
    assert human_loser(out) is None
    assert out.team_order == (0, 1)


def test_other_families_keys_in_their_order() -> None:
    """Mau-Mau's penalty points after its rounds and its rounds won (#86-93), *Fool!*'s
    +10 rounds (#95) under their own name, a note: after ``draw``, in this order; a game
    without a dummy charges its fool."""
    out = Outcome(loser=1, order=(0, 2, 1), scores=(3, 40, 12), rounds=5, note="2 blocked",
                  tallies=(3, 0, 2), tally_name="rounds_won")
    assert list(out.to_json()) == ["loser", "order", "draw", "scores", "rounds", "rounds_won",
                                   "note"]
    assert human_loser(out) == 1
    assert "tallies" in Outcome(loser=0, order=(1, 0), tallies=(1, 1)).to_json()
