"""Variants II through the engine: the tossing dummy (VARIANTS.md §3.6 #56, S0:135-137).

S0:137: "an imaginary player, a 'blockhead', participates in the game. The player who wins the
toss and gets the right of the first move has the right to toss for the dummy. The idiot has
no right to walk and fight back ... The dummy is not considered a loser." Positions come from
position text; expectations are read off those words and the catalogue's resolutions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.bots import make_bot
from bito.cards import cards_of
from bito.errors import IllegalActionError, RulesError
from bito.games.durak import DurakView, new_game
from bito.games.durak.actions import TOSS
from bito.games.durak.dummy import TossingDummy, dummy_controller
from bito.notation import parse_position, position_text
from bito.rules import resolve
from conftest import P, assert_conserved, cards, legal, play, random_walk, shuffled_pack

# Seat 0 controls the dummy (7c 9d) and led 7s at seat 1; seat 2 holds 7h.
TABLE = ("podkidnoy+tossing_dummy players=3 trump=6h stock=- hands=Qd8c/8sKcAc/7hTd "
         "dummy=7c9d controller=0 table=7s attacker=0")


def seen(view: DurakView) -> int:
    """The dummy's cards this view shows its seat (#56)."""
    dummy = view.extension(TossingDummy)
    assert dummy is not None
    return dummy.hand


def test_the_dummy_is_dealt_a_hand_after_the_players() -> None:
    """#56 (S0:137 "an imaginary player participates"; A1: dealt like a player): the pack is
    dealt round to the players as usual, then the next six cards go to the dummy; the cards
    are all accounted for."""
    for seed in range(8):
        players = 2 + seed % 4
        s = new_game("podkidnoy+tossing_dummy", players=players, seed=seed)
        pack = shuffled_pack(36, seed)
        pos = players * 6
        assert set(cards_of(s.hands[players])) == set(pack[pos:pos + 6])
        assert_conserved(s)


def test_the_lot_winner_controls_the_dummy_and_attacks_first() -> None:
    """#56 (S0:137 "the player who wins the toss and gets the right of the first move has the
    right to toss for the dummy"), A3 (Rec. a random lot, not the lowest trump): over many
    deals the controller is always the first attacker and is every seat in turn."""
    seen = set()
    for seed in range(40):
        s = new_game("podkidnoy+tossing_dummy", players=3, seed=seed)
        assert dummy_controller(s.deal) == s.attacker == s.to_act
        seen.add(dummy_controller(s.deal))
    assert seen == {0, 1, 2}


def test_the_controller_throws_in_from_the_dummy_on_his_turn() -> None:
    """#56 (S0:137 "the right to toss for the dummy"): after 8s covers 7s the controller,
    first to throw, may throw his own 8c, the dummy's 7c (a seven is on the table; the dummy's
    9d is not of a table rank), or pass. The card leaves the dummy's hand, not his; he keeps
    the turn to throw."""
    s = play(P(TABLE), "8s>7s")
    assert s.to_act == 0 and legal(s) == {"8c", "~7c", "pass"}
    s = play(s, "~7c")
    assert set(cards_of(s.hands[3])) == cards("9d")
    assert set(cards_of(s.hands[0])) == cards("Qd8c")
    assert s.attack[-1] in cards("7c") and s.to_act == 0 and s.phase_name == "throw"


def test_only_the_controller_tosses_and_never_while_defending() -> None:
    """#56: the other thrower (seat 2, holding 7h) throws his own card only; A2 (Rec. the
    controller may not use the dummy while he defends himself): when seat 0 defends, no move
    of his comes from the dummy. A toss by anyone else names the dummy rule."""
    s = play(P(TABLE), "8s>7s", "pass")
    assert s.to_act == 2 and legal(s) == {"7h", "pass"}
    with pytest.raises(IllegalActionError) as err:
        play(s, "~7c")
    assert err.value.rule == "dummy"
    d = P("podkidnoy+tossing_dummy players=2 trump=6h stock=- hands=8c7d/7cKc dummy=7h "
          "controller=0 table=7s attacker=1")
    assert d.defender == 0 and not any(a.kind == TOSS for a in d.legal_actions())


def test_the_dummy_refills_after_the_players() -> None:
    """#56 A1 (Rec. the dummy draws, last in every draw phase; option dummy.draws=false): after
    a bito with four cards in the stock, the attacker and the defender refill first and the
    dummy gets what is left; without dummy.draws it keeps its hand."""
    text = ("podkidnoy+tossing_dummy{extra} players=2 trump=6h stock=6hJsQsKs "
            "hands=8c9c9dTdJd/8sKcAc9hThJh dummy=7c controller=0 table=7s attacker=0")
    s = play(P(text.format(extra="")), "8s>7s", "pass")
    assert s.hands[0].bit_count() == 6 and s.hands[1].bit_count() == 6
    assert set(cards_of(s.hands[2])) == cards("7c") | {c for c in cards("6hJsQsKs")
                                                      if c not in cards_of(s.hands[0] |
                                                                           s.hands[1])}
    assert not s.stock
    s = play(P(text.format(extra="+dummy.draws=false")), "8s>7s", "pass")
    assert set(cards_of(s.hands[2])) == cards("7c") and len(s.stock) == 2


def test_the_dummy_never_loses() -> None:
    """#56 (S0:137 "The dummy is not considered a loser"): the game ends when one player is
    left with cards, whatever the dummy still holds; the dummy is nowhere in the outcome."""
    s = play(P("podkidnoy+tossing_dummy players=2 trump=6h stock=- hands=-/8sKc "
               "dummy=7c9d controller=0 table=7s attacker=0 out=0"), "8s>7s")
    s = play(s, *["pass"] * (0 if s.is_over else len(s.throwers)))
    assert s.is_over and s.outcome.loser == 1 and sorted(s.outcome.order) == [0, 1]
    assert s.hands[2]


def test_views_show_the_dummy_to_its_controller_only() -> None:
    """#56 A4 (Rec. the dummy's hand is visible only to the controller; option
    dummy.visible_to=all): the other seats see how many cards it holds, never which; the
    censored position text hides them too."""
    s = P(TABLE)
    dummy = s.hands[3]
    assert s.view(0).extension(TossingDummy) == TossingDummy(0, 2, dummy)
    for seat in (1, 2):
        assert s.view(seat).extension(TossingDummy) == TossingDummy(0, 2, 0)
        assert "dummy=??*2" in position_text(s, seat)
    assert "dummy=7c9d" in position_text(s, 0)
    open_ = P(TABLE.replace("tossing_dummy", "tossing_dummy+dummy.visible_to=all"))
    assert all(seen(open_.view(seat)) == dummy for seat in range(3))


def test_the_dummy_position_round_trips_and_is_refused_elsewhere() -> None:
    """Position text: ``dummy=`` and ``controller=`` are written and read back; a game
    without a dummy refuses the field by name."""
    s = play(P(TABLE), "8s>7s")
    text = position_text(s)
    assert "dummy=7c9d" in text and "controller=0" in text
    assert position_text(parse_position(text)) == text
    with pytest.raises(Exception, match="dummy"):
        P("podkidnoy players=2 trump=6h stock=- hands=7c/8c dummy=9c attacker=0")


def test_the_dummy_takes_a_seat_from_the_pack() -> None:
    """The dummy's hand is dealt from the same pack: 36 cards of 6-card hands seat 5 players
    and a dummy, not 6 (refused naming ``players``)."""
    assert resolve("podkidnoy+tossing_dummy").rules.max_players == 5
    with pytest.raises(RulesError) as err:
        new_game("podkidnoy+tossing_dummy", players=6, seed=1)
    assert err.value.key == "players"


def test_bots_throw_in_from_the_dummy() -> None:
    """Issue 4: the bots play the new action: over a few games both the heuristic and the
    random controller throw in from the dummy."""
    for name in ("heuristic", "random"):
        tossed = 0
        for seed in range(6):
            s = new_game("podkidnoy+tossing_dummy", players=3, seed=seed)
            bots = [make_bot(name, seed=seed + k) for k in range(3)]
            while not s.is_over:
                action = bots[s.to_act].choose(s.view(s.to_act))
                tossed += action.kind == TOSS
                s = s.apply(action)
        assert tossed > 0, name


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(2, 5),
       st.sampled_from(("podkidnoy+tossing_dummy", "perevodnoy+tossing_dummy",
                        "podkidnoy+tossing_dummy+dummy.draws=false")))
def test_random_dummy_games_keep_the_invariants(seed: int, players: int, spec: str) -> None:
    """Random play with a dummy: cards are conserved (the dummy's hand counted), the game ends,
    only the controller ever throws from the dummy and only in a throw round, and no other
    seat's view holds a card of the dummy's."""
    s = new_game(spec, players=players, seed=seed)
    controller = dummy_controller(s.deal)
    end = s
    for before, action, after in random_walk(s, random.Random(seed), limit=20_000):
        assert_conserved(after)
        if action.kind == TOSS:
            assert before.to_act == controller and before.phase_name == "throw"
        dummy = after.hands[players]
        for seat in range(players):
            if seat != controller:
                v = after.view(seat)
                assert seen(v) == 0 and not v.hand & dummy
                assert not any(k & dummy for k in v.known)
        end = after
    assert end.is_over


def test_web_frames_show_the_dummy_to_its_controller() -> None:
    """#56 A4 in the web server's frames: the controller's frame lists the dummy's cards,
    another seat's and a spectator's only its count."""
    from bito.server.render import render_public
    from bito.server.render import render_view as frame_of

    def dummy(frame: dict[str, Any]) -> dict[str, Any]:
        return next(z for z in frame["zones"] if z["name"] == "dummy")

    s = P(TABLE)
    assert len(dummy(frame_of(s.view(0)))["cards"]) == 2
    for frame in (frame_of(s.view(1)), render_public(s)):
        assert dummy(frame)["cards"] == [] and dummy(frame)["count"] == 2
