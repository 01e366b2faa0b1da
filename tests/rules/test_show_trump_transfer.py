"""#96 show_trump_transfer (``transfer.show_trump``): transfer by showing a trump.

bito's own catalogue entry, not in VARIANTS.md or the seeds (docs/variants.md, "#96"): the rule
as issue 17 states it, "while no attack card is covered, the defender may show the trump of
the attack rank instead of laying a card of that rank; the attack passes to the next player as
a transfer would, and the shown trump stays in his hand, now publicly known. Each player may
use it at most once per bout." The expected moves are worked out from that sentence.
"""

from __future__ import annotations

import random

import pytest

from bito.errors import InvalidNotationError, RulesError
from bito.games import new_game
from bito.games.durak.actions import parse_action
from bito.games.durak.position import parse_position
from bito.games.durak.position_text import position_text
from conftest import P, assert_conserved, cards, hand, legal, play, random_walk, rule_of

SHOW = "perevodnoy+show_trump_transfer"


def test_showing_the_trump_passes_the_attack_on_and_keeps_the_card() -> None:
    """#96: the defender shows 7h (hearts are trump) against 7c; the attack passes to seat 2,
    who faces the same 7c; seat 1 still holds 7h, and everyone knows it."""
    s = P(f"{SHOW} players=3 trump=6h stock=- hands=7cAs/7h8d/9cTc attacker=0")
    s = play(s, "7c")
    assert "*7h" in legal(s)
    s = play(s, "*7h")
    assert s.attacker == 1 and s.defender == 2 and s.to_act == 2
    assert list(s.attack) == [cards("7c").pop()] and s.uncovered == 1
    assert hand(s, 1) == cards("7h8d")
    assert s.known[1] & (1 << cards("7h").pop())
    seen_by_2 = position_text(s, seat=2).split(" hands=")[1].split(" ")[0].split("/")
    assert seen_by_2[1].startswith("7h")  # seat 2 sees the shown trump in seat 1's hand
    assert_conserved(s)


def test_only_the_trump_of_the_attack_rank_is_shown() -> None:
    """#96 "the trump of the attack rank": a seven of another suit is a transfer card, not a
    show; a trump of another rank shows nothing."""
    s = play(P(f"{SHOW} players=3 trump=6h stock=- hands=7cAs/7d8h/9cTc attacker=0"), "7c")
    shows = {m for m in legal(s) if m.startswith("*")}
    assert shows == set() and "=7d" in legal(s)
    assert rule_of(s, "*8h") == "show trump"


def test_a_player_shows_at_most_once_per_bout() -> None:
    """#96 "at most once per bout": with a twin deck (#21) seat 1 holds both sevens of
    trumps. He shows one; transfers bring the attack back to him, and the other cannot be
    shown (he may still transfer with it, laying it). The next bout starts with no marks."""
    s = P(f"{SHOW}+deck.copies=2 players=3 trump=6h stock=- "
          "hands=7c7dAs/7h7h'8d/7s9cTcJc attacker=0")
    s = play(s, "7c", "*7h")
    assert (s.attacker, s.defender) == (1, 2)
    s = play(s, "=7s")
    assert s.defender == 0
    s = play(s, "=7d")
    assert s.defender == 1 and s.uncovered == 3
    assert not any(m.startswith("*") for m in legal(s))
    assert rule_of(s, "*7h'") == "show trump"
    s = play(s, "take")
    while s.bout == 0 and not s.is_over:
        s = play(s, "pass")
    assert "shown_trump" not in position_text(s) and not s.memory


def test_the_next_defender_needs_as_many_cards_as_lie_uncovered() -> None:
    """#96: no card is added, so the new defender must hold as many cards as he will face
    (a transfer asks one more): two sevens need two cards, not three."""
    s = play(P(f"{SHOW}+lead.shape=same_rank players=3 trump=6h stock=- "
               "hands=7c7dAs/7h8d/9cTc attacker=0"), "7c+7d")
    assert "*7h" in legal(s)
    s = play(P(f"{SHOW}+lead.shape=same_rank players=3 trump=6h stock=- "
               "hands=7c7dAs/7h8d/9c attacker=0"), "7c+7d")
    assert "*7h" not in legal(s)
    assert rule_of(s, "*7h") == "transfer limit"


def test_no_show_once_a_card_is_covered() -> None:
    """#96 "while no attack card is covered" (the transfer window of §1.6 B9)."""
    s = P(f"{SHOW} players=3 trump=6h stock=- hands=7c7sAs/7h8c9c/9dTd attacker=0")
    s = play(s, "7c", "8c>7c", "7s")
    while s.phase_name == "throw":  # the throwers finish before the defender answers
        s = play(s, "pass")
    assert s.to_act == s.defender == 1 and "*7h" not in legal(s)
    assert rule_of(s, "*7h") == "transfer window"


def test_the_first_bout_ban_of_78_holds_for_shows() -> None:
    """#78 with #96: a show is a transfer, so a table that bans transfers in the first bout
    of a match bans shows there too."""
    s = play(P(f"{SHOW}+transfer.first_bout=first_game players=3 trump=6h stock=- "
               "hands=7cAs/7h8d/9cTc attacker=0 bout=0 game=0"), "7c")
    assert "*7h" not in legal(s)
    assert rule_of(s, "*7h") == "no transfer in the first bout"


def test_the_shown_marks_print_and_read_back() -> None:
    """The position text carries who has shown in this bout (``shown_trump=1``), so a
    position typed in mid-bout keeps the once-per-bout rule; a malformed mark is refused."""
    s = play(P(f"{SHOW} players=4 trump=6h stock=- hands=7cAs/7h8d/9cTc/8c8s attacker=0"),
             "7c", "*7h")
    text = position_text(s)
    assert " shown_trump=1" in text
    back = parse_position(text)
    assert position_text(back) == text and legal(back) == legal(s)
    for bad in ("shown_trump=9", "shown_trump=x"):
        with pytest.raises(InvalidNotationError, match="shown_trump"):
            parse_position(text.replace("shown_trump=1", bad))
    plain = text.replace("+transfer.show_trump=true", "")
    if plain != text:
        with pytest.raises(InvalidNotationError, match="shown_trump"):
            parse_position(plain)


def test_notation() -> None:
    """The move reads as ``*7h`` or ``show 7h`` and prints as ``*7h``."""
    assert str(parse_action("show 7h")) == "*7h" == str(parse_action("*7h"))
    with pytest.raises(InvalidNotationError):
        parse_action("*7x")


def test_a_game_without_transfers_has_no_show() -> None:
    """#96 with podkidnoy (no transfers, §1.6): a show is a transfer, so there is none, and
    the error names the transfer rule."""
    s = play(P("podkidnoy+transfer.show_trump=true players=3 trump=6h stock=- "
               "hands=7cAs/7h8d/9cTc attacker=0"), "7c")
    assert not any(m.startswith("*") for m in legal(s))
    assert rule_of(s, "*7h") == "transfer"


def test_with_any_time_transfers_a_show_still_needs_nothing_covered() -> None:
    """#96 with #10 (transfer_2, S0:259): a transfer may come after a cover, a show only
    "while no attack card is covered"."""
    s = play(P("transfer_2+transfer.show_trump=true players=3 trump=6h stock=- "
               "hands=7c7sAs/7h8c9c/9dTdJd attacker=0"), "7c")
    assert "*7h" in legal(s)
    s = play(s, "8c>7c", "7s")
    while s.phase_name == "throw":
        s = play(s, "pass")
    assert s.to_act == 1 and not any(m.startswith("*") for m in legal(s))
    assert rule_of(s, "*7h") == "transfer window"


def test_after_a_show_under_11_the_new_defender_beats_the_lead_itself() -> None:
    """#96 with #11 (transfer_3: after a transfer the new defender beats only the transfer
    card, S0:42-44): a show lays no card, so nothing is neutralised and the new defender must
    cover the seven itself."""
    s = play(P("perevodnoy+transfer.new_defender_beats=transfer_cards_only"
               "+transfer.show_trump=true players=3 trump=6h stock=- "
               "hands=7cAs/7h8d/9cTc attacker=0"), "7c", "*7h")
    assert s.defender == 2 and list(s.defence) == [-1] and s.uncovered == 1
    assert {m for m in legal(s) if ">" in m} == {"9c>7c", "Tc>7c"}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_with_shows_end_and_conserve_cards(players: int) -> None:
    """Issue 17's check: the trump-show transfer plays in random games at 2-6 players with no
    error; every game ends with every card accounted for, and shows do happen."""
    shows = 0
    for seed in range(40):
        start = new_game(SHOW, players=players, seed=seed)
        end = start
        for before, action, after in random_walk(start, random.Random(seed)):
            if str(action).startswith("*"):
                shows += 1
                assert after.known[before.defender] & action.mask
            end = after
        assert end.is_over
        assert_conserved(end)
    assert shows > 0


def test_hands_held_face_out_refuse_the_show() -> None:
    """#96 with #58 (deal.owner_sees_hand=false): a player who cannot see his hand cannot
    show a trump from it, and a show offered there would name his card; the mix is refused
    naming the option."""
    with pytest.raises(RulesError, match=r"transfer\.show_trump"):
        new_game("perevodnoy+blind_face_out+transfer.show_trump=true", players=3, seed=1)
