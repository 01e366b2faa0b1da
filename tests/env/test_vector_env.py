"""The compiled vector environment (bito.env.vector, bito.kernel.vector): it observes, masks,
rewards and resets exactly as the single environment does, step by step on the same deals."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gym = pytest.importorskip("gymnasium")
pytest.importorskip("numba")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import bito.env.gymnasium  # noqa: E402,F401  (registers the ids)
from bito.env.codec import codec_for  # noqa: E402
from bito.env.gymnasium import DurakEnv  # noqa: E402
from bito.env.observation import ObservationEncoder  # noqa: E402
from bito.env.payoff import seat_returns  # noqa: E402
from bito.env.vector import DurakVectorEnv  # noqa: E402
from bito.games.durak import new_game  # noqa: E402
from bito.rules import rules_for  # noqa: E402


def _pick(rng: random.Random, mask: Any) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


@pytest.mark.parametrize(("variant", "players"), [("podkidnoy", 2), ("perevodnoy", 2),
                                                  ("perevodnoy", 3), ("podkidnoy", 4)])
def test_steps_like_the_single_env_against_the_greedy_opponent(variant: str,
                                                               players: int) -> None:
    """The same deals, the same learner actions: observations, masks, rewards and the end of
    the deal agree at every step with DurakEnv playing the reference greedy bot."""
    n = 3
    seeds = [11, 12, 13] if players == 2 else [5, 6, 7]
    singles = [DurakEnv(variant, players, opponents=("greedy",)) for _ in range(n)]
    vec = DurakVectorEnv(n, variant, players, opponents=("greedy",))
    deals = [new_game(vec.rules, players, seed=s) for s in seeds]
    obs, info = vec.reset(seed=0, options={"deals": deals})
    live = []
    for i, env in enumerate(singles):
        o, inf = env.reset(options={"game_seed": seeds[i]})
        assert np.array_equal(obs[i], o)
        assert np.array_equal(info["action_mask"][i], inf["action_mask"])
        live.append(True)
    rng = random.Random(1)
    steps = 0
    while any(live):
        actions = np.zeros(n, np.int64)
        for i in range(n):
            if live[i]:
                actions[i] = _pick(rng, info["action_mask"][i])
        obs, rewards, term, trunc, info = vec.step(actions)
        steps += 1
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            o, r, t, tr, inf = env.step(int(actions[i]))
            assert np.array_equal(obs[i], o), (i, steps)
            assert np.array_equal(info["action_mask"][i], inf["action_mask"]), (i, steps)
            assert np.array_equal(vec.action_masks()[i], env.action_masks())
            assert (rewards[i], bool(term[i]), bool(trunc[i])) == (r, t, tr)
            live[i] = not (t or tr)
    assert steps > 5


@pytest.mark.parametrize(("variant", "players"), [("perevodnoy", 2), ("podkidnoy", 3)])
def test_self_play_observes_the_seat_to_act(variant: str, players: int) -> None:
    """With the learner in every seat, each observation and mask is the reference encoder's
    for the seat to act, and the deal pays seat_returns (docs/rl.md)."""
    rules = rules_for(variant)
    encoder = ObservationEncoder(rules, players)
    codec = codec_for(rules)
    vec = DurakVectorEnv(2, variant, players, self_play=True)
    states = [new_game(rules, players, seed=s) for s in (3, 4)]
    obs, info = vec.reset(seed=1, options={"deals": states})
    rng = random.Random(2)
    live = [True, True]
    while any(live):
        actions = np.zeros(2, np.int64)
        for i, state in enumerate(states):
            if live[i]:
                assert info["seat"][i] == state.to_act
                assert np.array_equal(obs[i], encoder.encode(state.view(state.to_act)))
                assert np.array_equal(info["action_mask"][i], codec.mask(state))
                actions[i] = _pick(rng, info["action_mask"][i])
        obs, rewards, term, _, info = vec.step(actions)
        for i in range(2):
            if not live[i]:
                continue
            mover = states[i].to_act
            states[i] = states[i].apply(codec.action(int(actions[i])))
            assert bool(term[i]) == states[i].is_over
            if states[i].is_over:
                returns = seat_returns(states[i].outcome, players)
                assert rewards[i] == returns[mover]
                assert info["returns"][i].tolist() == returns
                assert np.array_equal(obs[i], encoder.encode(states[i].view(mover)))
                live[i] = False


def test_kernel_deal_shows_what_the_reference_deal_shows() -> None:
    """The first attacker's shown card (the lowest trump, VARIANTS.md §1.8) and the trump card
    of a pack dealt out are known cards in the observation: the kernel's deal from the
    reference shuffle marks the same ones as ``new_game``'s ``known``."""
    from bito.kernel.convert import rule_facts
    from bito.kernel.core import deal_of
    from bito.kernel.vector import KNOWN_WIDTH, PASSED, first_shown

    rng = random.Random(7)
    for variant, players in (("podkidnoy", 2), ("perevodnoy", 4), ("podkidnoy", 6),
                             ("podkidnoy+first_attacker.rule=left_of_dealer", 3)):
        rules = rules_for(variant)
        for _ in range(40):
            seed = rng.getrandbits(48)
            shuffle = random.Random(seed)
            deck = list(rules.deck())
            shuffle.shuffle(deck)
            dealer = shuffle.randrange(players)
            dealt = deal_of(rule_facts(rules, players), np.array(deck, np.int64), dealer, 0)
            known = np.full(KNOWN_WIDTH, -1, np.int64)  # (a row from an earlier deal)
            first_shown(dealt, known)
            state = new_game(rules, players, seed=seed)
            assert known[:players].tolist() == [k & h for k, h in zip(
                state.known, state.hands, strict=True)]
            passed = known[PASSED:PASSED + players]  # (#31: nothing passed on yet)
            assert not passed.any()


@pytest.mark.parametrize("env_id", ["bito/Podkidnoy-v0", "bito/Perevodnoy-v0", "bito/Durak-v0"])
def test_make_vec_gives_the_compiled_env(env_id: str) -> None:
    envs = gym.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point",
                        opponents="random")
    assert isinstance(envs.unwrapped, DurakVectorEnv)
    assert envs.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
    obs, info = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    assert info["action_mask"].shape == (4, envs.single_action_space.n)
    assert (info["action_mask"].sum(axis=1) > 0).all()
    envs.close()


def test_rules_the_kernel_does_not_play_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="kernel does not play"):
        DurakVectorEnv(2, "big_fool")
    with pytest.raises(ValueError, match="opponents: 'heuristic'"):
        DurakVectorEnv(2, opponents="heuristic")
    with pytest.raises(ValueError, match="num_envs"):
        DurakVectorEnv(0)


def test_next_step_autoreset_and_illegal_actions() -> None:
    """An illegal action ends the deal with -1; the next step deals again whatever the action
    (Gymnasium's NEXT_STEP), with reward 0 and a fresh legal mask."""
    vec = DurakVectorEnv(2, opponents="random")
    obs_before, info = vec.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    legal = _pick(random.Random(0), info["action_mask"][1])
    obs, rewards, term, _, info = vec.step(np.array([illegal, legal]))
    assert rewards[0] == -1.0 and term[0] and info["illegal"][0] and not info["illegal"][1]
    assert np.array_equal(obs[0], obs_before[0])  # the position the illegal action met
    legal = _pick(random.Random(0), info["action_mask"][1])
    obs, rewards, term, trunc, info = vec.step(np.array([-5, legal]))  # env 0's is ignored
    assert rewards[0] == 0.0 and not term[0] and not trunc[0]
    assert info["action_mask"][0].sum() > 0 and "illegal" not in info


def test_reset_mask_deals_again_only_the_marked_envs() -> None:
    vec = DurakVectorEnv(3, opponents="random")
    with pytest.raises(ValueError, match="reset_mask"):
        vec.reset(options={"reset_mask": [True, False, True]})
    obs, _ = vec.reset(seed=2)
    again, info = vec.reset(options={"reset_mask": [False, True, False]})
    assert np.array_equal(again[0], obs[0]) and np.array_equal(again[2], obs[2])
    assert not np.array_equal(again[1], obs[1]) and info["action_mask"][1].sum() > 0


def test_record_episode_statistics_counts_whole_deals() -> None:
    """Gymnasium's own vector wrapper reads the autoreset mode and sums each deal's reward."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    envs = RecordEpisodeStatistics(DurakVectorEnv(4, opponents="random"))
    _, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = []
    for _ in range(300):
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        info = envs.step(actions)[4]
        if "episode" in info:
            finished += info["episode"]["r"][info["_episode"]].tolist()
    assert finished and set(finished) <= {-1.0, 0.0, 1.0}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), self_play=st.booleans())
def test_legal_play_never_ends_illegally_and_stays_in_the_space(seed: int, players: int,
                                                                self_play: bool) -> None:
    """Whatever the seed: observations lie in the space, a running deal has a legal move (a
    deal that just ended has none until the next step deals again), a legal move is never
    refused, and a reward is paid only when a deal ends."""
    vec = DurakVectorEnv(6, "perevodnoy", players, opponents="random", self_play=self_play)
    obs, info = vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = np.zeros(6, bool)
    for _ in range(60):
        mask = info["action_mask"]
        assert vec.observation_space.contains(obs)
        assert ((mask.sum(axis=1) > 0) != ended).all()
        obs, rewards, term, trunc, info = vec.step(
            (rng.random(mask.shape) * mask).argmax(axis=1))
        ended = term | trunc
        assert "illegal" not in info
        assert (rewards[~(term | trunc)] == 0).all()


def test_same_seed_same_games() -> None:
    runs = []
    for _ in range(2):
        vec = DurakVectorEnv(5, opponents=("greedy",), greedy_epsilon=0.2)
        obs, info = vec.reset(seed=42)
        total = np.zeros(5)
        for _ in range(50):
            obs, r, _, _, info = vec.step(info["action_mask"].argmax(axis=1))
            total += r
        runs.append((obs, total))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_threads_play_the_same_games() -> None:
    """Split over numba's threads, every env keeps its own generator: the same observations
    and rewards as on one thread."""
    import numba

    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one numba thread here")
    runs = []
    for threads in (1, 2):
        vec = DurakVectorEnv(16, opponents="random", threads=threads)
        obs, info = vec.reset(seed=8)
        total = np.zeros(16)
        for _ in range(40):
            obs, r, _, _, info = vec.step(info["action_mask"].argmax(axis=1))
            total += r
        runs.append((obs, total))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])


def test_agrees_with_the_single_env_over_random_kernel_rules() -> None:
    """Every option the kernel plays, drawn at random as the differential verifier draws
    them (bito.kernel.verify.random_rules: §1 options and house rules #74-#79), 2-6 seats: the
    vector env and DurakEnv agree at every step of the same deals."""
    from bito.env.vector import vector_plays
    from bito.kernel.verify import random_rules

    rng = random.Random(21)
    played = 0
    while played < 40:
        rules = random_rules(rng.choice(("simple", "podkidnoy", "perevodnoy")), rng)
        players = rng.randint(2, min(6, rules.max_players))
        if not vector_plays(rules, players):
            continue
        single = DurakEnv(rules, players, opponents=("greedy",))
        vec = DurakVectorEnv(1, rules, players, opponents=("greedy",))
        seed = rng.getrandbits(40)
        obs, info = vec.reset(seed=0, options={"deals": [new_game(rules, players, seed=seed)]})
        o, inf = single.reset(options={"game_seed": seed})
        done = False
        while not done:
            where = (rules.changed_options(), players, seed)
            assert np.array_equal(obs[0], o), where
            assert np.array_equal(info["action_mask"][0], inf["action_mask"]), where
            a = _pick(rng, inf["action_mask"])
            obs, r, t, tr, info = vec.step(np.array([a]))
            o, r1, t1, tr1, inf = single.step(a)
            assert (r[0], bool(t[0]), bool(tr[0])) == (r1, t1, tr1), where
            done = t1 or tr1
        assert np.array_equal(obs[0], o)
        played += 1


def test_an_env_plays_the_same_games_whatever_the_number_beside_it() -> None:
    """Env i of reset(seed=s) is seeded with s + i, and one seed per env may be given: an
    env's deals and opponents' moves do not depend on how many envs run."""
    wide = DurakVectorEnv(3, opponents="random")
    alone = DurakVectorEnv(1, opponents="random")
    listed = DurakVectorEnv(2, opponents="random")
    o3, i3 = wide.reset(seed=10)
    o1, i1 = alone.reset(seed=11)
    o2, i2 = listed.reset(seed=[99, 11])
    for _ in range(120):
        assert np.array_equal(o3[1], o1[0]) and np.array_equal(o3[1], o2[1])
        o3, r3, *_, i3 = wide.step(i3["action_mask"].argmax(axis=1))
        o1, r1, *_, i1 = alone.step(i1["action_mask"].argmax(axis=1))
        o2, r2, *_, i2 = listed.step(i2["action_mask"].argmax(axis=1))
        assert r3[1] == r1[0] == r2[1]
    with pytest.raises(ValueError, match="seed"):
        listed.reset(seed=[1, 2, 3])


def test_sync_mode_still_builds_single_envs() -> None:
    envs = gym.make_vec("bito/Podkidnoy-v0", num_envs=2, vectorization_mode="sync",
                        opponents=("random",))
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, envs.single_observation_space.shape[0])
    assert not isinstance(envs.unwrapped, DurakVectorEnv)
    envs.close()


def test_copy_hands_out_arrays_the_next_step_leaves_alone() -> None:
    """copy=True (the default): what a step returned stays as it was after the next step;
    copy=False returns the env's own buffers, which the next step overwrites."""
    for copy in (True, False):
        vec = DurakVectorEnv(4, opponents="random", copy=copy)
        obs, info = vec.reset(seed=1)
        kept_obs, kept_mask = obs.copy(), info["action_mask"].copy()
        vec.step(info["action_mask"].argmax(axis=1))
        same = np.array_equal(obs, kept_obs) and np.array_equal(info["action_mask"], kept_mask)
        assert same == copy
