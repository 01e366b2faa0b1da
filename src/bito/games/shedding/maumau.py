"""Czech fool, the Russian Mau-Mau (#86), and its options (#87-#93): a match of rounds.

One state covers the whole match: when a round ends the penalty points are added to the
running totals and the next round is dealt from ``(seed, round)``, so ``apply`` stays pure and a
match is fixed by its seed and actions.

Turn structure (VARIANTS.md §3.12):

* ``play``: the seat to act plays a card that fits the top card (one action per called suit
  for a wild card), or, with nothing that fits, ``draw``.
* ``draw`` under ``draw_rule=until_playable`` draws until a card fits (it must then be played,
  A4) or the stock and pile are used up; under ``draw_rule=one`` one card, which may be played
  or kept with ``pass``.
* The English ace (``ace_rule=english``): its player must follow with a card of the ace's suit
  and name another suit (``follow`` phase); without one he draws one card; if that does not
  fit he loses the call, and whoever covers the ace with a card of its suit names the suit.
* A 6/7 (or the ranks in ``draw_ranks``), the ace and the king of hearts act on the next
  player, who draws and misses his turn; they act even as a player's last card (A6).

A round ends when a hand empties, or -- so that no deal can run forever -- when every player in
turn has been unable to play with the stock and pile used up, or when the same position
follows a draw for the third time (a *blocked* round: everyone scores his hand, nobody wins
it). ``round_move_cap`` is a last guard that play never reaches (docs/variants.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bito.cards import (
    ACE,
    HEARTS,
    KING,
    RANK_MASKS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    card,
    card_pretty,
    cards_of,
    rank_of,
    standard_deck,
    suit_of,
)
from bito.errors import IllegalActionError
from bito.games.protocol import (
    REPEATS,
    Move,
    Outcome,
    PlayAction,
    not_this_game,
    parse_move,
    play,
    seat_lines,
    word,
)
from bito.games.shedding.rules import MauMauRules

PLAY, DRAWN, FOLLOW, OVER = "play", "drawn", "follow", "over"

DRAW: Final = word("draw")
PASS: Final = word("pass")

STANDARD_POINTS: Final = {11: 2, 12: 3, 13: 4, 14: 11}
PENTAGON_POINTS: Final = {14: 11, 13: 4, 12: 20, 11: 2, 10: 10}


def card_points(rules: MauMauRules, code: int) -> int:
    """Penalty points of one card left in hand (S1:33; Pentagon S1:45-47)."""
    r = rank_of(code)
    if rules.points == "pentagon":
        return PENTAGON_POINTS.get(r, 0)
    return STANDARD_POINTS.get(r, r)


def fitting_cards(rules: MauMauRules, top: int, called: int) -> int:
    """The cards that may go on a pile whose top card is ``top`` (-1: an empty pile, where
    any card goes) with ``called`` the suit named (-1: none), as a card set: the rule of
    :meth:`MauMauState.fits` (S1:21, 27-29; Pentagon S1:43-45) for a whole hand at once."""
    if top < 0:
        return -1  # every card
    wild = RANK_MASKS[rules.wild_rank]
    if called >= 0:
        return SUIT_MASKS[called] | wild
    same_rank = RANK_MASKS[rank_of(top)]
    if rules.match_rule == "suit_only_six":
        same_rank = RANK_MASKS[6] if rank_of(top) == 6 else 0
    return SUIT_MASKS[suit_of(top)] | same_rank | wild


def hand_points(rules: MauMauRules, hand: int) -> int:
    """Penalty points of a hand; a lone wild card costs ``single_wild_points`` (S1:33, 43)."""
    cards = cards_of(hand)
    if len(cards) == 1 and rank_of(cards[0]) == rules.wild_rank and rules.single_wild_points:
        return rules.single_wild_points
    return sum(card_points(rules, c) for c in cards)


@dataclass(frozen=True)
class RoundResult:
    """What one round did to the totals (for the terminal and the outcome)."""

    number: int
    winner: int | None
    penalties: tuple[int, ...]
    loser: int | None


@dataclass(frozen=True)
class MauMauView:
    """What one seat may know: its hand, everyone's card counts, the pile (every card in it was
    played face up) with the called suit, the stock size, the scores, and the card it has
    just drawn."""

    seat: int
    players: int
    rules: MauMauRules
    hand: int
    hand_counts: tuple[int, ...]
    top: int
    called: int
    ace_open: bool
    stock_count: int
    pile_count: int
    pile: tuple[int, ...]
    scores: tuple[int, ...]
    round: int
    phase: str
    to_act: int
    drawn: int
    legal: tuple[Move, ...]
    last_round: RoundResult | None
    outcome: Outcome | None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def __str__(self) -> str:
        return render_table(self.top, self.called, self.stock_count, self.pile_count,
                            self.scores, self.round, self.rules) + (
            f"\nyour hand: {' '.join(card_pretty(c) for c in cards_of(self.hand))}"
            f"\ncards held: {' '.join(map(str, self.hand_counts))}")


def render_table(top: int, called: int, stock: int, pile: int, scores: tuple[int, ...],
                 number: int, rules: MauMauRules) -> str:
    call = f", suit called: {SUIT_SYMBOLS[called]}" if called >= 0 else ""
    top_text = card_pretty(top) if top >= 0 else "(empty)"
    return (f"{rules.variant}, round {number + 1} of {rules.rounds}; pile top {top_text}{call}; "
            f"stock {stock}, pile {pile}\npenalty points: {' '.join(map(str, scores))}")


class MauMauState:
    """A position in a Mau-Mau match. Treat as immutable: ``apply`` returns a new state."""

    __slots__ = ("rules", "players", "seed", "round", "scores", "hands", "stock", "pile",
                 "called", "ace_open", "to_act", "phase", "drawn", "stuck", "moves",
                 "starter", "last_round", "rounds_won", "blocked", "outcome", "_legal", "seen",
                 "capped")

    rules: MauMauRules
    players: int
    seed: int
    round: int
    scores: list[int]
    hands: list[int]
    stock: list[int]  # the top card is the last
    pile: list[int]  # the top card is the last
    called: int
    ace_open: bool
    to_act: int
    phase: str
    drawn: int
    stuck: int  # seats in a row that could not play with nothing left to draw
    moves: int  # actions in this round
    starter: int
    last_round: RoundResult | None
    rounds_won: list[int]
    blocked: int  # rounds that ended without a winner (stalemate or move cap)
    outcome: Outcome | None
    _legal: list[Move] | None
    #: The positions right after a draw in this round, for the repetition rule (a tuple
    #: shared between copies and replaced, never changed).
    seen: tuple[tuple[object, ...], ...]
    capped: int  # rounds stopped by the last-guard ``round_move_cap``

    @classmethod
    def start(cls, rules: MauMauRules, players: int, seed: int) -> MauMauState:
        s = object.__new__(cls)
        s.rules, s.players, s.seed = rules, players, seed
        s.scores = [0] * players
        s.rounds_won = [0] * players
        s.last_round = None
        s.blocked = s.capped = 0
        s.outcome = None
        s._legal = None
        s.starter = random.Random(f"maumau-first:{seed}").randrange(players)
        s._deal(0)
        return s

    def _deal(self, number: int) -> None:
        """Deal round ``number``: shuffle from (seed, round), one card at a time from the
        starter (S1:17); with ``opening=dealer_last_card`` the starter deals and his own last
        card is turned up as his opening play (S1:35)."""
        rules, n = self.rules, self.players
        deck = list(standard_deck(rules.deck_size))
        random.Random(f"maumau:{self.seed}:{number}").shuffle(deck)
        hands = [0] * n
        last = -1
        for i in range(rules.hand_size * n):
            last = deck.pop()
            hands[(self.starter + 1 + i) % n] |= 1 << last
        self.round, self.hands, self.stock, self.pile = number, hands, deck, []
        self.called, self.ace_open, self.drawn, self.stuck, self.moves = -1, False, -1, 0, 0
        self.seen = ()
        self.phase, self.to_act = PLAY, self.starter
        if rules.opening == "dealer_last_card":  # the last card dealt went to the starter
            hands[self.starter] &= ~(1 << last)
            self.pile.append(last)
            self._after_play(self.starter, last, -1, opening=True)

    def copy(self) -> MauMauState:
        s = object.__new__(MauMauState)
        # every slot by name (a loop over __slots__ with getattr/setattr cost a search a
        # tenth of its time)
        s.rules, s.players, s.seed, s.round = self.rules, self.players, self.seed, self.round
        s.called, s.ace_open, s.to_act, s.phase = (self.called, self.ace_open, self.to_act,
                                                   self.phase)
        s.drawn, s.stuck, s.moves, s.starter = self.drawn, self.stuck, self.moves, self.starter
        s.last_round, s.blocked, s.outcome = self.last_round, self.blocked, self.outcome
        s.seen, s.capped = self.seen, self.capped
        s.scores, s.hands, s.stock, s.pile = (list(self.scores), list(self.hands),
                                             list(self.stock), list(self.pile))
        s.rounds_won = list(self.rounds_won)
        s._legal = None
        return s

    # --- protocol ------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def top(self) -> int:
        return self.pile[-1] if self.pile else -1

    def legal_actions(self) -> list[Move]:
        """The actions of the seat to act (a fresh list; computed once per state)."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[Move]:
        if self.outcome is not None:
            return []
        hand = self.hands[self.to_act]
        if self.phase == FOLLOW:
            ace_suit = suit_of(self.top)
            follow = [c for c in cards_of(hand) if suit_of(c) == ace_suit]
            if self.drawn >= 0:
                follow = [self.drawn] if suit_of(self.drawn) == ace_suit else []
                return self._calls(follow, ace_suit)
            return self._calls(follow, ace_suit) or [DRAW]
        if self.phase == DRAWN:
            moves = self._plays([self.drawn])
            return [*moves, PASS] if self.rules.draw_rule == "one" else moves
        moves = self._plays(cards_of(hand & fitting_cards(self.rules, self.top, self.called)))
        return moves or [DRAW]

    def _calls(self, cards: list[int], forbidden: int) -> list[Move]:
        return [play([c], s) for c in cards for s in range(4) if s != forbidden]

    def _plays(self, cards: list[int]) -> list[Move]:
        out: list[Move] = []
        for c in cards:
            if self._names_suit(c):
                out.extend(play([c], s) for s in range(4))
            else:
                out.append(play([c]))
        return out

    def _names_suit(self, c: int) -> bool:
        """Whether playing ``c`` now comes with a suit call: a wild card, or covering an
        English ace that lost its call with a card of its suit (S1:39)."""
        if rank_of(c) == self.rules.wild_rank:
            return True
        return self.ace_open and rank_of(c) != ACE and self.pile != [] \
            and suit_of(c) == suit_of(self.top)

    def fits(self, c: int) -> bool:
        """Whether ``c`` may go on the pile now (S1:21, 27-29; Pentagon S1:43-45)."""
        if not self.pile or rank_of(c) == self.rules.wild_rank:
            return True
        top = self.top
        if self.called >= 0:
            return suit_of(c) == self.called
        if suit_of(c) == suit_of(top):
            return True
        if self.rules.match_rule == "suit_only_six":
            return rank_of(c) == rank_of(top) == 6
        return rank_of(c) == rank_of(top)

    def apply(self, action: PlayAction) -> MauMauState:
        if not isinstance(action, Move):
            raise not_this_game(action, "Mau-Mau")
        if self._legal is None:
            self._legal = self._generate()
        if action not in self._legal:
            raise self._explain(action)
        s = self.copy()
        s._advance(action)
        return s

    def view(self, seat: int) -> MauMauView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return MauMauView(
            seat=seat, players=self.players, rules=self.rules, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands), top=self.top,
            called=self.called, ace_open=self.ace_open, stock_count=len(self.stock),
            pile_count=len(self.pile), pile=tuple(self.pile), scores=tuple(self.scores),
            round=self.round,
            phase=self.phase, to_act=self.to_act,
            drawn=self.drawn if seat == self.to_act else -1,
            legal=tuple(self.legal_actions()) if seat == self.to_act else (),
            last_round=self.last_round, outcome=self.outcome)

    @staticmethod
    def parse_action(text: str) -> Move:
        return parse_move(text)

    # --- transitions ---------------------------------------------------------------------

    def _advance(self, action: Move) -> None:
        seat = self.to_act
        round_before = self.round
        self.moves += 1
        if action.kind == "draw":
            self._draw_action(seat)
            if self.outcome is None and self.round == round_before and self._repeated():
                self._end_round(None)
                return
        elif action.kind == "pass":
            self.drawn = -1
            self._end_turn(seat, played=False)
        else:
            c = action.cards[0]
            self.hands[seat] &= ~(1 << c)
            self.pile.append(c)
            following = self.phase == FOLLOW
            self.drawn = -1
            self.stuck = 0
            self._after_play(seat, c, action.call, follow=following)
        if self.outcome is None and self.phase != OVER and self.moves >= self.rules.round_move_cap:
            # a last guard only (the repetition rule ends every round that cannot end);
            # the note names it, so a sweep can tell it from a rule
            self.capped += 1
            self._end_round(None)

    def _repeated(self) -> bool:
        """The repetition rule (an engine rule, not from the seeds): a round in which the
        same position follows a draw for the third time is blocked (nobody wins it, everyone
        scores his hand), as a round where nobody can play is.

        Cards never leave a Mau-Mau round, so its positions are finite, and a round that
        never ends must draw again and again (without draws the hands only shrink): some
        position after a draw must then come round for ever. Bots that play by fixed rules
        do fall into such loops; people would agree to stop."""
        key = (*self.hands, *self.stock, -1, *self.pile, -1, self.called, self.ace_open,
               self.to_act, self.phase, self.drawn)
        if self.seen.count(key) + 1 >= REPEATS:
            return True
        self.seen = (*self.seen, key)
        return False

    def _draw_one(self) -> int:
        """The top card of the stock, turning the pile over (top card kept, no shuffle) when
        the stock is empty (S1:23); -1 when there is nothing left to draw."""
        if not self.stock and len(self.pile) > 1:
            self.stock = self.pile[-2::-1]
            self.pile = self.pile[-1:]
        return self.stock.pop() if self.stock else -1

    def _draw_action(self, seat: int) -> None:
        if self.phase == FOLLOW:  # English ace without a follow-up card: one card (S1:39)
            c = self._draw_one()
            if c >= 0:
                self.hands[seat] |= 1 << c
                if suit_of(c) == suit_of(self.top):
                    self.drawn = c
                    return
            self.ace_open = True
            self._end_turn(seat, played=False, ace_failed=True)
            return
        while True:
            c = self._draw_one()
            if c < 0:
                self._end_turn(seat, played=False, exhausted=True)
                return
            self.hands[seat] |= 1 << c
            if self.fits(c):
                self.drawn = c
                self.phase = DRAWN
                return
            if self.rules.draw_rule == "one":
                self._end_turn(seat, played=False)
                return

    def _after_play(self, seat: int, c: int, call: int, *, opening: bool = False,
                    follow: bool = False) -> None:
        rules, n = self.rules, self.players
        nxt = (seat + 1) % n
        if follow:  # the English ace's follow-up card carries only the call
            self.called, self.ace_open = call, False
            self._pass_turn(nxt, skip=False, seat=seat)
            return
        if rank_of(c) == ACE and rules.ace_rule == "english" and self.hands[seat] and not opening:
            self.called, self.ace_open = -1, False
            self.phase, self.to_act = FOLLOW, seat
            return
        self.called = call
        self.ace_open = False
        draw = 0
        skip = False
        if rank_of(c) in rules.draw_ranks:
            draw, skip = rules.draw_counts[rules.draw_ranks.index(rank_of(c))], True
        elif rank_of(c) == ACE and rules.ace_rule == "skip":
            skip = True
        elif c == card(KING, HEARTS) and rules.king_hearts_draw:
            draw, skip = rules.king_hearts_draw, True
        elif rank_of(c) == rules.wild_rank and rules.call_skips:
            skip = True
        for _ in range(draw):
            d = self._draw_one()
            if d < 0:
                break
            self.hands[nxt] |= 1 << d
        if not self.hands[seat]:
            self._end_round(seat)
            return
        self._pass_turn(nxt, skip=skip, seat=seat)

    def _pass_turn(self, nxt: int, *, skip: bool, seat: int) -> None:
        if not self.hands[seat]:
            self._end_round(seat)
            return
        self.phase = PLAY
        self.to_act = (nxt + 1) % self.players if skip else nxt

    def _end_turn(self, seat: int, *, played: bool, exhausted: bool = False,
                  ace_failed: bool = False) -> None:
        del played, ace_failed
        self.drawn = -1
        self.stuck = self.stuck + 1 if exhausted or not self._can_draw() else 0
        if self.stuck >= self.players:
            self._end_round(None)
            return
        self.phase = PLAY
        self.to_act = (seat + 1) % self.players

    def _can_draw(self) -> bool:
        return bool(self.stock) or len(self.pile) > 1

    def _end_round(self, winner: int | None) -> None:
        """Score the round (S1:31-33; A1: everyone but the winner scores) and deal the next,
        or end the match after ``rounds`` rounds; ``winner`` None is a blocked round."""
        rules = self.rules
        pen = [0 if s == winner else hand_points(rules, self.hands[s])
               for s in range(self.players)]
        if winner is not None and rules.wild_out_bonus and rank_of(self.top) == rules.wild_rank:
            pen[winner] -= rules.wild_out_bonus  # Pharaoh: going out on a queen (S1:41)
        loser: int | None = None
        if rules.stuck_wild_loses:  # Option 3: left with a lone jack (S1:37, A1)
            for s in range(self.players):
                cards = cards_of(self.hands[s])
                if s != winner and len(cards) == 1 and rank_of(cards[0]) == rules.wild_rank:
                    pen[s] = max(pen[s], max(p for i, p in enumerate(pen) if i != s) + 1)
                    loser = s
                    break
        if loser is None:
            top_pen = max(pen)
            worst = [s for s in range(self.players) if pen[s] == top_pen and s != winner]
            loser = worst[0] if len(worst) == 1 else None
        for s in range(self.players):
            self.scores[s] += pen[s]
        if winner is not None:
            self.rounds_won[winner] += 1
        else:
            self.blocked += 1
        self.last_round = RoundResult(self.round, winner, tuple(pen), loser)
        if self.round + 1 >= rules.rounds:
            note = f"{self.blocked} blocked round(s)" if self.blocked else ""
            if self.capped:
                note += f", {self.capped} by the round move cap"
            self._finish(note)
            return
        if winner is not None:
            self.starter = winner  # the previous winner starts (S1:21)
        else:
            self.starter = (self.starter + 1) % self.players
        self._deal(self.round + 1)

    def _finish(self, note: str) -> None:
        order = tuple(sorted(range(self.players), key=lambda s: (self.scores[s], s)))
        worst = max(self.scores)
        losers = [s for s in range(self.players) if self.scores[s] == worst]
        draw = len(losers) > 1
        self.phase, self.drawn = OVER, -1
        self.outcome = Outcome(loser=None if draw else losers[0], order=order, draw=draw,
                               scores=tuple(self.scores), rounds=self.round + 1, note=note,
                               tallies=tuple(self.rounds_won), tally_name="rounds_won")

    def _explain(self, action: Move) -> IllegalActionError:
        if self.outcome is not None:
            return IllegalActionError("game over", "the match has ended")
        if action.kind == "play" and action.cards:
            c = action.cards[0]
            if len(action.cards) > 1:
                return IllegalActionError("one card", "Mau-Mau plays one card at a time")
            if not self.hands[self.to_act] >> c & 1:
                return IllegalActionError("own cards", f"{card_pretty(c)} is not in your hand")
            if self.phase == DRAWN:
                return IllegalActionError("play the drawn card",
                                          "after drawing only the drawn card may be played")
            if self.phase == FOLLOW:
                return IllegalActionError("English ace", "follow the ace with a card of its "
                                          "suit and name another suit")
            if not self.fits(c):
                what = (f"the called suit {SUIT_SYMBOLS[self.called]}" if self.called >= 0
                        else f"the top card {card_pretty(self.top)}")
                return IllegalActionError("match", f"{card_pretty(c)} does not fit {what}")
            if self._names_suit(c) != (action.call >= 0):
                return IllegalActionError("suit call", "name a suit (=c/d/h/s) with this card"
                                          if action.call < 0 else "this card names no suit")
        if action.kind == "draw":
            return IllegalActionError("must play", "you may draw only when no card fits")
        return IllegalActionError("not allowed", f"{action} is not a move here")

    def __str__(self) -> str:
        lines = [render_table(self.top, self.called, len(self.stock), len(self.pile),
                              tuple(self.scores), self.round, self.rules)]
        lines += seat_lines(self.hands, self.to_act, self.outcome)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<MauMauState {self.rules.variant} round {self.round} seat {self.to_act} to act>"

    def cards_total(self) -> int:
        """Every card of the round's pack, wherever it is (conservation checks)."""
        return sum(h.bit_count() for h in self.hands) + len(self.stock) + len(self.pile)
