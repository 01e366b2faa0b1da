"""Variants I through the engine: personal and secret trumps (VARIANTS.md §3.2 #16, #82, #18).

``own_trumps`` (#16), ``own_trumps_binding`` (#82) and ``secret_trump`` (#18). Each docstring
cites the catalogue id and the seed line (S0 = seeds/000_*.txt); expected sets are read off the
rule text and the catalogue's recommended resolutions.
"""

from __future__ import annotations

import random

import pytest

from bito.cards import HEARTS, cards_of, rank_of, suit_of
from bito.games.durak import new_game
from conftest import BASES, C, P, legal, play

OWN = "podkidnoy+{rule} players={n} stock=- hands={hands} table={table} attacker=0 own={own}"


def every_card_once(state) -> None:
    """Hands, stock, table, discard and the set-aside secret card hold the deck exactly once."""
    zones = [*map(cards_of, state.hands), list(state.stock),
             list(state.attack) + [c for c in state.defence if c >= 0],
             cards_of(state.discard), cards_of(state.aside)]
    every = [c for z in zones for c in z]
    assert len(every) == len(set(every)) and set(every) == set(state.rules.deck())


# --- #16 own_trumps ---------------------------------------------------------------------------


@pytest.mark.parametrize("base", BASES)
def test_own_trumps_are_turned_up_one_per_player(base: str) -> None:
    """#16; S0:10 "each player has his own trump card"; setup (Rec.): from the dealer's left each
    player turns up the next stock card and its suit is his; a taken suit is refused while a
    free one remains, so up to four players hold four different suits; the turned cards lie
    face up at the bottom of the stock and are drawn last (A4)."""
    for seed in range(30):
        players = 2 + seed % 3
        s = new_game(f"{base}+own_trumps", players=players, seed=seed)
        own = s.deal.trump.own_suits()
        assert len(own) == players
        if {suit_of(c) for c in s.stock} == {0, 1, 2, 3}:  # the stock can serve a free suit
            assert len(set(own)) == players, seed
        bottom = s.stock[:players]
        assert sorted(map(suit_of, bottom)) == sorted(own)
        for c in bottom:
            assert s.deal.trump.face_up >> c & 1
        every_card_once(s)


def test_own_trumps_view_record_gives_every_seats_suit() -> None:
    """#16; S0:10 "each player has his own trump card", turned face up for all to see: every
    seat's view holds the rule's record (``OwnTrumps``) with every seat's suit, the same for
    all, and the view's trumps are the viewer's own suit."""
    from bito.games.durak.own_trumps import OwnTrumps

    for seed in range(10):
        players = 2 + seed % 3
        s = new_game("podkidnoy+own_trumps", players=players, seed=seed)
        suits = s.deal.trump.own_suits()
        for seat in range(players):
            view = s.view(seat)
            record = view.extension(OwnTrumps)
            assert record is not None and record.suits == suits
            assert view.trumps == frozenset({suits[seat]})


def test_own_trumps_suits_repeat_beyond_four_players() -> None:
    """#16 setup "(With >4 players suits repeat.)" (S0:10-12 leave it open): six players still
    get one suit each, every suit is someone's."""
    for seed in range(10):
        s = new_game("podkidnoy+own_trumps", players=6, seed=seed)
        own = s.deal.trump.own_suits()
        assert len(own) == 6 and set(own) == {0, 1, 2, 3}


def test_own_trumps_first_attack_by_lowest_own_trump() -> None:
    """#16 A4 "the player holding the lowest card of his own trump suit attacks first (ties →
    lot)": checked on deals where that lowest card is unique."""
    checked = 0
    for seed in range(60):
        s = new_game("podkidnoy+own_trumps", players=3, seed=seed)
        own = s.deal.trump.own_suits()
        lows = {seat: min((rank_of(c) for c in cards_of(s.hands[seat]) if suit_of(c) == own[seat]),
                          default=99) for seat in range(3)}
        best = min(lows.values())
        if best == 99 or list(lows.values()).count(best) > 1:
            continue
        checked += 1
        assert s.attacker == min(lows, key=lows.get)
    assert checked >= 20


def test_defender_counts_only_his_own_suit_as_trump() -> None:
    """#16; S0:10 "if one of the players bets MY trump card, then it will not be a trump card for
    the opposite player": P0's trump 7h is an ordinary heart to P1 (spades), who covers it with
    8h or any spade, not with 6h; P1's spade trump beats P0's diamond attack too."""
    s = P(OWN.format(rule="own_trumps", n=2, hands="9c/8h6h7sAd", table="7h", own="hs"))
    assert legal(s) == {"8h>7h", "7s>7h", "take"}
    s = P(OWN.format(rule="own_trumps", n=2, hands="9c/8h6h7sAd", table="7d", own="hs"))
    assert legal(s) == {"Ad>7d", "7s>7d", "take"}


def test_roles_change_the_trump() -> None:
    """#16 hook.beats "standard relation using trump = T(D)": when P1 attacks P0, hearts (P0's
    suit) are the trump and spades are ordinary."""
    s = P("podkidnoy+own_trumps players=2 stock=- hands=8s6h7h/9c table=7s attacker=1 own=hs")
    assert legal(s) == {"8s>7s", "6h>7s", "7h>7s", "take"}


def test_transfer_hands_the_new_defender_his_own_trump() -> None:
    """#16 on perevodnoy (applies_to; S0:10 "MY trump card ... will not be a trump card for the
    opposite player", hook.beats with trump = T(D)): P1 (spades) covers 7h with his trump 7s
    or transfers with it; after =7s the new defender P2 (clubs) covers with a higher heart or
    his club trump, and the 7s only with a club."""
    s = P("perevodnoy+own_trumps players=3 stock=- hands=9d/7s8d/8hAcKd table=7h attacker=0 "
          "own=hsc")
    assert legal(s) == {"7s>7h", "=7s", "take"}
    s = play(s, "=7s")
    assert s.defender == 2
    assert legal(s) == {"8h>7h", "Ac>7h", "Ac>7s", "take"}


# --- #82 own_trumps_binding -------------------------------------------------------------------


def test_binding_attackers_trump_only_by_a_higher_card_of_it() -> None:
    """#82; S0:12 "if one of the players bets Alien a trump card, the opposing player must beat
    it like a trump card": P0's 7h falls only to a higher heart, not to P1's spades."""
    s = P(OWN.format(rule="own_trumps_binding", n=2, hands="9c/8h6h7sAd", table="7h", own="hs"))
    assert legal(s) == {"8h>7h", "take"}


def test_binding_third_players_suit_binds_too() -> None:
    """#82 A1 Rec.: any card of a suit that is another player's trump (the attacker's or a
    third player's) is beaten only within its suit; attacker_suit_only binds only the
    attacker's: P2's clubs are then ordinary for P1, and his spade trump covers a club."""
    hands, table = "9c/8h6h7sAdKc/6c", "7h,7c"
    s = P(OWN.format(rule="own_trumps_binding", n=3, hands=hands, table=table, own="hsc"))
    assert legal(s) == {"8h>7h", "Kc>7c", "take"}
    s = P(OWN.format(rule="own_trumps_binding=attacker_suit_only", n=3, hands=hands, table=table,
                     own="hsc"))
    assert legal(s) == {"8h>7h", "Kc>7c", "7s>7c", "take"}


# --- #18 secret_trump -------------------------------------------------------------------------


@pytest.mark.parametrize("base", BASES)
def test_secret_card_is_set_aside_face_down(base: str) -> None:
    """#18; S0:147 "as soon as the trump card becomes known from the deck, in a closed form, they
    take another card and put it ... under the trump card": one card is out of the stock and
    out of every hand, and nobody knows it."""
    for seed in range(20):
        players = 2 + seed % 4
        s = new_game(f"{base}+secret_trump", players=players, seed=seed)
        secret = s.deal.trump.hidden
        assert secret >= 0 and s.aside == 1 << secret
        assert secret not in s.stock and not any(h >> secret & 1 for h in s.hands)
        assert not any(k >> secret & 1 for k in s.known)
        assert len(s.stock) == 36 - 6 * players - 1
        every_card_once(s)


SECRET = "podkidnoy+secret_trump players=2 trump=Jc stock=Jc hands=7d8d6h/9dAs8cQs attacker=0 " \
         "secret=7h"


def test_secret_card_becomes_trump_when_the_trump_card_is_drawn() -> None:
    """#18; S0:147 "When the deck ends with the trump card, this card will open up and become a
    new trump card"; A1 it is not drawn; A2 the switch comes with the draw, between bouts.
    Before: clubs are trump, so 6h does not cover a club. P0 draws the Jc; from then on hearts
    are trump and P0's 6h covers P1's 8c."""
    s = P(SECRET)
    assert s.trumps == frozenset({0})
    s = play(s, "7d", "9d>7d", "pass")
    assert not s.stock and s.hands[0] >> s.deal.trump_card & 1
    assert s.trumps == frozenset({HEARTS}) and s.aside  # turned over, still out of play
    s = play(s, "8c")
    assert legal(s) == {"Jc>8c", "6h>8c", "take"}
    every_card_once(s)


def test_secret_cards_view_record_shows_it_once_turned() -> None:
    """#18; S0:147 the secret card "will open up and become a new trump card": every seat's
    view holds the rule's record (``SecretTurned``) exactly once the card is turned, naming
    the card set aside, whose suit the view's trumps are from then on; before that no seat
    sees it, and the words say it lies face down."""
    from bito.games.durak.render import view_trump_words
    from bito.games.durak.secret_trump import SecretTurned

    s = P(SECRET)
    for seat in range(2):
        assert s.view(seat).extension(SecretTurned) is None
        assert "secret card face down" in view_trump_words(s.view(seat))
    s = play(s, "7d", "9d>7d", "pass")
    for seat in range(2):
        view = s.view(seat)
        turned = view.extension(SecretTurned)
        assert turned is not None and turned.card == C("7h") == s.deal.trump.hidden
        assert view.trumps == frozenset({HEARTS})
        assert "secret card 7♥ turned" in view_trump_words(view)


def test_secret_cards_record_is_in_every_dealt_game() -> None:
    """#18: in dealt games the view's record appears exactly when the state has turned the
    card (random games to the end, every seat's view at every move)."""
    from bito.games.durak.secret_trump import SecretTurned

    rng = random.Random(18)
    turned_seen = 0
    for seed in range(6):
        s = new_game("podkidnoy+secret_trump", players=2 + seed % 3, seed=seed)
        while not s.is_over:
            for seat in range(s.players):
                record = s.view(seat).extension(SecretTurned)
                assert (record is not None) == s.revealed
                if record is not None:
                    assert record.card == s.deal.trump.hidden
                    turned_seen += 1
            acts = s.legal_actions()
            s = s.apply(acts[rng.randrange(len(acts))])
    assert turned_seen > 0


def test_secret_card_of_the_same_suit_changes_nothing() -> None:
    """#18 A3 "If both cards have the same suit, nothing changes" (S0:147)."""
    s = play(P(SECRET.replace("secret=7h", "secret=7c")), "7d", "9d>7d", "pass", "8c")
    assert s.trumps == frozenset({0})
    assert legal(s) == {"Jc>8c", "take"}


def test_secret_card_drawable_option() -> None:
    """#18 A1 option secret_card_drawable (trump.secret_drawable): the turned secret card becomes
    the last card of the stock, drawn like any other."""
    s = P(SECRET.replace("secret_trump", "secret_trump+trump.secret_drawable=true"))
    s = play(s, "7d", "9d>7d", "pass")
    assert s.trumps == frozenset({HEARTS})
    # P0 (two cards left, hand size 6) draws the trump card and then the turned secret card.
    assert not s.stock and not s.aside
    assert s.hands[0] >> s.deal.trump.hidden & 1 and s.hands[0] >> s.deal.trump_card & 1
    every_card_once(s)
