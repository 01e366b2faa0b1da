"""Deals and outcomes built without their frozen dataclasses' ``__init__`` (the reference
engine's hot path, ``bito bench``) are the objects ``__init__`` would build."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bito.errors import RulesError
from bito.games.durak import MatchContext, new_game
from bito.games.durak.setup import Deal, deal
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
        if made.trump_card >= 0 and made.face_up == 1 << made.trump_card:
            fields["face_up"] = 0  # (what __post_init__ turns into the trump card's bit)
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
    made = _new_outcome(1, (0, 1), False, "", ((0,), (1,)), 1, -1)
    want = Outcome(loser=1, order=(0, 1), draw=False, reason="", teams=((0,), (1,)),
                   losing_team=1, dummy=-1)
    assert made == want and repr(made) == repr(want)
    assert vars(made) == {f.name: getattr(want, f.name) for f in dataclasses.fields(Outcome)}
