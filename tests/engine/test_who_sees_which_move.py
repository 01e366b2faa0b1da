"""Who sees which move: one visibility table for the move log, censored records and views.

``bito.games.durak.view.private_to`` decides, for every move, whether all seats see its cards
or only one (docs/variants.md, "Where rules meet: ... who sees which move"). The move log and
censored records show a move through ``state.action_seen_by``; a seat's view lists the cards
it knows. The two must agree: a card a seat saw in the log is a card its view lists (its own
hand, the known cards of other hands, the table, the public discard), and a censored record
loads back and replays. Each docstring cites the catalogue id and seed line (S0 =
seeds/000_*.txt, S4 = seeds/004_*.txt).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bito.games.durak import DurakState, new_game
from bito.games.durak.bout_extras import Extras
from bito.games.durak.dummy import TossingDummy
from bito.games.durak.view import DurakView
from bito.games.game import Game
from bito.games.protocol import Hidden
from bito.record import load_record, record_from_game
from conftest import C, P, play

HIDDEN_MOVES = (
    "podkidnoy+poker",                # #42 poker swap
    "perevodnoy+poker_second_try",    # #44
    "podkidnoy+joker_gift",           # #24 gifts
    "simple+joker_gift_block_combo",  # #84 blocks
    "believe_not_believe",            # #59 face-down covers
    "podkidnoy+tossing_dummy",        # #56
    "podkidnoy+playing_dummy",        # #57
    "podkidnoy+blind_face_out",       # #58
    "podkidnoy+secret_trump",         # #18
    "podkidnoy+exchange=choose",      # #31 A1 option
)


def mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        if c >= 0:
            m |= 1 << c
    return m


def visible(v: DurakView) -> int:
    """Every card ``v`` shows its seat: own hand, the dummy's if shown, the known cards of
    every hand, the table, the public discard, the face-up cards of the stock."""
    dummy = v.extension(TossingDummy)
    extras = v.extension(Extras) or Extras()
    m = v.hand | (dummy.hand if dummy else 0) | v.seen_discard | v.stock_face_up
    for k in v.known:
        m |= k
    m |= mask(v.attack) | mask(v.defence) | mask(extras.counter) | mask(extras.counter_cover)
    if extras.shown >= 0:
        m |= 1 << extras.shown
    return m


def seen_cards(before: DurakState, action: object, seat: int) -> int:
    seen = before.action_seen_by(action, seat)  # type: ignore[arg-type]
    if isinstance(seen, Hidden):
        return 0
    target = getattr(seen, "target", -1)
    return mask(seen.cards) | (1 << target if target >= 0 else 0)


def random_game(spec: str, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(new_game(spec, players=players, seed=seed))
    for _ in range(5000):
        if game.state.is_over:
            break
        acts = game.state.legal_actions()
        game.push(acts[rng.randrange(len(acts))])
    return game


def check_game(spec: str, players: int, seed: int) -> None:
    players = max(players, new_game(spec, players=4, seed=0).rules.players_min)
    game = random_game(spec, players, seed)
    states = [game.start]
    for a in game.actions:
        states.append(states[-1].apply(a))
    for before, action, after in zip(states, game.actions, states[1:], strict=False):
        for seat in range(players):
            shown = seen_cards(before, action, seat)
            # #58: a player's own hand faces out, so a card of his sent back to it (the
            # penalty) is one he saw turned up but may not see in his hand.
            own_blind = before.hands[seat] if not before.rules.deal_owner_sees_hand else 0
            allowed = visible(before.view(seat)) | visible(after.view(seat)) | own_blind
            assert not shown & ~allowed, (
                f"{spec} seed {seed}: seat {seat} sees {action} as "
                f"{before.action_seen_by(action, seat)}, naming cards its view does not list")
    record = record_from_game(game)
    for seat in range(players):
        censored = record.censored(seat)
        text = censored.to_jsonl()
        loaded = load_record(text)
        assert loaded.to_jsonl() == text
        assert len(loaded.frames()) == len(game.actions) + 1


@pytest.mark.parametrize("spec", HIDDEN_MOVES)
@settings(max_examples=3, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_log_records_and_views_agree(spec: str, players: int, seed: int) -> None:
    """#18, #24, #31, #42, #56-59 (S0:92, S0:141, S4:8, S4:16): in random games the cards
    a seat sees in the move log are cards its view lists, and every seat's censored record
    loads back and replays."""
    check_game(spec, players, seed)


def test_tossing_dummy_censored_record_loads() -> None:
    """#56; S0:141 the controller throws in from the dummy's hand: a censored record of the
    controller checks a toss against the dummy's cards its views show, not its own hand
    (podkidnoy+tossing_dummy, 2 seats, seed 0, random moves from random.Random(0))."""
    rng = random.Random(0)
    game = Game(new_game("podkidnoy+tossing_dummy", players=2, seed=0))
    while not game.state.is_over:
        acts = game.state.legal_actions()
        game.push(acts[rng.randrange(len(acts))])
    record = record_from_game(game)
    for seat in range(2):
        load_record(record.censored(seat).to_jsonl())


def test_poker_swap_is_hidden_from_the_others() -> None:
    """#42 A1: the two cards go back "shuffled into the face-down stock", so only the
    defender sees which; the others see two cards swapped, and a card they knew to be in his
    hand (he picked it up) is no longer certain to be there."""
    s = P("podkidnoy+poker players=3 trump=6h stock=6h7c8cTcJcAc hands=9c9d/KcQs7s8s/Ts "
          "known=-/Kc/- attacker=0")
    s = play(s, "9c")
    swap = next(a for a in s.legal_actions() if str(a) == "$Kc+7s")
    assert str(s.action_seen_by(swap, 1)) == "$Kc+7s"
    assert str(s.action_seen_by(swap, 0)) == "$?+?"
    assert str(s.action_seen_by(swap, None)) == "$?+?"
    # the log says a swap of two cards, not two cards put face down on the table
    assert s.action_seen_by(swap, 0).pretty() == "swap: 2 cards unseen"
    after = s.apply(swap)
    assert after.view(0).known[1] == 0
    assert after.view(2).known[1] == 0


def test_gift_is_public_and_known() -> None:
    """#24; S0:92 "he must give his opponent any two of his cards": the gift is made openly,
    card by card, so a third seat sees each card and its view knows it in the receiver's
    hand."""
    s = P("podkidnoy+joker_gift players=3 trump=2h stock=2hKd hands=BJ5c6c/8s9sTsJs/3c4c5d "
          "attacker=0")
    s = play(s, "BJ")
    give = next(a for a in s.legal_actions() if str(a) == "^5c")
    assert str(s.action_seen_by(give, 2)) == "^5c"
    after = s.apply(give)
    for seat in range(3):
        assert after.view(seat).known[1] >> C("5c") & 1
