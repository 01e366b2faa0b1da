"""Durak's browser frame is its table model's (issue 34 item 1, issue 33 item 2): the facts the
Durak table shows beyond the zones -- the taking banner (§1.5), whose turn it is for a playing
dummy (#57), a hand held face out (#58), a cover laid face down (#59), what the seat to act is
asked to do -- are fields of the model, and the frame says what the model says. Positions from
their one-line text; expectations read off the rules catalogue."""

from __future__ import annotations

import random

from bito.games.durak import DurakState
from bito.games.durak.actions import parse_action
from bito.games.tables import table_of
from bito.notation import parse_position as P
from bito.server import games
from bito.server.render import move_label, render_open, render_public, render_view


def play(state: DurakState, *moves: str) -> DurakState:
    for move in moves:
        state = state.apply(parse_action(move))
    return state


def test_the_taking_banner_comes_from_the_model() -> None:
    """§1.5 (podkidnoy): once the defender says he takes, the others may still throw in; the
    table shows it, in the model and in every frame, a spectator's too."""
    s = P("podkidnoy players=2 trump=6h stock=- hands=7c9c/8d9d table=7s attacker=0")
    assert not table_of(s.view(0)).taking and not render_view(s.view(0))["taking"]
    s = play(s, "take")
    assert table_of(s.view(0)).taking and table_of(s.view(1)).taking
    for frame in (render_view(s.view(0)), render_view(s.view(1)), render_public(s)):
        assert frame["taking"] is True
    assert render_view(s.view(0))["legal"], "the attacker may still throw in"


def test_the_prompt_says_what_the_seat_to_act_is_asked_to_do() -> None:
    """§1.5/§1.6: the defender of podkidnoy covers or takes; of perevodnoy he may also
    transfer; the attacker leads. The third-person words (``doing``) stay for the others."""
    lead = P("podkidnoy players=2 trump=6h stock=- hands=7c9c/8d9d attacker=0")
    assert table_of(lead.view(0)).prompt == "lead an attack"
    defend = P("podkidnoy players=2 trump=6h stock=- hands=7c9c/8d9d table=7s attacker=0")
    assert render_view(defend.view(1))["prompt"] == "cover or take"
    assert render_view(defend.view(1))["doing"] == "covers or takes"
    transfer = P("perevodnoy players=3 trump=6h stock=- hands=7c9c/8d9d/6c6d table=7s "
                 "attacker=0")
    assert table_of(transfer.view(1)).prompt == "cover, transfer or take"


def test_the_controller_moves_for_a_playing_dummy() -> None:
    """#57 (S0:141 "not only toss, but also walk for him"): the dummy (seat 2) is to act and
    its controller (seat 0) decides: the frame names the decider, the dummy's seat says who
    plays it, and the dummy's frame (the one the server sends its controller) holds its
    moves, the controller's own none."""
    s = P("podkidnoy+playing_dummy players=3 trump=6h stock=- hands=Qd8c/7c9dKc/8sTd "
          "controller=0 table=7s attacker=1 defender=2")
    model = table_of(s.view(0))
    assert (model.to_act, model.decider) == (2, 0)
    frame = render_view(s.view(0))
    assert (frame["to_act"], frame["decider"]) == (2, 0)
    assert frame["seats"][2]["played_by"] == 0 and frame["seats"][1]["played_by"] == -1
    assert frame["legal"] == [] and render_view(s.view(1))["legal"] == []
    dummy = render_view(s.view(2))
    assert dummy["decider"] == 0 and {m["text"] for m in dummy["legal"]} == {"8s>7s", "take"}
    # a seat that plays for itself is its own decider
    other = P("podkidnoy players=2 trump=6h stock=- hands=7c9c/8d9d attacker=0")
    assert table_of(other.view(0)).decider == -1 and render_view(other.view(0))["decider"] == 0


def test_a_hand_held_face_out_is_played_by_position() -> None:
    """#58 (deal.owner_sees_hand false): one's own hand is a row of numbered backs, never its
    cards; the others' hands are shown by position; a spectator sees no hand at all; the
    replay shows every hand once the game is over."""
    s = games.new_state(games.Setup("podkidnoy+blind_face_out", 3, 7))
    for seat in range(3):
        own = table_of(s.view(seat)).zone("hand")
        assert own is not None and own.by_position and own.cards == ()
        frame = render_view(s.view(seat))
        assert frame["face_out"] and frame["blind_hand"] == s.hands[seat].bit_count()
        assert frame["hand"] == [] and frame["seats"][seat]["known"] == []
        assert all(len(frame["seats"][o]["known"]) == s.hands[o].bit_count()
                   for o in range(3) if o != seat)
    public = render_public(s)
    assert all(seat["known"] == [] for seat in public["seats"]) and "blind_hand" not in public
    rng = random.Random(7)
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
    hands = render_open(s)["hands"]
    assert [len(h) for h in hands] == [s.hands[i].bit_count() for i in range(3)]


def test_a_spectator_sees_a_face_down_cover_face_down() -> None:
    """#59 A4: the defender sees the cover he laid; the attacker and a spectator see a
    covered pair whose cover is face down, and the frame never names the card."""
    s = play(P("believe_not_believe players=2 trump=6d stock=- hands=9h/7cKh table=Th,Tc "
               "attacker=0"), "7c>Th")
    public = render_public(s)
    assert public["table"][0]["face_down"] and public["table"][0]["cover"] is None
    assert "7c" not in str(public)
    assert public["table"][1]["cover"] is None and not public["table"][1]["face_down"]


def test_the_log_words_a_cheat_put_down_as_the_model_does() -> None:
    """Issue 34: one's own put-down in Cheat is logged as ``put down``, not ``play`` (the
    model's words); a Mau-Mau play keeps ``play``; a Durak move gets no label (the page
    words it)."""
    s = games.new_state(games.Setup("believe_not_believe_2", 3, 2))
    seat = s.to_act
    put = next(a for a in s.legal_actions() if getattr(a, "cards", ()))
    assert move_label(s, seat, put).startswith("put down ")
    m = games.new_state(games.Setup("czech_fool", 2, 2))
    played = next((a for a in m.legal_actions() if getattr(a, "kind", "") == "play"), None)
    if played is not None:
        assert move_label(m, m.to_act, played).startswith("play ")
    d = P("podkidnoy players=2 trump=6h stock=- hands=7c9c/8d9d attacker=0")
    assert move_label(d, 0, d.legal_actions()[0]) == ""
