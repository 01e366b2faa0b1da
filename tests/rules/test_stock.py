"""Variants II through the engine: dealing, drawing and the stock (VARIANTS.md §3.4, #31-38).

Each test sets a position up (or deals a seeded game), plays the moves the rule is about and
checks what the rule text says must follow. Docstrings cite the catalogue id and the seed line
(S0 = seeds/000_*.txt); expected hands are read off the rule, never off the engine.
"""

from __future__ import annotations

import random

import pytest

from bito.cards import card_str, cards_of
from bito.games.durak import new_game
from bito.games.durak.position_stock import BOOKS
from bito.games.durak.setup import reserve_size
from bito.games.durak.stock import Tallies
from bito.notation import position_text
from bito.rules import resolve
from conftest import C, P, assert_conserved, cards, play


def mask(text: str) -> int:
    return sum(1 << c for c in cards(text))


# --- #31 exchange ---------------------------------------------------------------------------


EXCHANGE3 = ("podkidnoy+exchange players=3 trump=6h stock=- hands=9cKd/8s9dQc/JcJdAs "
             "table=7s attacker=0 defender=1")


def test_exchange_hands_pass_clockwise_after_a_bito() -> None:
    """#31 exchange; S0:18 "after each beat or capture, the players exchange cards ...
    clockwise: 1-2 2-3 ... 6-1": once the bout is over every hand moves one seat left."""
    s = P(EXCHANGE3)
    s = play(s, "8s>7s")  # covered; throwers 0 and 2 pass: bito
    before = list(s.hands)
    s = play(s, "pass", "pass")
    assert s.bout == 1 and s.discard & (1 << C("8s"))
    assert s.hands == [before[2], before[0], before[1]]
    assert_conserved(s)


def test_exchange_after_a_take_too() -> None:
    """#31; S0:18 "after each beat or capture": a take is followed by the exchange as well;
    the picked-up cards, known to all, stay known in the hand they were passed to."""
    s = play(P(EXCHANGE3), "take", "pass", "pass")
    taker_hand = s.hands[2]  # the defender's hand (8s9dQc + 7s) went on to seat 2
    assert set(cards_of(taker_hand)) == cards("8s9dQc7s")
    assert s.known[2] & (1 << C("7s"))
    assert s.known[1] == 0 or not s.known[1] & (1 << C("7s"))


def test_exchange_two_players_swap_and_each_knows_the_other_hand() -> None:
    """#31 with two players (S0:18: they simply swap): afterwards each seat's view shows the
    hand it gave away as known cards of the other seat, and no more."""
    s = P("podkidnoy+exchange players=2 trump=6h stock=- hands=9cKdAd/8sQc "
          "table=7s attacker=0 defender=1")
    s = play(s, "8s>7s", "pass")
    assert set(cards_of(s.hands[0])) == cards("Qc")
    assert set(cards_of(s.hands[1])) == cards("9cKdAd")
    assert s.view(0).known[1] == mask("9cKdAd")
    assert s.view(1).known[0] == mask("Qc")


def test_exchange_view_of_a_third_seat_learns_nothing() -> None:
    """#31: only the giver knows the hand he passed on; a third seat sees counts only."""
    s = play(P(EXCHANGE3), "8s>7s", "pass", "pass")
    assert s.view(0).known[1] == s.hands[1]  # seat 0 passed this hand to seat 1
    assert s.view(2).known[1] == 0
    assert s.view(1).known[2] == s.hands[2]


# --- #32 no_stock ---------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["podkidnoy+no_stock", "simple+no_stock",
                                  "perevodnoy+no_stock", "japanese+no_stock"])
def test_no_stock_sets_the_rest_aside_unseen(spec: str) -> None:
    """#32 no_stock; S0:21 "immediately after all players have been dealt six cards, each deck
    with a trump card is removed from the game": six each, an empty stock, the rest (trump card
    included) out of play and in nobody's view; the trump is still known (A1)."""
    for players in (2, 3, 4):
        s = new_game(spec, players=players, seed=players)
        assert [h.bit_count() for h in s.hands] == [6] * players
        assert s.stock == []
        assert s.aside.bit_count() == 36 - 6 * players
        if s.trump_card >= 0:
            assert s.aside >> s.trump_card & 1
            assert s.view(0).trump_card == s.trump_card
        for seat in range(players):
            v = s.view(seat)
            assert not (v.hand | sum(v.known) | v.seen_discard) & s.aside
            assert "??" in position_text(s, seat).split("removed=")[1]
        assert_conserved(s)


def test_no_stock_keeps_the_set_aside_cards_in_its_own_record() -> None:
    """#32 no_stock (S0:21): the cards set aside are the rule's deal record
    (``deal.fact(SetAside)``), exactly what the game lays aside when it starts: the pack less
    the hands; the position text names them for the whole truth and reads them back."""
    from bito.games.durak.position import parse_position
    from bito.games.durak.set_aside import SetAside

    for players in (2, 3, 4):
        s = new_game("podkidnoy+no_stock", players=players, seed=players + 10)
        record = s.deal.fact(SetAside)
        assert record is not None
        held = 0
        for hand in s.hands:
            held |= hand
        pack = sum(1 << c for c in resolve("podkidnoy").rules.deck())
        assert record.cards == pack & ~held
        assert s.aside == record.cards
        text = position_text(s)
        assert f"removed={''.join(card_str(c) for c in cards_of(record.cards))}" in text
        assert parse_position(text).aside == s.aside
    assert new_game("podkidnoy", players=2, seed=1).deal.fact(SetAside) is None


def test_no_stock_field_is_refused_without_the_rule() -> None:
    """#32: ``removed=`` belongs to the rule; a position of a game that keeps its stock
    cannot set cards aside."""
    from bito.errors import InvalidNotationError
    from bito.games.durak.position import parse_position

    with pytest.raises(InvalidNotationError, match="removed: these rules keep the stock"):
        parse_position("podkidnoy players=2 trump=6h stock=6h hands=7c/8c removed=9c")


def test_no_stock_trump_card_is_described_as_set_aside() -> None:
    """#32 (S0:21, the deck "with a trump card is removed"): the screen and every seat's view
    say the trump card lies aside with the stock, never that it was drawn."""
    from bito.games.durak.render import state_trump_words, view_trump_words

    s = new_game("podkidnoy+no_stock", players=2, seed=4)
    assert s.trump_card >= 0 and not s.stock
    for words in (state_trump_words(s), view_trump_words(s.view(0)),
                  view_trump_words(s.view(1))):
        assert "set aside with the stock" in words and "drawn" not in words
    plain = new_game("podkidnoy", players=2, seed=4)
    assert "under the stock" in state_trump_words(plain)


def test_no_stock_nobody_draws() -> None:
    """#32: draw.target none: after a bito nobody refills, so hands only shrink."""
    s = new_game("podkidnoy+no_stock", players=2, seed=3)
    lead = next(a for a in s.legal_actions() if len(a.cards) == 1)
    s = s.apply(lead)
    cover = next((a for a in s.legal_actions() if str(a) != "take"), None)
    if cover is None:
        pytest.skip("no cover in this deal")
    s = s.apply(cover)
    s = play(s, "pass")
    assert [h.bit_count() for h in s.hands] == [5, 5]


# --- #33 piled_up ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_piled_up_deals_the_whole_pack(players: int) -> None:
    """#33 piled_up; S0:25 "initially the deck is divided equally between the players": no
    stock; A1: the first players clockwise from the dealer's left get one card more; A3 (by
    analogy with S0:243): the last card dealt fixes the trump, is shown, and its receiver
    keeps it."""
    for seed in range(5):
        s = new_game("podkidnoy+piled_up", players=players, seed=seed)
        assert s.stock == []
        dealer = s.deal.dealer
        order = [(dealer + 1 + k) % players for k in range(players)]
        sizes = [s.hands[seat].bit_count() for seat in order]
        base, extra = divmod(36, players)
        assert sizes == [base + 1] * extra + [base] * (players - extra)
        receiver = order[(36 - 1) % players]
        assert s.hands[receiver] >> s.trump_card & 1
        assert s.known[receiver] >> s.trump_card & 1
        assert s.trump_suit == s.trump_card // 16 or s.trumps == frozenset({s.trump_suit})
        assert_conserved(s)


# --- #34 draw_when_empty --------------------------------------------------------------------


DRAW_EMPTY = ("{spec} players=2 trump=6h stock=6hAc9dJsQsKs8c hands=7c9c/8d "
              "table=7d attacker=0 defender=1")


def test_draw_when_empty_only_an_empty_hand_draws() -> None:
    """#34 draw_when_empty; S0:47 "the player draws cards from the deck only if there are no
    cards left in his hand at all": after the bito the defender (empty) draws 6, the attacker
    (two cards) draws nothing. In podkidnoy both refill to 6."""
    s = play(P(DRAW_EMPTY.format(spec="podkidnoy+draw_when_empty")), "8d>7d")
    assert s.hands[0].bit_count() == 2
    assert s.hands[1].bit_count() == 6
    base = play(P(DRAW_EMPTY.format(spec="podkidnoy")), "8d>7d")
    assert base.hands[0].bit_count() == 6


# --- #35 gradual_access ---------------------------------------------------------------------


def test_gradual_access_deal_one_usable_five_locked() -> None:
    """#35 gradual_access; S0:86 "out of 6 cards dealt, players first have access to only
    one": one card in hand, five face down, seen by nobody (A5)."""
    for players in (2, 3, 4):
        s = new_game("podkidnoy+gradual_access", players=players, seed=11)
        assert BOOKS.of(s) is not None
        assert [h.bit_count() for h in s.hands] == [1] * players
        assert [m.bit_count() for m in BOOKS.of(s).locked] == [5] * players
        locked = sum(BOOKS.of(s).locked)
        for seat in range(players):
            v = s.view(seat)
            assert not (v.hand | sum(v.known)) & locked
            tallies = v.extension(Tallies)
            assert tallies is not None and tallies.reserve_counts == (5,) * players
            assert "locked=??*5" in position_text(s, seat)
        assert_conserved(s)


GRADUAL = ("podkidnoy+gradual_access players=2 trump=6h stock=6hAcAd hands=7c9c/8d "
           "locked=JcQc/KcKd table=7d attacker=0 defender=1")


def test_gradual_access_one_more_card_per_bito() -> None:
    """#35; S0:86 "with each hang-up ... one for each hang-up": after a bito every player turns
    one locked card into his hand (A1: after bito only), and nobody draws (A2)."""
    s = play(P(GRADUAL), "8d>7d")  # his last card: no room to throw, bito at once
    assert BOOKS.of(s) is not None
    assert s.hands[0].bit_count() == 3 and s.hands[0] & mask("7c9c") == mask("7c9c")
    assert s.hands[0] & mask("JcQc") and BOOKS.of(s).locked[0].bit_count() == 1
    assert s.hands[1].bit_count() == 1 and s.hands[1] & mask("KcKd")
    assert BOOKS.of(s).locked[1].bit_count() == 1
    assert len(s.stock) == 3
    assert_conserved(s)


def test_gradual_access_take_unlocks_nothing_and_taken_cards_are_usable() -> None:
    """#35 A1 (a take is no hang-up) and A6 ("all drawn cards are available to him": cards
    picked up from the table are usable at once)."""
    s = play(P(GRADUAL), "take")
    assert BOOKS.of(s) is not None
    assert s.hands[1] == mask("8d7d")
    assert BOOKS.of(s).locked == (mask("JcQc"), mask("KcKd"))


def test_gradual_access_everything_unlocks_when_the_stock_runs_out() -> None:
    """#35; S0:86 "If the deck runs out, all the cards in the hands of the players become
    available": the defender, emptied, draws the last cards and every locked card joins its
    owner's hand."""
    s = P("podkidnoy+gradual_access players=2 trump=6h stock=6hAc hands=7c9c/8d "
          "locked=JcQc/- table=7d attacker=0 defender=1")
    s = play(s, "8d>7d")
    assert s.stock == []
    assert BOOKS.of(s) is not None and BOOKS.of(s).locked == (0, 0)
    assert s.hands[0] & mask("JcQc")
    assert s.hands[1] & mask("6hAc")


# --- #36 arithmetic_progression -------------------------------------------------------------


def test_arithmetic_progression_hands_grow_by_one_each_bout() -> None:
    """#36 arithmetic_progression; S0:184 "at first each player is given only one card ... the
    second time the number of cards in hand is added to two, then to 3, 4, 5": after the k-th
    bout everyone with room refills to k + 1."""
    s = new_game("podkidnoy+arithmetic_progression", players=2, seed=4)
    assert [h.bit_count() for h in s.hands] == [1, 1]
    rng = random.Random(0)
    for bout in range(1, 5):
        while s.bout < bout:
            s = s.apply(rng.choice(s.legal_actions()))
        if len(s.stock) < 2 * (bout + 1):
            break
        # everyone below the target drew up to exactly bout + 1 (takes may leave more)
        assert min(h.bit_count() for h in s.hands) == bout + 1


# --- #37 buy_in -----------------------------------------------------------------------------


def test_buy_in_reserve_size_fits_the_pack() -> None:
    """#37 A1: 3 cards each, lowered so that players x (6 + k) + 1 fits 36 cards."""
    rules = resolve("podkidnoy+buy_in").rules
    assert [reserve_size(rules, n, 36) for n in (2, 3, 4, 5, 6)] == [3, 3, 2, 1, 0]
    s = new_game("podkidnoy+buy_in", players=3, seed=2)
    assert BOOKS.of(s) is not None
    assert [m.bit_count() for m in BOOKS.of(s).reserve] == [3, 3, 3]
    assert len(s.stock) == 36 - 27
    for seat in range(3):
        assert not (s.view(seat).hand | sum(s.view(seat).known)) & sum(BOOKS.of(s).reserve)
    assert_conserved(s)


BUY_IN = ("podkidnoy+buy_in players=3 trump=6h stock=- hands=7d/9c8s/JcQd "
          "reserve=AcAdAs/-/- table=- attacker=0 defender=1")


def test_buy_in_is_picked_up_instead_of_going_out() -> None:
    """#37; S0:188 "when there are no cards left in the deck and the player has thrown away all
    his cards, he takes his buy-in and continues the game"."""
    s = play(P(BUY_IN), "7d")
    assert 0 not in s.out
    assert s.hands[0] == mask("AcAdAs")
    assert BOOKS.of(s) is not None and BOOKS.of(s).reserve[0] == 0


def test_buy_in_only_once() -> None:
    """#37 (hook.on_would_exit, "once"): with the reserve spent, an empty hand is out."""
    s = P(BUY_IN.replace("reserve=AcAdAs/-/-", "reserve=-/-/-").replace("/JcQd", "/JcQdAcAdAs"))
    s = play(s, "7d")
    assert 0 in s.out


# --- #38 recycle_discard --------------------------------------------------------------------


RECYCLE = ("podkidnoy+recycle_discard players=2 trump=6h stock=6hAcAdAsKh hands=7c9c/8dKs "
           "table=7d attacker=0 defender=1 bitos={bitos}")


def test_recycle_every_second_bito_goes_into_the_stock() -> None:
    """#38 recycle_discard; S0:177 "during every second release, the cards do not go to the
    closed pile, but are mixed with the deck"; A1: the face-up trump card stays at the
    bottom. The first bito goes to the discard as usual."""
    first = play(P(RECYCLE.format(bitos=0)), "8d>7d", "pass")
    assert first.discard & mask("7d8d") == mask("7d8d")
    second = play(P(RECYCLE.format(bitos=1)), "8d>7d", "pass")
    assert not second.discard & mask("7d8d")
    on_the_table_or_stock = mask("7d8d") & (sum(1 << c for c in second.stock)
                                            | second.hands[0] | second.hands[1])
    assert on_the_table_or_stock == mask("7d8d")
    if second.stock:
        assert second.stock[0] == C("6h")
    assert_conserved(second)


def test_recycle_into_an_empty_stock_makes_a_new_stock_with_nothing_face_up() -> None:
    """#38 A2: with the stock gone the bito becomes a new stock, no card face up, trump kept."""
    s = P("podkidnoy+recycle_discard players=2 trump=6h stock=- hands=7c9cJcQcKcAc/8dQsKsAsTs9s "
          "table=7d bitos=1 attacker=0 defender=1")
    s = play(s, "8d>7d", "pass")
    assert BOOKS.of(s) is not None and BOOKS.of(s).restocked
    assert s.trump_suit == C("6h") // 16 or s.trumps
    for seat in (0, 1):
        v = s.view(seat)
        assert v.stock_face_up == 0 and not v.trump_card_in_stock
        assert "??" in position_text(s, seat).split("stock=")[1].split()[0] or not s.stock
    assert_conserved(s)
