"""The comic sequence game with animal sounds (#60, VARIANTS.md §3.7, S0:169-171).

The whole pack is dealt. The holder of a six nearest the dealer's left opens with it; then each
player in turn must put down the next rank of the cycle 6, 7, ..., A, 6 (any suit). A player
without it makes his nickname animal's sound (``sound``). The social part is modelled as
actions: each other player still in then either laughs (``laugh``) or keeps a straight face
(``pass``); the first laugh ends the judging. Under the literal rule (A1,
``takes_pile=nobody_laughed``) the skipper takes the pile of played cards if nobody laughed,
and the next player starts a new sequence (with a six if he has one, otherwise any card, A3).

Two rules of bito's make every game end: if every player still in has made his sound in a row
without a card being played (the rank due is buried in the pile), the last of them takes the
pile whatever the laughter; and the same position after a pick-up of the pile for the third
time since a player went out draws the game (``move_cap`` is a last guard that play never
reaches, a draw if it were). The first to empty his hand wins; the last holding cards is
the fool (A4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bito.cards import STANDARD_LOW_RANK, card_pretty, cards_count, cards_of, rank_of, standard_deck
from bito.errors import IllegalActionError
from bito.games.protocol import (
    Move,
    Outcome,
    PlayAction,
    last_holder_loses,
    not_this_game,
    parse_move,
    play,
    seat_lines,
    watch_repetition,
    word,
)
from bito.games.social.rules import AnimalRules

ANIMALS: Final = ("cat", "donkey", "wolf", "horse", "goat", "cow", "rooster", "dog",
                  "pig", "duck", "frog", "sheep", "owl")
SOUNDS: Final = {"cat": "Miaow!", "donkey": "Hee-haw!", "wolf": "Aooo!", "horse": "Neigh!",
                 "goat": "Meh-eh-eh!", "cow": "Moo!", "rooster": "Cock-a-doodle-doo!",
                 "dog": "Woof!", "pig": "Oink!", "duck": "Quack!", "frog": "Ribbit!",
                 "sheep": "Baa!", "owl": "Hoo-hoo!"}

SOUND: Final = word("sound")
LAUGH: Final = word("laugh")
PASS: Final = word("pass")
PLAY, JUDGE = "play", "judge"


@dataclass(frozen=True)
class AnimalView:
    """One seat's knowledge: its hand, counts, the pile (played face up), the rank due, the
    nicknames, who is being judged and the laughs so far."""

    seat: int
    players: int
    rules: AnimalRules
    hand: int
    hand_counts: tuple[int, ...]
    pile: tuple[int, ...]
    due: int
    nicknames: tuple[str, ...]
    phase: str
    skipper: int
    laughed: tuple[int, ...]
    out: tuple[int, ...]
    to_act: int
    legal: tuple[Move, ...]
    outcome: Outcome | None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        return (_table(self.pile, self.due, self.nicknames, self.phase, self.skipper, self.out)
                + f"\nyour hand: {' '.join(card_pretty(c) for c in cards_of(self.hand))}"
                + f"\ncards held: {' '.join(map(str, self.hand_counts))}")


def _rank_name(rank: int) -> str:
    return "10" if rank == 10 else "23456789TJQKA"[rank - 2]


def _table(pile: tuple[int, ...], due: int, names: tuple[str, ...], phase: str, skipper: int,
           out: tuple[int, ...]) -> str:
    top = card_pretty(pile[-1]) if pile else "(empty: start a new sequence)"
    want = _rank_name(due) if due else "a six (or any card)"
    judged = (f"; seat {skipper} the {names[skipper]} went {SOUNDS[names[skipper]]} -- laugh "
              "or keep a straight face" if phase == JUDGE else "")
    gone = " ".join(map(str, out)) or "nobody"
    return (f"pile: {cards_count(len(pile))}, top {top}; due: {want}; out: {gone}{judged}\n"
            + "nicknames: " + ", ".join(f"{s} {n}" for s, n in enumerate(names)))


class AnimalState:
    """A position of the animal-sounds game. Immutable by convention: ``apply`` copies."""

    __slots__ = ("rules", "players", "seed", "hands", "pile", "nicknames", "phase", "to_act",
                 "skipper", "judges", "laughed", "sounds_in_row", "out", "moves", "outcome", "seen")

    rules: AnimalRules
    players: int
    seed: int
    hands: list[int]
    pile: list[int]
    nicknames: tuple[str, ...]
    phase: str
    to_act: int
    skipper: int
    judges: list[int]
    laughed: list[int]
    sounds_in_row: int
    out: list[int]
    moves: int
    #: The positions right after the pile was taken up since a player last went out, for
    #: the repetition rule (a tuple shared between copies, replaced, never changed).
    seen: tuple[tuple[int, ...], ...]
    outcome: Outcome | None

    @classmethod
    def start(cls, rules: AnimalRules, players: int, seed: int) -> AnimalState:
        rng = random.Random(f"animal:{seed}")
        deck = list(standard_deck(rules.deck_size))
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, players, seed
        s.hands = [0] * players
        for i, c in enumerate(deck):  # the whole pack, dealt out equally (S0:169)
            s.hands[(dealer + 1 + i) % players] |= 1 << c
        s.nicknames = tuple(rng.sample(ANIMALS, players))
        s.pile, s.phase, s.skipper, s.judges, s.laughed = [], PLAY, -1, [], []
        s.sounds_in_row, s.out, s.moves, s.outcome, s.seen = 0, [], 0, None, ()
        low = STANDARD_LOW_RANK[rules.deck_size]
        # the holder of a six nearest the dealer's left opens (S0:169)
        s.to_act = next(((dealer + k) % players for k in range(1, players + 1)
                         if any(rank_of(c) == low for c in cards_of(s.hands[(dealer + k)
                                                                            % players]))),
                        (dealer + 1) % players)
        return s

    def copy(self) -> AnimalState:
        s = object.__new__(AnimalState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands, s.pile, s.judges, s.laughed, s.out = (list(self.hands), list(self.pile),
                                                        list(self.judges), list(self.laughed),
                                                        list(self.out))
        return s

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def low(self) -> int:
        return STANDARD_LOW_RANK[self.rules.deck_size]

    @property
    def due(self) -> int:
        """The rank that must be played next; 0 when a new sequence starts."""
        if not self.pile:
            return 0
        r = rank_of(self.pile[-1])
        return self.low if r == 14 else r + 1

    def legal_actions(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self.phase == JUDGE:
            return [LAUGH, PASS]
        cards = cards_of(self.hands[self.to_act])
        due = self.due
        if due:
            fit = [c for c in cards if rank_of(c) == due]
        else:  # a new sequence: a six if he has one, otherwise any card (A3)
            fit = [c for c in cards if rank_of(c) == self.low] or cards
        return [play([c]) for c in fit] or [SOUND]

    def apply(self, action: PlayAction) -> AnimalState:
        if not isinstance(action, Move):
            raise not_this_game(action, "animal sounds")
        if action not in self.legal_actions():
            raise self._explain(action)
        s = self.copy()
        s.moves += 1
        s._advance(action)
        if s.outcome is None and s.moves >= s.rules.move_cap:
            s._finish("move cap")
        return s

    def view(self, seat: int) -> AnimalView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return AnimalView(
            seat=seat, players=self.players, rules=self.rules, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands), pile=tuple(self.pile),
            due=self.due, nicknames=self.nicknames, phase=self.phase, skipper=self.skipper,
            laughed=tuple(self.laughed), out=tuple(self.out), to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            outcome=self.outcome)

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_move(text)

    def _next(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            if (seat + k) % self.players not in self.out:
                return (seat + k) % self.players
        return seat

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def _advance(self, action: Move) -> None:
        seat = self.to_act
        if action.kind == "play":
            c = action.cards[0]
            self.hands[seat] &= ~(1 << c)
            self.pile.append(c)
            self.sounds_in_row = 0
            if not self.hands[seat]:
                self.out.append(seat)
                if len(self._active()) <= 1:
                    self._finish("")
                    return
            self.to_act = self._next(seat)
            return
        if action.kind == "sound":
            self.sounds_in_row += 1
            self.skipper, self.laughed, self.phase = seat, [], JUDGE
            self.judges = [s for s in self._active() if s != seat]
            self.judges = sorted(self.judges, key=lambda s: (s - seat) % self.players)
            self.to_act = self.judges.pop(0)
            return
        if action.kind == "laugh":
            self.laughed.append(seat)
            self._judged()
            return
        if self.judges:  # a straight face: the next judge
            self.to_act = self.judges.pop(0)
            return
        self._judged()

    def _judged(self) -> None:
        """Apply the laughter rule (A1) once the judging is over."""
        rule, skipper = self.rules.takes_pile, self.skipper
        nobody = not self.laughed
        taker = -1
        if (rule == "nobody_laughed" and nobody) or (rule == "somebody_laughed" and not nobody):
            taker = skipper
        elif rule == "laugher" and not nobody:
            taker = self.laughed[0]
        if taker < 0 and self.sounds_in_row >= len(self._active()):
            taker = skipper  # nobody can play: bito's rule so the game goes on
        self.phase, self.judges, self.laughed = PLAY, [], []
        if taker >= 0 and self.pile:
            for c in self.pile:
                self.hands[taker] |= 1 << c
            self.pile = []
            self.sounds_in_row = 0
            self.to_act = self._next(skipper)
            self._watch_repetition()
            return
        self.to_act = self._next(skipper)

    def _watch_repetition(self) -> None:
        """The repetition rule (an engine rule, not from the seeds): the game is drawn when
        the same position follows a pick-up of the pile for the third time since a player
        last went out. No card ever leaves the game, so the positions are finite, and a game
        that never ends must pick the pile up again and again (without pick-ups the hands
        only shrink): some position after a pick-up must then come round for ever."""
        key = (*self.hands, -1, *self.pile, -1, self.to_act, self.sounds_in_row, len(self.out))
        self.seen, repeated = watch_repetition(self.seen, key)
        if repeated:
            self._finish("repetition")

    def _finish(self, note: str) -> None:
        """The end: the last holding cards is the fool; a game stopped by the repetition
        rule (or the last-guard move cap, which play never reaches) is a draw."""
        self.outcome = last_holder_loses(self.hands, self._active(), self.out, note)

    def _explain(self, action: Move) -> IllegalActionError:
        if self.outcome is not None:
            return IllegalActionError("game over", "the game has ended")
        if self.phase == JUDGE:
            return IllegalActionError("judging", "laugh or pass while a sound is judged")
        if action.kind == "sound":
            return IllegalActionError("must play", "you hold the rank due, so you play it")
        due = self.due
        return IllegalActionError("sequence", f"the rank due is {_rank_name(due)}" if due
                                  else "start the sequence with a six if you have one (A3)")

    def __str__(self) -> str:
        lines = [_table(tuple(self.pile), self.due, self.nicknames, self.phase, self.skipper,
                        tuple(self.out))]
        lines += seat_lines(self.hands, self.to_act, self.outcome)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<AnimalState seat {self.to_act} to act, pile {len(self.pile)}>"

    def cards_total(self) -> int:
        return sum(h.bit_count() for h in self.hands) + len(self.pile)
