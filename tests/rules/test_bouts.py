"""Durak games with a different bout structure (issue 4, VARIANTS.md §3.9): rule scenarios per
catalogue id (their random-play invariants are in tests/properties/test_bouts_props.py, their
golden move counts in tests/perft/test_bouts_perft.py).

Scenarios set a position up by dealing a game and then laying the cards out by hand (the
``bouts`` engines have no position text yet; Akulina, a Durak game, uses position text).
"""

from __future__ import annotations

import random
import sys
from typing import Any

import pytest

from bito.bots import make_bot
from bito.cards import mask_of, parse_card, split_cards
from bito.errors import IllegalActionError
from bito.games import new_game
from bito.games.bouts import TURN, ChineseState, HeapState, PolishState
from bito.games.bouts.common import beat_table
from bito.games.durak.actions import TAKE_ACTION, attack, defend
from bito.notation import parse_position
from bito.sim import play_game

BOUT_IDS = ("heaped", "heaped_top_n", "chain_fool", "chinese", "chinese_pass_on",
            "two_phase_japanese", "deck_duel_prelude", "polish_fool")
C = parse_card


def hands_of(*texts: str) -> list[int]:
    return [mask_of(split_cards(t)) if t else 0 for t in texts]


def heap(spec: str, hands: tuple[str, ...], pile: str = "", stock: str = "", trump: str = "6h",
         to_act: int = 0, phase: str = "lead") -> HeapState:
    s: HeapState = new_game(spec, len(hands), seed=0)
    s.hands = hands_of(*hands)
    s.known = [0] * len(hands)
    s.pile = split_cards(pile) if pile else []
    s.stock = list(reversed(split_cards(stock))) if stock else []  # top first, trump last
    s.trump_card = C(trump) if stock else -1
    s.trump_suit = _suit(trump)
    s.beats = beat_table(36, s.trump_suit)
    s.to_act, s.phase, s.out, s.discard = to_act, phase, [], 0
    return s


def _suit(text: str) -> int:
    return "cdhs".index(text[-1])


def chinese(spec: str, hands: tuple[str, ...], attacker: int = 0, trump: str = "6h"
            ) -> ChineseState:
    s: ChineseState = new_game(spec, len(hands), seed=0)
    s.hands = hands_of(*hands)
    s.known = [0] * len(hands)
    s.trump_card, s.trump_suit = -1, _suit(trump)
    s.beats = beat_table(36, s.trump_suit)
    s.out, s.discard = [], 0
    s._new_bout(attacker)
    return s


# --- #69 heaped ------------------------------------------------------------------------------


def test_heaped_cover_then_lead_and_heap_grows() -> None:
    """#69, S1:82: the defender covers the card led at him and at once leads one of his own to
    his left neighbour; covered cards stay in the centre."""
    s = heap("heaped", ("7c 8d", "9c Ks", "Jd Qd"))
    s = s.apply(attack(C("7c")))
    assert s.to_act == 1 and s.phase == "cover"
    assert defend(C("9c"), C("7c")) in s.legal_actions()
    assert defend(C("Ks"), C("7c")) not in s.legal_actions()  # a spade cannot cover a club
    s = s.apply(defend(C("9c"), C("7c")))
    assert s.to_act == 1 and s.phase == "lead" and s.pile == [C("7c"), C("9c")]
    s = s.apply(attack(C("Ks")))
    assert s.to_act == 2 and s.pile[-1] == C("Ks")
    with pytest.raises(IllegalActionError, match="cover"):
        s.apply(defend(C("Qd"), C("9c")))  # only the new lead is beaten (A3)


def test_heaped_failure_takes_whole_heap_and_left_leads() -> None:
    """#69, S1:84: a player who does not cover takes everything in the centre; the player on
    his left leads next."""
    s = heap("heaped", ("7c", "6c 8d", "Jd Qd"), pile="9s Ts 8c", phase="cover", to_act=1)
    s = s.apply(TAKE_ACTION)
    assert s.hands[1] == mask_of(split_cards("6c 8d 9s Ts 8c"))
    assert s.known[1] == mask_of(split_cards("9s Ts 8c"))  # taken in plain sight
    assert s.pile == [] and s.to_act == 2 and s.phase == "lead"


def test_heaped_refill_after_every_action() -> None:
    """#69 A1 (S1:84 "after the move ... players draw"): after a cover the coverer draws
    first, up to three."""
    s = heap("heaped", ("7c 8c 9c", "Tc Jd Qd", "Ks Kd Kc"), stock="As Ah 6h", trump="6h")
    s = s.apply(attack(C("7c")))  # seat 0 refills to three at once
    assert s.hands[0].bit_count() == 3 and len(s.stock) == 2
    s = s.apply(defend(C("Tc"), C("7c")))
    assert s.hands[1].bit_count() == 3 and len(s.stock) == 1


def test_heaped_trump_card_is_drawn_last() -> None:
    """#69 ("trump: stock top after the deal", turned up under the stock as in every fool
    game): while any card is left in the stock, the face-up trump card is in no hand; the
    player who draws the last card gets it, and everyone knows it."""

    for seed in range(20):
        s = new_game("heaped", 3, seed=seed)
        assert s.trump_card >= 0 and len(s.stock) == 36 - 9
        rng = random.Random(seed)
        while s.outcome is None and s.stock:
            assert not any(h >> s.trump_card & 1 for h in s.hands)
            before = len(s.stock)
            s = s.apply(rng.choice(s.legal_actions()))
            if before and not s.stock:
                holder = [p for p in range(3) if s.hands[p] >> s.trump_card & 1]
                assert len(holder) == 1 and s.known[holder[0]] >> s.trump_card & 1


def test_heaped_top_n_takes_three_or_five() -> None:
    """#70, S1:86: failing on a non-trump takes the top three of the heap, on a trump five."""
    s = heap("heaped_top_n", ("7c", "6c", "Jd"), pile="9s Ts 8c Js Qs Kc", phase="cover",
             to_act=1)
    s2 = s.apply(TAKE_ACTION)
    assert s2.hands[1] == mask_of(split_cards("6c Js Qs Kc"))
    assert s2.pile == split_cards("9s Ts 8c")
    assert s2.phase == "lead" and s2.to_act == 2
    t = heap("heaped_top_n", ("7c", "6c", "Jd"), pile="9s Ts 8c Js Qs Kh", phase="cover",
             to_act=1, trump="6h")
    t2 = t.apply(TAKE_ACTION)
    assert t2.pile == split_cards("9s") and t2.hands[1].bit_count() == 6


# --- #71 chain fool --------------------------------------------------------------------------


def test_chain_fool_discards_chain_of_n_cards() -> None:
    """#71, S1:89: each next player covers the top card; when the centre holds as many cards
    as players, it is discarded."""
    s = heap("chain_fool", ("7c 8c", "9c 6s", "Tc Qd"))
    s = s.apply(attack(C("7c"))).apply(defend(C("9c"), C("7c")))
    assert s.to_act == 2 and defend(C("Tc"), C("9c")) in s.legal_actions()
    s = s.apply(defend(C("Tc"), C("9c")))
    assert s.pile == [] and s.discard == mask_of(split_cards("7c 9c Tc"))
    assert s.phase == "lead" and s.to_act == 2  # heap.restart=last_coverer (bito's default)


def test_chain_fool_restart_left_of_coverer_option() -> None:
    """#71 A4, the catalogue's reading: the player left of the last coverer starts."""
    s = heap("chain_fool+heap.restart=left_of_coverer", ("7c 8c", "9c 6s", "Tc Qd"))
    s = s.apply(attack(C("7c"))).apply(defend(C("9c"), C("7c"))).apply(defend(C("Tc"), C("9c")))
    assert s.to_act == 0


def test_chain_fool_failure_takes_bottom_card() -> None:
    """#71, S1:89: the player who cannot beat takes the bottom card; the next player must beat
    the top card."""
    s = heap("chain_fool", ("7c 8c", "9c 6s", "Jc Qd", "8h"), pile="7d 9d", phase="cover",
             to_act=2)
    s = s.apply(TAKE_ACTION)
    assert s.pile == [C("9d")] and s.hands[2] & mask_of([C("7d")])
    assert s.to_act == 3 and s.phase == "cover"


# --- #65/#66 China fool ------------------------------------------------------------------------


def test_chinese_nine_of_diamonds_holder_starts() -> None:
    """#65, S0:83: the player with the 9♦ moves first; the whole pack is dealt."""
    for seed in range(5):
        s = new_game("chinese", 4, seed=seed)
        assert s.hands[s.to_act] & mask_of([C("9d")])
        assert sum(h.bit_count() for h in s.hands) == 36 and not s.stock


def test_chinese_failure_takes_first_card_only() -> None:
    """#65, S0:83: a defender who fails takes only the first card; the rest is discarded and
    he misses his turn."""
    s = chinese("chinese", ("7c 7s 8d", "8c Ah Qd", "Jd"))
    s = s.apply(attack(C("7c"), C("7s")))
    s = s.apply(defend(C("8c"), C("7c")))
    s = s.apply(TAKE_ACTION)
    assert s.hands[1] == mask_of(split_cards("Ah Qd 7c"))
    assert s.discard == mask_of(split_cards("7s 8c"))
    assert s.attacker == 2 and s.to_act == 2  # seat 1 skipped


def test_chinese_nine_of_diamonds_covered_blocks_throw_ins() -> None:
    """#65 A1, S0:83: once the 9♦ is covered, nobody may throw in; otherwise the attacker may
    throw in a card of a rank on the table."""
    s = chinese("chinese", ("9d 9c Td", "Jd Ah Qd", "9s"))
    s = s.apply(attack(C("9d"))).apply(defend(C("Jd"), C("9d")))
    # the 9c could have been thrown in, but the bout is over: discarded, the defender attacks
    assert s.phase == "lead" and s.attacker == 1 and "9♦" in s.note
    assert s.discard == mask_of(split_cards("9d Jd")) and s.hands[0] & mask_of([C("9c")])
    t = chinese("chinese", ("8d 8c Td", "Jd Ah Qd", "9s"))
    t = t.apply(attack(C("8d"))).apply(defend(C("Jd"), C("8d")))
    assert t.phase == "throw" and attack(C("8c")) in t.legal_actions()


def test_chinese_block_option_covered_with_nine() -> None:
    """#65 A1 option: the trigger is a cover made with the 9♦."""
    s = chinese("chinese+chinese.block_trigger=covered_with_nine", ("8d 8c", "9d Ah Qd", "9s"))
    s = s.apply(attack(C("8d"))).apply(defend(C("9d"), C("8d")))
    assert s.phase == "lead" and s.hands[0] & mask_of([C("8c")])  # 8c not thrown in


def test_chinese_pass_on_uncovered_cards_go_to_next_player() -> None:
    """#66, S0:125: the defender takes the first card, the uncovered rest goes on to the next
    player, who must beat it without throw-ins and then attacks."""
    s = chinese("chinese_pass_on", ("7c 7s 7d", "8c Kd", "8s 9s Qd"))
    s = s.apply(attack(C("7c"), C("7s")))
    s = s.apply(defend(C("8c"), C("7c"))).apply(TAKE_ACTION)
    assert s.hands[1] == mask_of(split_cards("Kd 7c"))
    assert s.passed and s.defender == 2 and s.attack == [C("7s")] and s.to_act == 2
    assert s.discard == mask_of([C("8c")])
    s = s.apply(defend(C("8s"), C("7s")))
    assert s.phase == "lead" and s.attacker == 2  # he beat them all: he attacks (A2)


def test_chinese_pass_on_first_card_failed_discards_rest() -> None:
    """#66 A3, S0:125: failing on the first card: take it, skip; the rest is discarded."""
    s = chinese("chinese_pass_on", ("7c 7s 7d", "8s Kd", "9s Qd"))
    s = s.apply(attack(C("7c"), C("7s"))).apply(defend(C("8s"), C("7s"))).apply(TAKE_ACTION)
    assert s.hands[1] == mask_of(split_cards("Kd 7c")) and not s.passed
    assert s.discard == mask_of(split_cards("7s 8s")) and s.attacker == 2


# --- #73 Akulina -------------------------------------------------------------------------------


def test_akulina_leads_of_one_suit() -> None:
    """#73, S4:13: a lead is one or several cards of one suit (not one rank)."""
    s = parse_position("akulina players=2 trump=6h stock=6hAc hands=7c9cKc7d/8c8dJsQsAs "
                       "attacker=0")
    legal = s.legal_actions()
    assert attack(C("7c"), C("9c"), C("Kc")) in legal
    assert attack(C("7c"), C("7d")) not in legal
    with pytest.raises(IllegalActionError, match="one suit"):
        s.apply(attack(C("7c"), C("7d")))


def test_akulina_queen_of_spades_cannot_be_covered() -> None:
    """#73, S4:13: nothing covers the Q♠ (not even a trump or the K♠); it covers as usual."""
    s = parse_position("akulina players=2 trump=6h stock=6hAc hands=Qs7c/KsAs7h8h8s "
                       "attacker=0")
    s = s.apply(attack(C("Qs")))
    assert s.legal_actions() == [TAKE_ACTION]
    t = parse_position("akulina players=2 trump=6h stock=6hAc hands=Js7c/QsAs7h8h8s "
                       "attacker=0")
    t = t.apply(attack(C("Js")))
    assert defend(C("Qs"), C("Js")) in t.legal_actions()


# --- #67 / #68 preludes ------------------------------------------------------------------------


def prelude(spec: str, players: int, stock: str, first: int = 0) -> Any:
    """A prelude whose stock is ``stock`` (written top card first)."""
    s = new_game(spec, players, seed=0)
    s.stock = list(reversed(split_cards(stock)))
    s.pile, s.round, s.hands, s.known = [], [], [0] * players, [0] * players
    s.first = s.to_act = first
    if s.rules.kind == "flip":
        s.pile.append(s.stock.pop())
        s.last = s.pile[-1]  # the last card turned so far (#68 A1 makes its suit trump)
    return s


def turns(s: Any, n: int) -> Any:
    for _ in range(n):
        assert s.legal_actions() == [TURN]
        s = s.apply(TURN)
    return s


def test_contest_highest_starts_pile_next_player_takes_it() -> None:
    """#67, S0:131-133: the highest card starts the pile; the next player clockwise cannot lay
    a higher one and takes the pile; the others keep their cards; the taker draws first next."""
    s = prelude("two_phase_japanese", 3, "9c Kd 7s 8h 8d 6c Ac")
    s = turns(s, 3)
    assert s.hands == hands_of("9c", "", "Kd 7s")
    assert s.known[2] == mask_of(split_cards("Kd 7s")) and s.to_act == 2 and s.pile == []
    assert s.known[0] == mask_of([C("9c")])  # turned face up: public, though not taken


def test_contest_all_tied_leaves_pile_for_next_taker() -> None:
    """#67 ("if there are two or three highest cards, the card is placed on the adjacent
    one"): tied highest cards go onto one pile, which stays until someone takes it."""
    s = prelude("two_phase_japanese", 2, "Kd Kc 9c 7s 6h 6s")
    s = turns(s, 2)
    assert s.pile == split_cards("Kd Kc") and s.hands == [0, 0]
    s = turns(s, 2)  # 9c (seat 0), 7s (seat 1): seat 1 takes the old pile and the 9c
    assert s.hands == hands_of("", "Kd Kc 9c 7s")


def test_contest_hands_off_to_japanese_with_clubs_closed() -> None:
    """#67, S0:133: when the stock is played out, Japanese fool begins with diamonds trump and
    clubs beaten only by higher clubs; a seat without cards is out (A2)."""
    s = prelude("two_phase_japanese", 3, "Ac 9c 7s 8c 6d Kd")
    s = turns(s, 6)  # seat 0 turns the highest card both times and gives it away
    assert s.main is not None and s.phase == "main"
    rules = s.main.deal.rules
    assert rules.beats_restricted_suit == "c" and s.main.trumps == frozenset({1})
    assert s.hands == hands_of("", "Ac 9c Kd 8c", "7s 6d")
    assert s.out == [0] and s.main.out == [0]
    assert s.to_act == 2  # holds the lowest diamond, 6d (A4)
    beaters = s.main.beats[C("8c")]
    assert beaters >> C("9c") & 1 and not beaters >> C("Kd") & 1  # clubs closed to trumps
    assert s.main.beats[C("7s")] >> C("6d") & 1  # spades are an ordinary suit here


def test_flip_beat_takes_centre_then_new_card_to_beat() -> None:
    """#68, S0:174: a card of the same suit and higher takes the centre cards into the hand;
    then the player turns a new card to beat and the turn passes."""
    s = prelude("deck_duel_prelude", 2, "7h 9h Qs 8c 6d As Ks")
    s = turns(s, 1)
    assert s.hands[0] == mask_of(split_cards("7h 9h")) and s.pile == [C("Qs")]
    assert s.to_act == 1
    s = turns(s, 1)  # 8c does not beat Qs: beside it; 6d is the next card to beat
    assert s.hands[1] == 0 and s.pile == split_cards("8c Qs 6d") and s.to_act == 0


def test_flip_hands_off_with_last_card_suit_as_trump() -> None:
    """#68 A1, A4: the suit of the last card turned is trump; the centre left over is out of
    play; phase 2 is podkidnoy."""
    s = prelude("deck_duel_prelude", 2, "7h 9h Qs Ks 8c 9c Ad")
    s = turns(s, 3)
    assert s.main is not None
    assert s.main.trumps == frozenset({1})  # Ad, the last card turned
    assert s.main.discard == mask_of([C("Ad")])
    assert s.hands == hands_of("7h 9h 8c 9c", "Qs Ks")
    assert s.view(0).trump_suit == 1


# --- #72 Polish fool ---------------------------------------------------------------------------


def polish(hands: tuple[str, ...], pile: str, stock: str = "", trump: str = "6h",
           to_act: int = 0) -> PolishState:
    s: PolishState = new_game("polish_fool", len(hands), seed=0)
    s.hands, s.known = hands_of(*hands), [0] * len(hands)
    s.pile = split_cards(pile) if pile else []
    s.stock = list(reversed(split_cards(stock))) if stock else []  # top first, trump last
    s.trump_suit, s.beats = _suit(trump), beat_table(36, _suit(trump))
    s.to_act, s.out = to_act, []
    return s


def test_polish_turned_card_beats_then_next_card_to_beat() -> None:
    """#72, S1:89: a turned card that beats goes on the pile and the next stock card is turned
    for the next player."""
    s = polish(("", ""), "7c", stock="9c Ks Ad")
    s = s.apply(TURN)
    assert s.pile == split_cards("7c 9c Ks") and s.to_act == 1 and s.hands == [0, 0]


def test_polish_turned_card_fails_takes_both() -> None:
    """#72 A2, S1:89: a turned card that does not beat: he takes it and the card he failed to
    beat, and turns another card for the next player."""
    s = polish(("", ""), "Tc 7c", stock="9s Ks Ad")
    s = s.apply(TURN)
    assert s.hands[0] == mask_of(split_cards("7c 9s")) and s.pile == split_cards("Tc Ks")
    assert s.known[0] == s.hands[0]


def test_polish_hand_card_may_beat_instead_of_turning() -> None:
    """#72 A3: a player holding a card that beats may use it instead of the stock."""
    s = polish(("8c 6s", ""), "7c", stock="9s Ks")
    assert set(map(str, s.legal_actions())) == {"8c>7c", "turn"}


def test_polish_stock_empty_take_top_three_only_if_unable() -> None:
    """#72, S1:89: with the stock gone, a player who cannot beat takes the top three centre
    cards; the next player must beat the new top card."""
    s = polish(("7s", "9c Jd"), "6c 8c Tc Qc Ac")
    assert s.legal_actions() == [TAKE_ACTION]
    s = s.apply(TAKE_ACTION)
    assert s.hands[0] == mask_of(split_cards("7s Tc Qc Ac")) and s.pile == split_cards("6c 8c")
    assert s.to_act == 1 and s.legal_actions() == [defend(C("9c"), C("8c"))]
    t = polish(("Kc 7s", "9c"), "6c 8c Tc Qc")
    assert TAKE_ACTION not in t.legal_actions()


# --- records and the terminal -------------------------------------------------------------------


@pytest.mark.parametrize("vid", BOUT_IDS)
def test_records_replay_to_the_same_end(vid: str) -> None:
    """A full record of a bots' game (the prelude's turns and the Durak phase 2 alike) loads
    and replays to the same final position and outcome."""
    from bito.record import load_record
    from bito.tui_families import record_text

    s = new_game(vid, 3, seed=7)
    result = play_game(s, [make_bot("heuristic", k) for k in range(3)])
    names = ["a", "b", "c"]
    text = record_text(vid, result.final_state, 7, names,
                       list(zip(result.seats, result.actions, strict=True)))
    states = load_record(text).replay()
    assert str(states[-1]) == str(result.final_state)
    assert states[-1].outcome.to_json() == result.outcome.to_json()


def test_play_shows_the_public_centre_and_taken_cards() -> None:
    """``bito play`` shows each game's public information: the heap, the trump, who took
    what (known cards), and phase 2 of a prelude game as a Durak table."""
    import io

    from bito.cli import main

    for vid, words in (("heaped", ("Centre: top", "trump", "stock")),
                       ("two_phase_japanese", ("turn the next card of the stock",
                                               "Phase 2 (Durak)", "--- bout"))):
        out = io.StringIO()
        stdin = io.StringIO("1\n" * 400 + "quit\n")
        old_in, old_out = sys.stdin, sys.stdout
        sys.stdin, sys.stdout = stdin, out
        try:
            # --no-auto: phase 1's moves are all forced ("turn"), which the terminal would
            # otherwise play without showing the screen checked here
            main(["play", "--variant", vid, "--players", "2", "--seed", "3", "--no-auto"])
        finally:
            sys.stdin, sys.stdout = old_in, old_out
        text = out.getvalue()
        for w in words:
            assert w in text, (vid, w)
