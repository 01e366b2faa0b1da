"""A rule-of-thumb Durak bot that plays like a sensible club player.

It is the frozen baseline that stronger bots are measured against, so every rule is written down
here and kept deliberately simple:

* **Card value.** A card is worth its rank above the lowest rank of the pack; a trump is worth
  more than any plain card. Cheap cards are the ones to get rid of, valuable ones to keep.
* **Attack.** Lead the cheapest plain card, all cards of its rank at once (pairs shed two cards
  for one bout); lead trumps only when nothing else is left.
* **Throw in.** Add cheap plain cards so the defender must spend cards or take; keep trumps and
  high cards while the stock lasts. With the stock empty, shed every plain card, and a trump
  that the defender cannot beat (he must pick up the whole table) or that is our last card.
* **Defend.** Cover with the cheapest sufficient cards (plain before trump, lowest rank first);
  in perevodnoy transfer with a plain card rather than spend cards. While the stock is large,
  take a few cheap cards rather than spend high trumps on them: they are worth more later.
* **Believe it or not (#59).** Covers face down honestly when it can; when it cannot, it
  bluffs with its cheapest card rather than take (a caught bluff costs no more than a take).
  As the caller it doubts when an ace or a trump was led (few cards beat those) and
  believes otherwise.
* **Tossing dummy (#56).** As the dummy's controller, throws in from the dummy whenever it
  may, its most valuable card first (the dummy's cards cost us nothing and are best spent
  where the defender must answer them with good cards).
* **Second tries, stock leads, swaps, self-throws, own covers** (#39-51): stuck on a card, swap
  away the two cheapest cards, then try the stock, before taking; lead blind from the stock
  when the cheapest lead in hand would be a trump or a high card; throw to yourself, cover your
  own card for a taker, or lay a covered throw-in, only with plain cards cheap enough to throw.
* **Cards held face out (#58).** A blind seat plays the policy of :mod:`bito.bots.blind`: it
  weighs each play by the share of the cards it cannot see that would make it legal.
* **Chosen exchange (#31, ``exchange.mode=choose``).** Passes the cheapest cards it holds,
  plain cards before trumps, lowest rank first: what goes left arms the neighbour.
* **Endgame.** Once the stock is empty, use the :class:`~bito.bots.tracking.CardTracker`: lead
  plain cards the defender cannot beat with any card he might hold (he must take them and we
  keep the lead), and never take what can be covered.

The bot reads nothing but the view (and its tracker built from views), is deterministic for a
given seed (the seed only breaks exact ties), and always returns a member of ``view.legal``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from bito.bots.base import view_family
from bito.bots.blind import choose as blind_choice
from bito.bots.tracking import CardTracker
from bito.cards import ACE, RANK_MASKS, cards_of, rank_of, suit_of
from bito.games.durak import (
    ATTACK,
    DEFEND,
    DEFEND_PHASE,
    LEAD,
    PASS_ACTION,
    TAKE_ACTION,
    TRANSFER,
    Action,
    DurakView,
    defend,
)
from bito.games.durak.actions import (
    BELIEVE_ACTION,
    COUNTER,
    DOUBT_ACTION,
    EXCHANGE,
    EXTRA_KINDS,
    HOOKED_KINDS,
    OWN_COVER,
    PAIR,
    STOCK,
    SWAP,
    TOSS,
    TRY,
)
from bito.games.durak.believe import CALL_PHASE
from bito.games.durak.blind import FaceOut
from bito.games.durak.bout_extras import Extras

TRUMP_BONUS: Final = 13
"""Added to a trump's value: the lowest trump outranks the highest plain card."""

COVER_SEARCH_NODES: Final = 400
"""Node budget of the cover search (plenty for the usual one to six cards on the table)."""


TRACKED: Final[dict[str, bool]] = {"durak": True}
"""The families whose views the card tracker reads, by family name."""


class HeuristicBot:
    """Plays by the rules of thumb in the module docstring. ``seed`` breaks ties.

    The thresholds are class attributes so that experiments can subclass the bot; the values
    here are the frozen baseline. Card values count rank steps above the pack's lowest rank
    (a 36-card pack: 6 = 0, 10 = 4, Q = 6, A = 8).
    """

    name = "heuristic"

    cheap_throw: int = 6
    """Most valuable plain card thrown in, while the stock lasts, to a defender who is covering
    (6-Q in a 36-card pack): making him spend cards is worth a middling card, not a K or A."""

    cheap_gift: int = 4
    """Most valuable plain card thrown in, while the stock lasts, to a defender who has declared
    *take* (6-10): he keeps what he gets, so only cheap cards are given away."""

    cheap_take: int = 5
    """While the stock is large, take rather than spend a high trump (or two trumps) when every
    card on the table is a plain card worth at most this (6-J)."""

    max_hand_to_take: int = 9
    """No voluntary take that would grow the hand past this many cards."""

    high_trump: int = 2
    """A trump within this many ranks of the ace is high (Q, K, A): kept for the endgame."""

    low_trump: int = 3
    """A trump worth at most this is low (6-9): cheap enough to transfer with instead of taking."""

    pair_bonus: int = 2
    """How much cheaper each extra card of a multi-card lead counts (two cards shed at once)."""

    unbeatable_bonus: int = 30
    """Endgame: how much cheaper a lead or throw counts when the defender surely cannot beat it."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.tracker = CardTracker()

    # --- entry point ---------------------------------------------------------------------------

    def remember(self, view: Any) -> None:
        """Take in an earlier view of this seat (see :func:`bito.bots.base.remember`): the
        card tracker follows Durak deals only; another family's view holds nothing it reads."""
        if TRACKED.get(view_family(view), False) and view.extension(FaceOut) is None:
            self.tracker.update(view)

    def choose(self, view: DurakView) -> Action:
        """Pick a move for ``view.seat``; always one of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.extension(FaceOut) is not None:  # #58: own hand unseen; plays by position
            return blind_choice(view)
        self.tracker.update(view)
        extras = view.extension(Extras)
        special = self._extra_choice(view) if (extras and extras.counter_target >= 0) or any(
            a.kind >= EXTRA_KINDS for a in legal) else None
        if special is not None:
            choice = special
        elif view.phase == DEFEND_PHASE:
            choice = self._defend(view)
        elif view.phase == LEAD:
            choice = self._lead(view)
        elif view.phase == CALL_PHASE:
            choice = self._call(view)
        else:
            choice = self._throw(view)
        return choice if choice in legal else self._fallback(view)

    # --- valuation -----------------------------------------------------------------------------

    def value(self, view: DurakView, card: int) -> int:
        """How much a card is worth keeping: rank steps above the pack's lowest rank, plus
        :data:`TRUMP_BONUS` for a trump."""
        v = rank_of(card) - view.rules.low_rank
        return v + TRUMP_BONUS if suit_of(card) == view.trump_suit else v

    def is_trump(self, view: DurakView, card: int) -> bool:
        """Whether ``card`` is of the trump suit (trumps are spent last and thrown in never)."""
        return suit_of(card) == view.trump_suit

    def stock_is_large(self, view: DurakView) -> bool:
        """Early game: a quarter of the pack or more still in the stock. Cards spent now are
        replaced from the stock, so a trump saved now is worth a lot more than a small take."""
        return view.stock_count >= view.rules.deck_size // 4

    def _pick(self, scored: Sequence[tuple[float, Action]]) -> Action:
        """The cheapest action; exact ties are broken by the bot's own RNG (its seed)."""
        best = min(s for s, _ in scored)
        ties = [a for s, a in scored if s == best]
        return ties[0] if len(ties) == 1 else ties[self.rng.randrange(len(ties))]

    def _fallback(self, view: DurakView) -> Action:
        """The cheapest-looking legal move; only used if a plan produced an illegal one."""
        legal = view.legal
        return min(legal, key=lambda a: (sum(self.value(view, c) for c in a.cards), a.kind))

    def _call(self, view: DurakView) -> Action:
        """#59: doubt the face-down covers when an ace or a trump was led, else believe."""
        hard = any(rank_of(a) == ACE or self.is_trump(view, a) for a in view.attack)
        return DOUBT_ACTION if hard else BELIEVE_ACTION

    # --- attacking -----------------------------------------------------------------------------

    def _lead(self, view: DurakView) -> Action:
        """Open a bout with the cheapest plain rank, all of it at once; trumps last."""
        scored = [(self.attack_cost(view, a), a) for a in view.legal if a.kind == ATTACK]
        if not scored:
            return self._fallback(view)
        return self._pick(scored)

    def attack_cost(self, view: DurakView, action: Action) -> float:
        """Lower is better: the most valuable card given away, less a bonus per extra card, less
        a big bonus in the endgame if the defender surely cannot beat it."""
        cards = action.cards
        cost: float = max(self.value(view, c) for c in cards)
        trumps = sum(self.is_trump(view, c) for c in cards)
        last = len(cards) == view.hand.bit_count()
        if not trumps:
            cost -= self.pair_bonus * (len(cards) - 1)
        elif not last:
            cost += TRUMP_BONUS * (trumps - 1)
        # A trump he cannot beat still goes into his hand when he takes; it is only worth
        # playing when it is our last card. Plain cards he must take are pure gain.
        if (view.stock_count == 0 and (not trumps or last)
                and self._defender_cannot_beat(view, cards)):
            cost -= self.unbeatable_bonus
        return cost

    def _defender_cannot_beat(self, view: DurakView, cards: Sequence[int]) -> bool:
        """True if some card is beaten by nothing the defender might hold, and he cannot
        transfer it on (public information only, so this is never wishful)."""
        possible = self.tracker.possible(view.defender)
        beats = view.beats
        if view.rules.transfer_enabled and view.phase == LEAD:
            if any(possible & RANK_MASKS[rank_of(c)] for c in cards):
                return False
        return any(not possible & beats[c] for c in cards)

    def _throw(self, view: DurakView) -> Action:
        """Throw in the cheapest suitable card (see :meth:`_worth_throwing`), or pass."""
        endgame = view.stock_count == 0
        tosses = [a for a in view.legal if a.kind == TOSS]
        if tosses:
            # #56: the dummy's cards cost us nothing: throw its cheapest-looking one first.
            return min(tosses, key=lambda a: -self.value(view, a.cards[0]))
        scored = [(self.attack_cost(view, a), a) for a in view.legal
                  if a.kind == ATTACK and self._worth_throwing(view, a.cards[0], endgame)]
        if not scored:
            return PASS_ACTION
        return self._pick(scored)

    def _worth_throwing(self, view: DurakView, card: int, endgame: bool) -> bool:
        """Why throw: to shed cheap cards and make the defender spend cards or take. Why not: a
        high card given away is one we lack later, and a taker keeps what he gets.

        While the stock lasts only cheap plain cards go. With the stock empty every plain card
        goes (shedding is all that counts), and a trump goes if it is our last card or the
        defender surely cannot beat it (he must then pick up the whole table).
        """
        if not self.is_trump(view, card):
            if endgame:
                return True
            limit = self.cheap_gift if view.taking else self.cheap_throw
            return self.value(view, card) <= limit
        if not endgame:
            return False
        if view.hand.bit_count() == 1:
            return True
        return not view.taking and self._defender_cannot_beat(view, (card,))

    # --- second tries, stock leads, swaps, self-throws, own covers (#39-51) ------------------

    def _extra_choice(self, view: DurakView) -> Action | None:
        """A move of #39-51 when the rules of thumb in the module docstring call for one;
        None to play as in the base game."""
        legal = view.legal
        by_kind: dict[int, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        trade = self._trade_choice(view, by_kind)
        if trade is not None:
            return trade
        endgame = view.stock_count == 0
        if EXCHANGE in by_kind:  # #31: pass on the cheapest cards
            return min(by_kind[EXCHANGE],
                       key=lambda a: sum(self.value(view, c) for c in a.cards))
        extras = view.extension(Extras) or Extras()
        if extras.counter_target == view.seat:
            # Counter-attacked (#49): cover it all as cheaply as possible, or take it.
            open_cards = [a for a, d in zip(extras.counter, extras.counter_cover, strict=True)
                          if d == -1]
            plan = self.cover_plan(view, open_cards)
            if plan is None:
                return TAKE_ACTION
            return defend(*plan[0])
        if COUNTER in by_kind:
            # Counter with plain cards that are cheap to part with: they make the attacker
            # spend his cards, and a counter sheds more than a plain cover.
            uncovered = [a for a, d in zip(view.attack, view.defence, strict=True) if d == -1]
            plan = self.cover_plan(view, uncovered)
            good = [a for a in by_kind[COUNTER]
                    if plan is not None and (a.cards[0], a.target) in plan
                    and not any(self.is_trump(view, c) for c in a.cards[1:])
                    and all(endgame or self.value(view, c) <= self.cheap_throw
                            for c in a.cards[1:])]
            if good:
                return max(good, key=lambda a: len(a.cards))
        if view.phase == DEFEND_PHASE:
            if TRANSFER in by_kind:
                return None
            uncovered = [a for a, d in zip(view.attack, view.defence, strict=True) if d == -1]
            if self.cover_plan(view, uncovered) is not None:
                return None
            if SWAP in by_kind:
                return min(by_kind[SWAP],
                           key=lambda a: sum(self.value(view, c) for c in a.cards))
            return by_kind[TRY][0] if TRY in by_kind else None
        if view.phase == LEAD:
            if STOCK not in by_kind:
                return None
            hand_leads = [a for a in legal if a.kind == ATTACK]
            if not hand_leads:
                return by_kind[STOCK][0]
            cheapest = min(self.attack_cost(view, a) for a in hand_leads)
            return by_kind[STOCK][0] if cheapest > self.cheap_throw else None
        # Throwing (or, asked for a self-throw, the defender): plain cards only, cheap ones
        # while the stock lasts.
        limit = self.cheap_gift if view.taking else self.cheap_throw

        def cheap(c: int) -> bool:
            return not self.is_trump(view, c) and (endgame or self.value(view, c) <= limit)

        covers = [a for a in by_kind.get(OWN_COVER, ()) if cheap(a.cards[0])]
        if covers:
            return min(covers, key=lambda a: self.value(view, a.cards[0]))
        pairs = [a for a in by_kind.get(PAIR, ()) if cheap(a.cards[0]) and cheap(a.target)]
        if pairs:
            return min(pairs, key=lambda a: self.value(view, a.cards[0])
                       + self.value(view, a.target))
        if view.to_act == view.defender or PAIR in by_kind:
            return PASS_ACTION if not any(a.kind == ATTACK for a in legal) else None
        return None

    def _trade_choice(self, view: DurakView, by_kind: dict[int, list[Action]]) -> Action | None:
        """A move a rule registered as a trade of cards (``KindNotation.trade``, #97's trump
        swap), when what it brings into the hand is worth more than what it gives up; the
        best such gain, or None."""
        best: tuple[int, Action] | None = None
        for kind, acts in by_kind.items():
            notation = HOOKED_KINDS.get(kind)
            if notation is None or notation.trade is None:
                continue
            for a in acts:
                gives, gets = notation.trade(view, a)
                gain = (sum(self.value(view, c) for c in cards_of(gets))
                        - sum(self.value(view, c) for c in cards_of(gives)))
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, a)
        return best[1] if best is not None else None

    # --- defending -----------------------------------------------------------------------------

    def _defend(self, view: DurakView) -> Action:
        """Transfer, cover or take, in that order of preference (see the module docstring)."""
        uncovered = [a for a, d in zip(view.attack, view.defence, strict=True) if d == -1]
        plan = self.cover_plan(view, uncovered)
        transfer = self._transfer_choice(view, plan)
        if transfer is not None:
            return transfer
        if plan is None and view.rules.defense_face_down and uncovered and view.hand:
            # #59: nobody sees a face-down cover: bluff with the cheapest card.
            return defend(min(cards_of(view.hand), key=lambda c: self.value(view, c)),
                          uncovered[0])
        if plan is None or self._rather_take(view, plan):
            if view.rules.defense_partial:
                partial = self._partial_cover(view)
                if partial is not None:
                    return partial
            return TAKE_ACTION
        d, a = plan[0]
        return defend(d, a)

    def _partial_cover(self, view: DurakView) -> Action | None:
        """#3 (``defense.partial``): before taking, beat what a plain card can beat, since
        covered pairs go to the discard and each cover leaves two cards fewer to pick up."""
        plain = [(self.value(view, a.cards[0]), a) for a in view.legal
                 if a.kind == DEFEND and not self.is_trump(view, a.cards[0])]
        return self._pick(plain) if plain else None

    def cover_plan(self, view: DurakView, uncovered: Sequence[int]
                   ) -> list[tuple[int, int]] | None:
        """The cheapest way found to cover every uncovered card: (cover, attack) pairs, hardest
        attack card first, or None if the hand cannot cover them all.

        A greedy pass (hardest card first, each with its cheapest cover) gives a first answer;
        a small branch-and-bound search with a node budget then improves on it or finds a cover
        the greedy pass missed. Tables hold at most a handful of cards, so this stays cheap.
        """
        beats = view.beats
        order = sorted(uncovered, key=lambda c: -self.value(view, c))
        options = [sorted(cards_of(view.hand & beats[a]), key=lambda c: self.value(view, c))
                   for a in order]
        best: list[tuple[int, int]] | None = None
        best_cost = 1 << 30
        budget = [COVER_SEARCH_NODES]

        def search(i: int, used: int, cost: int, acc: list[tuple[int, int]]) -> None:
            nonlocal best, best_cost
            if cost >= best_cost or budget[0] <= 0:
                return
            budget[0] -= 1
            if i == len(order):
                best, best_cost = list(acc), cost
                return
            for d in options[i]:
                if not used >> d & 1:
                    acc.append((d, order[i]))
                    search(i + 1, used | 1 << d, cost + self.value(view, d), acc)
                    acc.pop()

        search(0, 0, 0, [])
        return best

    def _rather_take(self, view: DurakView, plan: list[tuple[int, int]]) -> bool:
        """Early in the game, take cheap plain cards rather than spend a high trump or two trumps
        on them: the stock will refill the hand, but trumps decide the endgame."""
        if not self.stock_is_large(view):
            return False
        table = [*view.attack, *(c for c in view.defence if c >= 0)]
        if any(self.is_trump(view, c) or self.value(view, c) > self.cheap_take for c in table):
            return False
        if view.hand.bit_count() + len(table) > self.max_hand_to_take:
            return False
        covers = [d for d, _ in plan if self.is_trump(view, d)]
        high = [d for d in covers if rank_of(d) >= ACE - self.high_trump]
        return bool(high) or len(covers) >= 2

    def _transfer_choice(self, view: DurakView, plan: list[tuple[int, int]] | None
                         ) -> Action | None:
        """Transfer (perevodnoy) with the cheapest matching card when that is cheap: a plain
        card, or a low trump when the alternative is taking. Transferring sheds a card without
        spending a cover, and hands the whole attack to the next player."""
        transfers = [a for a in view.legal if a.kind == TRANSFER]
        if not transfers:
            return None
        best = min(transfers, key=lambda a: self.value(view, a.cards[0]))
        card = best.cards[0]
        if not self.is_trump(view, card):
            if (plan is not None and view.stock_count == 0
                    and not any(self.is_trump(view, d) for d, _ in plan)):
                return None  # endgame: a cheap cover sheds cards too, and wins the next lead
            return best
        would_take = plan is None or self._rather_take(view, plan)
        if would_take and self.value(view, card) - TRUMP_BONUS <= self.low_trump:
            return best
        return None


__all__ = ["HeuristicBot"]
