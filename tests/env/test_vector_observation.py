"""The vector environment's compiled, incremental observations and masks against the reference
encoder and codec, move by move, in every catalogue game and house rule it plays.

The compiled loop rewrites only the entries of a row that a move changes
(``bito.kernel.vector.observe``), so a wrong update would not wash out at the next step: it
would stay in the row. Two checks pin every row to the reference:

* in lockstep with reference positions, every observation and mask equals
  ``ObservationEncoder.encode(state.view(seat))`` and ``ActionCodec.mask(state)``;
* across the deals the environment deals itself (auto-reset, which the reference cannot
  mirror), every observation equals the same position's observation built from a cleared row
  (the path the lockstep check holds to the reference), so a row that drifted from one deal
  into the next is caught.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("numba")

from bito.env.codec import codec_for  # noqa: E402
from bito.env.observation import ObservationEncoder  # noqa: E402
from bito.env.payoff import seat_returns  # noqa: E402
from bito.env.vector import DurakVectorEnv, vector_plays  # noqa: E402
from bito.games.durak import new_game  # noqa: E402
from bito.rules import Rules  # noqa: E402
from bito.rules.registry import all_variants, rules_for  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[2] / "tools"))
from kernel_coverage import _spec  # noqa: E402


def _catalogue_games(plays: Any) -> list[tuple[str, Rules, int]]:
    """Every Durak-family catalogue entry ``plays(rules, players)`` accepts, at its smallest
    seat count (a house rule on its default base, as ``tools/kernel_coverage.py`` builds
    them)."""
    out = []
    for v in sorted(all_variants(), key=lambda v: v.number):
        if v.family != "durak":
            continue
        try:
            rules = rules_for(_spec(v))
        except Exception:  # a house rule that needs a value: not a game on its own
            continue
        if plays(rules, rules.players_min):
            out.append((f"#{v.number} {v.id}", rules, rules.players_min))
    return out


GAMES = _catalogue_games(vector_plays)


def test_the_catalogue_games_the_vector_env_plays() -> None:
    """The base games, their §1 options and house rules, #96's show of a trump, the joker
    systems that only change what beats what (#25, #26, #27, #81), #29 Estonian's and #30's
    jokers and #11's transfer; since issue 35 item 2 the rules the kernel brought in, among
    them a trump agreed or none (#13, #15), the joker gifts (#24, #84) and #97's swap, whose
    moves borrow the take's kind, #18's secret trump and the stock group (#32-37, #61-63)."""
    played = {name.split()[0] for name, _, _ in GAMES}
    assert {"#7", "#8", "#10", "#11", "#25", "#26", "#27", "#29", "#30", "#81", "#96"} <= played
    assert {"#9", "#12", "#13", "#14", "#15", "#18", "#23", "#24", "#28", "#32", "#33", "#34",
            "#36", "#37", "#46", "#47", "#52", "#61", "#62", "#63", "#73", "#80", "#84",
            "#97"} <= played
    # the last clause of item 3: a stock card seen (#39, #40, #83), teams (#53-55) and #31's
    # exchange, whose seats know the hand they passed on
    assert {"#31", "#39", "#40", "#53", "#54", "#55", "#83"} <= played
    assert len(played) >= 58


def test_every_entry_the_kernel_plays_the_vector_env_plays() -> None:
    """Issue 35 item 3: the rules the kernel brought in are all available to the vector env
    (a catalogue entry the kernel plays at its fewest seats is in ``GAMES``, so the tests
    below hold it to the reference)."""
    import bito.kernel as kernel

    kernels = {name for name, _, _ in _catalogue_games(kernel.supports)}
    assert len(kernels) >= 58
    assert kernels == {name for name, _, _ in GAMES}


@pytest.mark.parametrize(("name", "rules", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_every_action_integer_is_its_own_in_the_compiled_numbering(
        name: str, rules: Rules, players: int) -> None:
    """Each of the codec's actions, written as the kernel writes it, reads back as its own
    integer: the take and the moves that borrow its kind with a target no card has (#24's and
    #84's gifts, #97's swap) stay apart, and no two actions share a number."""
    from bito.env.vector import kernel_tables
    from bito.kernel.vector import code_index

    t = kernel_tables(codec_for(rules), ObservationEncoder(rules, players))
    for idx in range(codec_for(rules).size):
        got = code_index(int(t["act_masks"][idx]), int(t["act_metas"][idx]), t["codes"],
                         t["multi_masks"], t["multi_index"], t["multi_index"].size)
        assert got == idx, (name, idx, codec_for(rules).action(idx))


def _rebuilt(vec: DurakVectorEnv) -> Any:
    """The observations of the envs' current positions built on cleared rows (envs whose deal
    just ended are left out: their next step deals again)."""
    obs = vec._obs.copy()
    drawn = vec._drawn.copy()
    masks = vec._masks.copy()
    last = vec._last.copy()
    n_last = vec._n_last.copy()
    seats = vec._seats.copy()
    fresh = np.where(vec._pending, -1, 0).astype(np.int64)
    vec._begin(fresh, vec._states.copy(), vec._known.copy(), vec._rngs.copy(), obs, drawn,
               masks, last, n_last, seats, vec._rows.copy())
    return obs, masks


def _lockstep(rules: Rules, players: int, seed: int, where: str) -> int:
    """Three deals in self-play with random legal moves, each compared with its reference
    position at every move; the moves checked."""
    encoder = ObservationEncoder(rules, players)
    codec = codec_for(rules)
    vec = DurakVectorEnv(3, rules, players, self_play=True)
    states = [new_game(rules, players, seed=seed + k) for k in range(3)]
    obs, info = vec.reset(seed=seed, options={"deals": states})
    rng = random.Random(seed)
    live = [True] * 3
    checked = 0
    while any(live):
        actions = np.zeros(3, np.int64)
        for i, state in enumerate(states):
            if not live[i]:
                continue
            seat = state.to_act
            assert info["seat"][i] == seat, where
            assert np.array_equal(obs[i], encoder.encode(state.view(seat))), (where, i)
            assert np.array_equal(info["action_mask"][i], codec.mask(state)), (where, i)
            actions[i] = rng.choice(np.flatnonzero(info["action_mask"][i]).tolist())
            checked += 1
        obs, reward, term, trunc, info = vec.step(actions)
        for i in range(3):
            if live[i]:
                mover = states[i].to_act
                states[i] = states[i].apply(codec.action(int(actions[i])))
                assert bool(term[i] or trunc[i]) == states[i].is_over, (where, i)
                if states[i].is_over:
                    assert np.array_equal(obs[i], encoder.encode(states[i].view(mover)))
                    returns = seat_returns(states[i].outcome, players)
                    assert info["returns"][i].tolist() == returns, (where, i)
                    assert reward[i] == returns[mover], (where, i)
                    live[i] = False
    return checked


@pytest.mark.parametrize(("name", "rules", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_observations_and_masks_are_the_reference_encoders_move_by_move(
        name: str, rules: Rules, players: int) -> None:
    assert _lockstep(rules, players, 7, name) > 20


@pytest.mark.parametrize(("name", "rules", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_rows_do_not_drift_across_the_deals_the_env_deals(name: str, rules: Rules,
                                                          players: int) -> None:
    """Many deals back to back on the same rows, against random and greedy opponents: every
    incremental row equals the row built from scratch for the same position."""
    for opponents in ("random", "greedy"):
        vec = DurakVectorEnv(4, rules, players, opponents=opponents, copy=False)
        obs, info = vec.reset(seed=3)
        rng = np.random.default_rng(3)
        deals = 0
        for _ in range(250):
            mask = info["action_mask"]
            obs, _, term, trunc, info = vec.step((rng.random(mask.shape) * mask).argmax(axis=1))
            deals += int(term.sum() + trunc.sum())
            again, masks = _rebuilt(vec)
            assert np.array_equal(obs, again), (name, opponents)
            assert np.array_equal(info["action_mask"], masks), (name, opponents)
        assert deals >= 4, (name, opponents)  # rows went from deal to deal


def test_a_drifted_row_is_caught() -> None:
    """The from-scratch check is not vacuous: a row the compiled loop did not write (here a
    card set on behind its back) differs from the rebuilt one, and keeps differing after the
    next move, since only the changed entries are rewritten."""
    vec = DurakVectorEnv(2, "podkidnoy", opponents="random", copy=False)
    _, info = vec.reset(seed=5)
    unseen = vec.encoder.planes["unseen"]
    row = vec._obs[0]
    hidden = int(np.flatnonzero(row[unseen] == 0)[0])  # a card the seat has seen
    row[unseen.start + hidden] = 1.0
    obs, _, _, _, info = vec.step(info["action_mask"].argmax(axis=1))
    again, _ = _rebuilt(vec)
    assert not np.array_equal(obs[0], again[0])
    assert np.array_equal(obs[1], again[1])


def test_returned_buffers_are_read_only_without_copy() -> None:
    """copy=False hands out the env's own rows, which the next step updates in place: they are
    read-only, so a learner cannot make them drift."""
    vec = DurakVectorEnv(2, opponents="random", copy=False)
    obs, info = vec.reset(seed=0)
    with pytest.raises(ValueError, match="read-only"):
        obs[0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        info["action_mask"][0, 0] = 1


def test_a_loaded_position_keeps_the_hands_the_seats_passed_on() -> None:
    """#31: a reference position after an exchange, loaded into the env, is observed with
    what each seat passed on (``stock.seen_by``), not only the public known cards."""
    from bito.games.durak.position_stock import BOOKS

    rules = rules_for("podkidnoy+exchange")
    codec = codec_for(rules)
    encoder = ObservationEncoder(rules, 2)
    rng = random.Random(1)
    state = new_game(rules, 2, seed=1)
    while not (BOOKS.of(state) and any(BOOKS.of(state).passed)):
        state = state.apply(codec.action(rng.choice(np.flatnonzero(codec.mask(state)).tolist())))
    assert not state.is_over
    vec = DurakVectorEnv(1, rules, 2, self_play=True)
    obs, _ = vec.reset(seed=0, options={"deals": [state]})
    reference = encoder.encode(state.view(state.to_act))
    assert np.array_equal(obs[0], reference)
    known = encoder.planes["known_1"]
    assert reference[known].sum() > 0  # (the hand passed on is in view)
