"""Observation exactness: an observation is a function of what the seat may know. Re-dealing
the cards hidden from a seat (other hands' unknown cards, the stock under the face-up trump)
never changes that seat's observation, while it does change what the re-dealt hands hold."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from bito.env.coverage import covered_specs  # noqa: E402
from bito.env.observation import ObservationEncoder  # noqa: E402
from bito.env.redeal import hidden_slots, redeal  # noqa: E402
from bito.games.durak import new_game  # noqa: E402


def _positions(spec: str, players: int, seed: int, every: int = 7) -> list:
    state = new_game(spec, players, seed=seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_over and step < 300:
        if step % every == 0:
            out.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize("spec", covered_specs())
def test_redealing_hidden_cards_never_changes_the_observation(spec: str) -> None:
    players = 3
    enc = ObservationEncoder(spec, players)
    rng = random.Random(5)
    changed = 0
    for state in _positions(spec, players, seed=11):  # new_game(spec, 3, seed=11)
        for seat in range(players):
            before = enc.encode(state.view(seat))
            world = redeal(state, seat, rng)
            assert np.array_equal(enc.encode(world.view(seat)), before)
            # The check has teeth: the re-deal really moved hidden cards around.
            changed += world.hands != state.hands or world.stock != state.stock
    assert changed > 0


def test_planes_cover_the_pack_exactly_once() -> None:
    # hand + table + discard + known cards + face-up trump in the stock + unseen = the pack.
    enc = ObservationEncoder("perevodnoy", 3)
    for state in _positions("perevodnoy", 3, seed=3, every=3):  # new_game(.., 3, seed=3)
        for seat in range(3):
            view = state.view(seat)
            planes = enc.split(enc.encode(view))
            total = (planes["hand"] + planes["attack_open"] + planes["attack_covered"]
                     + planes["defence"] + planes["discard"] + planes["known_1"]
                     + planes["known_2"] + planes["unseen"])
            if view.trump_card_in_stock:
                total = total + planes["trump_card"]
            assert total.tolist() == [1.0] * len(enc.codec.cards)
            hidden, _, _ = hidden_slots(state, seat)
            assert int(planes["unseen"].sum()) == len(hidden)


def test_hand_plane_is_the_hand() -> None:
    state = new_game("podkidnoy", 2, seed=9)
    enc = ObservationEncoder("podkidnoy", 2)
    planes = enc.split(enc.encode(state.view(1)))
    held = {enc.codec.cards[i] for i in np.flatnonzero(planes["hand"])}
    assert held == {c for c in range(160) if state.hands[1] >> c & 1}
    assert planes["hand_counts"][0] * enc.rules.card_count == state.hands[1].bit_count()


def test_the_face_down_secret_card_is_re_dealt_too() -> None:
    # #18: the secret card under the trump card is hidden from everyone until turned.
    state = new_game("podkidnoy+secret_trump", 2, seed=4)  # new_game(.., 2, seed=4)
    assert state.deal.trump.hidden >= 0
    enc = ObservationEncoder("podkidnoy+secret_trump", 2)
    rng = random.Random(0)
    secrets = set()
    for _ in range(20):
        world = redeal(state, 0, rng)
        secrets.add(world.deal.trump.hidden)
        assert np.array_equal(enc.encode(world.view(0)), enc.encode(state.view(0)))
        held = world.hands[0] | world.hands[1] | sum(1 << c for c in world.stock)
        assert not held >> world.deal.trump.hidden & 1  # still out of play
    assert len(secrets) > 1
