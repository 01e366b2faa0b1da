"""The action codec: every legal action of random games round-trips through its integer, in
every Durak-family variant the engine plays (bito.env.coverage), and the mask marks exactly
the legal actions."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from hypothesis import given, settings
from hypothesis import strategies as st

from bito.env.codec import ActionCodec, codec_for, durak_rules
from bito.env.coverage import covered_specs
from bito.games.durak import new_game, parse_action

#: Extra specs whose options change the action space: several-card leads and transfers.
SHAPES = ("podkidnoy+lead.shape=rozaliev", "podkidnoy+lead.shape=single",
          "perevodnoy+lead.shape=same_rank_1or2", "with_pairs", "from_groups",
          "podkidnoy+treshka", "pairs_only")


def _random_game(spec: str, players: int, seed: int) -> list:
    """The states of one random game, with its seed line."""
    state = new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_over and len(states) < 400:
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


@pytest.mark.parametrize("spec", covered_specs() + SHAPES)
def test_every_legal_action_round_trips(spec: str) -> None:
    codec = codec_for(durak_rules(spec))
    for seed in (1, 2):
        players = 2 + seed % 2  # new_game(spec, 2 or 3, seed=seed)
        for state in _random_game(spec, players, seed):
            legal = state.legal_actions()
            idx = codec.indices(legal)
            assert len(set(idx)) == len(idx)
            assert [codec.action(i) for i in idx] == legal
            mask = codec.mask(state)
            assert mask.sum() == len(legal)
            assert set(mask.nonzero()[0].tolist()) == set(idx)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), spec=st.sampled_from(("podkidnoy", "perevodnoy", "simple")))
def test_round_trip_property(seed: int, spec: str) -> None:
    codec = codec_for(durak_rules(spec))
    for state in _random_game(spec, 2, seed):
        for action in state.legal_actions():
            assert codec.action(codec.index(action)) == action


def test_size_follows_the_pack() -> None:
    # The count is derived from rules.deck(): a 36-card and a twin 72-card pack differ.
    small, big = ActionCodec("podkidnoy"), ActionCodec("big_fool")
    assert len(small.cards) == 36 and len(big.cards) == 72
    assert small.size < big.size
    d = len(small.cards)
    assert small.blocks["defend"][1] - small.blocks["defend"][0] == d * (d - 1)
    # Only transfer games number transfers.
    assert "transfer" not in small.blocks and "transfer" in ActionCodec("perevodnoy").blocks


def test_numbering_is_stable() -> None:
    a, b = ActionCodec("perevodnoy"), ActionCodec("perevodnoy")
    assert a.actions == b.actions
    assert a.index(parse_action("Th>6h")) == b.index(parse_action("Th>6h"))


def test_errors_are_clear() -> None:
    codec = codec_for(durak_rules("podkidnoy"))
    with pytest.raises(ValueError, match="outside 0"):
        codec.action(codec.size)
    with pytest.raises(ValueError, match="outside the action numbering"):
        codec.index(parse_action("=6h"))  # podkidnoy has no transfers
    with pytest.raises(ValueError, match="Durak family"):
        ActionCodec("czech_fool")


def test_missing_extra_is_named() -> None:
    from bito.env._optional import require

    with pytest.raises(ImportError, match=r"bito\[rl\]"):
        require("no_such_module_for_bito", "bito.env.test")
