"""Pairs only (#5, VARIANTS.md §3.1, S1:60): whether a single card may be led once the stock
is empty is decided from public events (every seat still in has passed the lead on in turn),
never from the other seats' hidden hands, so an attacker's legal moves depend only on his own
hand and what the whole table has seen.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bito.games import new_game
from bito.games.durak.state import DurakState
from conftest import P, legal, play

NO_PAIR_ANYWHERE = "pairs_only players=3 trump=6h stock=- hands=7c8d/9cJd/TsKs attacker=0"
PAIR_AT_SEAT_2 = "pairs_only players=3 trump=6h stock=- hands=7c8d/9cJd/TsTh attacker=0"


def test_the_attackers_moves_do_not_depend_on_the_other_hands() -> None:
    """#5 A1; S1:60 "If there is none, the move passes to the next player": with the stock
    empty an attacker without a pair passes, whether or not anyone else holds one (he cannot
    know which); the two tables differ only in seat 2's hidden cards."""
    assert legal(P(NO_PAIR_ANYWHERE)) == legal(P(PAIR_AT_SEAT_2)) == {"pass"}


def test_a_single_card_leads_once_the_lead_has_gone_round() -> None:
    """#5 A1 (the catalogue's deadlock fix): "If nobody in the whole circle holds a pair: once
    the stock is empty, allow a single-card lead". The pass goes round every seat (none has a
    pair) and comes back to the attacker, who may now lead any single card."""
    s = play(P(NO_PAIR_ANYWHERE), "pass")
    assert (s.attacker, s.defender, s.to_act) == (0, 1, 0)
    assert legal(s) == {"7c", "8d"}
    s = play(s, "7c")  # the bout is opened: the round is spent
    assert s.phase_name == "defend"


def test_the_pass_reaches_the_first_seat_with_a_pair() -> None:
    """#5 A1; S1:60 "the move passes to the next player": seat 1 would pass too, so the
    attack goes to seat 2, who holds a pair, against his own left neighbour (seat 0)."""
    s = play(P(PAIR_AT_SEAT_2), "pass")
    assert (s.attacker, s.defender, s.to_act) == (2, 0, 2)
    assert legal(s) == {"Th+Ts"}


def _swap_hidden(s: DurakState, viewer: int, rng: random.Random) -> DurakState | None:
    """``s`` with one hidden card of each of two seats other than ``viewer`` exchanged."""
    others = [p for p in range(s.deal.players) if p != viewer]
    if len(others) < 2:
        return None
    a, b = rng.sample(others, 2)
    ha = [c for c in range(64) if (s.hands[a] & ~s.known[a]) >> c & 1]
    hb = [c for c in range(64) if (s.hands[b] & ~s.known[b]) >> c & 1]
    if not ha or not hb:
        return None
    ca, cb = rng.choice(ha), rng.choice(hb)
    twin = s.copy()
    twin.hands[a] = twin.hands[a] & ~(1 << ca) | 1 << cb
    twin.hands[b] = twin.hands[b] & ~(1 << cb) | 1 << ca
    twin._legal = None
    return twin


def _check_game(players: int, seed: int, moves: int) -> int:
    """Plays a random game, checking at every step that the seat to act has the same legal
    moves when hidden cards are swapped between two other seats; returns the steps checked."""
    s = new_game("pairs_only", players=players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(moves):
        if s.is_over:
            break
        acts = s.legal_actions()
        for _ in range(3):
            twin = _swap_hidden(s, s.to_act, rng)
            if twin is not None:
                checked += 1
                assert set(map(str, twin.legal_actions())) == set(map(str, acts))
        s = s.apply(acts[rng.randrange(len(acts))])
    return checked


def test_the_sweeps_table_keeps_other_hands_secret() -> None:
    """#5 A1; S1:60: the sweep's case (5 seats, seed 3883209773) played out at random: the
    legal moves of the seat to act never change when other seats' hidden cards are swapped."""
    assert _check_game(5, 3883209773, 400) > 0


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32 - 1))
def test_legal_moves_never_depend_on_hidden_cards(players: int, seed: int) -> None:
    """#5 A1; S1:60: in random pairs-only games the seat to act's legal moves are the same
    whatever hidden cards two other seats hold between them."""
    _check_game(players, seed, 300)
