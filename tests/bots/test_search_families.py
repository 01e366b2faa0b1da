"""The search bot of the non-Durak families (issue 7): worlds consistent with the view, legal
moves, reproducible choices, and the levels' dispatch by view type.

A world is checked against the real game it was sampled from: its view for the seat equals the
seat's view (everything the seat can see, legal moves included), it holds exactly the cards of
the real position (none created or lost, none twice), and the real position satisfies every
constraint the sampler remembered (so the real deal is one of the worlds it can draw).
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.bots import make_bot
from bito.bots.levels import LevelBot, make_level
from bito.bots.pimc import FamilySearchBot, standing
from bito.bots.worlds import Unsatisfiable, deal_slots, sampler_for
from bito.games import new_game
from bito.games.bouts.worlds import BoutsSampler
from bito.games.shedding.worlds import MauMauSampler, fitting
from bito.games.social.worlds import AnimalSampler
from bito.games.tricks.worlds import FoolSampler

GAMES = [  # (variant, player counts)
    ("czech_fool", (2, 3, 4)),        # #86
    ("czech_draw_one", (2, 3)),       # #87: the drawn card may be kept (DRAWN phase)
    ("english_fool", (2, 4)),         # #90: the English ace (FOLLOW phase)
    ("ontoys_adjacent_rank", (2, 3, 5)),  # #94
    ("friese_fool", (4, 5, 7)),       # #95
    ("animal_sounds", (2, 3, 4)),     # #60
    ("believe_not_believe_2", (2, 3, 4)),  # #85
    ("heaped", (2, 3)),               # #69
    ("heaped_top_n", (2, 4)),         # #70
    ("chain_fool", (2, 3)),           # #71
    ("chinese", (2, 3)),              # #65
    ("chinese_pass_on", (3, 4)),      # #66
    ("polish_fool", (2, 3)),          # #72
]


def cards_of_state(s: Any) -> list[int]:
    """Every card of a position, wherever it lies (a multiset, as a sorted list)."""
    out: list[int] = []

    def bits(m: int) -> None:
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low

    for h in s.hands:
        bits(h)
    name = type(s).__name__
    if name in ("MauMauState", "AdjacentState"):
        out += list(s.stock) + list(s.pile)
    elif name == "FoolState":
        out += [c for _, c in s.trick]
        bits(s.gone)
    elif name == "AnimalState":
        out += list(s.pile)
    elif name == "CheatState":
        bits(s.pile)
        out += list(s.claim)
    else:  # the bout-structure games
        out += list(s.stock) + list(s.centre())
        bits(s.discard)
    return sorted(out)


def truth_satisfies(sampler: Any, state: Any, seat: int) -> bool:
    """Whether the real position keeps every constraint the sampler remembered."""
    n = state.players
    if isinstance(sampler, FoolSampler):
        return all(state.hands[s] & sampler.banned(s) == 0 for s in range(n) if s != seat)
    if isinstance(sampler, AnimalSampler):
        from bito.cards import rank_of
        return all(not any(rank_of(c) in ranks for c in _bits(state.hands[s]))
                   for s, ranks in sampler.voids.items() if s != seat)
    if isinstance(sampler, MauMauSampler):  # at least ``bound`` cards outside ``void``
        return all((state.hands[s] & ~sampler.void[s]).bit_count() >= b
                   for s, b in sampler.bound.items() if s != seat)
    if isinstance(sampler, BoutsSampler):
        view = state.view(seat)
        known = view.hand | sum(1 << c for c in view.centre)
        for k in view.known:
            known |= k
        gone = sampler.seen_centre & ~known
        return gone & ~state.discard == 0
    return True


def _bits(m: int) -> list[int]:
    return [c for c in range(m.bit_length()) if m >> c & 1]


def _play_to(variant: str, players: int, seed: int, steps: int
             ) -> tuple[Any, list[Any]]:
    """A position ``steps`` actions into a game of heuristic bots (one move in five random),
    and per seat a sampler that observed every view of that seat on the way and watched
    every move of the other seats, as the game loop shows them (``bito.sim.play_game``)."""
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed + s) for s in range(players)]
    samplers = [sampler_for(state.view(s)) for s in range(players)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_act
        view = state.view(seat)
        samplers[seat].observe(view)
        legal = view.legal
        action = legal[rng.randrange(len(legal))] if rng.random() < 0.2 else \
            bots[seat].choose(view)
        for other, sampler in enumerate(samplers):
            watch = getattr(sampler, "watch", None)
            if other != seat and watch is not None:
                watch(state.view(other), seat, action)
        state = state.apply(action)
    return state, samplers


@pytest.mark.parametrize(("variant", "counts"), GAMES)
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_worlds_agree_with_the_view(variant: str, counts: tuple[int, ...],
                                    data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(counts), label="players")
    seed = data.draw(st.integers(0, 10_000), label="seed")
    steps = data.draw(st.integers(0, 150), label="steps")
    state, samplers = _play_to(variant, players, seed, steps)
    if state.is_over:
        return
    seat = state.to_act
    view = state.view(seat)
    sampler = samplers[seat]
    sampler.observe(view)
    assert truth_satisfies(sampler, state, seat)
    real = cards_of_state(state)
    assert len(set(real)) == len(real)
    rng = random.Random(seed)
    for _ in range(3):
        world = sampler.sample(view, rng)
        seen = world.view(seat)
        assert seen == view
        assert getattr(seen, "extra", None) == getattr(view, "extra", None)
        assert cards_of_state(world) == real  # no card created, lost or doubled
        assert world.hands[seat] == state.hands[seat]


def test_fool_void_shown_by_an_off_colour_card() -> None:
    """#95, S2:31: who cannot follow the colour led shows a void; no world deals him a card
    of that colour for the rest of the round."""
    from bito.games.tricks.fool import COLOURS, colour_of, is_wild
    from bito.games.tricks.worlds import voids_in

    plays = ((0, 32 * 1 + 5), (1, 32 * 1 + 9), (2, 32 * 3 + 4), (3, 4 * 32))  # r5 r9 b4 1
    assert voids_in(plays) == [(2, COLOURS.index("r"))]
    for seed in range(40):  # find a real position where someone showed a void
        state, samplers = _play_to("friese_fool", 4, seed, 30)
        seat = state.to_act
        sampler = samplers[seat]
        sampler.observe(state.view(seat))
        voids = {s: c for s, c in sampler.voids.items() if s != seat and c}
        if not voids:
            continue
        world = sampler.sample(state.view(seat), random.Random(seed))
        for s, colours in voids.items():
            held = [c for c in _bits(world.hands[s]) if not is_wild(c)]
            assert not any(colour_of(c) in colours for c in held)
        return
    pytest.fail("no void shown in 40 games")


@pytest.mark.parametrize("variant", ["czech_fool", "czech_draw_one", "english_fool",
                                     "czech_32card"])
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_fitting_cards_are_the_engines(variant: str, seed: int, steps: int) -> None:
    """#86 S1:21, 27-29 (and the options' match rules): the cards the sampler takes to fit
    a view's pile are exactly those the engine lets a player put on it."""
    state, _ = _play_to(variant, 2, seed, steps)
    view = state.view(state.to_act)
    from bito.cards import standard_deck

    deck = standard_deck(state.rules.deck_size)
    want = sum(1 << c for c in deck if state.fits(c)) if state.pile else 0
    assert fitting(view) == want


def test_maumau_draw_shows_what_the_drawer_lacks() -> None:
    """#86 S1:23 and A4: a player draws only when nothing of his fits, and every card he
    draws but the one he must play did not fit either; so until a penalty gives him cards
    or he draws again, no world gives him a card that fitted the pile when he drew. Cards
    given by a penalty (a 6 or 7) are free; they may fit."""
    found = 0
    for seed in range(60):
        state, samplers = _play_to("czech_fool", 2, seed, 25)
        if state.is_over:
            continue
        seat = state.to_act
        sampler = samplers[seat]
        view = state.view(seat)
        sampler.observe(view)
        other = 1 - seat
        if other not in sampler.bound or not sampler.bound[other]:
            continue
        found += 1
        void, bound = sampler.void[other], sampler.bound[other]
        assert (state.hands[other] & ~void).bit_count() >= bound  # the truth keeps it
        rng = random.Random(seed)
        for _ in range(5):
            world = sampler.sample(view, rng)
            assert world.view(seat) == view
            assert (world.hands[other] & ~void).bit_count() >= bound
        if found >= 5:
            return
    pytest.fail(f"a remembered draw in only {found} of 60 positions")


def test_deal_slots_respects_bans_and_refuses_the_impossible() -> None:
    pool = list(range(10))
    low = sum(1 << c for c in range(5))
    for seed in range(20):
        slots = deal_slots(pool, [5, 3, 2], [low, 0, 0], random.Random(seed))
        assert sorted(c for s in slots for c in s) == pool
        assert all(c >= 5 for c in slots[0])
    with pytest.raises(Unsatisfiable):
        deal_slots(pool, [6, 4], [low, 0], random.Random(0))  # only 5 cards allowed


@pytest.mark.parametrize(("variant", "players", "steps"), [
    ("czech_fool", 2, 7), ("english_fool", 3, 20), ("ontoys_adjacent_rank", 2, 3),
    ("friese_fool", 4, 9), ("animal_sounds", 3, 11), ("believe_not_believe_2", 3, 5),
    ("heaped", 2, 4), ("chinese", 3, 2), ("polish_fool", 2, 6), ("chain_fool", 3, 5)])
def test_search_plays_a_legal_move_and_repeats_itself(variant: str, players: int,
                                                      steps: int) -> None:
    state, _ = _play_to(variant, players, 5, steps)
    for _ in range(6):  # the first decision with a choice from here
        view = state.view(state.to_act)
        if len(view.legal) > 1 and getattr(view, "phase", "") != "judge":
            break
        state = state.apply(view.legal[0])
    view = state.view(state.to_act)
    moves = [FamilySearchBot(11, think_ms=0, playouts=24, min_worlds=2).choose(view)
             for _ in range(2)]
    assert moves[0] in view.legal
    assert moves[0] == moves[1]  # same seed and playout budget: same move


def test_levels_dispatch_by_view_type() -> None:
    """A level searches every family, the Durak face-down covers (#59) included: their
    worlds deal the hidden covers like hidden hand cards."""
    shed = new_game("czech_fool", 2, seed=3)
    bot = make_level("strong", 1, think_ms=0, playouts=16)
    assert isinstance(bot, LevelBot)
    view = shed.view(shed.to_act)
    assert bot.choose(view) in view.legal
    assert bot.fallbacks == 0 and bot._family is not None
    face_down = new_game("believe_not_believe", 2, seed=4)
    while len(face_down.view(face_down.to_act).legal) < 2:
        face_down = face_down.apply(face_down.legal_actions()[0])
    view = face_down.view(face_down.to_act)
    bot = make_level("medium", 1, think_ms=0, playouts=16)
    assert bot.choose(view) in view.legal
    assert bot.fallbacks == 0 and not bot.errors
    assert all(e.samples > 0 for e in bot.last)  # searched, not handed to the heuristic
    easy = make_level("easy", 1)
    view = shed.view(shed.to_act)
    assert easy.choose(view) in view.legal


def test_standing_orders_seats_by_margin() -> None:
    """A cut-off playout scores the seat by its margin: fewer cards than the fullest other
    hand is good, more is bad (the fool is the last holding cards)."""
    state = new_game("believe_not_believe_2", 3, seed=2)
    s = state.copy()
    s.hands = [0b1, 0b111111, 0b11]
    assert standing(s, 0) > standing(s, 2) > 0.5 > standing(s, 1)


def test_cheat_claims_are_judged_by_the_heuristic() -> None:
    """#85: Cheat is the heuristic's at every level, the doubt and the put: searching it, or
    judging by the claimer model, lost to the heuristic (docs/history.md)."""
    from bito.bots.families import cheat

    for seed in range(30):
        state, _ = _play_to("believe_not_believe_2", 3, seed, 40)
        view = state.view(state.to_act)
        if view.phase != "doubting":
            continue
        bot = FamilySearchBot(3, think_ms=0, playouts=8)
        assert bot.choose(view) == cheat(view)
        assert bot.last == []  # no search was run
        put = _play_to("believe_not_believe_2", 3, seed, 3)[0]
        put_view = put.view(put.to_act)
        assert bot.choose(put_view) == cheat(put_view) and bot.last == []
        return
    pytest.fail("no claim being judged in 30 positions")


def test_maumau_standing_follows_the_rounds_left() -> None:
    """#86 A5 (a match of rounds, the highest total loses): a playout that ends with the
    round scores the match standing, which must weigh a lead by the rounds still to play.
    With four rounds left a 20-point lead is far from a won match; with one left it counts
    for more; and the curve is the normal model of the rounds left (one round's spread
    ``MAUMAU_ROUND_SPREAD``), to within 0.01."""
    from bito.bots.families import MAUMAU_ROUND_SPREAD

    state = new_game("czech_fool", 2, seed=1)
    early, late = state.copy(), state.copy()
    early.round, late.round = 1, state.rules.rounds - 1
    for s in (early, late):
        s.scores = [0, 20]  # seat 0 has 20 penalty points fewer
    assert 0.5 < standing(early, 0) < 0.75
    assert standing(late, 0) > standing(early, 0)
    assert math.isclose(standing(early, 0) + standing(early, 1), 1.0)
    for s, left in ((early, 4), (late, 1)):
        z = 20 / (MAUMAU_ROUND_SPREAD * math.sqrt(left))
        normal = 0.5 * (1 + math.erf(z / math.sqrt(2)))
        assert abs(standing(s, 0) - normal) < 0.01
