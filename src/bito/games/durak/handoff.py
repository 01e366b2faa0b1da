"""A Durak game that starts from hands built elsewhere: the hook the preludes of #67 and #68
(VARIANTS.md §3.9) hand their result to.

A prelude (:mod:`bito.games.bouts.prelude`) builds every hand by a card contest or by flipping
the stock; when it ends there is no stock left, so the Durak game that follows is dealt by
:func:`start_from_hands` instead of by shuffling: the given hands, an empty stock, the cards
the prelude put out of play as the discard pile, and the cards everyone saw go into a hand
as public knowledge. The trump comes from the rules (a fixed suit). The first attacker is
chosen by the rules as usual (lowest trump); a seat that holds no card is out from the start.
"""

from __future__ import annotations

import random

from bito.games.durak.setup import (
    Deal,
    MatchContext,
    _first_attacker,
    _shared_memo,
    check_game,
    trumps_of,
)
from bito.games.durak.state import DurakState
from bito.rules import Rules


def start_from_hands(rules: Rules, hands: list[int], dealer: int, seed: int,
                     shown: list[int] | None = None, discard: int = 0) -> DurakState:
    """The opening position of a Durak game with these hands and no stock. At least two
    seats must hold cards.

    The rules pass :func:`~bito.games.durak.setup.check_game` like every other new game and
    position (the prelude's rules ran the same check through a trial deal at ``new_game``,
    so a bad phase-2 option is refused there and cannot surface here mid-game)."""
    players = len(hands)
    check_game(rules, players)
    holding = [s for s in range(players) if hands[s]]
    if len(holding) < 2:
        raise ValueError("a Durak game needs two players holding cards")
    shown_list = list(shown or [0] * players)
    trump = trumps_of(rules, -1)
    trumps = trump.suits
    rng = random.Random(f"handoff:{seed}")
    attacker, _ = _first_attacker(rules, players, dealer, hands, trump, MatchContext(), rng,
                                  shown_list)
    if not hands[attacker]:
        attacker = holding[0]
    defender = next(s for s in ((attacker + k) % players for k in range(1, players))
                    if hands[s])
    deal = Deal(rules=rules, players=players, seed=seed, match=MatchContext(), dealer=dealer,
                trump_suit=min(trumps) if trumps else -1, trump_card=-1, hands=tuple(hands),
                stock=(), first_attacker=attacker, first_defender=defender,
                shown=tuple(shown_list), under_fool=False, trump=trump,
                thrower_orders=_shared_memo("throw_in.by", players, rules.throw_in_by),
                draw_orders=_shared_memo("draw.order", players, rules.draw_order))
    state = DurakState.start(deal)
    state.to_discard(discard)
    for s in range(players):
        if not hands[s]:
            state.mark_out(s)
    return state
