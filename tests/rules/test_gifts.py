"""Variants I through the engine: joker gifts (VARIANTS.md §3.3 #24, #84).

``joker_gift`` (#24) and ``joker_gift_block_combo`` (#84): attacking with a joker makes cards
change hands (``^7c`` gives the seven of clubs), a lone joker may be passed on with the other
one, a short giver draws from the stock, and a player left with only a joker loses; with #84
the giver may show three of a kind (``!7c+7d+7h``) to cancel the gift. Each docstring cites the
catalogue id and the seed line (S0 = seeds/000_*.txt).
"""

from __future__ import annotations

import pytest

from bito.cards import cards_of
from bito.games.durak import new_game
from conftest import BASES, C, P, assert_conserved, cards, hand, legal, play

GIFT = "{spec} players={n} trump=2h stock={stock} hands={hands} attacker=0"


def gift(hands: str, *, n: int = 2, stock: str = "2hKd", spec: str = "podkidnoy+joker_gift"):
    return P(GIFT.format(spec=spec, n=n, stock=stock, hands=hands))


def gives(state) -> set[str]:
    return {m for m in legal(state) if m.startswith("^")}


@pytest.mark.parametrize("rule", ["joker_gift", "joker_gift_block_combo"])
def test_gift_decks_have_two_jokers(rule: str) -> None:
    """#24; S0:92 "They play with a deck of 54 cards (2 wild cards)": on every base."""
    for base in BASES:
        s = new_game(f"{base}+{rule}", players=3, seed=11)
        assert len(s.rules.deck()) == 54
        assert_conserved(s)


def test_black_joker_attacker_gives_two() -> None:
    """#24; S0:92 "If the player plays a black joker, he must give his opponent any two of his
    cards": P0 chooses two of his cards, one action each; then P1 defends the joker (any card
    beats it: "they can also be beaten with any other card")."""
    s = play(gift("BJ5c6c7d/8s9sTsJs"), "BJ")
    assert s.to_act == 0 and legal(s) == {"^5c", "^6c", "^7d"}
    s = play(s, "^7d", "^5c")
    assert hand(s, 0) == {C("6c")} and hand(s, 1) >= {C("7d"), C("5c")}
    assert s.hands[1].bit_count() == 6
    assert s.phase_name == "defend" and s.to_act == 1
    assert {"7d>BJ", "5c>BJ", "8s>BJ", "take"} <= legal(s)
    assert_conserved(s)


def test_red_joker_defender_gives_two() -> None:
    """#24; S0:92 "If the player looks like a red joker, the opponent must give him any two of
    his cards": the defender P1 hands two of his cards to P0, then defends."""
    s = play(gift("RJ5c6c7d/8s9sTsJs"), "RJ")
    assert s.to_act == 1 and gives(s) == {"^8s", "^9s", "^Ts", "^Js"}
    s = play(s, "^8s", "^Js")
    assert s.hands[0].bit_count() == 5 and s.hands[1].bit_count() == 2
    assert s.phase_name == "defend" and s.to_act == 1


def test_both_jokers_give_five_drawing_the_shortfall() -> None:
    """#24; S0:96 "If a player bets two jokers, he must give his opponent any five of his cards";
    S0:97 "If any player does not have enough cards ... he takes from the deck as many cards as
    he needs": P0 holds three cards after the lead, draws the two stock cards, gives five."""
    s = play(gift("RJBJ5c6c7d/8s9sTsJsQsKsAs"), "BJ+RJ")
    assert not s.stock
    assert gives(s) == {"^5c", "^6c", "^7d", "^2h", "^Kd"}
    s = play(s, "^5c", "^6c", "^7d", "^2h", "^Kd")
    assert s.hands[1].bit_count() == 12 and s.phase_name == "defend"
    assert_conserved(s)


def test_gift_lapses_when_the_deck_is_over() -> None:
    """#24; S0:98 "If any player does not have enough cards to give ... and the deck is over,
    this joker ability is blocked": P0 leads the black joker holding one other card, the stock
    is empty: no gift, P1 defends at once."""
    s = play(gift("BJ5c/8s9sTs", stock="-"), "BJ")
    assert s.phase_name == "defend" and s.to_act == 1
    assert not gives(s) and s.hands[0].bit_count() == 1


def test_joker_transfer_gives_five_to_the_new_defender() -> None:
    """#24; S0:95 "If the player bets one joker, the other will be able to transfer it with
    another joker. The second must deal any five of his cards" (A3: the transferring player
    gives, to the new defender, whatever the base game). After the black joker's two cards,
    P1 lays the red joker beside it; P1 then gives five to P2."""
    for spec in ("podkidnoy+joker_gift", "perevodnoy+joker_gift"):
        s = gift("BJ5c6c/RJ8s9sTsJsQsKsAs/3c4c5d6d7d", n=3, spec=spec)
        s = play(s, "BJ", "^5c", "^6c")
        assert "=RJ" in legal(s), spec
        s = play(s, "=RJ")
        assert (s.defender, s.to_act) == (2, 1)
        assert gives(s) == {f"^{c}" for c in ("5c", "6c", "8s", "9s", "Ts", "Js", "Qs", "Ks",
                                               "As")}
        s = play(s, "^8s", "^9s", "^Ts", "^Js", "^Qs")
        assert s.hands[2].bit_count() == 10 and s.phase_name == "defend" and s.to_act == 2


@pytest.mark.parametrize(("hands", "loser"), [("7c9d/8cBJ", 1), ("7c9d/8cQd/BJ", 2)])
def test_only_a_joker_left_loses(hands: str, loser: int) -> None:
    """#24; S0:94 "The player who has only the joker at the end of the game loses in any case":
    with the stock empty, the player whose hand is just a joker is the fool when the bout ends,
    though others still hold cards."""
    n = hands.count("/") + 1
    s = play(gift(hands, n=n, stock="-"), "7c", "8c>7c")
    while s.phase_name == "throw":
        s = play(s, "pass")
    assert s.is_over and s.outcome.loser == loser and not s.outcome.draw


# --- #84 joker_gift_block_combo --------------------------------------------------------------


def test_three_of_a_kind_blocks_the_gift() -> None:
    """#84; S0:99 "By agreement of the players, you can enter combinations of cards that block
    the joker's ability. A hand consists of any 5 cards. It is best if it consists of three
    paired cards and two more different ones": P0, who must give for his black joker, holds
    7c 7d 7h Jd 9s and may show the sevens instead; the gift is off, the cards stay in his hand
    and become known, and P1 defends."""
    s = play(gift("BJ7c7d7h9sJd/8s9hTsJsQs", spec="podkidnoy+joker_gift_block_combo"), "BJ")
    assert legal(s) == {"!7c+7d+7h", "^7c", "^7d", "^7h", "^9s", "^Jd"}
    s = play(s, "!7c+7d+7h")
    assert s.phase_name == "defend" and s.to_act == 1
    assert hand(s, 0) == cards("7c7d7h9sJd")
    assert set(cards_of(s.known[0])) >= cards("7c7d7h")


def test_no_block_without_two_more_cards() -> None:
    """#84 A1 "three of a kind + 2 other cards": with only the sevens and one more card the gift
    cannot be blocked; without #84 it never can."""
    s = play(gift("BJ7c7d7hJd/8s9hTsJsQs", spec="podkidnoy+joker_gift_block_combo"), "BJ")
    assert not any(m.startswith("!") for m in legal(s))
    s = play(gift("BJ7c7d7h9sJd/8s9hTsJsQs"), "BJ")
    assert not any(m.startswith("!") for m in legal(s))
