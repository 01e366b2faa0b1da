"""The OpenSpiel game: pyspiel's random_sim_test, the golden playthrough, ISMCTS playing a full
deal, CFR+ on the micro variant, and re-dealt worlds keeping the player's information state."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import generate_playthrough, ismcts, mcts  # noqa: E402

import bito.env.openspiel  # noqa: E402,F401  (registers python_bito_durak)
from bito.env.solve import MICRO_PARAMS, solve  # noqa: E402

GOLDEN = Path(__file__).parents[1] / "golden" / "openspiel_podkidnoy_2p.txt"


@pytest.mark.parametrize(("params", "sims"), [
    ({"deals": 50}, 3),
    ({"deals": 50, "variant": "perevodnoy", "players": 3}, 1),
])
def test_random_sim_test(params: dict, sims: int) -> None:
    game = pyspiel.load_game("python_bito_durak", params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_game_facts() -> None:
    game = pyspiel.load_game("python_bito_durak", {"variant": "perevodnoy", "players": 3})
    info = game.get_type()
    assert info.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert 0 < game.max_game_length() < 10**6
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 65536
    state.apply_action(12)  # the deal of new_game("perevodnoy", 3, seed=12)
    from bito.games.durak import new_game

    assert state.pos.engine.hands == new_game("perevodnoy", 3, seed=12).hands
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


def test_bad_parameters_are_named() -> None:
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("python_bito_durak", {"players": 9})
    with pytest.raises(ValueError, match="no_such_game"):
        pyspiel.load_game("python_bito_durak", {"variant": "no_such_game"})
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("python_bito_durak", {"variant": "friese_fool", "players": 2})


def test_golden_playthrough() -> None:
    from absl import flags

    flags.FLAGS.mark_as_parsed()  # the playthrough reads a flag with its default
    original, regenerated = generate_playthrough.replay(str(GOLDEN))
    assert original == regenerated


def test_resampled_worlds_keep_the_information_state() -> None:
    game = pyspiel.load_game("python_bito_durak", {"deals": 100})
    state = game.new_initial_state()
    state.apply_action(3)
    rng = np.random.RandomState(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    for _ in range(5):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        differs += world.pos.engine.hands != state.pos.engine.hands
    assert differs > 0


def test_ismcts_plays_a_full_deal() -> None:
    game = pyspiel.load_game("python_bito_durak", {"deals": 100})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                           max_simulations=3, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(5)
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_cfr_solves_the_micro_variant() -> None:
    # Exploitability falls towards 0 as CFR+ runs. The test plays the micro rules on a book
    # of 3 deals to stay quick; docs/rl.md reports the 8-deal game (python -m bito.env.solve).
    (first, e1), (last, e30) = solve(30, (1,), {**MICRO_PARAMS, "deals": 3})
    assert (first, last) == (1, 30)
    assert e30 < e1 / 10 and e30 < 0.01


# --- bito's bots as pyspiel.Bot ---------------------------------------------------------------


def test_every_bot_name_is_a_spiel_bot() -> None:
    from bito.bots import bot_names
    from bito.env.openspiel import spiel_bot

    for name in [*bot_names(), "greedy"]:
        bot = spiel_bot(name, 1, seed=0)
        assert isinstance(bot, pyspiel.Bot) and bot.player_id == 1


@pytest.mark.parametrize(("first", "second"), [("heuristic", "random"), ("greedy", "easy"),
                                               ("dmc", "greedy")])
def test_evaluate_bots_plays_bito_bots_to_the_end(first: str, second: str) -> None:
    """OpenSpiel's evaluate_bots seats two bito bots in 2-player podkidnoy: each move is
    legal (the game refuses an illegal one) and the deal pays seat_returns."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from bito.env.openspiel import spiel_bot

    game = pyspiel.load_game("python_bito_durak", {"variant": "podkidnoy"})
    bots = [spiel_bot(first, 0, seed=1), spiel_bot(second, 1, seed=2)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(5))
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_heuristic_beats_random_through_evaluate_bots() -> None:
    """Ten deals, seats alternating: the heuristic bot, seated through the wrapper, scores
    more than the random bot (a wrapper that passed the wrong seat's view would not)."""
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from bito.env.openspiel import spiel_bot

    game = pyspiel.load_game("python_bito_durak", {"variant": "podkidnoy"})
    rng = np.random.default_rng(0)
    score = 0.0
    for k in range(10):
        seat = k % 2
        bots = [None, None]
        bots[seat] = spiel_bot("heuristic", seat, seed=k)
        bots[1 - seat] = spiel_bot("random", 1 - seat, seed=k)
        score += evaluate_bots(game.new_initial_state(), bots, rng)[seat]
    assert score > 0


# --- game strings: variants holding options reload ---------------------------------------------


@pytest.mark.parametrize("variant", [
    "perevodnoy+transfer.show_trump=true",
    "podkidnoy+deal.hand_size=2+end.instant_loss_cards=3",  # the CFR micro game (docs/rl.md)
    "czech_fool+shed.rounds=1",
    "heaped+heap.take=top",
])
def test_option_variants_survive_load_game_of_the_game_string(variant: str) -> None:
    """``load_game(str(game))`` gives the same game back: the option's ``=`` is escaped in
    the game string, and read back into the spec."""
    game = pyspiel.load_game("python_bito_durak", {"variant": variant, "deals": 4})
    again = pyspiel.load_game(str(game))
    assert again.variant == game.variant == variant
    assert str(again) == str(game)
    assert again.num_distinct_actions() == game.num_distinct_actions()


def test_option_variants_survive_serialize_and_deserialize() -> None:
    """A state of a variant with options goes through OpenSpiel's serialisation and comes
    back at the same position (same history, same legal actions, same information state)."""
    from bito.env.solve import MICRO_VARIANT

    game = pyspiel.load_game("python_bito_durak", {"variant": MICRO_VARIANT, "deals": 8})
    state = game.new_initial_state()
    state.apply_action(3)
    state.apply_action(state.legal_actions()[0])
    back_game, back = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert back_game.variant == MICRO_VARIANT
    assert back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    assert back.information_state_string(0) == state.information_state_string(0)


def test_a_plain_variant_keeps_its_game_string() -> None:
    """Nothing to escape: the game string is the one it always was."""
    game = pyspiel.load_game("python_bito_durak", {"variant": "perevodnoy", "deals": 4})
    assert str(game) == ("python_bito_durak(deals=4,max_game_length=3000,players=2,"
                         "variant=perevodnoy)")


def test_a_face_down_cover_stays_hidden_in_the_attackers_information_state() -> None:
    """#59 (``defense.face_down``, believe_not_believe): the defender covers face down, so
    the attacker's information state shows ``?`` for the cover, in the string and in the
    played-cards planes of the tensor, while the defender's own shows the card."""
    game = pyspiel.load_game("python_bito_durak", {"variant": "believe_not_believe",
                                                   "deals": 4})
    state = game.new_initial_state()
    state.apply_action(0)
    rng = np.random.RandomState(0)
    while True:
        player = state.current_player()
        covers = [a for a in state.legal_actions() if ">" in state.action_to_string(player, a)]
        if covers:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.action_to_string(player, covers[0])
    state.apply_action(covers[0])
    attacker = 1 - player
    assert state.information_state_string(player).endswith(" " + text)
    assert state.information_state_string(attacker).endswith(" ?>" + text.split(">")[1])
    cover = game.codec.action(covers[0]).cards[0]
    at = game.observation_tensor_size() + game.codec.card_index[cover]
    d = len(game.codec.cards)
    assert state.information_state_tensor(player)[at] == 1.0  # relative seat 0: itself
    assert state.information_state_tensor(attacker)[at + d] == 0.0  # seat 1: the defender
