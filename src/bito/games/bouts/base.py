"""The state skeleton of the bout-structure engines: dealing, seats still in, the cards known
to be in each hand, copying, ``apply`` with its legality check and action cap, views and
printing. Each engine adds its own phases, legal actions and steps."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bito.cards import bit, card_pretty, cards_of, rank_of, standard_deck, suit_of
from bito.errors import IllegalActionError
from bito.games.bouts.common import SUITS, BoutsView, drawn, finish, parse_action, show
from bito.games.protocol import REPEATS, Outcome, seat_lines


class BoutsState:
    """A position of a bout-structure game. Immutable by convention: ``apply`` copies.

    ``stock`` is a list whose last item is the top card; ``discard`` a bitmask (the cards out
    of play, face down); ``known[s]``: the cards everyone knows seat ``s`` holds (cards he
    took from the centre in plain sight, the trump card he drew or kept)."""

    LISTS: ClassVar[tuple[str, ...]] = ("hands", "known", "stock", "out")
    #: The engine's own slots that are public (the centre, whose bout it is...): a view
    #: hands them out in ``extra`` so that a search bot can rebuild the position
    #: (:mod:`bito.games.bouts.worlds`). Hands, stock and discard are never among them.
    PUBLIC: ClassVar[tuple[str, ...]] = ()
    __slots__ = ("rules", "players", "seed", "dealer", "hands", "known", "stock", "discard",
                 "trump_card", "trump_suit", "phase", "to_act", "out", "moves", "outcome",
                 "note", "seen", "mark", "took", "_legal_cache")

    rules: Any
    players: int
    seed: int
    dealer: int
    hands: list[int]
    known: list[int]
    stock: list[int]
    discard: int
    trump_card: int
    trump_suit: int
    phase: str
    to_act: int
    out: list[int]
    moves: int
    outcome: Outcome | None
    #: What the last action made happen, in words (a take, a discarded chain), for the
    #: terminal: the next picture alone would not show it.
    note: str
    #: The repetition rule (:meth:`_watch_repetition`): the positions right after a take since
    #: the game last moved on (a tuple shared between copies, replaced, never changed), what
    #: "moved on" compares (stock size, discard, seats out), and whether this action took.
    seen: tuple[tuple[Any, ...], ...]
    mark: tuple[int, int, int]
    took: bool
    #: The legal moves as ``apply`` and ``view`` last worked them out (None: not yet); a copy
    #: starts afresh, and a position is changed only on a fresh copy, so it cannot go stale.
    #: A playout asked each position for them three times (the policy, its view, ``apply``).
    _legal_cache: list[Any] | None

    def _init(self, rules: Any, players: int, seed: int, tag: str) -> random.Random:
        rng = random.Random(f"{tag}:{seed}")
        self.rules, self.players, self.seed = rules, players, seed
        self.dealer = rng.randrange(players)
        self.hands, self.known, self.stock, self.out = [0] * players, [0] * players, [], []
        self.discard, self.trump_card, self.trump_suit = 0, -1, -1
        self.phase, self.to_act, self.moves, self.outcome, self.note = "", 0, 0, None, ""
        self.seen, self.mark, self.took = (), (-1, 0, 0), False
        self._legal_cache = None
        return rng

    def _deal(self, rng: random.Random, hand_size: int, *,
              trump_to_receiver: bool = False) -> list[int]:
        """Shuffle and deal ``hand_size`` cards each, one at a time from the dealer's left;
        the undealt rest is returned top first. ``hand_size`` 0: the whole pack, its last
        card shown, its suit trump (S0:243). Who keeps that card differs: the chain fool's
        dealer keeps it (#71), while the China fool deals it like any other card, so it
        stays with whoever receives it and, when the pack does not divide, the first seats
        from the dealer's left hold one card more (``trump_to_receiver``, #65 A4 as #33)."""
        deck = list(standard_deck(self.rules.deck_size))
        rng.shuffle(deck)
        n = self.players
        if hand_size == 0:
            last = deck.pop()
            for i, c in enumerate(deck):
                self.hands[(self.dealer + 1 + i) % n] |= bit(c)
            keeper = (self.dealer + 1 + len(deck)) % n if trump_to_receiver else self.dealer
            self.hands[keeper] |= bit(last)
            self.known[keeper] |= bit(last)
            self.trump_card, self.trump_suit = last, suit_of(last)
            return []
        for i, c in enumerate(deck[:n * hand_size]):
            self.hands[(self.dealer + 1 + i) % n] |= bit(c)
        return deck[n * hand_size:]

    def _lowest_trump_holder(self) -> int:
        """Who holds the lowest trump (the lowest card if nobody has a trump; ties go to the
        first seat clockwise from the dealer's left), VARIANTS.md §1.8."""
        order = [(self.dealer + k) % self.players for k in range(1, self.players + 1)]
        for trump_only in (True, False):
            best: tuple[int, int] | None = None
            for s in order:
                for c in cards_of(self.hands[s]):
                    if trump_only and suit_of(c) != self.trump_suit:
                        continue
                    if best is None or rank_of(c) < best[0]:
                        best = (rank_of(c), s)
            if best is not None:
                return best[1]
        return order[0]

    def copy(self) -> Any:
        kind = type(self)
        names = _SLOT_NAMES.get(kind)
        if names is None:
            names = _SLOT_NAMES[kind] = tuple(
                name for cls in kind.__mro__ for name in getattr(cls, "__slots__", ()))
        s = object.__new__(kind)
        for name in names:
            setattr(s, name, getattr(self, name))
        for name in self.LISTS:
            setattr(s, name, list(getattr(self, name)))
        s._legal_cache = None
        return s

    def known_legal(self) -> list[Any]:
        """:meth:`legal_actions`, worked out once per position (see :attr:`_legal_cache`)."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self.legal_actions()
        return legal

    def forget_legal(self) -> None:
        """Drop the legal moves worked out for this position: a world sampler that rewrites
        hands in place must call it (as for ``DurakState.forget_legal``)."""
        self._legal_cache = None

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def last_reveal(self) -> str:
        """The last action's note, which the terminal announces (a take, a discarded chain)."""
        return self.note

    def legal_actions(self) -> list[Any]:
        raise NotImplementedError

    def _advance(self, action: Any) -> None:
        raise NotImplementedError

    def _explain(self, action: Any) -> IllegalActionError:
        raise NotImplementedError

    def table_text(self) -> str:
        raise NotImplementedError

    def centre(self) -> tuple[int, ...]:
        return ()

    def apply(self, action: Any) -> Any:
        if self.outcome is not None:
            raise IllegalActionError("game over", "the game has ended")
        if action not in self.known_legal():
            raise self._explain(action)
        s = self.copy()
        s.moves += 1
        s.note, s.took = "", False
        s._advance(action)
        for seat in range(s.players):
            s.known[seat] &= s.hands[seat]
        if s.outcome is None:
            s._watch_repetition()
        if s.outcome is None and s.moves >= s.rules.move_cap:
            # a last guard only: the repetition rule ends every game that could go on for
            # ever, and the measured lengths stay far below the cap (docs/variants.md)
            s.outcome = drawn(s.players, s.hands, s.out, "move cap")
        return s

    def _watch_repetition(self) -> None:
        """The repetition rule (an engine rule, not from the seeds, as Durak's
        ``end.repetition``): the game is drawn when the same position follows a take for the
        third time since a card was last drawn or discarded or a player went out.

        Between two such events no card leaves the hands and the centre, so the positions
        are finite, and a game that never ends must take again and again (without takes the
        hands only shrink): some position after a take must then come round for ever. So
        the rule ends every game that cannot end, and only those: random tables, whose
        long games are not cycles, almost never meet it.

        The idle-takes rule (``<prefix>.idle_takes``, 300 by default; it cannot be turned off) draws
        the game sooner: after that many takes in a row with nothing drawn or discarded and
        nobody going out, like Durak's ``end.idle_bouts``. Random play wanders for thousands
        of takes in the Polish fool's endgame; a table would have called it a draw long
        before."""
        mark = (len(self.stock), self.discard, len(self.out))
        if mark != self.mark:
            self.mark, self.seen = mark, ()
            return
        if not self.took:
            return
        idle = self.rules.idle_takes
        if len(self.seen) + 1 >= idle:
            # the idle-takes rule: every take since the mark is in ``seen`` (one entry each),
            # so it also bounds what the repetition watch below has to look through
            self.outcome = drawn(self.players, self.hands, self.out, "idle takes")
            self.note = (f"{idle} takes in a row with no card drawn or discarded and nobody "
                         "going out: a draw")
            return
        key = (*self.hands, *self.centre(), -1, self.to_act, self.phase)
        if self.seen.count(key) + 1 >= REPEATS:
            self.outcome = drawn(self.players, self.hands, self.out, "repetition")
            self.note = "the same position came round a third time: a draw"
            return
        self.seen = (*self.seen, key)

    @staticmethod
    def parse_action(text: str) -> Any:
        return parse_action(text)

    # --- seats ---------------------------------------------------------------------------

    def active(self) -> list[int]:
        return [s for s in range(self.players) if s not in self.out]

    def next_active(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if s not in self.out:
                return s
        return seat

    def _mark_outs(self, order_from: int) -> None:
        """With the stock empty, every player without cards is out (safe), in seat order
        from ``order_from``."""
        if self.stock:
            return
        for k in range(self.players):
            s = (order_from + k) % self.players
            if s not in self.out and not self.hands[s]:
                self.out.append(s)

    def _game_over(self) -> bool:
        """Finish the game once at most one player is still in."""
        if len(self.active()) <= 1:
            self.outcome = finish(self.players, self.hands, self.out)
            return True
        return False

    def _refill(self, first: int, size: int) -> None:
        """Everyone still in below ``size`` draws up to it, ``first`` first, then clockwise;
        the face-up trump card, drawn last, is seen by all."""
        for k in range(self.players):
            s = (first + k) % self.players
            if s in self.out:
                continue
            while self.stock and self.hands[s].bit_count() < size:
                c = self.stock.pop()
                self.hands[s] |= bit(c)
                if c == self.trump_card:
                    self.known[s] |= bit(c)

    def _take(self, seat: int, cards: list[int]) -> None:
        self.took = True
        for c in cards:
            self.hands[seat] |= bit(c)
            self.known[seat] |= bit(c)

    # --- output ---------------------------------------------------------------------------

    def trump_text(self) -> str:
        if self.trump_card >= 0:
            return f"trump {card_pretty(self.trump_card)}"
        return f"trump {'♣♦♥♠'[self.trump_suit]}" if self.trump_suit >= 0 else "no trump"

    def view(self, seat: int) -> BoutsView:
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} in a {self.players}-player game")
        return BoutsView(
            seat=seat, players=self.players, variant=self.rules.variant, hand=self.hands[seat],
            hand_counts=tuple(h.bit_count() for h in self.hands),
            known=tuple(k if s != seat else 0 for s, k in enumerate(self.known)),
            trump_suit=self.trump_suit, stock_count=len(self.stock),
            discard_count=self.discard.bit_count(), centre=self.centre(), phase=self.phase,
            table=self.table_text(), to_act=self.to_act, out=tuple(self.out),
            legal=tuple(self.known_legal()) if seat == self.to_act else (),
            outcome=self.outcome, extra=self.public_extra())

    def public_extra(self) -> dict[str, Any]:
        """The public facts a :class:`BoutsView` has no field for: the rules, the face-up
        trump card, the dealer, the action count and the engine's :attr:`PUBLIC` slots
        (lists copied)."""
        extra: dict[str, Any] = {"rules": self.rules, "trump_card": self.trump_card,
                                 "dealer": self.dealer, "moves": self.moves,
                                 "note": self.note}
        for name in self.PUBLIC:
            value = getattr(self, name)
            extra[name] = list(value) if isinstance(value, list) else value
        return extra

    def cards_total(self) -> int:
        return (sum(h.bit_count() for h in self.hands) + len(self.stock)
                + self.discard.bit_count() + len(self.centre()))

    def __str__(self) -> str:
        lines = [self.table_text(), *seat_lines(self.hands, self.to_act, self.outcome)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules.variant} seat {self.to_act} to act>"


_SLOT_NAMES: dict[type[Any], tuple[str, ...]] = {}
"""Every slot of each state class, its bases' included (for :meth:`BoutsState.copy`)."""


def suit_name(suit: int) -> str:
    return SUITS[suit] if suit >= 0 else "-"


__all__ = ["BoutsState", "show", "suit_name"]
