"""Friedemann Friese's *Fool!* (#95, VARIANTS.md §3.14, seed S2): rounds of tricks where the
worst card of each trick makes its player the Fool, who sits out the next trick.

One state covers the whole game (rounds until a score of -80 or six +10 rounds). Rounds are
dealt from ``(seed, round)``, so ``apply`` is pure and the game is fixed by seed and actions.

The deck (:func:`fool_deck`): four colours of 26, 22, 20 and 14 cards and six wild 1s. The
seed does not print the card numbers; bito numbers a colour of n cards ``first_number`` ..
``first_number + n - 1`` (default 2..n+1, A2), and for fewer than 8 players removes the
highest cards of each colour in proportion to its size until 12 cards per player remain.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bito.cards import cards_of, check_length
from bito.errors import IllegalActionError, InvalidNotationError
from bito.games.protocol import Move, Outcome, PlayAction, not_this_game
from bito.games.tricks.rules import FoolRules

COLOURS: Final = "gryb"
COLOUR_NAMES: Final = ("green", "red", "yellow", "blue")
WILD: Final = 4 * 32
"""Code of the first wild 1; the six wild 1s are WILD..WILD+5 and all play as one move."""


def colour_of(code: int) -> int:
    """0-3 for the colours, 4 for a wild 1."""
    return code // 32


def number_of(code: int) -> int:
    return 1 if code >= WILD else code % 32


def is_wild(code: int) -> bool:
    return code >= WILD


def fool_card(colour: int, number: int) -> int:
    return colour * 32 + number


def card_text(code: int) -> str:
    """``g12`` (green 12), ``b3``; a wild 1 is ``1``."""
    return "1" if is_wild(code) else f"{COLOURS[colour_of(code)]}{number_of(code)}"


def parse_card(text: str) -> int:
    check_length(text, what="a Fool! card")
    t = text.strip().lower()
    if t in ("1", "w1", "w"):
        return WILD
    if len(t) < 2 or t[0] not in COLOURS:
        raise InvalidNotationError("a Fool! card is a colour g r y b and a number (g12), or 1",
                                   text, 0)
    digits = t[1:]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
        raise InvalidNotationError("expected the card's number after the colour", text, 1)
    number = int(digits)
    if not 2 <= number <= 31:
        raise InvalidNotationError("card numbers run from 2 (the wild cards are 1)", text, 1)
    return fool_card(COLOURS.index(t[0]), number)


_PLAY_MOVES: dict[int, Move] = {}


def play_card(code: int) -> Move:
    """The move that plays ``code`` (any wild 1 plays as one move); interned, since a
    search builds the same few dozen moves millions of times (a Move is immutable)."""
    move = _PLAY_MOVES.get(code)
    if move is None:
        move = _PLAY_MOVES[code] = Move("play", (WILD if is_wild(code) else code,), -1,
                                        card_text(code), "fool")
    return move


def parse_action(text: str) -> Move:
    """A *Fool!* action is the card played: ``g12`` or ``1``."""
    return play_card(parse_card(text))


def colour_counts(rules: FoolRules, players: int) -> tuple[int, ...]:
    """Cards of each colour in play: the full colours with 8 players; otherwise the highest
    numbers removed in proportion to each colour's size until hand_size x players cards
    remain with the six 1s (A2, largest remainders)."""
    sizes = rules.colour_sizes
    target = rules.hand_size_for(players) * players - rules.wilds
    remove = sum(sizes) - target
    if remove <= 0:
        return sizes
    shares = [remove * s / sum(sizes) for s in sizes]
    cut = [int(x) for x in shares]
    for i in sorted(range(len(sizes)), key=lambda i: -(shares[i] - cut[i]))[:remove - sum(cut)]:
        cut[i] += 1
    return tuple(s - c for s, c in zip(sizes, cut, strict=True))


def fool_deck(rules: FoolRules, players: int) -> list[int]:
    """The cards dealt for ``players`` players, in code order."""
    out = [fool_card(col, rules.first_number + i)
           for col, n in enumerate(colour_counts(rules, players)) for i in range(n)]
    return out + [WILD + k for k in range(rules.wilds)]


def hand_text(mask: int) -> str:
    return " ".join(card_text(c) for c in cards_of(mask)) or "-"


@dataclass(frozen=True)
class TrickResult:
    """A finished trick: the cards in playing order, the winner and the Fool(s)."""

    plays: tuple[tuple[int, int], ...]
    winner: int
    fools: tuple[int, ...]


@dataclass(frozen=True)
class FoolView:
    """One seat's knowledge: its hand, counts, the trick so far and the cards of the round's
    earlier tricks, the lead colour, who holds a Fool disc (sits out), scores and +10
    tallies."""

    seat: int
    players: int
    rules: FoolRules
    hand: int
    hand_counts: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    played: int  # cards of this round's finished tricks (everyone saw them)
    lead_colour: int
    sitting_out: tuple[int, ...]
    scores: tuple[int, ...]
    plus_tens: tuple[int, ...]
    round: int
    to_act: int
    legal: tuple[Move, ...]
    last_trick: TrickResult | None
    outcome: Outcome | None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        return (_table(self.trick, self.lead_colour, self.sitting_out, self.scores,
                       self.plus_tens, self.round)
                + f"\nyour hand: {hand_text(self.hand)}"
                + f"\ncards held: {' '.join(map(str, self.hand_counts))}")


def _table(trick: tuple[tuple[int, int], ...], lead: int, out: tuple[int, ...],
           scores: tuple[int, ...], tens: tuple[int, ...], number: int) -> str:
    played = ", ".join(f"seat {s}: {card_text(c)}" for s, c in trick) or "nothing yet"
    colour = COLOUR_NAMES[lead] if lead >= 0 else "not fixed"
    discs = " ".join(map(str, out)) or "nobody"
    return (f"round {number + 1}; trick: {played}; lead colour {colour}; "
            f"Fool disc: {discs}\nscores: {' '.join(map(str, scores))}; "
            f"+10 rounds: {' '.join(map(str, tens))}")


class FoolState:
    """A position of a game of *Fool!*. Immutable by convention: ``apply`` copies."""

    __slots__ = ("rules", "players", "seed", "round", "dealer", "hands", "trick", "order",
                 "sitting_out", "scores", "plus_tens", "last_trick", "gone", "outcome",
                 "_legal_cache")

    rules: FoolRules
    players: int
    seed: int
    round: int
    dealer: int
    hands: list[int]
    trick: list[tuple[int, int]]  # (seat, card) in playing order
    order: list[int]  # seats still to play in this trick, next first
    sitting_out: tuple[int, ...]
    scores: list[int]
    plus_tens: list[int]
    last_trick: TrickResult | None
    gone: int  # cards of this round's finished tricks
    outcome: Outcome | None
    #: The legal moves, worked out on first use (None until then; a copy starts afresh).
    _legal_cache: list[Move] | None

    @classmethod
    def start(cls, rules: FoolRules, players: int, seed: int) -> FoolState:
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, players, seed
        s.scores, s.plus_tens = [0] * players, [0] * players
        s.last_trick, s.outcome, s._legal_cache = None, None, None
        s.dealer = random.Random(f"fool-dealer:{seed}").randrange(players)
        s._deal(0)
        return s

    def _deal(self, number: int) -> None:
        deck = fool_deck(self.rules, self.players)
        random.Random(f"fool:{self.seed}:{number}").shuffle(deck)
        size = self.rules.hand_size_for(self.players)
        self.hands = [0] * self.players
        for i, c in enumerate(deck[: size * self.players]):
            self.hands[(self.dealer + 1 + i) % self.players] |= 1 << c
        self.round, self.sitting_out, self.gone = number, (), 0
        self._start_trick((self.dealer + 1) % self.players)  # left of the dealer leads

    def _start_trick(self, leader: int) -> None:
        n = self.players
        self.trick = []
        self.order = [(leader + k) % n for k in range(n)
                      if (leader + k) % n not in self.sitting_out]

    def copy(self) -> FoolState:
        s = object.__new__(FoolState)
        s.rules, s.players, s.seed, s.round = self.rules, self.players, self.seed, self.round
        s.dealer, s.sitting_out, s.last_trick = self.dealer, self.sitting_out, self.last_trick
        s.gone, s.outcome, s._legal_cache = self.gone, self.outcome, None
        s.hands, s.trick, s.order = list(self.hands), list(self.trick), list(self.order)
        s.scores, s.plus_tens = list(self.scores), list(self.plus_tens)
        return s

    # --- protocol ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def to_act(self) -> int:
        return self.order[0] if self.order and self.outcome is None else -1

    @property
    def lead_colour(self) -> int:
        """The colour to follow: that of the first regular card of the trick (S2:31, 49)."""
        for _, c in self.trick:
            if not is_wild(c):
                return colour_of(c)
        return -1

    def legal_actions(self) -> list[Move]:
        """The moves of the seat to act (a fresh list; worked out once per state, which
        changes only through :meth:`copy`, so the cache cannot go stale)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._generate()
        return list(legal)

    def forget_legal(self) -> None:
        """Drop the legal moves worked out for this position: a world sampler that rewrites
        hands in place must call it (as for ``DurakState.forget_legal``)."""
        self._legal_cache = None

    def _generate(self) -> list[Move]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        cards = cards_of(hand)
        lead = self.lead_colour
        regular = [c for c in cards if not is_wild(c)]
        if lead >= 0 and any(colour_of(c) == lead for c in regular):
            regular = [c for c in regular if colour_of(c) == lead]
        moves = [play_card(c) for c in regular]
        if hand >> WILD:
            moves.append(play_card(WILD))  # a 1 may always be played (S2:47)
        return moves

    def apply(self, action: PlayAction) -> FoolState:
        if not isinstance(action, Move):
            raise not_this_game(action, "Fool!")
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._generate()
        if action not in legal:
            raise self._explain(action)
        s = self.copy()
        s._play(action.cards[0])
        return s

    def view(self, seat: int) -> FoolView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return FoolView(
            seat=seat, players=self.players, rules=self.rules, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands), trick=tuple(self.trick),
            played=self.gone,
            lead_colour=self.lead_colour, sitting_out=self.sitting_out,
            scores=tuple(self.scores), plus_tens=tuple(self.plus_tens), round=self.round,
            to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            last_trick=self.last_trick, outcome=self.outcome)

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_action(text)

    # --- transitions ---------------------------------------------------------------------

    def _play(self, code: int) -> None:
        seat = self.order.pop(0)
        hand = self.hands[seat]
        if is_wild(code):
            code = (hand >> WILD & -(hand >> WILD)).bit_length() - 1 + WILD
        self.hands[seat] = hand & ~(1 << code)
        self.trick.append((seat, code))
        if not self.order:
            self._end_trick()

    def _end_trick(self) -> None:
        lead = self.lead_colour
        plays = self.trick
        in_lead = [(i, s, c) for i, (s, c) in enumerate(plays)
                   if lead < 0 or is_wild(c) or colour_of(c) == lead]
        # the highest card of the lead colour wins; only 1s played: the leader (A5)
        winner = max(in_lead, key=lambda t: (number_of(t[2]), -t[0]))[1]
        # worst first: off-colour before lead colour, then low numbers, then later plays
        ranked = sorted(range(len(plays)), key=lambda i: (
            0 if not (lead < 0 or is_wild(plays[i][1]) or colour_of(plays[i][1]) == lead)
            else 1, number_of(plays[i][1]), -i))
        count = self.rules.fools_for(self.players)
        fools = tuple(plays[i][0] for i in ranked if plays[i][0] != winner)[:count]
        self.last_trick = TrickResult(tuple(plays), winner, fools)
        for _, c in plays:
            self.gone |= 1 << c
        # the finished trick now lies with the round's played cards (``gone``; its plays
        # are kept in ``last_trick``), so it must not be counted on the table too (#95)
        self.trick = []
        self.sitting_out = fools
        if any(not self.hands[s] for s, _ in plays):
            self._end_round(fools)
            return
        self._start_trick(winner)

    def _end_round(self, fools: tuple[int, ...]) -> None:
        """Score the round (S2:61-63) and deal the next, or end the game (S2:57)."""
        for s in range(self.players):
            hand = self.hands[s]
            if not hand:
                if s not in fools:
                    self.scores[s] += 10
                    self.plus_tens[s] += 1
                continue
            self.scores[s] -= sum(5 if is_wild(c) else number_of(c) for c in cards_of(hand))
        r = self.rules
        if (min(self.scores) <= r.end_score or max(self.plus_tens) >= r.end_tens
                or self.round + 1 >= r.max_rounds):
            note = "last round (fool.max_rounds)" if self.round + 1 >= r.max_rounds and min(
                self.scores) > r.end_score and max(self.plus_tens) < r.end_tens else ""
            self._finish(note)
            return
        self.dealer = (self.dealer + 1) % self.players  # A6
        self._deal(self.round + 1)

    def _finish(self, note: str) -> None:
        """The end (S2:57): the lowest score is the fool, however the game ended: by the
        catalogue's end values or after ``fool.max_rounds`` rounds (``note``), a table's own
        limit on the game's length. At the default (1000) that limit is never reached: the
        end values always come first (see :meth:`FoolRules.round_bound`)."""
        order = tuple(sorted(range(self.players), key=lambda s: (-self.scores[s], s)))
        low = min(self.scores)
        losers = [s for s in range(self.players) if self.scores[s] == low]
        self.order = []
        self.outcome = Outcome(loser=losers[0] if len(losers) == 1 else None,
                               order=order, draw=len(set(self.scores)) == 1,
                               scores=tuple(self.scores),
                               rounds=self.round + 1, note=note,
                               tallies=tuple(self.plus_tens), tally_name="plus_tens")

    def _explain(self, action: Move) -> IllegalActionError:
        if self.outcome is not None:
            return IllegalActionError("game over", "the game has ended")
        if action.kind != "play" or len(action.cards) != 1:
            return IllegalActionError("one card", "in Fool! you play one card per trick")
        c = action.cards[0]
        hand = self.hands[self.to_act]
        held = bool(hand >> WILD) if is_wild(c) else bool(hand >> c & 1)
        if not held:
            return IllegalActionError("own cards", f"{card_text(c)} is not in your hand")
        return IllegalActionError("follow colour", f"you hold {COLOUR_NAMES[self.lead_colour]}"
                                  " and must follow it, or play a wild 1 (w1)")

    def __str__(self) -> str:
        lines = [_table(tuple(self.trick), self.lead_colour, self.sitting_out,
                        tuple(self.scores), tuple(self.plus_tens), self.round)]
        for s in range(self.players):
            mark = "*" if s == self.to_act else " "
            lines.append(f"{mark} seat {s}: {hand_text(self.hands[s])}")
        if self.outcome is not None:
            lines.append(f"over: {self.outcome.to_json()}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<FoolState round {self.round} seat {self.to_act} to act>"

    def cards_total(self) -> int:
        """Cards of the round in hands, on the table and in finished tricks."""
        return (sum(h.bit_count() for h in self.hands) + len(self.trick)
                + self.gone.bit_count())
