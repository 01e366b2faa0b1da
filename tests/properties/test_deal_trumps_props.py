"""What trumps in a deal is one value the core owns (``Deal.trump``, a ``relation.Trumps``),
amended by a rule's deal record while the deal is dealt; these invariants hold for every
trump form a deal can take (VARIANTS.md §1.1-1.2, #16, #18, #25, #32, #82).

* Everything the value says can be read back: a position written at any point of a game
  and read again deals the same trumps, so the position text, the dealing and the bots'
  worlds agree on what beats what.
* The state's beat table is the one the value gives for the bout's defender and attacker,
  before and after a hidden card is turned.
* The cards the value calls face up lie in the stock when the deal starts, and the base
  games' value is one suit with the trump card face up under the stock (§1.1).
"""

from __future__ import annotations

import random
from itertools import islice

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bito.cards import suit_of
from bito.games import new_game
from bito.games.durak import DurakState
from bito.games.durak.beats import beat_table_of
from bito.games.durak.position import parse_position
from bito.notation import position_text
from conftest import random_walk

#: A game of each trump form: one suit, personal trumps (and bound), a secret card (also
#: drawable), two trump suits under a turned joker, a stock set aside.
SPECS = ("podkidnoy", "perevodnoy+own_trumps", "podkidnoy+own_trumps_binding",
         "podkidnoy+secret_trump", "podkidnoy+secret_trump+trump.secret_drawable=true",
         "podkidnoy+double_joker", "podkidnoy+no_stock")


def _played(spec: str, players: int, seed: int, moves: int) -> DurakState:
    start = new_game(spec, players=players, seed=seed)
    assert isinstance(start, DurakState)
    steps = list(islice(random_walk(start, random.Random(seed)), moves))
    return steps[-1][2] if steps else start


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SPECS), st.integers(2, 4), st.integers(0, 2**32 - 1),
       st.integers(0, 120))
def test_a_positions_trumps_read_back(spec: str, players: int, seed: int, moves: int) -> None:
    s = _played(spec, players, seed, moves)
    again = parse_position(position_text(s))
    assert again.deal.trump == s.deal.trump
    assert again.trumps == s.trumps and again.beats == s.beats
    assert again.aside == s.aside and again.revealed == s.revealed


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SPECS), st.integers(2, 4), st.integers(0, 2**32 - 1),
       st.integers(0, 200))
def test_the_beat_table_is_the_deals_trumps_for_the_bout(spec: str, players: int, seed: int,
                                                         moves: int) -> None:
    s = _played(spec, players, seed, moves)
    if s.is_over:
        return
    trumps, high, wild, binding = s.deal.trump.context(s.defender, s.attacker, s.revealed)
    assert s.beats == beat_table_of(s.rules, trumps, high, wild, binding)
    assert s.trumps == trumps


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(SPECS), st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_the_face_up_cards_lie_in_the_stock_when_the_deal_starts(spec: str, players: int,
                                                                 seed: int) -> None:
    s = new_game(spec, players=players, seed=seed)
    assert isinstance(s, DurakState)
    trump = s.deal.trump
    stock = sum(1 << c for c in s.stock)
    hidden = 1 << trump.hidden if trump.hidden >= 0 else 0
    # (the hidden card counts as face up only where it is drawn later, face up)
    assert trump.face_up & ~hidden & ~stock == 0 or not s.stock
    if spec == "podkidnoy" and s.trump_card >= 0 and s.stock:
        assert trump.face_up == 1 << s.trump_card == 1 << s.stock[0]
        assert trump.suits == frozenset({suit_of(s.trump_card)}) and not trump.varies
        assert trump.hidden < 0 and trump.turned is None
