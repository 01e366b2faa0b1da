"""The heuristic bot's rules of thumb for the shedding, trick-taking and social games.

``heuristic`` is one bot for every game: :class:`FamilyHeuristicBot` plays Durak exactly like
:class:`~bito.bots.heuristic.HeuristicBot` and hands every other view to the policy of its
game, chosen by the view's type. Each policy reads nothing but the view, is deterministic, and
returns a member of ``view.legal``:

* **Mau-Mau** (#86-#93): keep wild cards for when nothing else fits (or the last card); prefer
  cards that make the next player draw or miss a turn, then expensive cards (shedding penalty
  points), then the suit we hold most of; call the suit we hold most of.
* **Adjacent ranks** (#94): among the cards the priority allows, play the one that starts the
  longest run of cards we could put down in a row (the turn goes on while we can play);
  jokers last.
* **Fool!** (#95): follow with the highest card of the led colour (sheds points and is never
  the Fool); void, throw the highest card (the Fool is the lowest off-colour card); lead the
  highest card of the longest colour; a wild 1 only when nothing else is allowed.
* **Animal sounds** (#60): play what fits; laughter is not a decision, so when judging the
  bot laughs at random, half the time (A2 models it as a random event for bots).
* **Cheat** (#85): tell the truth when we hold the rank due (all of those cards), otherwise lie
  with the single card whose rank comes up last; doubt a claim that must be a lie (more cards
  of the rank than exist outside our hand) or one that would let the claimer go out.
* **Bout-structure games** (#65-#72): see :mod:`bito.bots.bouts`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from bito.bots.bouts import bouts
from bito.bots.heuristic import HeuristicBot
from bito.cards import STANDARD_LOW_RANK, cards_of, is_joker, rank_of, suit_of
from bito.games.bouts.common import BoutsView
from bito.games.durak import DurakView
from bito.games.protocol import Move
from bito.games.shedding.adjacent import AdjacentView, steps
from bito.games.shedding.maumau import MauMauView, card_points
from bito.games.social.animal import AnimalView
from bito.games.social.cheat import CheatView
from bito.games.tricks.fool import FoolView, colour_of, is_wild, number_of

LAUGH_CHANCE = 0.5
"""How often a bot cannot keep a straight face at an animal sound (VARIANTS #60 A2: a random
event for bots)."""

ADJACENT_SEARCH = 300
"""Node budget of the adjacent-rank chain search."""


def _plays(view: Any) -> list[Move]:
    return [m for m in view.legal if m.kind == "play"]


def maumau(view: MauMauView) -> Move:
    plays = _plays(view)
    if not plays:
        return view.legal[0]  # draw (or pass after a draw that does not fit)
    hand = cards_of(view.hand)
    suits = Counter(suit_of(c) for c in hand if rank_of(c) != view.rules.wild_rank)
    rules = view.rules
    nxt_cards = view.hand_counts[(view.seat + 1) % view.players]

    def score(m: Move) -> tuple[int, int]:
        c = m.cards[0]
        wild = rank_of(c) == rules.wild_rank
        hurts = rank_of(c) in rules.draw_ranks or (rank_of(c) == 14 and rules.ace_rule == "skip")
        s = card_points(rules, c) + suits[suit_of(c)] * 2 + (12 if hurts else 0)
        s += 6 if hurts and nxt_cards <= 2 else 0
        if wild and len(hand) > 1:
            s -= 100  # keep the wild card for when nothing fits (even a 20-point Pentagon queen)
        call = suits[m.call] if m.call >= 0 else 0
        return s, call

    return max(plays, key=score)


def _chain(top: int, hand: int, budget: list[int]) -> int:
    """The most cards we could put down in a row from ``hand`` onto ``top`` (the turn goes on
    while we can play), searched depth-first within a node budget."""
    best = 0
    for c in steps(top, hand)[1]:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        best = max(best, 1 + _chain(c, hand & ~(1 << c), budget))
    return best


def adjacent(view: AdjacentView) -> Move:
    plays = _plays(view)
    if not plays:
        return view.legal[0]
    if view.anti_rank:  # any card goes and the turn passes: shed a joker-free high card
        return max(plays, key=lambda m: (not is_joker(m.cards[0]), rank_of(m.cards[0])))

    def run(m: Move) -> tuple[int, int]:
        c = m.cards[0]
        return _chain(c, view.hand & ~(1 << c), [ADJACENT_SEARCH]), -int(is_joker(c))

    return max(plays, key=run)


def fool(view: FoolView) -> Move:
    legal = list(view.legal)
    regular = [m for m in legal if not is_wild(m.cards[0])]
    if not regular:
        return legal[0]
    if view.trick:
        return max(regular, key=lambda m: number_of(m.cards[0]))
    colours = Counter(colour_of(c) for c in cards_of(view.hand) if not is_wild(c))
    return max(regular, key=lambda m: (colours[colour_of(m.cards[0])], number_of(m.cards[0])))


def animal(view: AnimalView, rng: random.Random) -> Move:
    if view.phase == "judge":  # laughter is not a choice: the bot laughs at random
        want = "laugh" if rng.random() < LAUGH_CHANCE else "pass"
        return next(m for m in view.legal if m.kind == want)
    plays = _plays(view)
    return plays[0] if plays else view.legal[0]


def cheat(view: CheatView) -> Move:
    low = STANDARD_LOW_RANK[view.rules.deck_size]
    if view.phase == "doubting":
        mine = sum(1 for c in cards_of(view.hand | view.mine_in_pile) if rank_of(c) == view.due)
        surely_lie = view.claim_count + mine > 4
        going_out = view.hand_counts[view.claimer] == 0
        want = "doubt" if surely_lie or going_out else "pass"
        return next(m for m in view.legal if m.kind == want)
    true_cards = [m for m in _plays(view) if rank_of(m.cards[0]) == view.due]
    if true_cards:
        return true_cards[0]
    claim = next((m for m in view.legal if m.kind == "claim"), None)
    if claim is not None:
        return claim
    span = 15 - low

    def wait(m: Move) -> int:  # how long until this card's rank is due again
        return (rank_of(m.cards[0]) - view.due) % span

    return max(_plays(view), key=wait)


POLICIES: dict[type[Any], Callable[[Any], Move]] = {
    MauMauView: maumau, AdjacentView: adjacent, FoolView: fool, CheatView: cheat,
    BoutsView: bouts,
}
"""The policy of each game by its view type (animal sounds also needs the bot's dice)."""


class FamilyHeuristicBot(HeuristicBot):
    """The ``heuristic`` bot for every family: Durak views go to :class:`HeuristicBot`, the
    others to the policy of their game (see the module docstring)."""

    def choose(self, view: Any) -> Any:
        if isinstance(view, DurakView):
            return super().choose(view)
        if isinstance(view, AnimalView):
            choice = animal(view, self.rng)
        else:
            policy = POLICIES.get(type(view))
            if policy is None:
                return view.legal[self.rng.randrange(len(view.legal))]
            choice = policy(view)
        return choice if choice in view.legal else view.legal[0]
