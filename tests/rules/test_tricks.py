"""Rule scenarios of Friedemann Friese's *Fool!* (#95, VARIANTS §3.14, seed S2)."""

from __future__ import annotations

import pytest

from bito.errors import IllegalActionError, InvalidNotationError
from bito.games import new_game
from bito.games.tricks.fool import (
    WILD,
    FoolState,
    colour_counts,
    fool_deck,
    number_of,
    parse_card,
)
from bito.games.tricks.rules import FoolRules


def hand(text: str) -> int:
    """A hand from card words; each ``1`` is one more wild 1."""
    mask, wild = 0, WILD
    for word in text.split():
        if word == "1":
            mask |= 1 << wild
            wild += 1
        else:
            mask |= 1 << parse_card(word)
    return mask


def fool(hands: tuple[str, ...], leader: int = 0, out: tuple[int, ...] = (),
         spec: str = "friese_fool") -> FoolState:
    s = new_game(spec, len(hands), seed=0).copy()
    s.hands = [hand(h) for h in hands]
    s.sitting_out, s.gone = out, 0
    s._start_trick(leader)
    return s


def legal(s: FoolState) -> set[str]:
    return {str(a) for a in s.legal_actions()}


def act(s: FoolState, *texts: str) -> FoolState:
    for t in texts:
        s = s.apply(s.parse_action(t))
    return s


def test_95_must_follow_the_lead_colour_if_able():
    """#95, S2:31: everyone else plays a card of the led colour if he has one, otherwise any
    card."""
    s = act(fool(("g10 r3", "g4 r9 b2", "r5 b7", "y2 y3")), "g10")
    assert legal(s) == {"g4"}
    s = act(s, "g4")
    assert legal(s) == {"r5", "b7"}


def test_95_a_wild_one_may_always_be_played():
    """#95, S2:47: a 1 may be played even holding the led colour."""
    s = act(fool(("g10 r3", "g4 1", "r5", "y2")), "g10")
    assert legal(s) == {"g4", "1"}


def test_95_highest_of_the_lead_colour_wins_and_leads_next():
    """#95, S2:33 and S2:44: the highest card of the led colour wins and leads the next
    trick."""
    s = act(fool(("g10 r3", "g14 r9", "g2 b7", "y2 y3")), "g10", "g14", "g2", "y2")
    t = s.last_trick
    assert t is not None and t.winner == 1 and s.to_act == 1


def test_95_fool_is_the_lowest_card_when_all_follow():
    """#95, S2:39: all cards of the lead colour: the lowest card is the Fool, who sits out the
    next trick (S2:33)."""
    s = act(fool(("g10 r3", "g14 r9", "g2 b7", "g5 y3")), "g10", "g14", "g2", "g5")
    assert s.last_trick is not None and s.last_trick.fools == (2,)
    assert s.sitting_out == (2,) and 2 not in s.order


def test_95_fool_is_the_lowest_off_colour_card_ties_go_to_the_later():
    """#95, S2:39-41: with off-colour cards the lowest of those is the Fool, however low the
    led cards; equal numbers: the one played later."""
    s = act(fool(("g10 r3", "b7 r9", "g2 b8", "y7 y3")), "g10", "b7", "g2", "y7")
    assert s.last_trick is not None and s.last_trick.fools == (3,)


def test_95_one_led_the_next_regular_card_sets_the_colour():
    """#95, S2:49: if a 1 is led the next regular coloured card fixes the colour to follow."""
    s = act(fool(("1 r3", "b7 r9", "b2 r8", "y7 b3")), "1", "r9")
    assert legal(s) == {"r8"}
    s = act(s, "r8", "y7")
    # the 1 counts as the lowest red card, y7 is off-colour: y7 is the Fool (A3)
    assert s.last_trick is not None and s.last_trick.winner == 1
    assert s.last_trick.fools == (3,)


def test_95_the_fool_rejoins_after_sitting_out_one_trick():
    """#95, S2:44: at the end of the next trick the disc passes on and the old Fool rejoins."""
    s = fool(("g10 r3 r4", "g14 r9 r10", "g2 b7 b8", "g5 y3 y4"))
    s = act(s, "g10", "g14", "g2", "g5")  # seat 2 is the Fool
    s = act(s, "r9", "y3", "r3")  # seat 1 leads, seat 2 sits out; seat 3 off-colour: Fool
    assert s.sitting_out == (3,) and 2 in s.order


def test_95_two_fools_with_seven_or_eight_players():
    """#95, S2:35: with 7 or 8 players two players become the Fool in each trick."""
    hands = ("g10 r3", "g14 r9", "g2 b7", "g5 y3", "g6 y4", "g7 y5", "g8 y6")
    s = act(fool(hands), "g10", "g14", "g2", "g5", "g6", "g7", "g8")
    assert s.last_trick is not None and s.last_trick.fools == (2, 3)


def test_95_round_scoring_and_the_final_fool():
    """#95, S2:53 and S2:61-63: the round ends after the trick in which a hand empties; an
    emptied hand scores +10 (0 if he takes a Fool disc), others lose their numbers and 5 per
    1."""
    s = act(fool(("g10", "g14 r9", "g2", "g5 1")), "g10", "g14", "g2", "g5")
    # seats 0 and 2 emptied their hands; seat 2 played the lowest card: the Fool, 0 points
    assert s.scores == [10, -9, 0, -5] and s.plus_tens == [1, 0, 0, 0]
    assert s.round == 1


def test_95_game_ends_at_minus_80_and_the_highest_score_wins():
    """#95, S2:57 and S2:67: the game ends when a score reaches -80; the highest wins."""
    s = fool(("g10", "g14 r9", "g2", "g5 1"))
    s.scores = [0, -75, 3, 0]
    s = act(s, "g10", "g14", "g2", "g5")
    assert s.is_over
    assert s.outcome.scores == (10, -84, 3, -5) and s.outcome.order[0] == 0
    assert s.outcome.loser == 1


def test_95_game_ends_after_six_plus_ten_rounds():
    """#95, S2:57: the game also ends when a player has scored +10 six times."""
    s = fool(("g10", "g14 r9", "g2", "g5 1"))
    s.plus_tens = [5, 0, 0, 0]
    s = act(s, "g10", "g14", "g2", "g5")
    assert s.is_over and s.outcome.rounds == 1
    assert s.outcome.to_json()["plus_tens"] == [6, 0, 0, 0]


def test_95_deck_and_hands():
    """#95, S2:13 and S2:19: 88 cards (green 26, red 22, yellow 20, blue 14, six 1s); 12
    cards each, 11 with 8 players; the numbering (A2) is configurable."""
    rules = FoolRules()
    assert len(fool_deck(rules, 8)) == 88 and colour_counts(rules, 8) == (26, 22, 20, 14)
    for players in range(4, 9):
        s = new_game("friese_fool", players, seed=players)
        size = 11 if players == 8 else 12
        assert [h.bit_count() for h in s.hands] == [size] * players
    numbers = {number_of(c) for c in fool_deck(rules, 8)}
    assert min(numbers) == 1 and max(numbers) == 27
    other = FoolRules(first_number=3)
    assert max(number_of(c) for c in fool_deck(other, 8)) == 28


def test_95_notation_and_errors():
    s = fool(("g10 r3", "g4 r9", "r5", "y2"))
    with pytest.raises(InvalidNotationError):
        s.parse_action("x9")
    with pytest.raises(IllegalActionError) as e:
        act(s, "g10", "r9")
    assert e.value.rule == "follow colour"
