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

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bito.bots.base import view_family
from bito.bots.bouts import bouts
from bito.bots.claims import rollout_judge
from bito.bots.heuristic import HeuristicBot
from bito.cards import STANDARD_LOW_RANK, cards_of, is_joker, rank_of, suit_of
from bito.games.bouts.common import BoutsView
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


def laughter(view: AnimalView, rng: random.Random) -> Move | None:
    """While a sound is judged, laugh at random, half the time: laughter is not a decision
    (#60 A2 models it as a random event for bots); None while cards are played."""
    if view.phase != "judge":
        return None
    want = "laugh" if rng.random() < LAUGH_CHANCE else "pass"
    return next(m for m in view.legal if m.kind == want)


def first_play(view: Any) -> Move:
    """Play what fits (animal sounds has nothing to weigh: any fitting card goes)."""
    plays = _plays(view)
    return plays[0] if plays else view.legal[0]


def animal(view: AnimalView, rng: random.Random) -> Move:
    return laughter(view, rng) or first_play(view)


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


def cheat_unsearched(view: CheatView) -> bool:
    """What the search leaves to :func:`cheat` in Cheat: everything its model hook
    (:func:`bito.bots.claims.rollout_judge`, the two-player doubt) does not decide. The PIMC
    search lost every game it played (28 of 28 at 40 playouts before issue 20, 8 of 8 with
    worlds that model the claimer), and the put is :func:`cheat`'s because it already claims
    as many cards as no judge counting his own cards can prove false, and every other put we
    tried lost (``tools/cheat_policies.py``, docs/history.md)."""
    del view
    return True


@dataclass(frozen=True)
class GamePolicy:
    """How the bots play one game without searching.

    ``rule`` is the game's deterministic rule of thumb: the easy bot's move, the move the
    search tries first (it wins ties) and the move its playouts make (None: the game has
    nothing to weigh, so playouts move at random). ``chance`` is a move that is a random
    event rather than a decision (None when there is none now): every bot rolls it the same
    way before anything else. ``rule_decides`` names decisions the search leaves to ``rule``.
    ``easy`` is the easy bot's move where the game has no ``rule``."""

    rule: Callable[[Any], Move] | None = None
    chance: Callable[[Any, random.Random], Move | None] | None = None
    rule_decides: Callable[[Any], bool] | None = None
    #: A decision the search takes from a model of the opponents rather than from its
    #: playouts: called with the view, the bot's world sampler (which may remember the other
    #: seats' moves), its random source and ``rule``; None lets the search (or
    #: ``rule_decides``) go on. Cheat's doubt: :func:`bito.bots.claims.rollout_judge`.
    model: Callable[[Any, Any, random.Random, Callable[[Any], Move] | None],
                    Move | None] | None = None
    easy: Callable[[Any], Move] | None = None


MAUMAU_ROUND_SPREAD = 35.0
"""One round's spread of the penalty margin between two Mau-Mau players, in points (one
standard deviation): 34.6 over 1,000 rounds of ``czech_fool`` between heuristic players
(seeds 0-199, 2 players; the whole 5-round match 77.6, about 35 x sqrt(5))."""

LOGISTIC_TO_NORMAL = 1.702
"""The logistic curve with slope 1.702 stays within 0.01 of the normal distribution function:
how :func:`maumau_spread` turns a spread into the scale of a tanh."""


def maumau_spread(state: Any) -> float:
    """The scale of a Mau-Mau match standing: the penalty margin that is still likely to
    change before the match ends. A lead of 20 points after the first of five rounds is far
    from a won match (four rounds of about 35 points each are left), and a search that
    squashed it as a near-sure win would only try to win each round, not to keep its own
    penalty small when it loses one, nor to make the other's big. So the squash follows a
    normal model of the rounds left: the chance that the lead holds, written as a tanh."""
    left = max(1, state.rules.rounds - state.round)
    return 2.0 * MAUMAU_ROUND_SPREAD * math.sqrt(left) / LOGISTIC_TO_NORMAL


@dataclass(frozen=True)
class FamilyPolicy:
    """What the bots know of one family: its games' policies by view type, and how its
    scores count (``penalty_scores``: Mau-Mau's penalty points, where less is better;
    ``score_spread``: the margin of score that still makes a difference before the match is
    decided, from a state, which squashes a playout's match standing in
    :func:`bito.bots.pimc.standing`; None keeps the search's one fixed scale)."""

    games: Mapping[type[Any], GamePolicy]
    penalty_scores: bool = False
    score_spread: Callable[[Any], float] | None = None


FAMILY_POLICIES: dict[str, FamilyPolicy] = {
    "shedding": FamilyPolicy({MauMauView: GamePolicy(maumau), AdjacentView: GamePolicy(adjacent)},
                             penalty_scores=True, score_spread=maumau_spread),
    "tricks": FamilyPolicy({FoolView: GamePolicy(fool)}),
    "social": FamilyPolicy({AnimalView: GamePolicy(chance=laughter, easy=first_play),
                            CheatView: GamePolicy(cheat, rule_decides=cheat_unsearched,
                                                  model=rollout_judge)}),
    "bouts": FamilyPolicy({BoutsView: GamePolicy(bouts)}),
}
"""The rules of thumb of every family outside Durak, by family name (``family_for(view).name``):
a new family is one entry here. The Durak family is played by :class:`HeuristicBot` itself
(:data:`OWN_HEURISTICS`)."""

_NO_FAMILY = FamilyPolicy({})
_BY_VIEW: dict[type[Any], tuple[FamilyPolicy, GamePolicy | None]] = {}


def family_policy(view: Any) -> tuple[FamilyPolicy, GamePolicy | None]:
    """The policies of ``view``'s family and of its game (None: none declared), cached by
    view type, since a playout asks at every move."""
    found = _BY_VIEW.get(type(view))
    if found is None:
        family = FAMILY_POLICIES.get(view_family(view), _NO_FAMILY)
        found = _BY_VIEW[type(view)] = (family, family.games.get(type(view)))
    return found


def game_policy(view: Any) -> GamePolicy | None:
    """The policy of ``view``'s game, or None."""
    return family_policy(view)[1]


def _family_move(bot: HeuristicBot, view: Any) -> Any:
    policy = game_policy(view)
    move = None
    if policy is not None:
        if policy.chance is not None:
            move = policy.chance(view, bot.rng)
        if move is None:
            easy = policy.rule or policy.easy
            move = easy(view) if easy is not None else None
    if move is None:  # a game without a policy moves at random
        return view.legal[bot.rng.randrange(len(view.legal))]
    return move if move in view.legal else view.legal[0]


OWN_HEURISTICS: dict[str, Callable[[HeuristicBot, Any], Any]] = {"durak": HeuristicBot.choose}
"""Families the bot class itself plays, by name; every other family goes through
:data:`FAMILY_POLICIES`."""


class FamilyHeuristicBot(HeuristicBot):
    """The ``heuristic`` bot for every family: Durak views go to :class:`HeuristicBot`, the
    others to the policy of their game (see the module docstring)."""

    def choose(self, view: Any) -> Any:
        return OWN_HEURISTICS.get(view_family(view), _family_move)(self, view)
