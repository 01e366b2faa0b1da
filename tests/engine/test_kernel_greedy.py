"""The compiled greedy playouts (``bito.kernel.greedy``) against the Python greedy policy.

The search bots finish their worlds with the greedy policy of ``bito.bots.rollouts``; with the
kernel installed they run it compiled. Both must pick the same move in every position, or a
search would judge moves by a different standard depending on what is installed. Positions
come from random games of the three base games with random §1 options
(``verify.random_deal``) and 2-6 seats; with no randomness (epsilon 0) the two policies must
agree decision by decision and so play the same game to the same fool.
"""

from __future__ import annotations

import random

import pytest

from bito.bots.rollouts import (
    PLAIN_LIMIT,
    card_worth,
    greedy_move,
    greedy_playout,
    greedy_scores,
    heuristic_attack,
    heuristic_defence,
    kernel_greedy_usable,
)
from bito.games.durak import DurakState, new_game
from bito.games.durak.playout import move_generators

numba = pytest.importorskip("numba", reason="the kernel needs the fast extra")

import numpy as np  # noqa: E402

from bito.kernel import MAX_STEPS  # noqa: E402
from bito.kernel.convert import action_code, converted, from_state  # noqa: E402
from bito.kernel.core import legal_actions_of  # noqa: E402
from bito.kernel.greedy import (  # noqa: E402
    EPSILON_SCALE,
    SCRATCH_SIZE,
    greedy_choice,
    greedy_losers,
)
from bito.kernel.greedy import heuristic_attack as compiled_attack  # noqa: E402
from bito.kernel.greedy import heuristic_defence as compiled_defence  # noqa: E402
from bito.kernel.verify import VERIFIED, random_deal, taken_over  # noqa: E402


def _limits(state: DurakState) -> tuple[object, float, float]:
    worth = card_worth(state.beats, state.deal.trump.suits)
    return worth.kernel_worth(converted(state)[1]), worth.limit_stock, worth.limit_empty


def _random_positions(base: str, rng: random.Random, count: int) -> list[DurakState]:
    """Positions along random games (a random cut of each), all the kernel plays."""
    out: list[DurakState] = []
    while len(out) < count:
        state = taken_over(random_deal(base, rng), rng)  # (#21: once 63 cards are in play)
        if not kernel_greedy_usable(state):
            continue
        cut = rng.randrange(0, 60)
        gens = move_generators(state)
        for _ in range(cut):
            if state.outcome is not None:
                break
            acts = gens[state.phase]()
            state.step_unchecked(rng.choice(acts))
        if state.outcome is None:
            out.append(state)
    return out


@pytest.mark.parametrize("base", VERIFIED)
def test_compiled_policy_picks_the_python_greedy_move(base: str) -> None:
    """Along a whole greedy game from each position, the kernel's choice among its own list of
    legal moves is the move ``rollouts.greedy_move`` picks (same cards, kind and target)."""
    rng = random.Random(f"greedy-{base}")
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    decisions = 0
    for start in _random_positions(base, rng, 25):
        s = start.copy()
        gens = move_generators(s)
        while s.outcome is None:
            acts = gens[s.phase]()
            # (#21's numbering follows the discard, #18's turned secret card the beat table:
            # the worths and codes of this position's, on both sides)
            worth = card_worth(s.beats, s.deal.trump.suits)
            worth_arr, lim_stock, lim_empty = _limits(s)
            arr, index = converted(s)
            k = legal_actions_of(arr, masks, metas)
            assert k == len(acts)
            if k > 1:
                i = greedy_choice(arr, masks, metas, k, worth_arr, lim_stock, lim_empty)
                assert (int(masks[i]), int(metas[i])) == action_code(
                    greedy_move(s, acts, worth), index), (str(s), base)
                decisions += 1
            s.step_unchecked(greedy_move(s, acts, worth) if k > 1 else acts[0])
    assert decisions > 300


@pytest.mark.parametrize("base", VERIFIED)
def test_greedy_games_end_with_the_same_fool(base: str) -> None:
    """With epsilon 0 both playouts are deterministic: the same fool (or draw) from every
    position, and the kernel reports a whole game."""
    rng = random.Random(f"greedy-fool-{base}")
    fools = set()
    for start in _random_positions(base, rng, 30):
        worth_arr, lim_stock, lim_empty = _limits(start)
        losers = np.empty(1, np.int64)
        steps = greedy_losers(from_state(start), 1, 7, worth_arr, lim_stock, lim_empty, 0,
                              MAX_STEPS, losers)
        outcome = greedy_playout(start, random.Random(7), epsilon=0.0)
        assert outcome is not None and steps > 0
        expected = -1 if outcome.loser is None else outcome.loser
        assert int(losers[0]) == expected, str(start)
        fools.add(expected)
    assert len(fools) > 1  # the positions are not all alike


@pytest.mark.parametrize("plain_limit", [PLAIN_LIMIT, 0.8])
def test_move_scores_match_the_python_fallback(plain_limit: float) -> None:
    """``greedy_scores`` gives every legal move the same score in the kernel as in Python when
    there is no randomness, and a different world changes some score (the check is live);
    also with another throw-in limit, which both must read from the same worths."""
    rng = random.Random("scores")
    compared = 0
    for start in _random_positions("perevodnoy", rng, 20):
        legal = start.legal_actions()
        seat = start.to_act
        kernel = greedy_scores(start, legal, seat, 11, epsilon=0.0, plain_limit=plain_limit)
        python = [_python_score(start, a, seat, plain_limit) for a in legal]
        assert kernel == python, str(start)
        compared += len(legal)
    assert compared > 40


def _python_score(state: DurakState, action: object, seat: int,
                  plain_limit: float = PLAIN_LIMIT) -> float:
    child = state.copy()
    child.step_unchecked(action)  # type: ignore[arg-type]
    outcome = child.outcome or greedy_playout(child, random.Random(0), epsilon=0.0,
                                              plain_limit=plain_limit)
    assert outcome is not None
    if outcome.loser == seat:
        return 0.0
    return 0.5 if outcome.draw and state.players == 2 else 1.0


def test_epsilon_makes_playouts_differ_and_stay_whole() -> None:
    """With epsilon the kernel's playouts from one position differ from each other (the random
    moves are drawn), and every one ends in a fool or a draw."""
    state = new_game("podkidnoy", 3, seed=5)
    worth_arr, lim_stock, lim_empty = _limits(state)
    losers = np.empty(200, np.int64)
    greedy_losers(from_state(state), 200, 3, worth_arr, lim_stock, lim_empty,
                  int(0.3 * EPSILON_SCALE), MAX_STEPS, losers)
    assert set(losers.tolist()) <= {-1, 0, 1, 2}
    assert len(set(losers.tolist())) > 1


@pytest.mark.parametrize("base", VERIFIED)
def test_compiled_heuristic_policy_picks_the_python_one(base: str) -> None:
    """``SearchBot(defence_model=..., attack_model=...)``'s playouts: along whole games from
    random positions in which every seat plays as the heuristic does, the kernel's move is
    the one ``rollouts.heuristic_defence`` or ``rollouts.heuristic_attack`` picks at every
    decision with a choice."""
    rng = random.Random(f"heuristic-defence-{base}")
    masks = np.empty(8192, np.int64)
    metas = np.empty(8192, np.int64)
    scratch = np.empty(SCRATCH_SIZE, np.int64)
    decisions = attacks = 0
    for start in _random_positions(base, rng, 25):
        worth = card_worth(start.beats, start.deal.trump.suits)
        s = start.copy()
        gens = move_generators(s)
        while s.outcome is None:
            acts = gens[s.phase]()
            arr, index = converted(s)
            k = legal_actions_of(arr, masks, metas)
            data = worth.kernel_defence(index, s.rules.deck_size)
            if k > 1 and s.phase == 1:
                move = heuristic_defence(s, acts, worth)
                i = compiled_defence(arr, masks, metas, k, data, scratch)
                assert (int(masks[i]), int(metas[i])) == action_code(move, index), str(s)
                decisions += 1
            elif k > 1:
                move = heuristic_attack(s, acts, worth)
                worth_arr, lim_stock, lim_empty = _limits(s)
                i = compiled_attack(arr, masks, metas, k, data, worth_arr, lim_stock,
                                    lim_empty)
                assert (int(masks[i]), int(metas[i])) == action_code(move, index), str(s)
                attacks += 1
            else:
                move = acts[0]
            s.step_unchecked(move)
    assert decisions > 100
    assert attacks > 100


def test_move_scores_with_the_heuristic_policy_match_python() -> None:
    """With the opponents playing as the heuristic does, ``greedy_scores`` gives every
    move the same score in the kernel as in Python (no randomness), and the model changes
    some score against the plain greedy playouts (it is read)."""
    rng = random.Random("careful-scores")
    compared = changed = 0
    for start in _random_positions("perevodnoy", rng, 20):
        legal = start.legal_actions()
        seat = start.to_act
        careful = ((1 << start.players) - 1) & ~(1 << seat)
        kernel = greedy_scores(start, legal, seat, 11, epsilon=0.0, careful=careful,
                               shrewd=careful)
        python = []
        for a in legal:
            child = start.copy()
            child.step_unchecked(a)
            outcome = child.outcome or greedy_playout(child, random.Random(0), epsilon=0.0,
                                                      careful=careful, shrewd=careful)
            assert outcome is not None
            python.append(0.0 if outcome.loser == seat
                          else 0.5 if outcome.draw and start.players == 2 else 1.0)
        assert kernel == python, str(start)
        compared += len(legal)
        changed += kernel != greedy_scores(start, legal, seat, 11, epsilon=0.0)
    assert compared > 40
    assert changed > 0


def test_margin_scores_match_python_and_count_the_fools_cards(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``greedy_scores(margin=...)``: the kernel and Python give every move the same score
    (no randomness); every score lies within the margin of a plain result (0, ½ or 1), and
    some score leaves 0 and 1 (the fool's cards are counted)."""
    import bito.bots.rollouts as rollouts

    rng = random.Random("margin-scores")
    off_plain = 0
    for start in _random_positions("perevodnoy", rng, 12):
        legal = start.legal_actions()
        seat = start.to_act
        kernel = greedy_scores(start, legal, seat, 5, epsilon=0.0, margin=0.3)
        with monkeypatch.context() as m:
            m.setattr(rollouts, "kernel_greedy_usable", lambda world: False)
            python = rollouts.greedy_scores(start, legal, seat, 5, epsilon=0.0, margin=0.3)
        assert kernel == pytest.approx(python), str(start)
        for x in kernel:
            assert min(abs(x - r) for r in (0.0, 0.5, 1.0)) <= 0.3 + 1e-9
            off_plain += x not in (0.0, 0.5, 1.0)
    assert off_plain > 0
