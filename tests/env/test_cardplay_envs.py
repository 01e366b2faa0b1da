"""The shedding and trick families in the ecosystems (issue 21 item 3): Czech fool (#86) and
its options (#87 draw one, #88 32 cards, #89 jack wild; VARIANTS.md §3.12, S1:15-37), the
adjacent-rank game (#94, S3:13-36) and *Fool!* (#95, S2) pass Gymnasium's ``check_env``,
PettingZoo's ``api_test``/``seed_test``/``render_test`` and pyspiel's ``random_sim_test``
through :mod:`bito.env.cardplay`'s codec; masks follow the engine; the render and the
observations hold only what the acting seat may see."""

from __future__ import annotations

import random
import re
import warnings

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import bito.env.gymnasium  # noqa: E402,F401  (registers the ids)
from bito.cards import card_pretty, cards_of  # noqa: E402
from bito.env.cardplay import codec_for_cards, encoder_for_cards  # noqa: E402
from bito.env.payoff import seat_returns  # noqa: E402
from bito.env.pettingzoo import env  # noqa: E402
from bito.games import new_game  # noqa: E402

GAMES = [
    ("czech_fool", 2),         # #86
    ("czech_draw_one", 3),     # #87 (S1:33): the DRAWN phase, keep or play the drawn card
    ("czech_32card", 2),       # #88 (S1:35)
    ("czech_jack_wild", 3),    # #89 (S1:35-37): the opening card, jacks name suits
    ("ontoys_adjacent_rank", 3),  # #94
    ("friese_fool", 4),        # #95
]


@pytest.mark.parametrize(("env_id", "kwargs"), [
    ("bito/CzechFool-v0", {}),
    ("bito/AdjacentRank-v0", {"opponents": "random"}),
    ("bito/Fool-v0", {}),
    ("bito/CardPlay-v0", {"variant": "czech_jack_wild", "players": 3, "opponents": "random"}),
    ("bito/CardPlay-v0", {"variant": "czech_fool+shed.rounds=1", "players": 4}),
])
def test_check_env(env_id: str, kwargs: dict) -> None:
    e = gym.make(env_id, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures too
        check_env(e.unwrapped)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_pettingzoo_api_and_seed_tests(variant: str, players: int) -> None:
    api_test(env(variant=variant, players=players), num_cycles=300)
    seed_test(lambda: env(variant=variant, players=players), num_cycles=300)


@pytest.mark.parametrize(("variant", "players"), [("czech_fool", 2), ("friese_fool", 4)])
def test_pettingzoo_render_test(variant: str, players: int) -> None:
    render_test(lambda render_mode=None: env(variant=variant, players=players,
                                             render_mode=render_mode))


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_gym_masks_and_rewards_follow_the_engine(variant: str, players: int) -> None:
    """Whole games against random bots: the mask is the engine's legal set, every masked
    action is accepted, and the final reward is the outcome's seat_returns for seat 0."""
    e = gym.make("bito/CardPlay-v0", variant=variant, players=players,
                 opponents="random").unwrapped
    rng = np.random.default_rng(1)
    for episode in range(2):
        obs, info = e.reset(seed=episode)
        done, reward = False, 0.0
        while not done:
            mask = e.action_masks()
            assert np.array_equal(mask, info["action_mask"])
            legal = {e.codec.index(a) for a in e.state.legal_actions()}
            assert set(np.flatnonzero(mask)) == legal
            assert e.observation_space.contains(obs)
            obs, reward, done, _, info = e.step(int(rng.choice(sorted(legal))))
        assert reward == seat_returns(info["outcome"], players)[0]


def test_gym_illegal_action_loses_or_raises() -> None:
    from bito.errors import IllegalActionError

    e = gym.make("bito/CzechFool-v0").unwrapped
    _, info = e.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = e.step(bad)
    assert (reward, done) == (-1.0, True) and "illegal" in info
    strict = gym.make("bito/CzechFool-v0", illegal="raise").unwrapped
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(bad)


def test_every_gym_id_takes_any_family_and_refuses_a_bad_seat_count() -> None:
    """One environment class for every family: the Durak id plays Czech fool with the
    card-play numbering, the card-play id plays podkidnoy with the Durak one; a seat count
    the game refuses is refused by name."""
    from bito.env.cardplay import CardPlayCodec
    from bito.env.codec import ActionCodec

    assert isinstance(gym.make("bito/Durak-v0", variant="czech_fool").unwrapped.codec,
                      CardPlayCodec)
    assert isinstance(gym.make("bito/CardPlay-v0", variant="podkidnoy").unwrapped.codec,
                      ActionCodec)
    with pytest.raises(ValueError, match="players"):
        gym.make("bito/Fool-v0", players=2)  # #95 seats 4 to 8 (S2)


def _hidden_texts(state, seat: int) -> set[str]:  # type: ignore[no-untyped-def]
    own = {card_pretty(c) for c in cards_of(state.hands[seat])}
    hidden = {card_pretty(c) for other, hand in enumerate(state.hands) if other != seat
              for c in cards_of(hand)}
    hidden |= {card_pretty(c) for c in state.stock}
    return hidden - own - {card_pretty(c) for c in state.pile}


def test_render_shows_only_what_the_acting_seat_sees() -> None:
    """Czech fool, one pack: no card of another hand or of the stock is drawn in the acting
    agent's render at any point; ``omniscient=True`` draws them."""
    e = env(variant="czech_fool", players=3, render_mode="ansi")
    full = env(variant="czech_fool", players=3, render_mode="ansi", omniscient=True)
    e.reset(seed=4)
    full.reset(seed=4)
    shown_hidden = 0
    for step, agent in enumerate(e.agent_iter()):
        obs, _, terminated, truncated, _ = e.last()
        state = e.unwrapped.game
        text = e.render()
        assert agent in text
        leaked = [t for t in _hidden_texts(state, e.possible_agents.index(agent)) if t in text]
        assert not leaked, (step, leaked)
        shown_hidden += sum(t in full.render()
                            for t in _hidden_texts(state, e.possible_agents.index(agent)))
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        e.step(action)
        full.step(action)
    assert shown_hidden > 0


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), moves=st.integers(0, 120))
def test_codec_and_observation_invariants(game: tuple[str, int], seed: int, moves: int) -> None:
    """Anywhere in a random game: legal ⇔ masked, indices round-trip, the hand plane is the
    seat's hand, values stay in [-1, 1], and two seats' observations differ only through
    their views (re-encoding a view gives the same vector)."""
    variant, players = game
    codec, enc = codec_for_cards(variant, players), encoder_for_cards(variant, players)
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    legal = state.legal_actions()
    mask = codec.mask(state)
    assert int(mask.sum()) == len(legal)
    for a in legal:
        assert codec.action(codec.index(a)) == a
    for seat in range(players):
        view = state.view(seat)
        vec = enc.encode(view)
        assert vec.min() >= -1.0 and vec.max() <= 1.0
        hand = enc.planes["hand"]
        assert sorted(codec.cards[i] for i in np.flatnonzero(vec[hand])) == \
            sorted(c for c in codec.cards if view.hand >> c & 1)
        assert np.array_equal(vec, enc.encode(state.view(seat)))


def test_fool_wild_ones_are_one_action() -> None:
    """#95 (S2:47): the six wild 1s play as one move, so they share one action entry."""
    from bito.games.tricks.fool import WILD

    codec = codec_for_cards("friese_fool", 4)
    assert sum(1 for c in codec.cards if c >= WILD) == 6
    plays = codec.blocks["play"]
    assert plays[1] - plays[0] == len(codec.cards) - 5


# --- OpenSpiel ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("params", "sims"), [
    ({"deals": 50}, 2),
    ({"deals": 50, "variant": "czech_draw_one", "players": 3}, 1),
    ({"deals": 50, "variant": "ontoys_adjacent_rank", "players": 3}, 2),
    ({"deals": 50, "variant": "friese_fool", "players": 4}, 1),
])
def test_pyspiel_random_sim_test(params: dict, sims: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import bito.env.openspiel  # noqa: F401  (registers python_bito_cards)

    game = pyspiel.load_game("python_bito_cards", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_pyspiel_game_facts_and_private_draws() -> None:
    """Chance outcome k is the deal of seed k; the drawer's information state names the card
    it drew, the other seat's does not; tensors have the declared sizes."""
    pyspiel = pytest.importorskip("pyspiel")
    import bito.env.openspiel  # noqa: F401

    game = pyspiel.load_game("python_bito_cards", {"variant": "czech_fool"})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 65536
    state.apply_action(12)
    assert state.engine.hands == new_game("czech_fool", 2, seed=12).hands
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()
    drew = None
    while not state.is_terminal():
        p = state.current_player()
        before = state.engine.hands[p]
        draw = [a for a in state.legal_actions() if state.action_to_string(p, a) == "draw"]
        state.apply_action(draw[0] if draw else state.legal_actions()[0])
        got = state.engine.hands[p] & ~before
        if draw and got:
            drew = p
            break
    assert drew is not None
    mine, theirs = state.information_state_string(drew), state.information_state_string(1 - drew)
    assert re.search(r" draw\(drew [^()]+\)$", mine)
    assert theirs.endswith(" draw")


@pytest.mark.parametrize(("variant", "players"), [("czech_fool", 2), ("friese_fool", 4)])
def test_evaluate_bots_seats_bito_bots(variant: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from bito.env.openspiel import spiel_bot

    game = pyspiel.load_game("python_bito_cards", {"variant": variant, "players": players})
    bots = [spiel_bot("heuristic" if s == 0 else "random", s, seed=s) for s in range(players)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(3))
    assert abs(sum(returns)) < 1e-9 and min(returns) in (-1.0, 0.0)


def _every_card_play_game() -> list[tuple[str, int]]:
    from bito.env.coverage import card_play_specs
    from bito.games import family_for

    out = []
    for spec in card_play_specs():
        low = family_for(spec).rules_for(spec).players_min
        out.append((spec, low))
    return out


@pytest.mark.parametrize(("variant", "players"), _every_card_play_game())
def test_every_card_play_game_passes_api_test(variant: str, players: int) -> None:
    """Every shedding and trick game of the catalogue (#86-#95), at its fewest seats."""
    api_test(env(variant=variant, players=players), num_cycles=200)


@settings(max_examples=30, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**31), moves=st.integers(0, 150),
       world_seed=st.integers(0, 2**31))
def test_observation_is_blind_to_hidden_cards(game: tuple[str, int], seed: int, moves: int,
                                              world_seed: int) -> None:
    """Re-deal every card a seat cannot see (the family's world sampler, which search bots use):
    the seat's observation does not change (that the worlds really move cards is checked
    below)."""
    from bito.games import family_for

    variant, players = game
    enc = encoder_for_cards(variant, players)
    state = new_game(variant, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over:
        return
    seat = state.to_act
    view = state.view(seat)
    sampler = family_for(variant).samplers()[type(view)]()
    if hasattr(sampler, "observe"):
        sampler.observe(view)
    world = sampler.sample(view, random.Random(world_seed))
    assert np.array_equal(enc.encode(world.view(seat)), enc.encode(view))


@pytest.mark.parametrize(("variant", "players"), [("czech_fool", 3), ("friese_fool", 4),
                                                  ("ontoys_adjacent_rank", 3)])
def test_resampled_worlds_move_cards(variant: str, players: int) -> None:
    """The worlds of the test above are not the real deal: the other hands change."""
    from bito.games import family_for

    state = new_game(variant, players, seed=11)
    view = state.view(state.to_act)
    sampler = family_for(variant).samplers()[type(view)]()
    worlds = [sampler.sample(view, random.Random(k)) for k in range(5)]
    assert any(w.hands != state.hands for w in worlds)
    assert all(w.hands[state.to_act] == state.hands[state.to_act] for w in worlds)


def test_pyspiel_golden_playthrough() -> None:
    """A whole game of the adjacent-rank game (#94) through python_bito_cards, replayed by
    OpenSpiel's generate_playthrough: observations, information states, legal actions and
    returns at every step stay as recorded (regenerate with the command in docs/rl.md)."""
    from pathlib import Path

    pytest.importorskip("pyspiel")
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    import bito.env.openspiel  # noqa: F401

    flags.FLAGS.mark_as_parsed()
    golden = Path(__file__).parents[1] / "golden" / "openspiel_adjacent_rank_2p.txt"
    original, regenerated = generate_playthrough.replay(str(golden))
    assert original == regenerated
