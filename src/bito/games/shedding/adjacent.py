"""The OnToys adjacent-rank shedding game (#94, VARIANTS.md §3.13, S3:13-36).

Each card put down must take the first possible step of a priority list (S3:25-29): a card one
rank above or below the top card in any suit (king and ace are neighbours), else one of the
same rank, else an ace or a king, else a joker; on a joker anything goes. The player keeps the
turn while he can play. Stuck, he draws one card and goes on if it can be played; with the
stock empty he passes.

Going out (S3:34): a player who plays his last card while the stock lasts is only *pending*:
if the next player can play, the pending player draws ``going_out_draw`` cards and is back in;
if the next player has to draw, he is out. With the stock empty, the last card is final.

Anti-Rank (S3:36, A3/A4): once the stock is empty and every player still in has passed in a
row, the player to move may put down any one card, and the turn passes; it ends as soon as a
player can play normally.

The game always ends: the stock only shrinks (nothing is ever shuffled back), and once it is
empty every action but a pass removes a card, while passes are bounded by Anti-Rank (without
it, ``shed.anti_rank=false``, a round of passes blocks the game: a draw). The ``move_cap``
option is a last guard only, ending the game as a draw if it were ever reached.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bito.cards import ACE, KING, build_deck, card_pretty, cards_of, is_joker, rank_of
from bito.errors import IllegalActionError
from bito.games.protocol import (
    Move,
    Outcome,
    PlayAction,
    not_this_game,
    parse_move,
    play,
    seat_lines,
    word,
)
from bito.games.shedding.rules import AdjacentRules

DRAW: Final = word("draw")
PASS: Final = word("pass")

STEP_NAMES: Final = ("a rank up or down", "the same rank", "an ace or a king", "a joker")


def _cyc(code: int) -> int:
    """Rank on the 13-step cycle A=0, 2=1, ..., K=12."""
    r = rank_of(code)
    return 0 if r == ACE else r - 1


def adjacent(a: int, b: int) -> bool:
    """One rank apart on the cycle, king and ace included (S3:25)."""
    return (_cyc(a) - _cyc(b)) % 13 in (1, 12)


def steps(top: int, hand: int) -> tuple[int, list[int]]:
    """The step (0-3) that applies and the cards it allows; (-1, []) when nothing fits."""
    cards = cards_of(hand)
    if top < 0 or is_joker(top):
        return 0, cards
    plain = [c for c in cards if not is_joker(c)]
    options = (
        [c for c in plain if adjacent(c, top)],
        [c for c in plain if rank_of(c) == rank_of(top)],
        [c for c in plain if rank_of(c) in (ACE, KING)],
        [c for c in cards if is_joker(c)],
    )
    for i, found in enumerate(options):
        if found:
            return i, found
    return -1, []


@dataclass(frozen=True)
class AdjacentView:
    """One seat's knowledge: own hand, counts, the pile (played face up), the stock size,
    who is out or pending, and whether Anti-Rank is on."""

    seat: int
    players: int
    rules: AdjacentRules
    hand: int
    hand_counts: tuple[int, ...]
    top: int
    stock_count: int
    pile_count: int
    pile: tuple[int, ...]
    out: tuple[int, ...]
    pending_out: int
    anti_rank: bool
    to_act: int
    legal: tuple[Move, ...]
    outcome: Outcome | None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        return (_table(self.top, self.stock_count, self.out, self.pending_out, self.anti_rank)
                + f"\nyour hand: {' '.join(card_pretty(c) for c in cards_of(self.hand))}"
                + f"\ncards held: {' '.join(map(str, self.hand_counts))}")


def _table(top: int, stock: int, out: tuple[int, ...], pending: int, anti: bool) -> str:
    extra = f"; seat {pending} is going out" if pending >= 0 else ""
    extra += "; ANTI-RANK: any card may be put down" if anti else ""
    gone = " ".join(map(str, out)) or "nobody"
    return f"pile top {card_pretty(top) if top >= 0 else '-'}; stock {stock}; out: {gone}{extra}"


class AdjacentState:
    """A position of the adjacent-rank game. Immutable by convention: ``apply`` copies."""

    __slots__ = ("rules", "players", "seed", "hands", "stock", "pile", "to_act", "out",
                 "pending_out", "passes", "anti_rank", "moves", "turn_start", "outcome")

    rules: AdjacentRules
    players: int
    seed: int
    hands: list[int]
    stock: list[int]
    pile: list[int]
    to_act: int
    out: list[int]
    pending_out: int
    passes: int
    anti_rank: bool
    moves: int
    turn_start: bool  # no card played yet in this turn (for the going-out reply)
    outcome: Outcome | None

    @classmethod
    def start(cls, rules: AdjacentRules, players: int, seed: int) -> AdjacentState:
        rng = random.Random(f"adjacent:{seed}")
        deck = list(build_deck(52, jokers=rules.jokers, copies=rules.packs(players)))
        rng.shuffle(deck)
        dealer = rng.randrange(players)  # by lot (S3:21)
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, players, seed
        s.hands = [0] * players
        for i in range(rules.hand_size * players):
            s.hands[(dealer + 1 + i) % players] |= 1 << deck.pop()
        s.pile = [deck.pop()]  # turned up to start the pile
        s.stock = deck
        s.to_act = (dealer + 1) % players
        s.out, s.pending_out, s.passes, s.anti_rank = [], -1, 0, False
        s.moves, s.turn_start, s.outcome = 0, True, None
        return s

    def copy(self) -> AdjacentState:
        s = object.__new__(AdjacentState)
        for name in self.__slots__:
            setattr(s, name, getattr(self, name))
        s.hands, s.stock, s.pile, s.out = (list(self.hands), list(self.stock), list(self.pile),
                                           list(self.out))
        return s

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def top(self) -> int:
        return self.pile[-1]

    def legal_actions(self) -> list[Move]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        _, cards = steps(self.top, hand)
        if not cards and self.anti_rank:
            cards = cards_of(hand)
        if cards:
            return [play([c]) for c in cards]
        return [DRAW] if self.stock else [PASS]

    def apply(self, action: PlayAction) -> AdjacentState:
        if not isinstance(action, Move):
            raise not_this_game(action, "the adjacent-rank game")
        if action not in self.legal_actions():
            raise self._explain(action)
        s = self.copy()
        s._advance(action)
        return s

    def view(self, seat: int) -> AdjacentView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return AdjacentView(
            seat=seat, players=self.players, rules=self.rules, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands), top=self.top,
            stock_count=len(self.stock), pile_count=len(self.pile), pile=tuple(self.pile),
            out=tuple(self.out),
            pending_out=self.pending_out, anti_rank=self.anti_rank, to_act=self.to_act,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            outcome=self.outcome)

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_move(text)

    # --- transitions ---------------------------------------------------------------------

    def _active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def _next(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            nxt = (seat + k) % self.players
            if nxt not in self.out:
                return nxt
        return seat

    def _advance(self, action: Move) -> None:
        self._act(action)
        if self.outcome is None and self.moves >= self.rules.move_cap:
            self._finish("move cap")

    def _act(self, action: Move) -> None:
        seat = self.to_act
        self.moves += 1
        replying = self.pending_out >= 0 and self.turn_start and seat != self.pending_out
        if action.kind == "play":
            normal = steps(self.top, self.hands[seat])[0] >= 0
            c = action.cards[0]
            self.hands[seat] &= ~(1 << c)
            self.pile.append(c)
            self.passes = 0
            if replying:  # the next player could play: the pending player is back in
                self._return_pending()
            self.turn_start = False
            if normal:
                self.anti_rank = False
            if not self.hands[seat]:
                self._went_out(seat)
                return
            if self.anti_rank:  # an Anti-Rank card ends the turn (S3:36)
                self._turn_to(self._next(seat))
            return
        if replying:  # the next player has to draw: the pending player is out (S3:34)
            self._confirm_pending()
            if self.outcome is not None:
                return
        if action.kind == "draw":
            c = self.stock.pop()
            self.hands[seat] |= 1 << c
            if steps(self.top, 1 << c)[0] < 0:  # not playable: the turn passes
                self._turn_to(self._next(seat))
            else:
                self.turn_start = False
            return
        self.passes += 1  # pass: the stock is empty and nothing fits
        if self.passes >= len(self._active()):
            if not self.rules.anti_rank:  # nobody can ever play again: a blocked game
                self._finish("blocked")
                return
            self.anti_rank = True
        self._turn_to(self._next(seat))

    def _turn_to(self, seat: int) -> None:
        self.to_act, self.turn_start = seat, True

    def _went_out(self, seat: int) -> None:
        if self.stock and self.rules.going_out_draw:
            self.pending_out = seat
            self._turn_to(self._next(seat))
            return
        self._mark_out(seat)
        if self.outcome is None:
            self._turn_to(self._next(seat))

    def _return_pending(self) -> None:
        p = self.pending_out
        self.pending_out = -1
        for _ in range(self.rules.going_out_draw):
            if self.stock:
                self.hands[p] |= 1 << self.stock.pop()
        if not self.hands[p]:  # nothing left to draw (A5): he is out after all
            self._mark_out(p)

    def _confirm_pending(self) -> None:
        p = self.pending_out
        self.pending_out = -1
        self._mark_out(p)

    def _mark_out(self, seat: int) -> None:
        self.out.append(seat)
        active = self._active()
        if len(active) <= 1:
            self._finish("")

    def _finish(self, note: str) -> None:
        """The last player holding cards is the fool. A game that stops before that
        (``note``: blocked with ``shed.anti_rank=false``, when every player still in has
        passed with the stock empty; or the last-guard move cap) is a draw."""
        active = self._active()
        rest = sorted(active, key=lambda s: (self.hands[s].bit_count(), s))
        order = tuple(self.out) + tuple(rest)
        loser = rest[-1] if len(rest) == 1 and not note else None
        self.outcome = Outcome(loser=loser, order=order, draw=loser is None, note=note)

    def _explain(self, action: Move) -> IllegalActionError:
        if self.outcome is not None:
            return IllegalActionError("game over", "the game has ended")
        hand = self.hands[self.to_act]
        if action.kind == "play" and action.cards:
            c = action.cards[0]
            if len(action.cards) > 1:
                return IllegalActionError("one card", "put cards down one at a time")
            if not hand >> c & 1:
                return IllegalActionError("own cards", f"{card_pretty(c)} is not in your hand")
            step, _ = steps(self.top, hand)
            if step >= 0:
                return IllegalActionError("priority", f"you can play {STEP_NAMES[step]} on "
                                          f"{card_pretty(self.top)}, so you must")
        if action.kind in ("draw", "pass"):
            return IllegalActionError("must play", "you can put a card down, so you must")
        return IllegalActionError("not allowed", f"{action} is not a move here")

    def __str__(self) -> str:
        lines = [_table(self.top, len(self.stock), tuple(self.out), self.pending_out,
                        self.anti_rank)]
        lines += seat_lines(self.hands, self.to_act, self.outcome)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<AdjacentState seat {self.to_act} to act, stock {len(self.stock)}>"

    def cards_total(self) -> int:
        return sum(h.bit_count() for h in self.hands) + len(self.stock) + len(self.pile)
