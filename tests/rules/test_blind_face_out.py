"""#58 ``blind_face_out``: cards held facing outward (VARIANTS.md §3.7 #58, A1-A5).

Seeds: S1:76 (Rozaliev's game No. 4: "played by all the rules of throw-in or transfer fool,
but the cards dealt are not looked at ... the player who incorrectly covered, transferred or
tossed a card takes away all the turn cards") and S4:7-8 (the same in the Russian original).
Every scenario is a hand-written position; hands in a face-out game are listed by position.
"""

from __future__ import annotations

import pytest

from bito.cards import cards_of
from bito.errors import IllegalActionError, InvalidNotationError, RulesError
from bito.games.durak import DurakView, new_game, parse_action
from bito.games.durak.actions import BLIND_COVER, BLIND_PLAY, BLIND_TRANSFER, Revealed
from bito.games.durak.blind import FaceOut, hand_order
from bito.games.family import seen_by
from bito.notation import parse_position, position_text
from conftest import C, assert_conserved, cards, legal, play

POD = "podkidnoy+blind_face_out"
PER = "perevodnoy+blind_face_out"


def P(text: str):
    return parse_position(text)


def M(text: str) -> int:
    """The cards of ``text`` as a hand bitmask."""
    return sum(1 << c for c in cards(text))


def positions(view: DurakView) -> tuple[tuple[int, ...], ...]:
    """Each hand by position as ``view`` shows it (#58)."""
    face_out = view.extension(FaceOut)
    assert face_out is not None
    return face_out.hand_order


def test_the_variant_is_a_house_rule_on_both_bases() -> None:
    """#58 applies_to podkidnoy and perevodnoy (S1:76: "by all the rules of the throw-in or
    the transfer fool"); it switches off one thing, the owner seeing his hand."""
    for base in ("podkidnoy", "perevodnoy"):
        s = new_game(f"{base}+blind_face_out", players=3, seed=1)
        assert s.view(0).extension(FaceOut) is not None and not s.rules.deal_owner_sees_hand
    for spec in ("believe_not_believe+deal.owner_sees_hand=false",  # face-down covers
                 "with_pairs+deal.owner_sees_hand=false"):  # a lead built from the hand
        with pytest.raises(RulesError) as err:
            new_game(spec, players=2, seed=1)
        assert err.value.key == "deal.owner_sees_hand"


def test_moves_are_positions_not_cards() -> None:
    """#58 A4: the player chooses a hidden card by position. The defender, holding two cards,
    may try either on the attack card, or take; nothing in his moves names his cards."""
    s = P(f"{POD} players=2 trump=6h stock=- hands=7h9c/8sKs table=7s attacker=0")
    assert legal(s) == {"#1>7s", "#2>7s", "take"}
    for a in s.legal_actions():
        assert a.mask == 0  # no card of his rides on the action
    with pytest.raises(IllegalActionError) as err:
        s.apply(parse_action("8s>7s"))  # as if he could see the eight
    assert err.value.rule == "hand held face out"
    with pytest.raises(IllegalActionError) as err:
        s.apply(parse_action("#3>7s"))
    assert err.value.rule == "position"


def test_a_legal_blind_cover_is_played_as_the_card_it_turns_out_to_be() -> None:
    """S1:76: the game goes by the ordinary rules when the card fits: position 2 holds the
    king of spades, which beats the seven of spades, so the bout goes on to the throw-ins."""
    s = play(P(f"{POD} players=2 trump=6h stock=- hands=7h9c/8sKs table=7s attacker=0"),
             "#2>7s")
    assert s.table_pairs() == [(C("7s"), C("Ks"))]
    assert hand_order(s, 1) == (C("8s"),)
    assert s.phase_name == "throw" and s.to_act == 0
    assert_conserved(s)


def test_an_illegal_cover_makes_the_defender_take_the_bout() -> None:
    """S4:8 / S1:76 "the player who incorrectly covered ... takes away all the turn cards";
    A2: the bout ends there (no throw-ins) and the player on his left attacks next. The nine
    of clubs at position 1 does not beat the seven of spades."""
    s = P(f"{POD} players=3 trump=6h stock=- hands=7h7c/9cKs/8d8h table=7s attacker=0")
    after = play(s, "#1>7s")
    assert after.hands[1] == s.hands[1] | 1 << C("7s")  # his own nine came back, with the 7s
    assert after.hands[0] == s.hands[0]  # seat 0 never got to throw in his sevens
    assert not after.attack and after.bout == s.bout + 1
    assert after.attacker == 2 and after.defender == 0  # left of the offender (seat 1)
    assert after.discard == s.discard
    assert_conserved(after)


def test_an_illegal_throw_in_makes_the_thrower_take_and_the_defender_has_beaten_it_off() -> None:
    """S4:8 "неверно ... подкинувший": the thrower takes the bout's cards, A2: a successful
    defence for the defender, and the player on the offender's left attacks next. Seat 0's
    position 2 holds the nine of clubs, a rank not on the table (7s, 8s)."""
    s = P(f"{POD} players=3 trump=6h stock=- hands=7h9cAd/8sKsQd/8d8hJc table=7s attacker=0")
    s = play(s, "#1>7s")  # seat 1 covers with the eight of spades (legal)
    assert s.phase_name == "throw" and s.to_act == 0
    after = play(s, "#2")
    assert after.hands[0] == s.hands[0] | M("7s8s")  # the 9c is back, with the bout
    assert after.hands[1] == s.hands[1]  # the defender keeps what he had left
    assert after.attacker == 1 and after.defender == 2  # left of seat 0, the offender
    assert not after.attack and after.discard == s.discard
    assert_conserved(after)


def test_a_legal_blind_throw_in_joins_the_bout() -> None:
    """Position 1 of seat 0 holds the seven of hearts: a rank on the table, so it is thrown
    in and the defender must answer it."""
    s = play(P(f"{POD} players=2 trump=6h stock=- hands=7h9c/8sKsQd table=7s attacker=0"),
             "#1>7s", "#1")
    assert s.attack == [C("7s"), C("7h")] and s.uncovered == 1
    s = play(s, "pass")  # the throw round ends: the defender answers the new card
    assert s.phase_name == "defend" and s.to_act == 1


def test_an_illegal_transfer_makes_the_defender_take() -> None:
    """S1:76 "incorrectly ... transferred": in perevodnoy the defender may try a transfer while
    nothing is covered; the card at position 1 (nine of clubs) is not a seven, so he takes the
    seven and his nine and the next attack comes from his left (A2: as after a take)."""
    s = P(f"{PER} players=3 trump=6h stock=- hands=7h8d/9c7c/QdKdAd table=7s attacker=0")
    assert {"=#1", "=#2"} <= legal(s)
    after = play(s, "=#1")
    assert after.hands[1] == M("9c7c7s")
    assert after.attacker == 2 and after.defender == 0
    assert_conserved(after)


def test_a_legal_blind_transfer_passes_the_attack_on() -> None:
    """Position 2 holds the seven of clubs: the transfer stands and seat 2 defends."""
    s = play(P(f"{PER} players=3 trump=6h stock=- hands=7h8d/9c7c/QdKdAd table=7s attacker=0"),
             "=#2")
    assert s.attack == [C("7s"), C("7c")] and s.defender == 2 and s.attacker == 1


def test_a_transfer_is_only_offered_when_the_table_allows_one() -> None:
    """What a blind player can see still limits what he may try: seat 2 holds one card, too
    few to face two, so no transfer is offered whatever the defender's cards are."""
    s = P(f"{PER} players=3 trump=6h stock=- hands=7h8d/9c7c/Qd table=7s attacker=0")
    assert not any(a.kind == BLIND_TRANSFER for a in s.legal_actions())
    with pytest.raises(IllegalActionError) as err:
        s.apply(parse_action("=#1"))
    assert "transfer limit" in str(err.value)


def test_a_drawn_card_joins_the_end_of_the_hand_unseen_by_its_owner() -> None:
    """#58 "drawn cards: likewise never seen by their owner" (S1:76 "nor when drawing from the
    deck"): after a bito both refill; the new cards go to the end of each hand, the top of the
    stock first; the owner's view holds none of them, the other seat's view holds all."""
    s = P(f"{POD} players=2 trump=6h stock=6hAcKcQcJc hands=7h9c/8sKs table=7s attacker=0")
    s = play(s, "#1>7s", "pass")  # bito: the attacker refills first, then the defender
    assert hand_order(s, 0) == (C("7h"), C("9c"), C("Jc"), C("Qc"), C("Kc"), C("Ac"))
    assert hand_order(s, 1) == (C("Ks"), C("6h"))
    drawn_by_1 = {C("6h")}
    mine = s.view(1)
    assert mine.hand == 0 and mine.known[1] == 0 and positions(mine)[1] == ()
    assert mine.hand_counts[1] == 2
    other = s.view(0)
    assert drawn_by_1 <= set(cards_of(other.known[1]))
    assert positions(other)[1] == hand_order(s, 1)


def test_a_penalised_card_goes_to_the_end_of_the_hand_with_the_bout() -> None:
    """Positions follow arrival: the card turned up and penalised leaves its place; it comes
    back with the bout's cards, which join the end as they lay (attack cards, then covers)."""
    s = P(f"{POD} players=2 trump=6h stock=- hands=7h7c/9cKsQd table=7s attacker=0")
    after = play(s, "#1>7s")
    assert hand_order(after, 1) == (C("Ks"), C("Qd"), C("7s"), C("9c"))


def test_next_attacker_after_a_penalty_skips_round_to_the_offenders_left() -> None:
    """A2 with four players: seat 3 throws in wrongly against seat 1; seat 0, on seat 3's
    left, attacks next and seat 1 (who beat the attack off) defends."""
    s = P(f"{POD} players=4 trump=6h stock=- hands=8c8d/AsAc/QdKdAd/9d7d "
          "table=7s<8s attacker=0 phase=throw throwers=0.2.3 t_idx=2 to_act=3")
    after = play(s, "#1")  # the nine of diamonds: no nine on the table
    assert after.hands[3] == M("9d7d7s8s")
    assert after.attacker == 0 and after.defender == 1
    assert_conserved(after)


def test_a_lead_is_never_illegal() -> None:
    """A3: any single card may open a bout, so every position is a lead and none is
    penalised."""
    s = P(f"{POD} players=2 trump=6h stock=- hands=9cKsQd/7h8d attacker=0")
    assert legal(s) == {"#1", "#2", "#3"}
    for a in s.legal_actions():
        after = s.apply(a)
        assert after.phase_name == "defend" and len(after.attack) == 1


def test_the_log_shows_the_turned_up_card_to_everyone() -> None:
    """Once played the card lies face up: the protocol's seen_by shows every seat (the player
    himself too) and a spectator which card the position held."""
    s = P(f"{POD} players=2 trump=6h stock=- hands=7h9c/8sKs table=7s attacker=0")
    act = parse_action("#2>7s")
    for seat in (0, 1, None):
        seen = seen_by(s, act, seat)
        assert isinstance(seen, Revealed) and seen.card == C("Ks") and seen.fits
        assert str(seen) == "#2(Ks)>7s"
    assert parse_action("#2(Ks)>7s") == act
    wrong = seen_by(s, parse_action("#1>7s"), 0)  # position 1 holds 8s: it beats 7s too
    assert isinstance(wrong, Revealed) and wrong.fits
    s3 = P(f"{POD} players=2 trump=6h stock=- hands=7h8c/9cKs table=7s attacker=0")
    bad = seen_by(s3, parse_action("#1>7s"), None)  # 9c does not beat 7s: penalised
    assert isinstance(bad, Revealed) and not bad.fits and "illegal" in bad.pretty()


def test_notation_of_blind_moves() -> None:
    """docs/notation.md: ``#n`` lead or throw in, ``#n>card`` cover, ``=#n`` transfer."""
    assert parse_action("#3").kind == BLIND_PLAY and parse_action("#3").position == 2
    cover = parse_action("#1>Th")
    assert cover.kind == BLIND_COVER and cover.target == C("Th") and str(cover) == "#1>Th"
    assert str(parse_action("=#4")) == "=#4"
    for bad in ("#0", "#", "#2>", "=#1>7s", "#1(9d>7s"):
        with pytest.raises(InvalidNotationError):
            parse_action(bad)


def test_views_hold_every_hand_but_ones_own() -> None:
    """#58: each player sees everyone's cards except his own (they face outward)."""
    s = new_game(POD, players=3, seed=11)
    for seat in range(3):
        v = s.view(seat)
        face_out = v.extension(FaceOut)
        assert face_out is not None and v.hand == 0 and v.known[seat] == 0
        for other in range(3):
            if other != seat:
                assert v.known[other] == s.hands[other]
                assert set(face_out.hand_order[other]) == set(cards_of(s.hands[other]))


def test_positions_round_trip_and_censor_ones_own_hand() -> None:
    """position.py: a face-out hand is written by position and read back in that order; the
    censored form shows a seat its own hand as ``??*n`` and the others in full."""
    s = play(new_game(PER, players=3, seed=5), *["#1"])
    text = position_text(s)
    back = parse_position(text)
    assert position_text(back) == text
    for seat in range(3):
        assert hand_order(back, seat) == hand_order(s, seat)
    censored = position_text(s, 1)
    hands = censored.split("hands=")[1].split()[0].split("/")
    assert hands[1] == f"??*{s.hands[1].bit_count()}"
    assert hands[0] == "".join(_txt(c) for c in hand_order(s, 0))


def _txt(c: int) -> str:
    from bito.cards import card_str

    return card_str(c)


def test_the_env_refuses_face_out_hands() -> None:
    """bito.env's observation is built on the seat's own hand: it refuses #58 by name."""
    from bito.env.codec import ActionCodec

    with pytest.raises(ValueError, match="owner_sees_hand"):
        ActionCodec(POD)


def test_bots_play_face_out_games_to_the_end() -> None:
    """The heuristic's blind policy and the search levels (which fall back to it) always
    return a legal move; the heuristic never takes while a cover may be tried."""
    from bito.bots import make_bot
    from bito.bots.levels import make_level

    s = P(f"{POD} players=2 trump=6h stock=- hands=7h9c/8sKs table=7s attacker=0")
    choice = make_bot("heuristic", seed=1).choose(s.view(1))
    assert choice.kind == BLIND_COVER
    bots = [make_bot("heuristic", seed=2), make_level("medium", seed=3, playouts=20)]
    state = new_game(PER, players=2, seed=3)
    moves = 0
    while not state.is_over and moves < 3000:
        act = bots[state.to_act].choose(state.view(state.to_act))
        assert act in state.legal_actions()
        state = state.apply(act)
        moves += 1
    assert state.is_over


def test_records_keep_the_turned_up_cards() -> None:
    """A full record replays the typed moves (``#1>7s``) exactly; a censored record for one
    seat writes each blind move with the card it turned up and loads back with it, its
    positions never showing that seat its own hand."""
    from bito.games.game import Game
    from bito.record import load_record, record_from_game

    g = Game(P(f"{POD} players=2 trump=6h stock=- hands=7h8c/9cKs table=7s attacker=0"))
    g.push(parse_action("#2>7s"))  # the king of spades: a legal cover
    full = record_from_game(g)
    assert [str(a) for _, a in full.actions] == ["#2>7s"]
    g = Game(new_game(PER, players=2, seed=9))
    for _ in range(6):
        if g.state.is_over:
            break
        g.push(g.state.legal_actions()[0])
    record = record_from_game(g)
    assert load_record(record.to_jsonl()).replay()[-1].hands == g.state.hands
    censored = load_record(record.censored(1).to_jsonl())
    turned = [a for _, a in censored.actions if isinstance(a, Revealed)]
    assert turned and all(str(a).count("(") == 1 for a in turned)
    for view in censored.views or []:
        assert view.split("hands=")[1].split()[0].split("/")[1].startswith(("??", "-"))
