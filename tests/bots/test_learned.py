"""The learned bot (issue 21 item 2): shipped small weights played in numpy, only legal moves
through whole games of both trained variants, the same logits as the torch network it was
exported from, the heuristic (said so) where it has no weights, and a training run that
writes weights the bot can load."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bito.bots import bot_names, make_bot  # noqa: E402
from bito.bots.learned import WEIGHTS_DIR, LearnedBot, PolicyNetwork, shipped_weights  # noqa: E402
from bito.env.codec import codec_for  # noqa: E402
from bito.env.observation import ObservationEncoder  # noqa: E402
from bito.games.durak import new_game  # noqa: E402

HAVE_TORCH = importlib.util.find_spec("torch") is not None
TRAINED = ("podkidnoy", "perevodnoy")


def _play(variant: str, players: int, seed: int, bots: Mapping[int, object]) -> object:
    """A whole game; every choice must be one of the view's legal actions."""
    state = new_game(variant, players, seed=seed)
    moves = 0
    while not state.is_over:
        view = state.view(state.to_act)
        action = bots[state.to_act].choose(view)  # type: ignore[attr-defined]
        assert action in view.legal, (variant, seed, moves, action)
        state = state.apply(action)
        moves += 1
    return state


def test_registered_and_the_weights_are_small() -> None:
    assert "learned" in bot_names()
    found = shipped_weights()
    assert set(found) == {(v, 2) for v in TRAINED}
    for path in found.values():
        assert path.parent == WEIGHTS_DIR
        assert path.stat().st_size <= 5_000_000  # issue 21: small weights, at most 5 MB
    assert sum(p.stat().st_size for p in found.values()) <= 5_000_000


def test_torch_is_not_needed_to_play() -> None:
    probe = ("import sys; from bito.bots import make_bot; from bito.games.durak import new_game;"
             "s = new_game('perevodnoy', 2, seed=3); b = make_bot('learned');"
             "a = b.choose(s.view(s.to_act)); assert a in s.view(s.to_act).legal;"
             "print('torch' in sys.modules, b.fallbacks)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "0"]


@pytest.mark.parametrize("variant", TRAINED)
def test_plays_legal_moves_through_whole_games(variant: str) -> None:
    for seed in range(4):
        learned_seat = seed % 2
        bots = {learned_seat: make_bot("learned", seed), 1 - learned_seat: make_bot("heuristic")}
        state = _play(variant, 2, seed, bots)
        assert state.is_over  # type: ignore[attr-defined]
        assert bots[learned_seat].fallbacks == 0  # type: ignore[attr-defined]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), variant=st.sampled_from(TRAINED))
def test_any_deal_against_random_stays_legal(seed: int, variant: str) -> None:
    _play(variant, 2, seed, {0: make_bot("learned"), 1: make_bot("random", seed)})


def test_beats_random_on_fixed_deals() -> None:
    """A sanity floor far under the measured figures (docs/rl.md): the policy must beat the
    random bot on most of 20 fixed deals, seats alternating."""
    wins = 0
    for g in range(20):
        seat = g % 2
        state = _play("podkidnoy", 2, g, {seat: make_bot("learned"),
                                          1 - seat: make_bot("random", g)})
        wins += state.outcome.loser == 1 - seat  # type: ignore[attr-defined]
    assert wins >= 15


def test_other_games_fall_back_to_the_heuristic_and_say_so() -> None:
    bot = LearnedBot(1)
    with pytest.warns(UserWarning, match="no weights for this game.*heuristic plays"):
        _play("podkidnoy", 3, 2, {0: bot, 1: make_bot("heuristic"), 2: make_bot("random", 2)})
    assert bot.fallbacks > 0
    with warnings.catch_warnings():  # said once per game, not at every move
        warnings.simplefilter("error")
        _play("podkidnoy", 3, 3, {0: bot, 1: make_bot("random", 3), 2: make_bot("random", 4)})


def test_a_file_that_is_not_weights_is_named(tmp_path: Path) -> None:
    path = tmp_path / "x.npz"
    np.savez(path, w0=np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"x\.npz: not learned-bot weights \(missing variant"):
        PolicyNetwork.load(path)


def test_only_the_legal_columns_are_needed() -> None:
    """Play computes the legal actions' logits only; they are the full layer's columns (up to
    BLAS's order of summation), so the choice is the same."""
    net = PolicyNetwork.load(shipped_weights()[("podkidnoy", 2)])
    state = new_game("podkidnoy", 2, seed=5)
    view = state.view(state.to_act)
    obs = ObservationEncoder(view.rules, 2).encode(view)[None, :]
    cols = np.array(codec_for(view.rules).indices(view.legal))
    some, full = net.logits(obs, cols), net.logits(obs)[:, cols]
    np.testing.assert_allclose(some, full, rtol=1e-5, atol=1e-6)
    assert some.argmax() == full.argmax()


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed (the train extra); the "
                    "numpy network is compared with torch's only where torch is")
@pytest.mark.parametrize("variant", TRAINED)
def test_numpy_inference_equals_the_torch_forward(variant: str) -> None:
    import torch

    from bito.train.learned import load_policy, networks

    path = shipped_weights()[(variant, 2)]
    net = PolicyNetwork.load(path)
    policy, _ = networks(net.obs_size, net.actions, int(net.weights[0].shape[1]))
    load_policy(policy, path)
    enc = ObservationEncoder(variant, 2)
    rows, state = [], new_game(variant, 2, seed=9)
    heuristic = make_bot("heuristic")
    while not state.is_over:
        rows.append(enc.encode(state.view(state.to_act)))
        state = state.apply(heuristic.choose(state.view(state.to_act)))
    obs = np.stack(rows)
    with torch.no_grad():
        expected = policy(torch.from_numpy(obs)).numpy()
    got = net.logits(obs)
    assert got.shape == expected.shape == (len(rows), codec_for(enc.rules).size)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    assert (got.argmax(axis=1) == expected.argmax(axis=1)).mean() > 0.99


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed (the train extra): no "
                    "training smoke run")
def test_a_short_training_run_writes_weights_the_bot_plays(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    from bito.train.learned import Settings, train

    out, curve, labels = tmp_path / "w.npz", tmp_path / "curve.jsonl", tmp_path / "labels"
    stages: list[dict[str, object]] = []
    row = train(Settings(variant="perevodnoy", steps=300, envs=8, horizon=16, hidden=32,
                         minibatch=64, eval_deals=8, eval_pairs=2, out=out, curve=curve,
                         labels=labels, label_deals=2, playouts=4, dagger_deals=1,
                         imitate_epochs=1, critic_warmup=1),
                log=lambda line: stages.append(json.loads(line)))
    # the stages ran in order: teacher labels, imitation, the student's (DAgger) labels,
    # imitation of both, then PPO
    kinds = [(r.get("stage"), r.get("student")) for r in stages if "stage" in r]
    assert kinds == [("labels", False), ("imitate", None), ("labels", True), ("imitate", None)]
    assert stages[3]["examples"] > stages[1]["examples"] > 0  # type: ignore[operator]
    assert any((labels / "dagger").glob("*.npz"))
    assert row["steps"] >= 300 and row["updates"] >= 1
    rows = [json.loads(line) for line in curve.read_text().splitlines()]
    assert rows[0]["steps"] == 0 and rows[-1]["steps"] == row["steps"]
    assert all(0.0 <= r["vs_greedy"] <= 1.0 and 0.0 <= r["vs_heuristic"] <= 1.0 for r in rows)
    net = PolicyNetwork.load(out)
    assert (net.variant, net.players, net.weights[0].shape[1]) == ("perevodnoy", 2, 32)
    bot = LearnedBot(0, weights={("perevodnoy", 2): out})
    _play("perevodnoy", 2, 1, {0: bot, 1: make_bot("random", 1)})
    assert bot.fallbacks == 0


def test_the_training_command_checks_its_flags() -> None:
    """Bad flags get argparse's message naming the flag, not a traceback."""
    if not HAVE_TORCH:
        pytest.skip("torch is not installed: the command stops at the missing extra")
    done = subprocess.run([sys.executable, "-m", "bito.train.learned", "--envs", "0"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "--envs must be at least 1" in done.stderr and "Traceback" not in done.stderr


def test_the_labelling_command_stops_at_its_deal_count(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """``--deals`` makes a labelling run's size a number, not the machine's speed over
    ``--minutes``, so the documented recipe labels the same deals on a rerun."""
    from bito.train.teacher import load_examples, main

    assert main(["--variant", "podkidnoy", "--deals", "2", "--playouts", "4",
                 "--first-seed", "5", "--out", str(tmp_path)]) == 0
    assert "done: 2 deals" in capsys.readouterr().out
    _, legal, label = load_examples(list(tmp_path.glob("*.npz")))
    assert len(label) > 0 and all(y in row for y, row in zip(label, legal, strict=True))
    with pytest.raises(SystemExit):
        main(["--deals", "0", "--out", str(tmp_path)])
    assert "--deals must be at least 1" in capsys.readouterr().err


def test_the_web_app_seats_it_by_default() -> None:
    """Tables may seat it with no --bot-levels, and the lobby has a label for it."""
    from bito.server.rooms import Settings, admitted_bots
    from bito.server.webtext import TEXTS

    assert "learned" in admitted_bots(Settings())
    assert TEXTS["bot.learned"] == "learned (neural network)"


def test_the_one_training_command_runs_commands_the_trainers_accept() -> None:
    """tools/train_learned.sh is the documented one command: every step in it must still be
    accepted by the trainer and the teacher, and a game it has no recipe for is refused."""
    import re
    import shlex
    import subprocess
    from pathlib import Path

    from bito.train.learned import parse

    script = Path(__file__).resolve().parents[2] / "tools" / "train_learned.sh"
    text = script.read_text().replace("\\\n", " ")
    teacher_flags = set(re.findall(r'"(--[a-z-]+)"', (Path(__file__).resolve().parents[2]
                                   / "src" / "bito" / "train" / "teacher.py").read_text()))
    steps = 0
    for line in text.splitlines():
        if not line.startswith("python -m bito.train."):
            continue
        words = shlex.split(line.strip().rstrip("&"))
        if words[:3] == ["python", "-m", "bito.train.learned"]:
            argv = [w.replace('"$variant"', "podkidnoy").replace("$variant", "podkidnoy")
                    .replace("$deals", "6700").replace('"$weights"', "w.npz")
                    .replace("$weights", "w.npz") for w in words[3:]]
            settings = parse(argv)
            assert settings.variant == "podkidnoy" and settings.minutes > 0
            steps += 1
        elif words[:3] == ["python", "-m", "bito.train.teacher"]:
            assert {w for w in words if w.startswith("--")} <= teacher_flags, line
            steps += 1
    assert steps == 5  # round 1; round 2: PPO, two labelling processes, imitation + PPO
    refused = subprocess.run(["bash", str(script), "chess"], capture_output=True, text=True)
    assert refused.returncode == 2 and "podkidnoy|perevodnoy" in refused.stderr
