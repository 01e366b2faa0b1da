"""The table model (issue 33 item 2): every family's view described as data.

The central property: a seat's table model never holds a card that seat may not see -- a card
in another hand that is not publicly known there, a face-down stock or discard card, a card
face down in Cheat's pile or claim that the seat did not put there. The hidden cards are
computed from the full state, not from the view, so a builder that read past the view's
censorship (or a view field that leaked) would fail here. Over random games of every game of
every family, at every seat count it accepts, and for every seat.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bito.games.family import family_for
from bito.games.tables import TableModel, table_of
from bito.rules.registry import all_variants

GAMES = sorted(v.id for v in all_variants() if v.kind == "game" and v.family != "meta"
               and (v.family != "durak" or v.id in ("podkidnoy", "perevodnoy", "team_fool",
                                                     "estonian")))
HIDING_RULES = ("believe_not_believe", "podkidnoy+blind_face_out", "podkidnoy+tossing_dummy",
                "podkidnoy+playing_dummy", "podkidnoy+exchange", "podkidnoy+own_trumps",
                "podkidnoy+buy_in", "podkidnoy+gradual_access", "podkidnoy+joker_gift",
                "podkidnoy+secret_trump", "podkidnoy+recycle_discard")
"""Durak rules that hide or show cards in their own ways: face-down covers (#59), a hand held
face out (#58), the dummies (#56, #57), passed cards (#31), personal trumps (#16), reserves
and locked cards (#37, #35), joker gifts (#24), the secret trump card turned when the stock
runs out (#18), a stock rebuilt from the discard (#38)."""


def _dummy_seen(view: Any) -> int:
    """#56: the tossing dummy's cards a Durak view shows its seat (0 in any other game)."""
    from bito.games.durak import DurakView
    from bito.games.durak.dummy import TossingDummy

    dummy = view.extension(TossingDummy) if isinstance(view, DurakView) else None
    return dummy.hand if dummy is not None else 0


def _mask(cards: Any) -> int:
    if isinstance(cards, int):
        return cards
    out = 0
    for c in cards:
        if c >= 0:
            out |= 1 << c
    return out


def hidden_cards(state: Any, seat: int) -> int:
    """The cards ``seat`` may not see, from the whole state: other hands less what is publicly
    known to be there, the face-down stock and discard, Cheat's face-down cards not his own."""
    main = getattr(state, "main", None)
    if main is not None:  # a prelude handed over to its Durak game
        return hidden_cards(main, seat)
    view = state.view(seat)
    known = getattr(view, "known", ())
    hidden = 0
    for s, hand in enumerate(state.hands):
        if s != seat:  # (#56: the tossing dummy's hand is the last, seen by its controller)
            public = (known[s] if s < len(known) else _dummy_seen(view)) if known else 0
            hidden |= hand & ~public
    stock = _mask(getattr(state, "stock", 0))
    face_up = getattr(view, "stock_face_up", 0)
    extra = getattr(view, "extra", None)  # the bout games' face-up trump card
    trump = extra.get("trump_card", -1) if isinstance(extra, dict) else -1
    if trump >= 0:
        face_up |= 1 << trump
    hidden |= stock & ~face_up
    discard = getattr(state, "discard", 0)
    if isinstance(discard, int):
        hidden |= discard & ~getattr(view, "seen_discard", 0)
    if getattr(view, "blind", False):  # #58: one's own hand is held face out, unseen
        hidden |= state.hands[seat] & ~view.hand
    seen_table = (_mask(getattr(view, "attack", ())) | _mask(getattr(view, "defence", ()))
                  | _mask(getattr(view, "centre", ())))
    hidden |= (_mask(getattr(state, "attack", ())) | _mask(getattr(state, "defence", ()))
               ) & ~seen_table  # #59: a cover laid face down
    if type(state).__name__ == "CheatState":
        hidden |= state.pile & ~state.put_by[seat]
        if view.claimer != seat:
            hidden |= _mask(state.claim)
    return hidden


def _codes(model: TableModel) -> int:
    """The cards the model shows, less the trump card turned up at the deal (checked on its
    own by :func:`_turned_trump`: everybody saw it, wherever it went since)."""
    return _mask(c.code for c in dataclasses.replace(model, trump_card=None).cards())


def _turned_trump(state: Any) -> int:
    """The card turned face up at the deal, from the whole state (-1: none)."""
    main = getattr(state, "main", None)
    if main is not None:
        return _turned_trump(main)
    deal = getattr(state, "deal", None)
    return int(getattr(deal if deal is not None else state, "trump_card", -1))


@pytest.mark.parametrize("spec", GAMES + list(HIDING_RULES))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=(Phase.explicit, Phase.generate))
@given(data=st.data())
def test_a_censored_table_model_never_holds_a_card_its_seat_may_not_see(
        spec: str, data: st.DataObject) -> None:
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = data.draw(st.integers(rules.players_min, min(rules.max_players, 6)))
    if family.seats_partners(rules) and players % 2:
        players -= 1
    seed = data.draw(st.integers(0, 10_000))
    state = family.new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 150))):
        for seat in range(players):
            model = table_of(state.view(seat))
            leaked = _codes(model) & hidden_cards(state, seat)
            assert not leaked, (spec, players, seed, seat, bin(leaked))
            if model.trump_card is not None:  # the one turned up at the deal, no other
                assert model.trump_card.code == _turned_trump(state), (spec, seed, seat)
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", GAMES)
def test_the_model_is_json_and_its_moves_are_the_legal_moves(spec: str) -> None:
    """The model is plain JSON; its moves are the view's legal moves in order, each id read
    back by the family's notation as the same move, each with a label in words; the hand
    zone holds the seat's cards and every seat's count matches the view."""
    family = family_for(spec)
    rules = family.rules_for(spec)
    players = 4 if family.seats_partners(rules) else rules.players_min
    state = family.new_game(spec, players, seed=7)
    rng = random.Random(7)
    for _ in range(40):
        if state.is_over:
            break
        view = state.view(state.to_act)
        model = table_of(view)
        assert json.loads(json.dumps(model.to_json())) == model.to_json()
        assert len(model.moves) == len(view.legal)
        for move, action in zip(model.moves, view.legal, strict=True):
            assert move.label and "_" not in move.kind
            if not str(action).startswith("#"):  # #58's plays by position name no card
                assert family.parse_action(move.id) == action
            else:
                assert move.id == str(action)
        assert [s.cards for s in model.seats] == list(view.hand_counts)
        hand = model.zone("hand")
        assert hand is not None and hand.owner == view.seat
        if not getattr(view, "blind", False):
            assert _mask(c.code for c in hand.cards) == view.hand
        assert model.to_act == view.to_act
        state = state.apply(rng.choice(state.legal_actions()))


def test_fool_cards_are_named_by_colour_and_the_wild_one_as_typed() -> None:
    """#95: Fool!'s cards are coloured numbers (never French suits) and the wild 1 is ``w1``."""
    state = family_for("friese_fool").new_game("friese_fool", 4, seed=3)
    model = table_of(state.view(0))
    hand = model.zone("hand")
    assert hand is not None and hand.cards
    assert model.vocabulary.deck == "fool"
    for c in hand.cards:
        assert not c.suit
        assert (c.wild and c.text == "w1") or (c.colour and c.label.startswith(c.colour))


def test_a_team_game_says_which_team_lost() -> None:
    """#53: a finished partnership game names the losing team's seats, the fool among them."""
    state = family_for("team_fool").new_game("team_fool", 4, seed=1)
    rng = random.Random(1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    model = table_of(state.view(0))
    outcome = state.outcome
    assert model.over
    if outcome.loser is not None:
        assert model.fool == outcome.loser
        assert model.fool in model.losing_team and len(model.losing_team) == 2
    assert {s.team for s in model.seats} == {0, 1}


def test_mau_mau_shows_the_called_suit() -> None:
    """#86: after a wild card the suit called is part of the game's vocabulary."""
    state = family_for("czech_fool").new_game("czech_fool", 2, seed=0)
    rng = random.Random(0)
    for _ in range(2000):
        if state.is_over:
            break
        view = state.view(state.to_act)
        calls = [m for m in view.legal if getattr(m, "call", -1) >= 0]
        action = calls[0] if calls else rng.choice(view.legal)
        state = state.apply(action)
        if calls:
            model = table_of(state.view(0))
            assert model.vocabulary.called_suit == ("clubs", "diamonds", "hearts",
                                                    "spades")[calls[0].call]
            return
    pytest.fail("no wild card was played")
