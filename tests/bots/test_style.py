"""Worlds weighted by an opponent model (issue 20, item 6; :mod:`bito.bots.style`).

The model replays the heuristic at every move it saw an opponent make, in a possible world.
Against a real heuristic opponent the true deal is one of the worlds, so replayed there the
model must play exactly the moves he played (ties included): every replayable move fits.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots.determinize import template
from bito.bots.heuristic import HeuristicBot
from bito.bots.search import SearchBot
from bito.bots.style import (
    OpponentModel,
    StyledWorlds,
    heuristic_choices,
    position,
    replayable,
)
from bito.bots.tracking import CardTracker
from bito.cards import rank_of, suit_of
from bito.games import new_game
from bito.games.durak import DurakState
from bito.games.family import seen_by
from bito.games.protocol import Hidden
from bito.sim import play_game


def _heuristic_game(variant: str, players: int, seed: int
                    ) -> list[tuple[DurakState, CardTracker]]:
    """Seat 0's decisions in a game of heuristic bots: the true position and seat 0's tracker
    (fed every other seat's move) at each."""
    s = new_game(variant, players, seed=seed)
    bots = [HeuristicBot(seed * 10 + i) for i in range(players)]
    tracker = CardTracker()
    out = []
    while not s.is_over:
        seat = s.to_act
        if seat == 0:
            tracker.update(s.view(0))
            now = CardTracker()
            now.update(s.view(0))
            now.moves = list(tracker.moves)  # the moves seen so far, not the later ones
            out.append((s, now))
        a = bots[seat].choose(s.view(seat))
        if seat != 0:
            tracker.observe(s.view(0), seat, seen_by(s, a, 0))
        s = s.apply(a)
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]),
       variant=st.sampled_from(["podkidnoy", "perevodnoy"]))
def test_the_true_deal_fits_every_replayed_move(seed: int, players: int, variant: str) -> None:
    model = HeuristicBot(0)
    replayed = 0
    for s, tracker in _heuristic_game(variant, players, seed):
        view = s.view(0)
        for r in replayable(tracker, view):
            o = r.move.seat
            past = position(r.then, o, s.hands[o] | r.laid)
            assert past is not None, "the true hand must be a possible hand then"
            seen = past.view(o)
            assert r.move.action in seen.legal
            assert r.move.action in heuristic_choices(seen, model)
            replayed += 1
    assert replayed > 0


def test_moves_that_hide_their_cards_are_not_kept() -> None:
    s = new_game("podkidnoy", 2, seed=3)
    tracker = CardTracker()
    a = s.legal_actions()[0]
    tracker.observe(s.view(1 - s.to_act), s.to_act, Hidden("defend", 1, "?"))
    assert tracker.moves == []
    tracker.observe(s.view(1 - s.to_act), s.to_act, a)
    assert [m.action for m in tracker.moves] == [a]


def test_the_game_loop_shows_a_search_bot_the_other_seats_moves() -> None:
    bot = SearchBot(1, think_ms=0, playouts=60)
    result = play_game(new_game("podkidnoy", 2, seed=5), [bot, HeuristicBot(2)])
    theirs = [a for a, seat in zip(result.actions, result.seats, strict=True) if seat == 1]
    mine = [m.action for m in bot.tracker.moves]
    # The tracker keeps the moves of the last deal only, in order: all of seat 1's.
    assert mine == theirs
    assert all(m.seat == 1 for m in bot.tracker.moves)


def test_a_lead_tells_the_styled_worlds_he_holds_nothing_cheaper() -> None:
    """A heuristic leader leads his cheapest plain rank: worlds where he held a cheaper plain
    card must become rarer than among uniform worlds."""
    found = 0
    for seed in range(40):
        s = new_game("podkidnoy", 2, seed=seed)
        if s.to_act != 1:
            continue
        lead = HeuristicBot(0).choose(s.view(1))
        trump = s.deal.trump_suit
        if len(lead.cards) != 1 or suit_of(lead.cards[0]) == trump:
            continue  # (a pair may be led before a cheaper single card)
        tracker = CardTracker()
        tracker.observe(s.view(0), 1, lead)
        s = s.apply(lead)
        view = s.view(0)
        t = template(view, tracker)
        replays = replayable(tracker, view)
        assert len(replays) == 1
        low = rank_of(lead.cards[0])

        def cheaper(w: DurakState, low: int = low, trump: int = trump) -> bool:
            return any(rank_of(c) < low and suit_of(c) != trump
                       for c in range(64) if w.hands[1] >> c & 1)

        rng = random.Random(seed)
        uniform = sum(cheaper(t.sample(rng)) for _ in range(256))
        styled = StyledWorlds(t, replays, OpponentModel(0.1))
        weighted = sum(cheaper(styled.sample(rng)) for _ in range(256))
        if uniform < 40:
            continue  # too few uniform worlds with a cheaper card to tell
        found += 1
        assert weighted < uniform / 2, (seed, uniform, weighted)
    assert found >= 3


def test_the_search_with_style_plays_legal_moves_and_counts_its_replays() -> None:
    bot = SearchBot(4, think_ms=0, playouts=200, style=True)
    result = play_game(new_game("perevodnoy", 3, seed=8),
                       [bot, HeuristicBot(1), HeuristicBot(2)])
    assert result.outcome is not None
    assert bot.style is not None and bot.style.replays > 0
    assert 0 < bot.style.fits <= bot.style.replays
