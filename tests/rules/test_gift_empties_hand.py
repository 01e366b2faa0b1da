"""Joker gifts that empty a hand mid-bout (VARIANTS.md §3.3 #24, #84, with §1.8's "out").

A gift (#24) moves cards between two hands in the middle of a bout, so a player can run out of
cards at a moment the base game never meets: a thrower by giving his last card, a defender by
giving away the cards he needed to cover. The base rule (§1.8, S0:3 "A player is out when his
hand is empty and the stock is empty") still decides; the defender is out only once the bout
needs nothing more from him (no card left uncovered, no take declared), since a defender who
cannot cover must pick up (§1.3). Each docstring cites the catalogue id and the seed line
(S0 = seeds/000_*.txt).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.cards import card_str
from bito.games.durak import DurakState, new_game
from bito.games.durak.actions import Action
from conftest import BASES, C, P, assert_conserved, hand, legal, play

FREEZE = ("podkidnoy+joker_gift players=3 trump=Ts stock=- hands=JcJd/Qc4d5d9d2h5hQhKh/JhQsBJ "
          "table=Tc<2s,Th<5s,Td,2c<5c,Ts<RJ phase=throw attacker=0 defender=1 to_act=0 "
          "taking=1")
SHORT = ("podkidnoy+joker_gift players=3 trump=Jh stock=- hands=4c4d/3c5c5s/6dRJ "
         "table=Jd<Jh,Js<BJ,Jc phase=throw attacker=0 defender=1 to_act=0")


def test_thrower_gives_last_cards_before_the_take_ends() -> None:
    """#24 A2 "at once, before the bout goes on"; S0:92 "If the player plays a black joker,
    he must give his opponent any two of his cards": the black joker fills the bout's six
    cards, yet the gift comes before the defender picks up, so the two cards go to him while
    he is still taking; the thrower, now empty with no stock, is out (§1.8) and the bout
    ends with the take. The attack passes over the defender who took (§1.3) to seat 0."""
    s = play(P(FREEZE), "pass", "BJ")
    assert s.phase_name == "give" and s.to_act == 2
    s = play(s, "^Jh", "^Qs")
    assert s.out == [2]
    assert not s.is_over
    assert {C("Jh"), C("Qs"), C("BJ"), C("Tc")} <= hand(s, 1)  # gift and table, both his
    assert (s.attacker, s.defender, s.to_act) == (0, 1, 0)
    assert legal(s)
    assert_conserved(s)


def test_defender_short_after_a_gift_must_take() -> None:
    """#24; S0:92 "If the player looks like a red joker, the opponent must give him any two of
    his cards", and §1.3 "D covers cards ... or takes": giving two cards leaves the defender
    one card against two open ones. Covering the joker with his last card does not put him
    out, since the jack is still open (§1.8 applies once the bout needs nothing of him); his
    only move is to take, and he plays on with the bout's cards."""
    s = play(P(SHORT), "pass", "RJ", "^3c", "^5c")
    assert s.phase_name == "defend"  # the gift used up the room for throw-ins
    s = play(s, "5s>RJ")
    assert s.out == []
    assert legal(s) == {"take"}
    s = play(s, "take")
    assert s.out == []
    assert len(hand(s, 1)) == 7
    assert_conserved(s)


def test_defender_giving_his_last_cards_takes() -> None:
    """#24; S0:92 "the opponent must give him any two of his cards": a defender holding two
    cards gives both to the red joker's player; the joker lies uncovered, so he is not out
    (§1.8) but must take it (§1.3)."""
    s = P("podkidnoy+joker_gift players=3 trump=2h stock=- hands=RJ5c6c/8s9s/3c4c attacker=0")
    s = play(s, "RJ")
    assert s.phase_name == "give" and s.to_act == 1
    s = play(s, "^8s", "^9s")
    assert not hand(s, 1) and s.out == []
    assert legal(s) == {"take"}
    s = play(s, "take")
    assert hand(s, 1) == {C("RJ")} and s.out == []
    assert_conserved(s)


SPECS = [f"{base}+{rule}" for base in BASES for rule in ("joker_gift", "joker_gift_block_combo")]


JOKERS = 1 << C("RJ") | 1 << C("BJ")


def choose(s: DurakState, acts: list[Action], rng: random.Random) -> Action:
    """A random move, steered to where gifts empty hands: jokers are kept while the stock
    lasts and played at once after it is gone, so that gifts meet hands that are running out
    (uniform random play gets there in about one game of a thousand)."""
    joker = [a for a in acts if a.mask & JOKERS]
    if joker and len(joker) < len(acts):
        if not s.stock and rng.random() < 0.9:
            acts = joker
        elif s.stock:
            acts = [a for a in acts if not a.mask & JOKERS]
    return acts[rng.randrange(len(acts))]


def endgame(spec: str, players: int, seed: int) -> DurakState:
    """A random position after the stock is gone, both jokers still in hands and every hand
    small: where a gift can empty a hand."""
    rng = random.Random(seed)
    pack = [c for c in new_game(spec, players=players, seed=seed).rules.deck()
            if not JOKERS >> c & 1]
    rng.shuffle(pack)
    dealt = [*pack[:rng.randint(players, 3 * players)], C("RJ"), C("BJ")]
    rng.shuffle(dealt)
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, c in enumerate(dealt):
        hands[i % players if i < 2 * players else rng.randrange(players)].append(c)
    text = "/".join("".join(card_str(c) for c in h) for h in hands)
    trump = card_str(pack[-1])
    return P(f"{spec} players={players} trump={trump} stock=- hands={text} "
             f"attacker={rng.randrange(players)}")


def check_game(spec: str, players: int, seed: int, start: DurakState | None = None) -> None:
    """Play one game of steered random moves and check the invariants at every step."""
    rng = random.Random(seed)
    s = new_game(spec, players=players, seed=seed) if start is None else start
    for _ in range(20_000):
        assert_conserved(s)
        for seat in s.out:
            assert not s.hands[seat], f"{spec}: seat {seat} is out holding cards"
        if s.is_over:
            break
        acts = s.legal_actions()
        assert acts, f"{spec}, {players} seats, seed {seed}: no legal action, game not over"
        assert s.to_act not in s.out
        s = s.apply(choose(s, acts, rng))
    assert s.is_over
    outcome = s.outcome
    assert outcome is not None
    # The finishing order starts with the seats that went out, in the order they did.
    assert list(outcome.order[:len(s.out)]) == s.out
    holding = {seat for seat in range(players) if s.hands[seat]}
    assert not holding & set(s.out)
    if outcome.loser is not None and outcome.reason == "":
        assert holding <= {outcome.loser}  # an ordinary end: only the fool holds cards


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_gift_games_never_freeze(spec: str, players: int, seed: int) -> None:
    """#24, #84; S0:92-95 with §1.8: over random games on every base at 2-6 seats, a game
    never stalls (some legal action until it is over), a seat marked out holds no cards, the
    finishing order ranks the seats that went out first, and no card is created or lost."""
    check_game(spec, players, seed)


def test_eight_seat_transfer_poker_gifts() -> None:
    """#24 with #44 on perevodnoy at 8 seats (the 54-card deck's most players): random play
    found a frozen game here; a handful of seeds now end by a rule."""
    for seed in range(8):
        check_game("perevodnoy+poker_second_try+joker_gift", 8, seed)


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_gift_endgames_never_freeze(spec: str, players: int, seed: int) -> None:
    """#24, #84; S0:92-95 with §1.8: the same checks from random endgames (stock empty, both
    jokers in small hands), where a gift often takes a player's last cards."""
    check_game(spec, players, seed, endgame(spec, players, seed))
