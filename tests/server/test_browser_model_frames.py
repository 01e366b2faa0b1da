"""The browser's frames of every family, Durak included, come from the table model alone
(issue 34 item 1), and keep its guarantee: a seat's frame shows no card its model does not
hold, and a spectator's frame only cards every seat sees (a Cheat claim's cards, a seat's own
cards in the face-down pile, a hand, a hand held face out (#58), the tossing dummy's cards
(#56), a cover laid face down (#59) are never in it). Random games of every family, seeds
drawn by Hypothesis."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.games.tables import table_of
from bito.rules.registry import all_variants
from bito.server import games
from bito.server.render import render_open, render_public, render_view

GAMES = sorted(v.id for v in all_variants() if v.kind == "game"
               and v.family not in ("durak", "meta"))
SEATS = {"friese_fool": 4, "team_fool": 4}
DURAK = ["podkidnoy", "perevodnoy", "team_fool", "believe_not_believe",  # #59
         "podkidnoy+blind_face_out", "podkidnoy+tossing_dummy",  # #58, #56
         "podkidnoy+playing_dummy", "perevodnoy+transfer.show_trump=true"]  # #57, #83


def frame_cards(frame: Any) -> set[str]:
    """Every card a frame names: a card's ``c``, a move's ``cards`` and ``target``."""
    found: set[str] = set()
    if isinstance(frame, dict):
        for key, value in frame.items():
            if key == "c" and isinstance(value, str):
                found.add(value)
            elif key == "cards" and isinstance(value, list):
                found.update(v for v in value if isinstance(v, str))
            elif key == "target" and isinstance(value, str):
                found.add(value)
            else:
                found |= frame_cards(value)
    elif isinstance(frame, list):
        for value in frame:
            found |= frame_cards(value)
    return found


def model_cards(view: Any) -> set[str]:
    return {c.text for c in table_of(view).cards()}


def check_frames(game: str, seed: int) -> None:
    players = SEATS.get(game, 3)
    state = games.new_state(games.Setup(game, players, seed))
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        seen = []
        for seat in range(players):
            view = state.view(seat)
            frame = render_view(view)
            # cards travel in notation only (one pattern finds them all), moves' words too
            assert not set("♣♦♥♠") & set(json.dumps(frame, ensure_ascii=False)), game
            mine = model_cards(view)
            assert frame_cards(frame) <= mine, (game, seat, frame_cards(frame) - mine)
            assert frame["model"] and "text" not in frame  # drawn, never a text dump
            seen.append(mine)
        public = render_public(state)
        assert public["hand"] == [] and public["legal"] == []
        everyone = set.intersection(*seen)
        assert frame_cards(public) <= everyone, (game, frame_cards(public) - everyone)
        state = state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10_000))
def test_frames_hold_only_the_models_cards(game: str, seed: int) -> None:
    check_frames(game, seed)


@settings(max_examples=8, deadline=None)
@given(game=st.sampled_from(DURAK), seed=st.integers(0, 10_000))
def test_durak_frames_hold_only_the_models_cards(game: str, seed: int) -> None:
    """Durak's hiding rules among them: #56, #57, #58, #59."""
    check_frames(game, seed)


@pytest.mark.parametrize("game", ["believe_not_believe_2", "friese_fool", "czech_fool"])
def test_the_replay_shows_every_hand_in_the_games_own_cards(game: str) -> None:
    """Once over, the replay's frame holds every seat's hand as its model names it (Fool!'s
    colours, not French suits)."""
    players = SEATS.get(game, 3)
    state = games.new_state(games.Setup(game, players, 4))
    rng = random.Random(4)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    frame = render_open(state)
    for seat, hand in enumerate(frame["hands"]):
        own = next((z for z in table_of(state.view(seat)).zones
                    if z.kind == "hand" and z.owner == seat), None)
        assert own is not None
        assert sorted(c["c"] for c in hand) == sorted(c.text for c in own.cards)
