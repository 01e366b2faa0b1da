"""Variants I through the engine: Estonian and Capital fool (VARIANTS.md §3.3 #29, #30).

Transfers at any time that pass on only the transfer card (transfer_2 + transfer_3), group
leads and throw-ins, jokers that only 2s and 3s beat, deuces that take aces, and Capital's mega
card. Each docstring cites the catalogue id and the seed line (S0 = seeds/000_*.txt).
"""

from __future__ import annotations

import random

import pytest

from bito.cards import is_joker, is_mega, is_special
from bito.games.durak import new_game
from bito.rules import resolve
from conftest import P, assert_conserved, legal, play

EST = "estonian players={n} trump=5h stock=- hands={hands} table={table} attacker=0"


def pack_of(spec: str, seed: int) -> list[int]:
    pack = list(resolve(spec).rules.deck())
    random.Random(seed).shuffle(pack)
    return pack


@pytest.mark.parametrize(("spec", "size"), [("estonian", 54), ("capital", 55)])
def test_estonian_and_capital_decks(spec: str, size: int) -> None:
    """#29 "a deck of 54 cards (two wild cards)" (S0:119); #30 "a deck of 55 cards (2 joker and 1
    mega)" (S0:122); A3 (#29) and A2 (#30): a joker or the mega card turned up is buried and
    the next card turned, so the trump card is always a plain card."""
    deck = resolve(spec).rules.deck()
    assert len(deck) == size
    assert sum(map(is_joker, deck)) == 2 and sum(map(is_mega, deck)) == (size == 55)
    turned_special = 0
    for seed in range(400):
        players = 2 + seed % 5
        if not is_special(pack_of(spec, seed)[6 * players]) and seed >= 20:
            continue
        turned_special += is_special(pack_of(spec, seed)[6 * players])
        s = new_game(spec, players=players, seed=seed)
        assert not is_special(s.trump_card) and s.stock[0] == s.trump_card
        assert_conserved(s)
    assert turned_special >= 5


# --- #29 estonian: groups and transfers ---------------------------------------------------------


def test_group_throw_in_is_one_action() -> None:
    """#29; S0:119 "If a player must bet any card and he has a pair, three or four cards of the
    same rank, he can put them all at once, and not toss them in turn": each group of the eights
    on the table is a single throw-in action."""
    s = P(EST.format(n=2, hands="8s8d8c9h/9s9d7c2c", table="8h<Th"))
    assert legal(s) == {"8c", "8d", "8s", "8c+8d", "8c+8s", "8d+8s", "8c+8d+8s", "pass"}
    s = play(s, "8c+8d+8s", "pass")
    assert s.phase_name == "defend" and s.uncovered == 3


def test_transfer_after_a_cover_with_the_last_cards_rank() -> None:
    """#29 via transfer_2 (#10, S0:40 "you can translate even after the toss"; S0:119 "taking
    into account the rules of the transferable-2 and -3 fools"): with 7c covered and 9c open,
    P1 may still transfer, with a nine (the last card thrown at him), not with a seven."""
    s = P(EST.format(n=3, hands="9h7h/7s8s9d/QhKcKd", table="7c<8c,9c"))
    assert legal(s) == {"=9d", "take"}
    s = P(EST.format(n=3, hands="9h7h/7s8s9d/QhKcKd", table="7c<8c,7d"))
    assert legal(s) == {"9d>7d", "=7s", "take"}


def test_new_defender_beats_only_the_transfer_card() -> None:
    """#29 via transfer_3 (#11, S0:44 "must beat only the card that was transferred"; #29 A4 earlier
    cards are neutralised): after =7s P2 covers only the 7s although 7d still lies open; once he
    has, the bout goes on to throw-ins as usual and every card stays accounted for."""
    s = play(P(EST.format(n=3, hands="9h7h/7s8s9d/QhKcKd", table="7c<8c,7d")), "=7s")
    assert s.defender == 2 and legal(s) == {"Qh>7s", "take"}
    s = play(s, "Qh>7s")
    assert s.phase_name == "throw" and s.uncovered == 0
    assert_conserved(s)


def test_taking_after_a_transfer_takes_the_whole_table() -> None:
    """#29 (S0:119 with §1.5 "take all cards on the table"): the new defender who takes picks
    up every card of the bout, the neutralised ones too, and the next player attacks."""
    s = play(P(EST.format(n=3, hands="9h7h/7s8s9d/QhKcKd", table="7c<8c,7d")), "=7s", "take")
    while s.phase_name == "throw":
        s = play(s, "pass")
    assert s.hands[2].bit_count() == 3 + 4
    assert (s.phase_name, s.to_act) == ("lead", 0)
    assert_conserved(s)


def test_transfer_is_always_one_card() -> None:
    """#29 A5 (S0:119 speaks of leads and throw-ins only): holding two sevens, the defender may
    transfer with either, never with both at once."""
    s = P(EST.format(n=3, hands="9h/7s7d8s/QhKcKd", table="7c"))
    assert legal(s) == {"=7s", "=7d", "take"}


@pytest.mark.parametrize("spec", ["estonian", "perevodnoy+double_joker",
                                  "perevodnoy+novosibirsk_two_joker", "perevodnoy+wild_58"])
def test_joker_is_not_a_transfer_card(spec: str) -> None:
    """§3.3 shared joker conventions: a joker "can't be used to transfer unless the variant says
    so" (only #24's joker gift does, S0:96)."""
    s = P(f"{spec} players=3 trump=5h stock=- hands=9h/BJAs5c/KcKdQd table=RJ attacker=0")
    assert not any(m.startswith("=") for m in legal(s))


# --- #29 estonian: what beats what ------------------------------------------------------------


def test_joker_beats_all_but_twos_and_threes() -> None:
    """#29; S0:119 "You can beat any card with the joker, except for twos and threes, which
    themselves beat it"."""
    s = P(EST.format(n=2, hands="9h/RJQs", table="Ac,2c"))
    assert legal(s) == {"RJ>Ac", "take"}
    s = P(EST.format(n=2, hands="9h/Ah2c3d4dKs", table="RJ"))
    assert legal(s) == {"2c>RJ", "3d>RJ", "take"}


def test_deuce_takes_the_ace() -> None:
    """#29; S0:119 "an ace is beaten with a deuce, joker or trump card": the deuce of its suit
    or a trump deuce (A1); Ks does not; and an ace still beats the deuce of its suit (A2)."""
    s = P(EST.format(n=2, hands="9h/2s2hKsQd", table="As,Ac"))
    assert legal(s) == {"2s>As", "2h>As", "2h>Ac", "take"}
    s = P(EST.format(n=2, hands="9h/AsKs", table="2s"))
    assert legal(s) == {"As>2s", "Ks>2s", "take"}


def test_ace_only_by_trump_cancels_the_deuce() -> None:
    """#20 on #29 (S0:180 "the ace cannot be beaten with the lowest card, but only with a trump
    card"): the plain 2s no longer takes the As; the trump two still does."""
    s = P("estonian+ace_only_by_trump players=2 trump=5h stock=- hands=9h/2s2hKsQd table=As "
          "attacker=0")
    assert legal(s) == {"2h>As", "take"}


# --- #30 capital ---------------------------------------------------------------------------------

CAP = "capital players=2 trump=5h stock=- hands=9h/{hand} table={table} attacker=0"


def test_mega_card_is_beaten_only_by_fours() -> None:
    """#30; S0:122 "The mega card beats any card except the fours, which beat it themselves":
    only a four covers it, a joker or the trump ace does not (A1)."""
    s = P(CAP.format(hand="4c4hRJAhKs", table="MC"))
    assert legal(s) == {"4c>MC", "4h>MC", "take"}


def test_mega_card_beats_all_but_fours_jokers_included() -> None:
    """#30; S0:122 and A1 "the mega beats a joker; a joker can't beat the mega"."""
    s = P(CAP.format(hand="MC3c2cQs", table="RJ,4d,Ah"))
    assert legal(s) == {"MC>RJ", "MC>Ah", "2c>RJ", "3c>RJ", "take"}
