"""Deals and outcomes built without their frozen dataclasses' ``__init__`` (the reference
engine's hot path, ``bito bench``) are the objects ``__init__`` would build."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bito.cards import rank_of, suit_of
from bito.errors import RulesError
from bito.games.durak import MatchContext, new_game
from bito.games.durak.setup import _SUIT_CARDS, Deal, _below, _lowest, deal
from bito.games.durak.state import Outcome, _new_outcome
from bito.rules import rules_for

verify = pytest.importorskip("bito.kernel.verify", reason="the option sampler needs numpy")


def test_a_dealt_deal_is_the_one_its_init_builds() -> None:
    rng = random.Random("deal")
    podkidnoy = rules_for("podkidnoy")
    specs = [podkidnoy, rules_for("perevodnoy"), rules_for("podkidnoy+tossing_dummy"),
             rules_for("believe_not_believe"), podkidnoy.with_options(**{"trump.source": "none"}),
             podkidnoy.with_options(**{"deal.whole_pack": True})]
    for i in range(300):
        rules = (verify.random_rules(rng.choice(verify.BASES), rng) if i % 2
                 else specs[i // 2 % len(specs)])
        players = rng.randint(rules.players_min, min(rules.max_players, 5))
        try:
            made = deal(rules, players, rng.getrandbits(40), MatchContext())
        except RulesError:
            continue
        fields = {f.name: getattr(made, f.name) for f in dataclasses.fields(Deal) if f.init}
        rebuilt = Deal(**fields)
        assert rebuilt == made
        assert {f.name: getattr(rebuilt, f.name) for f in dataclasses.fields(Deal)} == {
            f.name: getattr(made, f.name) for f in dataclasses.fields(Deal)}
        assert set(vars(rebuilt)) == set(vars(made))


def test_a_refused_seat_count_is_refused_every_time() -> None:
    """The checks of a rule set are remembered only once they pass."""
    for _ in range(2):
        with pytest.raises(RulesError):
            new_game("podkidnoy", 7, seed=1)
    assert new_game("podkidnoy", 2, seed=1).deal.players == 2


def test_a_built_outcome_is_the_one_its_init_builds() -> None:
    made = _new_outcome(1, (0, 1), False, "")
    want = Outcome(loser=1, order=(0, 1), draw=False, reason="")
    assert made == want and repr(made) == repr(want)
    assert vars(made) == {f.name: getattr(want, f.name) for f in dataclasses.fields(Outcome)}


def test_the_inline_lot_draws_what_randrange_draws() -> None:
    """The deal's lot for the dealer (``_below``) takes the same random draws as
    ``Random.randrange``, so a seed deals the same game with or without it."""
    for seed in range(200):
        for n in range(1, 10):
            ours, stdlib = random.Random(seed), random.Random(seed)
            assert _below(ours, n) == stdlib.randrange(n)
            assert ours.getstate() == stdlib.getstate()


def test_the_lowest_card_of_one_suit_is_found_as_by_a_walk_over_every_card() -> None:
    """The first attacker's lowest trump: the one-suit shortcut (the lowest bit of one deck's
    suit row) agrees with the definition, the lowest rank, ties to the first seat in order,
    also when a second deck's twins are in the hands."""
    rng = random.Random("lowest")
    for _ in range(2000):
        suit = rng.randrange(4)
        pool = [c for c in range(160) if suit_of(c) == suit and rank_of(c) < 15]
        two_decks = rng.random() < 0.3
        cards = [c for c in pool if two_decks or c < 64]
        hands = [sum(1 << c for c in rng.sample(cards, rng.randint(0, 4))) for _ in range(3)]
        order = tuple(rng.sample(range(3), 3))
        want = None
        for idx, seat in enumerate(order):
            for c in sorted(c for c in cards if hands[seat] >> c & 1):
                if want is None or rank_of(c) < want[0]:
                    want = (rank_of(c), idx, c)
        assert _lowest(hands, order, _SUIT_CARDS[suit]) == want
