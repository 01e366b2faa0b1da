"""Cheat (#85 ``believe_not_believe_2``; the seeds only name it at S4:15, the rules are bito's
choice in docs/games.md): a card put down goes face down, so what the other seats know must
not depend on which card it was, even when every seat saw that card go into the hand (taken
up with the pile after a doubt).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bito.games import new_game
from bito.games.social import CheatState
from bito.games.social.cheat import PUT


def _views_after_each_play(s: CheatState) -> list[list[object]]:
    """For every card the seat to act may put down: the other seats' views afterwards."""
    plays = [a for a in s.legal_actions() if a.kind == "play"]
    others = [v for v in range(s.players) if v != s.to_act]
    return [[s.apply(a).view(v) for v in others] for a in plays]


def _walk(players: int, seed: int, steps: int) -> tuple[int, int]:
    """Plays random legal moves (``random.Random(seed)``), checking at every put-down that the
    others' views do not tell which card went down; returns how many put-downs were checked
    and how many of them were by a seat with publicly known cards."""
    s = new_game("believe_not_believe_2", players=players, seed=seed)
    rng = random.Random(seed)
    checked = with_known = 0
    for _ in range(steps):
        if s.is_over:
            break
        if s.phase == PUT:
            views = _views_after_each_play(s)
            if views:
                checked += 1
                with_known += bool(s.view(s.to_act).known[s.to_act])
                assert all(v == views[0] for v in views), (
                    f"the others' views tell which card seat {s.to_act} put down")
        acts = s.legal_actions()
        s = s.apply(acts[rng.randrange(len(acts))])
    return checked, with_known


def test_a_known_card_put_down_does_not_show() -> None:
    """#85; S4:15 "Веришь — не веришь (2)", rules of docs/games.md (cards go down face down):
    the sweep's reproducer (3 seats, seed 0, moves by random.Random(0)) reaches a seat putting
    down a card everyone saw it take (4h); whichever card it puts down, the other seats' views
    are the same, so the card's leaving the known set cannot give it away."""
    checked, with_known = _walk(3, 0, 400)
    assert with_known > 0 and checked > with_known


def test_a_face_down_play_forgets_the_seats_public_cards() -> None:
    """#85; S4:15, docs/games.md: after a seat puts a card face down the others cannot be
    sure any card they saw go into its hand is still there (it may have been any of them),
    so that seat's public knowledge is empty until a doubt reveals cards again."""
    s = new_game("believe_not_believe_2", players=3, seed=0)
    rng = random.Random(0)
    seen = False
    for _ in range(400):
        if s.is_over:
            break
        acts = s.legal_actions()
        a = acts[rng.randrange(len(acts))]
        before = s.view((s.to_act + 1) % s.players).known[s.to_act]
        seat = s.to_act
        s = s.apply(a)
        if a.kind == "play":
            seen = seen or bool(before)
            assert all(s.view(v).known[seat] == 0 for v in range(s.players))
    assert seen


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_views_never_tell_which_card_went_down(players: int, seed: int) -> None:
    """#85; S4:15, docs/games.md: at every put-down of a random game, the other seats' views
    after it are the same whichever of the hand's cards went down."""
    _walk(players, seed, 150)
