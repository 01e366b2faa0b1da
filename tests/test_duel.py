"""The two-seat playout loop (``bito.games.durak.duel``, issue 2) against the general engine.

``random_playout`` plays two-seat games under the base rules in one loop over local variables.
It must play exactly the game the general engine plays from the same position and the same
random stream (``DurakState._legal_list`` and ``_step``, one ``rng.random()`` per action):
the same number of actions, and the same state at the end, field by field. Positions are
deals with random §1 and #74-#79 option sets (``kernel.verify.random_rules``), later deals of
a match, and positions part-way through a game in every phase.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bito.games.durak import MatchContext, new_game
from bito.games.durak.duel import duel_applies, duel_playout
from bito.games.durak.playout import random_playout
from bito.games.durak.state import DurakState
from bito.rules import rules_for

verify = pytest.importorskip("bito.kernel.verify", reason="the option sampler needs numpy")

FIELDS = ("hands", "known", "stock", "discard", "attack", "defence", "uncovered",
          "table_ranks", "phase", "to_act", "attacker", "leader", "defender", "taking", "bout",
          "out", "out_mask", "outcome", "last_bout", "seen", "idle")


def _general(s: DurakState, rng: random.Random) -> int:
    """The general engine's random playout (what ``random_playout`` did before the loop)."""
    steps = 0
    rand = rng.random
    while s.outcome is None:
        acts = s._legal_list()
        s._step(acts[int(rand() * len(acts))])
        steps += 1
    return steps


def _fields(s: DurakState) -> dict[str, Any]:
    return {f: getattr(s, f) for f in FIELDS}


def _deal(rng: random.Random) -> DurakState:
    base = rng.choice(verify.BASES)
    rules = verify.random_rules(base, rng)
    match = MatchContext()
    if rng.random() < 0.4:
        fool = rng.randrange(2)
        match = MatchContext(game_number=rng.randint(1, 3), dealer=fool, previous_fool=fool,
                             previous_winner=1 - fool)
    return new_game(rules, 2, seed=rng.getrandbits(62), match=match)


def test_the_loop_plays_the_general_engines_games() -> None:
    rng = random.Random("duel")
    played = phases = 0
    seen_phases = set()
    reasons = set()
    for _ in range(150):
        deal = _deal(rng)
        # from the deal and from a position part-way through, in whatever phase it is
        starts = [deal]
        mid = deal.copy()
        for _ in range(rng.randrange(1, 60)):
            if mid.outcome is not None:
                break
            acts = mid._legal_list()
            mid._step(acts[rng.randrange(len(acts))])
        if mid.outcome is None:
            starts.append(mid)
        for start in starts:
            if not duel_applies(start):
                assert start.rules.lead_shape == "rozaliev"
                continue
            seed = rng.getrandbits(64)
            mine, theirs = start.copy(), start.copy()
            n_mine = duel_playout(mine, random.Random(seed))
            n_theirs = _general(theirs, random.Random(seed))
            assert (n_mine, _fields(mine)) == (n_theirs, _fields(theirs)), (
                start.rules.changed_options(), seed)
            played += 1
            seen_phases.add(start.phase)
            assert theirs.outcome is not None
            reasons.add(theirs.outcome.reason or ("draw" if theirs.outcome.draw else "fool"))
    phases = len(seen_phases)
    assert played > 200 and phases == 3 and "fool" in reasons


def test_drawn_games_end_alike() -> None:
    """Both players going out in the same bout is rare under random play (about one game in
    250): play short games until three such draws have been compared."""
    rules = rules_for("perevodnoy").with_options(**{"deck.size": 24})
    draws = 0
    for seed in range(6000):
        start = new_game(rules, 2, seed=seed)
        mine, theirs = start.copy(), start.copy()
        n_mine = duel_playout(mine, random.Random(seed))
        n_theirs = _general(theirs, random.Random(seed))
        assert (n_mine, _fields(mine)) == (n_theirs, _fields(theirs)), seed
        assert theirs.outcome is not None
        if theirs.outcome.draw:
            draws += 1
            if draws == 3:
                break
    assert draws == 3


def test_random_playout_uses_the_loop_and_leaves_the_state_alone() -> None:
    state = new_game("podkidnoy", 2, seed=5)
    before = _fields(state.copy())
    outcome, steps = random_playout(state, random.Random(9))
    general = state.copy()
    assert _general(general, random.Random(9)) == steps and general.outcome == outcome
    assert _fields(state) == before


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "podkidnoy+armenian"])
def test_an_in_place_playout_ends_where_a_copied_one_does(variant: str) -> None:
    """``in_place=True`` (the benchmark's fresh deals) plays the same game on the state it is
    given, the two-seat loop and the general one alike."""
    for seed in range(5):
        state = new_game(variant, 2 + seed % 2, seed=seed)
        copied = random_playout(state, random.Random(seed))
        assert state.outcome is None
        assert random_playout(state, random.Random(seed), in_place=True) == copied
        assert state.outcome == copied[0]


def test_positions_off_the_engines_bout_shape_keep_the_general_loop() -> None:
    """The loop takes for granted that a lead starts on an empty table and that only the
    attacker leads and throws in; a hand-made state that breaks either is left to the general
    loop (positions reached by play always pass, see the first test)."""
    state = new_game("podkidnoy", 2, seed=3)
    assert duel_applies(state)
    crowded = state.copy()
    crowded.attack, crowded.defence, crowded.uncovered = [state.stock[0]], [-1], 1
    assert not duel_applies(crowded)
    turned = state.copy()
    turned.to_act = turned.defender
    assert not duel_applies(turned)


def test_other_games_keep_the_general_loop() -> None:
    assert duel_applies(new_game("perevodnoy", 2, seed=1))
    assert not duel_applies(new_game("podkidnoy", 3, seed=1))
    assert not duel_applies(new_game(rules_for("podkidnoy").with_options(
        **{"lead.shape": "rozaliev"}), 2, seed=1))
    assert not duel_applies(new_game("podkidnoy+joker_gift", 2, seed=1))
    over = new_game("podkidnoy", 2, seed=1)
    random_playout(over, random.Random(1))
    assert duel_applies(over)  # random_playout works on its own copy


@pytest.mark.parametrize(("spec", "players"), [
    ("believe_not_believe", 3), ("podkidnoy+blind_face_out", 3),
    ("podkidnoy+tossing_dummy", 3), ("podkidnoy+playing_dummy", 3),
    ("podkidnoy+joker_gift", 2), ("podkidnoy+exchange=choose", 3), ("podkidnoy", 4)])
def test_random_playout_plays_every_hooked_move(spec: str, players: int) -> None:
    """``random_playout`` on games whose moves come from hooks (#59's calls, #58's blind
    plays, #56's dummy throws, #24's gifts, #31's choices): the same games as drawing from
    ``_legal_list`` at every step, with the same random stream."""
    for seed in range(4):
        state = new_game(spec, players, seed=seed)
        outcome, steps = random_playout(state, random.Random(seed))
        general = state.copy()
        assert (_general(general, random.Random(seed)), general.outcome) == (steps, outcome)


@pytest.mark.parametrize(("spec", "players"), [
    ("believe_not_believe", 3), ("podkidnoy+tossing_dummy", 3),
    ("podkidnoy+joker_gift", 2), ("podkidnoy+exchange=choose", 3)])
def test_greedy_rollouts_finish_hooked_games(spec: str, players: int) -> None:
    """The search bots' greedy rollouts play the hooked moves too (a call, a gift, a dummy
    throw, an exchange choice) and finish every game with a legal outcome."""
    from bito.bots.rollouts import greedy_playout

    for seed in range(6):
        state = new_game(spec, players, seed=seed)
        outcome = greedy_playout(state, random.Random(seed))
        assert outcome is not None and (outcome.draw or 0 <= outcome.loser < players)


def test_a_stray_known_card_keeps_the_general_loop() -> None:
    """The loop only adds to the known cards and takes them with the hand at the end, which
    needs every known card to start in its holder's hand (as the engine keeps them)."""
    state = new_game("podkidnoy", 2, seed=3)
    assert duel_applies(state)
    stray = state.copy()
    stray.known[0] |= 1 << stray.stock[0]  # a card of the stock, said to be known to seat 0
    assert not duel_applies(stray)
    outcome, steps = random_playout(stray, random.Random(4))
    general = stray.copy()
    assert (_general(general, random.Random(4)), general.outcome) == (steps, outcome)


def test_lead_limits_match_the_rule() -> None:
    """``_lead_limits`` tables what the lead's group size limit was worked out from: the
    lead limit, the room and ``lead_most`` (0 for none)."""
    from bito.games.durak.duel import _lead_limits
    from bito.games.durak.state import _GROUP_MAX

    for lead_max in range(0, 12):
        for lead_most in (0, 1, 2):
            top, most_at = _lead_limits(lead_max, lead_most)
            for room in range(-1, 40):
                limit = min(room, lead_max)
                want = lead_most if lead_most and lead_most <= limit else min(limit, _GROUP_MAX)
                got = min(room, top)
                assert (got <= 0) == (limit <= 0)
                if limit > 0:
                    assert most_at[got] == want, (lead_max, lead_most, room)


@pytest.mark.parametrize("options", [
    {"deck.size": 24}, {"deck.size": 24, "lead.max": 2}, {"deck.size": 24, "lead.max": 3},
    {"deck.size": 52, "lead.shape": "same_rank_1or2"}, {"lead.shape": "single"}])
def test_leads_from_rich_rank_groups_match(options: dict[str, Any]) -> None:
    """Leads are counted from the hand's suit rows and chosen by walking its rank groups:
    short decks (three or four of a rank in one hand) and each lead limit play the general
    engine's games."""
    rules = rules_for("podkidnoy").with_options(**options)
    for seed in range(150):
        start = new_game(rules, 2, seed=seed)
        mine, theirs = start.copy(), start.copy()
        n_mine = duel_playout(mine, random.Random(seed))
        n_theirs = _general(theirs, random.Random(seed))
        assert (n_mine, _fields(mine)) == (n_theirs, _fields(theirs)), (options, seed)
