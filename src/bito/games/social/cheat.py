"""Cheat, or "I doubt it" -- bito's rules for "believe it or not (2)" (#85).

NOT FROM THE SEEDS: S4:15 only names a second game "Веришь -- не веришь" in the family of
discarding cards in sequence; these are the widely played rules of that bluffing game, chosen
by bito (see docs/games.md).

The pack is dealt out. Ranks are claimed in order from the lowest of the pack up to the ace
and round again. On his turn a player puts 1 to ``max_cards`` cards face down, one action per
card (``7h``), then says ``claim``: "these are all <rank due>". Every other player still in,
from the claimer's left, may then ``doubt`` or ``pass``; the first doubt turns the claim over.
A claim with a card of another rank is a lie and the claimer takes the whole pile; a true claim
sends the pile to the doubter. The claimed cards become known to everybody. The next player
claims the next rank. A player whose hand is empty once his claim has survived is out; the last
holding cards is the fool. Play can cycle: the same position after a pick-up of the pile for
the third time since a player went out draws the game (bito's repetition rule); ``move_cap``
is a last guard that play never reaches (a draw, if it were).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bito.cards import STANDARD_LOW_RANK, card_pretty, cards_count, cards_of, rank_of, standard_deck
from bito.errors import IllegalActionError
from bito.games.protocol import (
    Hidden,
    Move,
    Outcome,
    PlayAction,
    hidden,
    last_holder_loses,
    not_this_game,
    parse_move,
    play,
    seat_lines,
    watch_repetition,
    word,
)
from bito.games.social.rules import CheatRules

CLAIM: Final = word("claim")
DOUBT: Final = word("doubt")
PASS: Final = word("pass")
PUT, DOUBTING = "put", "doubting"


def _rank_name(rank: int) -> str:
    return "10" if rank == 10 else "23456789TJQKA"[rank - 2]


@dataclass(frozen=True)
class CheatView:
    """One seat's knowledge: its hand, counts, the pile size, its own cards in the pile, the
    claim on the table (its cards only for the claimer), the rank due, cards publicly known
    to be in each hand (revealed by a doubt, and forgotten once that seat puts a card down
    face down, since it may have been any of them), and who is out."""

    seat: int
    players: int
    rules: CheatRules
    hand: int
    hand_counts: tuple[int, ...]
    pile_count: int
    mine_in_pile: int
    claim_count: int
    claim_cards: int
    claimer: int
    due: int
    known: tuple[int, ...]
    phase: str
    last_reveal: str
    out: tuple[int, ...]
    to_act: int
    legal: tuple[Move, ...]
    outcome: Outcome | None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        return (_table(self.pile_count, self.claim_count, self.claimer, self.due, self.phase,
                       self.out, self.last_reveal)
                + f"\nyour hand: {' '.join(card_pretty(c) for c in cards_of(self.hand))}"
                + f"\ncards held: {' '.join(map(str, self.hand_counts))}")


def _table(pile: int, claim: int, claimer: int, due: int, phase: str, out: tuple[int, ...],
           reveal: str) -> str:
    what = (f"seat {claimer} claims {claim} x {_rank_name(due)} -- doubt or pass"
            if phase == DOUBTING else f"rank due: {_rank_name(due)} ({claim} put down)")
    gone = " ".join(map(str, out)) or "nobody"
    last = f"\nlast doubt: {reveal}" if reveal else ""
    return f"pile: {cards_count(pile)}; {what}; out: {gone}{last}"


class CheatState:
    """A position of Cheat. Immutable by convention: ``apply`` copies."""

    __slots__ = ("rules", "players", "seed", "hands", "pile", "claim", "claimer", "due",
                 "phase", "to_act", "doubters", "known", "put_by", "out", "moves",
                 "last_reveal", "outcome", "seen")

    rules: CheatRules
    players: int
    seed: int
    hands: list[int]
    pile: int  # face-down cards of earlier claims
    claim: list[int]  # the claim being made or judged
    claimer: int
    due: int
    phase: str
    to_act: int
    doubters: list[int]
    known: list[int]  # per seat: cards everybody saw go into that hand (until it plays face down)
    put_by: list[int]  # per seat: its own cards in the pile (it knows them)
    out: list[int]
    moves: int
    #: The positions right after the pile was taken up since a player last went out, for
    #: the repetition rule (a tuple shared between copies, replaced, never changed).
    seen: tuple[tuple[int, ...], ...]
    last_reveal: str
    outcome: Outcome | None

    @classmethod
    def start(cls, rules: CheatRules, players: int, seed: int) -> CheatState:
        rng = random.Random(f"cheat:{seed}")
        deck = list(standard_deck(rules.deck_size))
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, players, seed
        s.hands = [0] * players
        for i, c in enumerate(deck):
            s.hands[(dealer + 1 + i) % players] |= 1 << c
        s.pile, s.claim, s.claimer, s.due = 0, [], -1, STANDARD_LOW_RANK[rules.deck_size]
        s.phase, s.to_act, s.doubters = PUT, (dealer + 1) % players, []
        s.known, s.put_by = [0] * players, [0] * players
        s.out, s.moves, s.last_reveal, s.outcome = [], 0, "", None
        s.seen = ()
        return s

    def copy(self) -> CheatState:
        s = object.__new__(CheatState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands, s.claim, s.doubters = list(self.hands), list(self.claim), list(self.doubters)
        s.known, s.put_by, s.out = list(self.known), list(self.put_by), list(self.out)
        return s

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_actions(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self.phase == DOUBTING:
            return [DOUBT, PASS]
        moves = []
        if len(self.claim) < self.rules.max_cards:
            moves = [play([c]) for c in cards_of(self.hands[self.to_act])]
        return [*moves, CLAIM] if self.claim else moves

    def apply(self, action: PlayAction) -> CheatState:
        if not isinstance(action, Move):
            raise not_this_game(action, "Cheat")
        if action not in self.legal_actions():
            raise self._explain(action)
        s = self.copy()
        s.moves += 1
        s._advance(action)
        if s.outcome is None and s.moves >= s.rules.move_cap:
            s._finish("move cap")
        return s

    def action_seen_by(self, action: Move, seat: int | None) -> Move | Hidden:
        """The cards a player puts down go face down: the others see only that he put one."""
        if action.kind == "play" and seat != self.to_act:
            return hidden("play", len(action.cards))
        return action

    def view(self, seat: int) -> CheatView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        claimer = self.to_act if self.phase == PUT else self.claimer
        own_claim = sum(1 << c for c in self.claim) if seat == claimer else 0
        return CheatView(
            seat=seat, players=self.players, rules=self.rules, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands),
            pile_count=self.pile.bit_count() + len(self.claim),
            mine_in_pile=self.put_by[seat] & self.pile, claim_count=len(self.claim),
            claim_cards=own_claim, claimer=claimer, due=self.due,
            known=tuple(k & h for k, h in zip(self.known, self.hands, strict=True)),
            phase=self.phase, last_reveal=self.last_reveal, out=tuple(self.out),
            to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            outcome=self.outcome)

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_move(text)

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def _next(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            if (seat + k) % self.players not in self.out:
                return (seat + k) % self.players
        return seat

    def _advance(self, action: Move) -> None:
        seat = self.to_act
        if action.kind == "play":
            c = action.cards[0]
            self.hands[seat] &= ~(1 << c)
            self.claim.append(c)
            # The card goes down face down and could be any card of the hand, so the others
            # can no longer be sure of any card they saw go into it: all of the seat's public
            # knowledge goes, whichever card was played (dropping only the card played
            # would tell everyone which card went down).
            self.known[seat] = 0
            return
        if action.kind == "claim":
            self.claimer, self.phase = seat, DOUBTING
            others = [s for s in self._active() if s != seat]
            self.doubters = sorted(others, key=lambda s: (s - seat) % self.players)
            self.to_act = self.doubters.pop(0)
            return
        if action.kind == "doubt":
            self._reveal(seat)
            return
        if self.doubters:
            self.to_act = self.doubters.pop(0)
            return
        self._settle(None)

    def _reveal(self, doubter: int) -> None:
        claimed = self.claim
        lie = any(rank_of(c) != self.due for c in claimed)
        taker = self.claimer if lie else doubter
        shown = " ".join(card_pretty(c) for c in claimed)
        self.last_reveal = (f"seat {doubter} doubted seat {self.claimer}'s {shown}: "
                            + ("a lie" if lie else "true") + f"; seat {taker} takes the pile")
        pile = self.pile | sum(1 << c for c in claimed)
        self.hands[taker] |= pile
        self.known[taker] |= sum(1 << c for c in claimed)
        for s in range(self.players):
            self.put_by[s] &= ~pile
        self.pile, self.claim = 0, []
        self._settle(taker)
        if self.outcome is None:
            self._watch_repetition()

    def _settle(self, taker: int | None) -> None:
        """End of a claim: the claim joins the pile if nobody doubted, a player with an empty
        hand is out, the next player claims the next rank."""
        claimer = self.claimer
        if taker is None:
            for c in self.claim:
                self.pile |= 1 << c
                self.put_by[claimer] |= 1 << c
            self.claim = []
        for s in self._active():
            if not self.hands[s]:
                self.out.append(s)
        self.due = STANDARD_LOW_RANK[self.rules.deck_size] if self.due == 14 else self.due + 1
        self.phase, self.doubters, self.claimer = PUT, [], -1
        if len(self._active()) <= 1:
            self._finish("")
            return
        self.to_act = self._next(claimer)

    def _watch_repetition(self) -> None:
        """The repetition rule (an engine rule, not from the seeds): the game is drawn when
        the same position follows a pick-up of the pile for the third time since a player
        last went out. No card ever leaves the game, so the positions are finite, and a game
        that never ends must pick the pile up again and again (without pick-ups the hands
        only shrink): some position after a pick-up must then come round for ever."""
        key = (*self.hands, self.pile, self.due, self.to_act, len(self.out))
        self.seen, repeated = watch_repetition(self.seen, key)
        if repeated:
            self._finish("repetition")

    def _finish(self, note: str) -> None:
        """The end: the last holding cards is the fool; a game stopped by the repetition
        rule (or the last-guard move cap, which play never reaches) is a draw."""
        self.phase = "over"
        self.outcome = last_holder_loses(self.hands, self._active(), self.out, note)

    def _explain(self, action: Move) -> IllegalActionError:
        if self.outcome is not None:
            return IllegalActionError("game over", "the game has ended")
        if self.phase == DOUBTING:
            return IllegalActionError("doubting", "doubt or pass while a claim is open")
        if action.kind == "claim":
            return IllegalActionError("empty claim", "put down at least one card first")
        if action.kind == "play" and len(self.claim) >= self.rules.max_cards:
            return IllegalActionError("claim size", f"at most {self.rules.max_cards} cards "
                                      "per claim; say claim")
        if action.kind == "play":
            return IllegalActionError("own cards", "put down cards from your own hand, one "
                                      "per action")
        return IllegalActionError("not allowed", f"{action} is not a move here")

    def __str__(self) -> str:
        claimer = self.to_act if self.phase == PUT else self.claimer
        lines = [_table(self.pile.bit_count() + len(self.claim), len(self.claim), claimer,
                        self.due, self.phase, tuple(self.out), self.last_reveal)]
        lines.append("claim: " + (" ".join(card_pretty(c) for c in self.claim) or "-"))
        lines += seat_lines(self.hands, self.to_act, self.outcome)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CheatState seat {self.to_act} to act, pile {self.pile.bit_count()}>"

    def cards_total(self) -> int:
        return (sum(h.bit_count() for h in self.hands) + self.pile.bit_count()
                + len(self.claim))
