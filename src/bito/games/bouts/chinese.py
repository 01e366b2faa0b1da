"""The China fool (#65) and its pass-on derivative (#66) (VARIANTS.md §3.9, S0:83, S0:125).

China fool is throw-in fool played with the whole pack dealt one card at a time from the
dealer's left (the last card dealt shown as trump and kept by whoever received it, #65 A4, as
in #33: with 5 players that is the first seat left of the dealer, who holds the one extra card)
and no stock. The holder of the 9♦ attacks first, with any lead
(A2). Bouts run as in podkidnoy: the attacker leads one or more cards of one rank, the
defender covers them, and once everything is covered the attacker, then the others clockwise,
may throw in cards of ranks on the table, up to 6 and never more than the defender held at
the start of the bout. Two rules differ:

* once the 9♦, led or thrown in, has been covered, nobody may throw in any more this bout
  (``chinese.block_trigger=covered_with_nine``: once a cover is made *with* the 9♦, A1);
* a defender who gives up takes only the **first** card played at him; everything else on the
  table is discarded, and he misses his turn to attack.

bito's decision: a take ends the bout at once (no throw-ins after it): whatever was thrown at a
defender who takes one card would only go to the discard, a free shed for the throwers.

#66 (``chinese.pass_on``): when the defender gives up after covering the first card, he still
takes the first attack card, the covered pairs are discarded, and the **uncovered** cards pass
to his left neighbour, who must cover them all (no throw-ins); if he fails the same rule
applies to him. A receiver who covers them all attacks next (A2). When the defender fails on
the first card itself he takes it and the rest is discarded (A3; ``chinese.first_fail=pass_on``
passes the uncovered rest on as well).

Nobody draws: a player whose hand is empty at the end of a bout is out. The last player
holding cards is the fool; if the last cards go at once, nobody is.
"""

from __future__ import annotations

from itertools import combinations

from bito.cards import RANK_MASKS, bit, card, card_pretty, cards_of, rank_of
from bito.errors import IllegalActionError
from bito.games.bouts.base import BoutsState
from bito.games.bouts.common import beat_table, show
from bito.games.bouts.rules import ChineseRules
from bito.games.durak.actions import (
    ATTACK,
    DEFEND,
    PASS,
    PASS_ACTION,
    TAKE_ACTION,
    Action,
    attack,
    defend,
)

LEAD, DEFEND_PHASE, THROW = "lead", "defend", "throw"
NINE_OF_DIAMONDS = card(9, 1)


class ChineseState(BoutsState):
    """A position of the China fool. ``attack``/``defence`` are the table (``defence[i]`` is
    -1 while ``attack[i]`` is uncovered); ``passed``: the bout is cards passed on (#66)."""

    LISTS = ("hands", "known", "stock", "out", "attack", "defence", "throwers")
    PUBLIC = ("attack", "defence", "attacker", "defender", "throwers", "t_idx", "blocked",
              "passed", "bout_cap", "beats")
    __slots__ = ("attack", "defence", "attacker", "defender", "throwers", "t_idx", "blocked",
                 "passed", "bout_cap", "beats")

    attack: list[int]
    defence: list[int]
    attacker: int
    defender: int
    throwers: list[int]
    t_idx: int
    blocked: bool
    passed: bool
    bout_cap: int
    beats: tuple[int, ...]

    @classmethod
    def start(cls, rules: ChineseRules, players: int, seed: int) -> ChineseState:
        s = object.__new__(cls)
        rng = s._init(rules, players, seed, "chinese")
        s._deal(rng, 0, trump_to_receiver=True)
        s.beats = beat_table(rules.deck_size, s.trump_suit)
        s.attack, s.defence, s.throwers, s.t_idx = [], [], [], 0
        s.blocked = s.passed = False
        first = next((p for p in range(players) if s.hands[p] & bit(NINE_OF_DIAMONDS)),
                     (s.dealer + 1) % players)
        s._new_bout(first)
        return s

    def _new_bout(self, attacker: int) -> None:
        self.attacker = attacker
        self.defender = self.next_active(attacker)
        self.attack, self.defence, self.blocked, self.passed = [], [], False, False
        self.bout_cap = min(self.rules.cap, self.hands[self.defender].bit_count())
        self.phase, self.to_act = LEAD, attacker

    def centre(self) -> tuple[int, ...]:
        return tuple(self.attack) + tuple(d for d in self.defence if d >= 0)

    # --- moves ------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        if self.phase == LEAD:
            acts: list[Action] = []
            limit = self.bout_cap
            seen = 0
            for c in cards_of(hand):
                group = hand & RANK_MASKS[rank_of(c)]
                if group & seen:
                    continue
                seen |= group
                cards = cards_of(group)
                for k in range(1, min(limit, len(cards)) + 1):
                    acts += [attack(*combo) for combo in combinations(cards, k)]
            return acts
        if self.phase == DEFEND_PHASE:
            acts = []
            for a, d in zip(self.attack, self.defence, strict=True):
                if d < 0:
                    acts += [defend(x, a) for x in cards_of(hand & self.beats[a])]
            return [*acts, TAKE_ACTION]
        ranks = 0
        for c in self.centre():
            ranks |= RANK_MASKS[rank_of(c)]
        throws = [attack(c) for c in cards_of(hand & ranks)] if self._room() > 0 else []
        return [*throws, PASS_ACTION]

    def _room(self) -> int:
        """How many more cards may be thrown in (the cap, the defender's hand)."""
        by_cap = self.bout_cap - len(self.attack)
        uncovered = self.defence.count(-1)
        by_hand = self.hands[self.defender].bit_count() - uncovered
        return min(by_cap, by_hand)

    def _advance(self, action: Action) -> None:
        seat = self.to_act
        if action.kind == ATTACK:
            for c in action.cards:
                self.hands[seat] &= ~bit(c)
                self.attack.append(c)
                self.defence.append(-1)
            self.phase, self.to_act = DEFEND_PHASE, self.defender
            return
        if action.kind == DEFEND:
            d, a = action.cards[0], action.target
            self.hands[seat] &= ~bit(d)
            self.defence[self.attack.index(a)] = d
            trigger = a if self.rules.block_trigger == "nine_covered" else d
            if trigger == NINE_OF_DIAMONDS and not self.passed:
                self.blocked = True
                self.note = "the 9♦ is covered: no more throw-ins this bout"
            if -1 not in self.defence:
                self._throw_round()
            return
        if action.kind == PASS:
            self.t_idx += 1
            self._next_thrower()
            return
        self._failed()

    def _throw_round(self) -> None:
        """Everything is covered: the attacker, then the others clockwise, may throw in."""
        if self.passed or self.blocked or self._room() <= 0:
            self._beaten()
            return
        order = [(self.attacker + k) % self.players for k in range(self.players)]
        self.throwers = [s for s in order if s != self.defender and s not in self.out
                         and self.hands[s]]
        self.t_idx = 0
        self.phase = THROW
        self._next_thrower()

    def _next_thrower(self) -> None:
        if self.t_idx >= len(self.throwers):
            self._beaten()
            return
        self.to_act = self.throwers[self.t_idx]

    def _beaten(self) -> None:
        """A successful defence: the table is discarded; the defender attacks next."""
        for c in self.centre():
            self.discard |= bit(c)
        self._close_bout(self.defender, stays=True)

    def _failed(self) -> None:
        """The defender gives up: he takes the first card (#65), the rest is discarded or,
        under #66, its uncovered cards pass to his left neighbour."""
        seat = self.defender
        first = self.attack[0]
        self._take(seat, [first])
        self.note = f"seat {seat} takes {card_pretty(first)}"
        uncovered = [a for a, d in zip(self.attack[1:], self.defence[1:], strict=True) if d < 0]
        rest = [c for c in self.centre() if c != first]
        pass_on = self.rules.pass_on and uncovered and (
            self.defence[0] >= 0 or self.rules.first_fail == "pass_on")
        if not pass_on:
            for c in rest:
                self.discard |= bit(c)
            if rest:  # #65: only the first card is taken, which a player may not expect
                self.note += f" (only the first card); {show(rest)} go to the discard"
            self._close_bout(seat, stays=False)
            return
        for c in rest:
            if c not in uncovered:
                self.discard |= bit(c)
        receiver = self.next_active(seat)
        self.note += f"; {show(uncovered)} pass on to seat {receiver}"
        self.attacker, self.defender = seat, receiver
        self.attack, self.defence = list(uncovered), [-1] * len(uncovered)
        self.passed, self.blocked = True, False
        self.phase, self.to_act = DEFEND_PHASE, receiver

    def _close_bout(self, defender: int, stays: bool) -> None:
        self.attack, self.defence = [], []
        self._mark_outs(defender)
        if self._game_over():
            return
        nxt = defender if stays and defender not in self.out else self.next_active(defender)
        self._new_bout(nxt)

    # --- text -------------------------------------------------------------------------------

    def _explain(self, action: object) -> IllegalActionError:
        if not isinstance(action, Action):
            return IllegalActionError("notation", "lead, cover, throw in, take or pass")
        if action.cards and action.mask & ~self.hands[self.to_act]:
            return IllegalActionError("own cards", "you may only play cards from your hand")
        if self.phase == LEAD:
            return IllegalActionError("lead", "lead one or more cards of one rank, no more "
                                      f"than {self.bout_cap}")
        if self.phase == DEFEND_PHASE:
            return IllegalActionError("cover", "cover an uncovered card with a higher card of "
                                      "its suit or a trump, or take")
        if self.blocked:
            return IllegalActionError("nine of diamonds", "the 9♦ was covered: no more "
                                      "throw-ins this bout (#65)")
        return IllegalActionError("throw in", "throw in a card of a rank on the table, within "
                                  "the cap and the defender's hand, or pass")

    def table_text(self) -> str:
        pairs = " ".join(card_pretty(a) + (f"<{card_pretty(d)}" if d >= 0 else "")
                         for a, d in zip(self.attack, self.defence, strict=True)) or "-"
        parts = [f"table: {pairs}", f"seat {self.attacker} attacks seat {self.defender}"
                 + (" (cards passed on)" if self.passed else ""), self.trump_text(),
                 f"discarded {self.discard.bit_count()}"]
        if self.blocked:
            parts.append("9♦ covered: throw-ins closed")
        if self.out:
            parts.append("out: " + " ".join(map(str, self.out)))
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)
