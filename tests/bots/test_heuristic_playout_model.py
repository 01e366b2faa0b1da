"""The heuristic's defence and attack as playout policies (``bito.bots.rollouts.
heuristic_defence``, ``heuristic_attack``).

A search bot measured against the heuristic plays playouts in which the heuristic's seat is
modelled. The greedy rule covers the first card with its cheapest cover and transfers when
that is no dearer; the heuristic plans the whole table, takes when it cannot cover it all,
takes cheap cards early rather than spend a high trump, and transfers with a trump only
instead of taking (issue 20, item 3). ``SearchBot(defence_model=...)`` lets chosen seats
defend by that model; it is only a faithful model if it picks what the real bot picks, which
these tests check in the real bot's own games (its defence reads nothing hidden, so a world
that deals the true cards gives it the same position).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots.heuristic import HeuristicBot
from bito.bots.rollouts import (
    DEFENCE_MODELS,
    card_worth,
    careful_seats,
    greedy_move,
    heuristic_attack,
    heuristic_defence,
)
from bito.bots.search import SearchBot
from bito.games.durak import DEFEND_PHASE, new_game


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       variant=st.sampled_from(["podkidnoy", "perevodnoy", "simple"]))
def test_model_defends_as_the_heuristic_does(seed: int, players: int, variant: str) -> None:
    """In games of heuristic players, at every defence with a choice the model picks the
    move the heuristic seat really played (covers, transfers and takes alike)."""
    s = new_game(variant, players, seed=seed)
    bots = [HeuristicBot(seed + i) for i in range(players)]
    worth = card_worth(s.beats, s.deal.trump.suits)
    checked = 0
    while s.outcome is None:
        acts = s.legal_actions()
        seat = s.to_act
        played = bots[seat].choose(s.view(seat))
        if s.phase == DEFEND_PHASE and len(acts) > 1:
            assert heuristic_defence(s, list(acts), worth) == played, str(s)
            checked += 1
        s = s.apply(played)
    assert checked > 0


def test_model_differs_from_the_greedy_rule() -> None:
    """The model is not the greedy rule under another name: over heuristic games of
    perevodnoy they part in some defences (the greedy rule covers one card where the
    heuristic, unable to cover all, takes; or transfers with a trump where it covers)."""
    differ = total = 0
    for seed in range(10):
        s = new_game("perevodnoy", 2, seed=seed)
        bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
        worth = card_worth(s.beats, s.deal.trump.suits)
        while s.outcome is None:
            acts = s.legal_actions()
            seat = s.to_act
            if s.phase == DEFEND_PHASE and len(acts) > 1:
                total += 1
                differ += heuristic_defence(s, list(acts), worth) != greedy_move(
                    s, list(acts), worth)
            s = s.apply(bots[seat].choose(s.view(seat)))
    assert total > 50
    assert 0 < differ < total


def test_careful_seats_by_model() -> None:
    assert careful_seats("greedy", 1, 3) == 0
    assert careful_seats("opponents", 1, 3) == 0b101
    assert careful_seats("all", 1, 3) == 0b111
    assert set(DEFENCE_MODELS) == {"greedy", "opponents", "all"}


def test_unknown_model_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="defence_model and attack_model must each be one of"):
        SearchBot(0, playouts=10, defence_model="heuristic")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(["podkidnoy", "perevodnoy"]))
def test_model_leads_and_throws_in_as_the_heuristic_does(seed: int, variant: str) -> None:
    """In two-player games of heuristic players (where its card tracker knows the defender's
    hand once the stock is empty, as the world does), at every lead and throw-in with a
    choice the model picks the heuristic's move or one of equal cost to it (the heuristic
    draws lots between those, the model takes the lower cards)."""
    s = new_game(variant, 2, seed=seed)
    bots = [HeuristicBot(seed), HeuristicBot(seed + 1)]
    worth = card_worth(s.beats, s.deal.trump.suits)
    same = checked = 0
    while s.outcome is None:
        acts = s.legal_actions()
        seat = s.to_act
        view = s.view(seat)
        played = bots[seat].choose(view)
        if s.phase != DEFEND_PHASE and len(acts) > 1:
            model = heuristic_attack(s, list(acts), worth)
            if model != played:
                assert model.cards and played.cards, (str(s), str(model), str(played))
                cost = bots[seat].attack_cost  # (the heuristic's own yardstick)
                assert cost(view, model) == cost(view, played), (str(s), str(model))
            same += model == played
            checked += 1
        s = s.apply(played)
    assert checked > 0 and same >= checked * 0.8
