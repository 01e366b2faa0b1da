"""Variants II through the engine: Believe it or not (1) (VARIANTS.md §3.7 #59).

Face-down covers and the attacker's believe / don't-believe call. Docstrings cite the id and the
seed line (S4 = seeds/004_*.txt, the Russian original: S4:16 holds the whole rule and its
example). Positions come from position text; the expected outcome of each call is read off the
rule's four cases, never off the engine.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.bots import make_bot
from bito.cards import cards_of
from bito.errors import IllegalActionError, RulesError
from bito.games.durak import new_game
from bito.games.durak.actions import BELIEVE, DEFEND, DOUBT
from bito.games.durak.believe import FACE_DOWN
from bito.games.durak.render import render_view
from bito.notation import parse_position, position_text
from conftest import P, assert_conserved, cards, legal, play, random_walk

# S4:16's example: the lead was J♣ J♠ 10♥ (a pair and one card, as in 1.a); turned up, A♥ lies
# on the 10♥ (fine), A♠ on the J♣ and K♣ on the J♠ (wrong suits, diamonds being trump).
SEED_EXAMPLE = ("believe_not_believe players=2 trump=6d stock=- hands=9h/7c8c "
                "table=Jc<As,Js<Kc,Th<Ah attacker=0")
# The same lead honestly covered: Q♣ on J♣, Q♠ on J♠, A♥ on 10♥.
HONEST = ("believe_not_believe players=2 trump=6d stock=- hands=9h/7c8c "
          "table=Jc<Qc,Js<Qs,Th<Ah attacker=0")
TABLE = cards("JcJsTh")


def test_any_card_may_go_face_down_on_any_attack_card() -> None:
    """#59 (S4:16 "the defender lays his cards face down": the covers are not checked when
    laid, so he may bluff): facing 10♥ with 7♣ and K♥ in hand, both cards may cover it (only
    K♥ beats it), or he takes."""
    s = P("believe_not_believe players=2 trump=6d stock=- hands=9h/7cKh table=Th attacker=0")
    assert legal(s) == {"7c>Th", "Kh>Th", "take"}
    plain = P("simple players=2 trump=6d stock=- hands=9h/7cKh table=Th attacker=0")
    assert legal(plain) == {"Kh>Th", "take"}


def test_the_attacker_calls_once_everything_is_covered() -> None:
    """#59 (S4:16 "the player must guess whether the defence is right: believe or not"), A3
    (Rec. the attacker who led calls): the last face-down cover hands the move to the
    attacker, whose only moves are the two calls."""
    s = P("believe_not_believe players=3 trump=6d stock=- hands=9h/7cKh/8s table=Th "
          "attacker=0")
    s = play(s, "7c>Th")
    assert s.phase_name == "call" and s.to_act == 0
    assert legal(s) == {"believe", "doubt"}


def test_believed_honest_covers_are_bito() -> None:
    """#59 (S4:16 "if he said 'I believe' and the cards are covered correctly, they go to the
    discard"): the six cards are discarded and the defender attacks next."""
    s = play(P(HONEST), "believe")
    assert TABLE | cards("QcQsAh") <= set(cards_of(s.discard))
    assert (s.attacker, s.defender) == (1, 0)


def test_believed_bluff_is_taken_by_the_believer() -> None:
    """#59, the seed's example (S4:16 "if even one is not covered, the one who said 'I
    believe' takes them"; A♠ on J♣ and K♣ on J♠ are no defence): the attacker takes all six
    cards, everyone sees them, and the defender, having beaten off the bout, attacks (A1)."""
    s = play(P(SEED_EXAMPLE), "believe")
    took = TABLE | cards("AsKcAh")
    assert took <= set(cards_of(s.hands[0]))
    assert took <= set(cards_of(s.known[0]))
    assert (s.attacker, s.defender) == (1, 0)


def test_doubted_bluff_is_taken_by_the_defender() -> None:
    """#59 (S4:16 "when the attacker says 'I don't believe' and the cards really are not
    covered, the defender takes them"): he takes all six and loses his turn: with two players
    the attacker leads again."""
    s = play(P(SEED_EXAMPLE), "doubt")
    assert TABLE | cards("AsKcAh") <= set(cards_of(s.hands[1]))
    assert (s.attacker, s.defender) == (0, 1)


def test_doubted_honest_covers_are_taken_by_the_doubter() -> None:
    """#59 (S4:16 "and when they are covered, the one who did not believe takes them"), A1: the
    attacker takes the six cards and the defender attacks next."""
    s = play(P(HONEST), "doubt")
    assert TABLE | cards("QcQsAh") <= set(cards_of(s.hands[0]))
    assert (s.attacker, s.defender) == (1, 0)


def test_an_open_take_returns_the_face_down_card_unseen() -> None:
    """#59 A2 (Rec. the defender may take openly, as in simple fool): having laid 7♣ face down
    on 10♥, he takes: he holds the lead cards and his 7♣ again; everyone knows he holds the
    attack cards, nobody learns the 7♣."""
    s = P("believe_not_believe players=2 trump=6d stock=- hands=9h/7cKhQh table=Th,Tc "
          "attacker=0")
    s = play(s, "7c>Th", "take")
    assert cards("ThTc7c") <= set(cards_of(s.hands[1]))
    known = set(cards_of(s.known[1]))
    assert cards("ThTc") <= known and cards("7c").isdisjoint(known)


def test_a_defender_out_of_cards_comes_back_when_he_must_take() -> None:
    """#59: with the stock gone a defender who lays his last card is out of cards, but a
    doubted bluff makes him take the table (S4:16), so he is back in the game and not out."""
    s = P("believe_not_believe players=3 trump=6d stock=- hands=9h8h/7c/QsKs table=Th "
          "attacker=0")
    s = play(s, "7c>Th", "doubt")
    assert 1 not in s.out and cards("Th7c") <= set(cards_of(s.hands[1]))
    assert not s.is_over


def test_views_hide_the_face_down_cards() -> None:
    """#59 A4 (covers are hidden from all but the defender until the call), issue 4 "views must
    stay exact": the attacker and a third player see that a card lies on 10♥, not which; the
    defender sees his own card; the terminal shows it as face down."""
    s = play(P("believe_not_believe players=3 trump=6d stock=- hands=9h/7cKh/8s table=Th,Tc "
               "attacker=0"), "7c>Th")
    seven = cards("7c").pop()
    assert s.view(1).defence == (seven, -1)
    for seat in (0, 2):
        assert s.view(seat).defence == (FACE_DOWN, -1)
        assert "7♣" not in render_view(s.view(seat), ["A", "B", "C"])
    assert "10♥/??" in render_view(s.view(0), ["A", "B", "C"])
    assert "Th<??" in position_text(s, 0) and "7c" not in position_text(s, 2)
    assert "Th<7c" in position_text(s, 1)


def test_wrong_moves_name_the_call() -> None:
    """#59: during the call nothing but a call is legal, and a call at any other time is
    refused; both errors name the rule ("call")."""
    s = P(SEED_EXAMPLE)
    with pytest.raises(IllegalActionError) as err:
        play(s, "take")
    assert err.value.rule == "call"
    with pytest.raises(IllegalActionError) as err:
        play(P("believe_not_believe players=2 trump=6d stock=- hands=9h/7cKh table=Th "
               "attacker=0"), "believe")
    assert err.value.rule == "call"


def test_face_down_needs_a_game_without_throw_ins() -> None:
    """#59 base is simple fool (S4:16 "as simple fool 1.a or 1.c"): with throw-ins the ranks
    thrown in would give the covers away, so the mix is refused naming the option."""
    with pytest.raises(RulesError) as err:
        new_game("podkidnoy+defense.face_down=true", players=2, seed=1)
    assert err.value.key == "defense.face_down"
    assert new_game("simple+defense.face_down=true", players=2, seed=1).rules.defense_face_down


def test_the_call_position_round_trips() -> None:
    """The position text of a call: ``phase=call`` is written and read back (and inferred when
    every attack card is covered in a face-down game)."""
    s = P(SEED_EXAMPLE)
    assert s.phase_name == "call"
    text = position_text(s)
    assert "phase=call" in text and position_text(parse_position(text)) == text


def test_bots_play_both_calls_and_bluff() -> None:
    """Issue 4: the bots play every new action: over a few games the heuristic bot both
    believes and doubts, and lays a cover that does not beat its card (a bluff); the random
    bot calls too."""
    kinds: set[int] = set()
    bluffs = 0
    for seed in range(6):
        for name in ("heuristic", "random"):
            s = new_game("believe_not_believe", players=2, seed=seed)
            bots = [make_bot(name, seed=seed + k) for k in range(2)]
            while not s.is_over:
                action = bots[s.to_act].choose(s.view(s.to_act))
                if action.kind == DEFEND and not s.beats[action.target] >> action.card & 1:
                    bluffs += name == "heuristic"
                kinds.add(action.kind)
                s = s.apply(action)
    assert {BELIEVE, DOUBT} <= kinds and bluffs > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(2, 5))
def test_random_games_never_show_a_face_down_card(seed: int, players: int) -> None:
    """Random play of #59: cards are conserved, the game ends, and no seat but the defender
    ever sees a face-down cover: not on the table, not among another hand's known cards, not
    in its legal moves."""
    s = new_game("believe_not_believe", players=players, seed=seed)
    for _, _, after in random_walk(s, random.Random(seed), limit=20_000):
        assert_conserved(after)
        down = {d for d in after.defence if d >= 0}
        for seat in range(players):
            v = after.view(seat)
            if seat == after.defender:
                continue
            assert not down & {d for d in v.defence if d >= 0}
            for other in range(players):
                if other != seat:
                    assert not down & set(cards_of(v.known[other]))
            assert v.hand == after.hands[seat]
    assert after.is_over


def test_records_and_the_terminal_hide_a_face_down_cover() -> None:
    """#59 A4 through the protocol's ``seen_by`` hook: a face-down cover reaches any seat but
    the defender as "a card on 10♥" (``?>Th``), in censored records and in the terminal's
    running commentary; the defender sees his own move; other moves stay public."""
    from bito.games.durak.actions import parse_action
    from bito.games.family import seen_by
    from bito.games.protocol import Hidden
    from bito.server import games as server_games

    s = P("believe_not_believe players=3 trump=6d stock=- hands=9h/7cKh/8s table=Th "
          "attacker=0")
    cover = parse_action("7c>Th")
    assert seen_by(s, cover, 1) is cover
    for seat in (0, 2, None):
        seen = seen_by(s, cover, seat)
        assert isinstance(seen, Hidden) and str(seen) == "?>Th" and "7" not in seen.pretty()
    state = new_game("believe_not_believe", players=2, seed=3)
    bots = [make_bot("random", seed=k) for k in range(2)]
    moves = []
    while not state.is_over:
        action = bots[state.to_act].choose(state.view(state.to_act))
        moves.append(action)
        state = state.apply(action)
    setup = server_games.Setup("believe_not_believe", 2, 3)
    record = server_games.full_record(setup, moves, ["p0", "p1"])
    censored = record.censored(0)
    hid = [a for (mover, a), (_, true) in zip(censored.actions, record.actions, strict=True)
           if true.kind == DEFEND and mover != 0]
    assert hid and all(isinstance(a, Hidden) for a in hid)


def test_web_frames_hide_face_down_covers_from_everyone_but_the_defender() -> None:
    """#59 A4 in the web server's frames: the defender's frame shows his cover; the attacker's
    and a spectator's show a face-down cover without its card."""
    from bito.server.render import render_public
    from bito.server.render import render_view as frame_of

    s = play(P("believe_not_believe players=2 trump=6d stock=- hands=9h/7cKh table=Th,Tc "
               "attacker=0"), "7c>Th")
    assert frame_of(s.view(1))["table"][0]["cover"] is not None
    for frame in (frame_of(s.view(0)), render_public(s)):
        assert frame["table"][0]["cover"] is None and frame["table"][0]["face_down"]


def test_face_down_cover_ranks_stay_out_of_the_attackers_view() -> None:
    """#59 (S4:16 "the defender lays his cards face down"): the open ranks a view reports
    (``view.table_ranks``) must not give away the rank of a face-down cover to anyone but the
    defender, who laid it; the defender's own view keeps them."""
    from bito.cards import MATCH_MASKS

    checked = 0
    for seed in range(12):
        s = new_game("believe_not_believe", 2, seed=seed)
        bot = make_bot("heuristic", seed)
        while not s.is_over and checked < 40:
            covers = [d for d in s.defence if d >= 0]
            if covers:
                attack_ranks = 0
                for c in s.attack:
                    attack_ranks |= MATCH_MASKS[c]
                for seat in range(2):
                    view = s.view(seat)
                    if seat == s.defender:
                        assert view.table_ranks == s.table_ranks
                    else:
                        assert view.table_ranks == attack_ranks, str(s)
                if any(not attack_ranks & MATCH_MASKS[c] for c in covers):
                    checked += 1  # a cover of another rank: a leak would have shown
            s = s.apply(bot.choose(s.view(s.to_act)))
    assert checked > 0
