"""Playouts that finish a possible world quickly and sensibly, for Monte Carlo search.

A search bot judges a move by finishing many worlds after it. Uniformly random play is fast but
says little about a position (random defenders take everything), so the default playout here is
*greedy*: every seat plays the cheapest sensible move, with a little randomness so that repeated
playouts differ. "Cheap" is measured generically from the beat table of the deal: a card is worth
as many cards as it can cover, which puts every trump above every plain card in every variant
and needs no per-variant code.

Rules of the greedy playout (each with probability ``epsilon`` replaced by a random legal move):

* lead: the cheapest rank, all its cards at once;
* throw in: the cheapest card if it is a plain card (any card once the stock is empty);
  otherwise pass;
* defend: transfer if the transfer card is cheaper than the cheapest cover, else cover with the
  cheapest card that beats the first uncovered attack card, else take.

Equally cheap moves are told apart by their cards' indices (the lower set of cards first), never
by the order the engine lists them in, so the compiled policy picks exactly the same moves.

Chosen seats may play the heuristic's own rules instead (:func:`heuristic_attack` for leads and
throw-ins, :func:`heuristic_defence` for defence; ``SearchBot.attack_model`` and
``defence_model``): the heuristic is the opponent ``strong`` is measured against and the default
model of an unknown one, and where its rules and the greedy ones part (it throws in queens, and
in the endgame trumps the defender cannot beat; it takes when it cannot cover the whole table)
the greedy rule is a wrong model of him. By default the opponents lead and throw in as the
heuristic does (issue 20, item 3: +5 points against it in podkidnoy and perevodnoy; docs/bots.md).

Both kinds of playout run in the fast kernel when it is installed and plays the variant
(``bito.kernel``; greedy ones in :mod:`bito.kernel.greedy`, which picks the same greedy moves),
otherwise in the reference engine.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Final

from bito import kernel as _kernel  # (numba itself is imported only when the kernel runs)
from bito.bots.heuristic import COVER_SEARCH_NODES, TRUMP_BONUS, HeuristicBot
from bito.bots.solver import load_kernel_solver
from bito.cards import ACE, MATCH_MASKS, cards_of, rank_of
from bito.games.durak import ATTACK, DEFEND, PASS, TRANSFER, Action, DurakState, Outcome
from bito.games.durak.playout import move_generators
from bito.games.durak.state import DEFEND_PHASE, LEAD, THROW

PLAIN_LIMIT: Final = 0.7
"""While the stock lasts, a card is thrown in only if it covers at most this fraction of the
plain cards' maximum (about up to a queen in a 36-card pack)."""


class CardWorth:
    """How many cards each card can cover, for one beat table (cached per table)."""

    __slots__ = ("_by_position", "_defence", "_kernel", "_kernel_defence", "beats",
                 "lead_costs",
                 "limit_empty", "limit_stock", "max_plain", "trumps", "worth")

    def __init__(self, beats: tuple[int, ...], trumps: frozenset[int],
                 plain_limit: float = PLAIN_LIMIT) -> None:
        worth = [0] * len(beats)
        for m in beats:
            while m:
                low = m & -m
                worth[low.bit_length() - 1] += 1
                m ^= low
        self.beats = beats
        self.trumps = trumps
        self.worth = worth
        self._defence: tuple[list[int], list[int]] | None = None
        self._kernel_defence: tuple[Any, int, Any] | None = None
        self._by_position: tuple[Any, int, Any] | None = None
        # The most a plain card (not a trump, not a special card) can cover.
        self.max_plain = max((w for c, w in enumerate(worth)
                              if c % 80 < 64 and c % 80 // 16 not in trumps), default=0)
        # The dearest card thrown in while the stock lasts, and once it is empty.
        self.limit_stock = self.max_plain * plain_limit
        self.limit_empty = self.max_plain * 1.5
        self._kernel: tuple[Any, Any] | None = None
        #: :func:`_lead_cost` by the lead's cards: the cost depends on them alone, and a
        #: look-up is cheaper than the sum (#59's pair-plus-one leads run to hundreds a
        #: lead; a few thousand card sets at most per beat table).
        self.lead_costs: dict[tuple[int, ...], float] = {}

    def kernel_worth(self, index: Any = None) -> object:
        """:attr:`worth` as the int64 array over card indices the compiled playouts read
        (made once per beat table, whose deck has one numbering: ``index``, the
        ``bito.kernel.convert.CardIndex`` of a deck with jokers, or the
        ``bito.kernel.two_decks.DeckTables`` of two decks, by deck position; else None)."""
        numbered = index is not None and not index.identity
        if self._kernel is None or self._kernel[0] is not (index if numbered else None):
            if numbered:
                self._kernel = (index, index.values(self.worth))
            else:
                import numpy as np

                arr = np.zeros(64, np.int64)
                arr[:min(64, len(self.worth))] = self.worth[:64]
                self._kernel = (None, arr)
        return self._kernel[1]


    def defence_values(self) -> tuple[list[int], list[int]]:
        """The heuristic's card values and card flags by card code, for
        :func:`heuristic_defence`: a plain card is worth its worth (rank steps above the
        lowest), a trump :data:`~bito.bots.heuristic.TRUMP_BONUS` plus the trumps it covers,
        as :meth:`bito.bots.heuristic.HeuristicBot.value` has it; the flags say trump
        (:data:`TRUMP_FLAG`), high trump (Q-A) and low trump (6-9 in a 36-card pack)."""
        if self._defence is None:
            n = len(self.beats)
            trump_set = 0
            for c in range(n):
                if c % 80 < 64 and c % 80 // 16 in self.trumps:
                    trump_set |= 1 << c
            values = list(self.worth)
            flags = [0] * n
            covers = [0] * n  # how many trumps each card covers
            for t in range(n):
                if trump_set >> t & 1:
                    m = self.beats[t]  # (the cards that cover trump t)
                    while m:
                        low = m & -m
                        covers[low.bit_length() - 1] += 1
                        m ^= low
            for c in range(n):
                if trump_set >> c & 1:
                    values[c] = TRUMP_BONUS + covers[c]
                    flags[c] = TRUMP_FLAG
                    if rank_of(c) >= ACE - HeuristicBot.high_trump:
                        flags[c] |= HIGH_TRUMP_FLAG
                    if values[c] - TRUMP_BONUS <= HeuristicBot.low_trump:
                        flags[c] |= LOW_TRUMP_FLAG
            self._defence = (values, flags)
        return self._defence

    def kernel_defence(self, index: Any, deck_size: int) -> object:
        """:meth:`defence_values` as the int64 array the compiled heuristic defence reads
        (:data:`bito.kernel.greedy.DEFENCE_SIZE` entries: values over kernel card indices,
        then flags, then the large-stock threshold, the cheapest take, the largest hand
        after a voluntary take, and the attack's thresholds and bonuses)."""
        cached = self._kernel_defence
        if cached is not None and cached[0] is index and cached[1] == deck_size:
            return cached[2]
        import numpy as np

        values, flags = self.defence_values()
        numbered = index is not None and not index.identity
        out = np.zeros(DEFENCE_SIZE, np.int64)
        if numbered:
            out[:64] = index.values(values)
            out[64:128] = index.values(flags)
        else:
            m = min(64, len(values))
            out[:m] = values[:m]
            out[64:64 + m] = flags[:m]
        out[128:] = _defence_constants(deck_size)
        self._kernel_defence = (index, deck_size, out)
        return out

    def two_deck_defence(self, tables: Any, deck_size: int) -> object:
        """:meth:`defence_values` for the two-deck playouts started from the deal
        (``bito.kernel.two_decks``): the values by deck position of ``tables`` (a
        ``DeckTables``, the order of :meth:`kernel_worth`'s), then the flags by deck
        position, then :meth:`kernel_defence`'s constants. More than 64 cards have no fixed
        kernel index, so the playouts re-index the values at every numbering, as they do the
        worths (cached per table)."""
        cached = self._by_position
        if cached is not None and cached[0] is tables and cached[1] == deck_size:
            return cached[2]
        import numpy as np

        values, flags = self.defence_values()
        out = np.concatenate([tables.values(values), tables.values(flags),
                              np.array(_defence_constants(deck_size), np.int64)])
        self._by_position = (tables, deck_size, out)
        return out


def _defence_constants(deck_size: int) -> list[int]:
    """The tail of :meth:`CardWorth.kernel_defence` after the card values and flags."""
    return [deck_size // 4, HeuristicBot.cheap_take, HeuristicBot.max_hand_to_take,
            HeuristicBot.cheap_throw, HeuristicBot.cheap_gift, HeuristicBot.pair_bonus,
            HeuristicBot.unbeatable_bonus, TRUMP_BONUS]


TRUMP_FLAG: Final = 1
HIGH_TRUMP_FLAG: Final = 2
LOW_TRUMP_FLAG: Final = 4
DEFENCE_SIZE: Final = 136
"""Length of :meth:`CardWorth.kernel_defence`'s array."""

DEFENCE_MODELS: Final = ("greedy", "opponents", "all")
"""Who defends (or attacks) in a playout as the heuristic does (:func:`heuristic_defence`,
:func:`heuristic_attack`) rather than by the greedy rule: nobody, the searching seat's
opponents, or every seat."""


def careful_seats(model: str, seat: int, players: int) -> int:
    """The set of seats (a bitmask) whose defence :data:`DEFENCE_MODELS` ``model`` plays as the
    heuristic's."""
    if model == "greedy":
        return 0
    every = (1 << players) - 1
    if model == "all":
        return every
    if model == "opponents":
        return every & ~(1 << seat)
    raise ValueError(f"defence_model and attack_model must each be one of "
                     f"{', '.join(DEFENCE_MODELS)}, not {model!r}")


_WORTH: dict[tuple[int, float], CardWorth] = {}


def card_worth(beats: tuple[int, ...], trumps: frozenset[int],
               plain_limit: float = PLAIN_LIMIT) -> CardWorth:
    """The worths of one beat table (cached), with the dearest card thrown in while the stock
    lasts at ``plain_limit`` of the plain cards' maximum."""
    key = (id(beats), plain_limit)
    hit = _WORTH.get(key)
    if hit is None or hit.beats is not beats:
        if len(_WORTH) > 32:
            _WORTH.clear()
        hit = _WORTH[key] = CardWorth(beats, trumps, plain_limit)
    return hit


_UNSEEN: Final = 1 << 20
"""The worth given to a move without a card of the hand (the Armenian lead from the top of the
stock, #40): the greedy playout plays its own cards first and gambles only when it must."""


def _lead_cost(a: Action, worth: list[int]) -> float:
    n = len(a.cards)
    if n == 0:
        return float(_UNSEEN)
    total = 0
    for c in a.cards:
        total += worth[c]
    return total / n - 2.0 * (n - 1)


def _worth_of(a: Action, w: list[int]) -> int:
    return w[a.cards[0]] if a.cards else _UNSEEN


def _cheaper(a: Action, b: Action, w: list[int]) -> bool:
    """Whether one-card move ``a`` is cheaper than ``b``: by worth, then by the lower card
    index, so that the choice does not depend on the order the moves are listed in."""
    wa, wb = _worth_of(a, w), _worth_of(b, w)
    return wa < wb or (wa == wb and a.mask < b.mask)


def greedy_move(s: DurakState, acts: list[Action], worth: CardWorth) -> Action:
    """The greedy playout's move for the seat to act among ``acts`` (its legal moves)."""
    w = worth.worth
    first = acts[0]
    if first.kind == ATTACK and s.phase == 0:  # lead
        costs = worth.lead_costs
        best = first
        best_cost = _lead_cost(first, w)
        for a in acts:
            c = costs.get(a.cards)
            if c is None:
                c = costs[a.cards] = _lead_cost(a, w)
            if c < best_cost or (c == best_cost and a.mask < best.mask):
                best, best_cost = a, c
        return best
    if acts[-1].kind == PASS:  # throw in (cards low to high, then pass)
        best_throw: Action | None = None
        for a in acts:
            if a.kind == ATTACK and (best_throw is None or _cheaper(a, best_throw, w)):
                best_throw = a
        if best_throw is None:
            return acts[-1]
        limit = worth.limit_stock if s.stock else worth.limit_empty
        if _worth_of(best_throw, w) <= limit:
            return best_throw
        return acts[-1]
    # defend: covers (first uncovered card first), transfers, take
    cover: Action | None = None
    cover_worth = cover_mask = 0
    target = -1
    move: Action | None = None
    for a in acts:
        k = a.kind
        if k == DEFEND:
            if target < 0:
                target = a.target
            if a.target == target:
                # (_cheaper inlined: #59 lists every card of the hand on every attack card)
                wa = w[a.cards[0]] if a.cards else _UNSEEN
                if cover is None or wa < cover_worth or (wa == cover_worth
                                                          and a.mask < cover_mask):
                    cover, cover_worth, cover_mask = a, wa, a.mask
        elif k == TRANSFER:
            if move is None or _cheaper(a, move, w):
                move = a
    if move is not None and (cover is None or _worth_of(move, w) <= _worth_of(cover, w)):
        return move
    if cover is not None:
        return cover
    return acts[-1]  # take


def heuristic_defence(s: DurakState, acts: list[Action], worth: CardWorth) -> Action:
    """The defence of :class:`~bito.bots.heuristic.HeuristicBot` (``_defend``) in a playout:
    transfer with a plain card (in the endgame only when covering would spend a trump), with a
    low trump only instead of taking; take when the hand cannot cover every card, or early on
    when covering cheap plain cards would spend a high trump or two trumps; else the first
    cover of the cheapest plan. The greedy rule covers the first card with its cheapest cover
    even when the rest cannot be covered, and transfers with a trump where the heuristic
    covers: against the heuristic that is a wrong model of the defender (issue 20, item 3).
    Equal cards go to the lower card, as in :func:`greedy_move`; #3's partial covers and #59's
    face-down covers are not modelled."""
    values, flags = worth.defence_values()
    hand = s.hands[s.defender]
    uncovered = [a for a, d in zip(s.attack, s.defence, strict=True) if d == -1]
    plan = _plan_of(hand, uncovered, s.beats, values, flags)
    rather_take = plan is not None and _rather_take(s, hand, plan, values, flags)
    transfer: Action | None = None
    for a in acts:
        if a.kind == TRANSFER and a.cards and (
                transfer is None or values[a.cards[0]] < values[transfer.cards[0]]
                or (values[a.cards[0]] == values[transfer.cards[0]]
                    and a.mask < transfer.mask)):
            transfer = a
    if transfer is not None:
        card = transfer.cards[0]
        if not flags[card] & TRUMP_FLAG:
            if not (plan is not None and not s.stock and plan[2] == 0):
                return transfer
        elif (plan is None or rather_take) and flags[card] & LOW_TRUMP_FLAG:
            return transfer
    if plan is None or rather_take:
        return acts[-1]  # take
    for a in acts:
        if a.kind == DEFEND and a.cards == (plan[0],) and a.target == plan[1]:
            return a
    return acts[-1]


def _plan_of(hand: int, uncovered: list[int], beats: tuple[int, ...], values: list[int],
             flags: list[int]) -> tuple[int, int, int, int] | None:
    """``HeuristicBot.cover_plan`` (the same search, order and node budget) reduced to what
    its defence reads: (the first cover, the attack card it covers, how many trumps the plan
    spends, how many high trumps), or None when the hand cannot cover every card."""
    order = sorted(uncovered, key=lambda c: -values[c])
    options = [sorted(cards_of(hand & beats[a]), key=lambda c: values[c]) for a in order]
    best: list[int] | None = None
    best_cost = 1 << 30
    budget = COVER_SEARCH_NODES
    acc: list[int] = []

    def search(i: int, used: int, cost: int) -> None:
        nonlocal best, best_cost, budget
        if cost >= best_cost or budget <= 0:
            return
        budget -= 1
        if i == len(order):
            best, best_cost = list(acc), cost
            return
        for d in options[i]:
            if not used >> d & 1:
                acc.append(d)
                search(i + 1, used | 1 << d, cost + values[d])
                acc.pop()

    search(0, 0, 0)
    if not best:
        return None
    trumps = sum(1 for d in best if flags[d] & TRUMP_FLAG)
    high = sum(1 for d in best if flags[d] & HIGH_TRUMP_FLAG)
    return best[0], order[0], trumps, high


def _rather_take(s: DurakState, hand: int, plan: tuple[int, int, int, int], values: list[int],
                 flags: list[int]) -> bool:
    """``HeuristicBot._rather_take`` on a world."""
    if len(s.stock) < s.rules.deck_size // 4:
        return False
    table = [*s.attack, *(d for d in s.defence if d >= 0)]
    if any(flags[c] & TRUMP_FLAG or values[c] > HeuristicBot.cheap_take for c in table):
        return False
    if hand.bit_count() + len(table) > HeuristicBot.max_hand_to_take:
        return False
    return plan[3] > 0 or plan[2] >= 2


def heuristic_attack(s: DurakState, acts: list[Action], worth: CardWorth) -> Action:
    """The lead or throw-in of :class:`~bito.bots.heuristic.HeuristicBot` (``_lead``,
    ``_throw``, its ``attack_cost``) in a playout: the cheapest plain rank, all of it;
    throw-ins of plain cards up to a queen (up to a ten to a taker) while the stock lasts,
    every plain card after it, and a trump then only when it is the last card or the defender
    cannot beat it; in the endgame a card the defender cannot beat counts much cheaper. The
    heuristic reads "cannot beat" from its card tracker, exact in a two-player endgame, which
    is the defender's hand in the world. Equal moves go to the lower cards, where the
    heuristic draws lots. Moves of the extra kinds (#39-51) are left to :func:`greedy_move`."""
    values, flags = worth.defence_values()
    lead = s.phase == LEAD
    hand = s.hands[s.to_act]
    endgame = not s.stock
    taking = s.taking
    defender = s.hands[s.defender]
    transfer = lead and s.rules.transfer_enabled
    beats = s.beats
    best: Action | None = None
    best_cost = 0
    for a in acts:
        if a.kind != ATTACK or not a.cards:
            if lead or a.kind != PASS:
                return greedy_move(s, acts, worth)
            continue
        cards = a.cards
        first = cards[0]
        if not lead:  # HeuristicBot._worth_throwing
            if not flags[first] & TRUMP_FLAG:
                if not endgame and values[first] > (
                        HeuristicBot.cheap_gift if taking else HeuristicBot.cheap_throw):
                    continue
            elif not endgame or not (hand.bit_count() == 1 or (
                    not taking and _cannot_beat(defender, (first,), beats, False))):
                continue
        cost = max(values[c] for c in cards)
        trumps = sum(1 for c in cards if flags[c] & TRUMP_FLAG)
        last = len(cards) == hand.bit_count()
        if not trumps:
            cost -= HeuristicBot.pair_bonus * (len(cards) - 1)
        elif not last:
            cost += TRUMP_BONUS * (trumps - 1)
        if endgame and (not trumps or last) and _cannot_beat(defender, cards, beats, transfer):
            cost -= HeuristicBot.unbeatable_bonus
        if best is None or cost < best_cost or (cost == best_cost and a.mask < best.mask):
            best, best_cost = a, cost
    if best is None:
        return acts[-1]  # pass (or, leading, nothing of the hand: greedy_move's choice)
    return best


def _cannot_beat(defender: int, cards: tuple[int, ...], beats: tuple[int, ...],
                 transfer: bool) -> bool:
    """``HeuristicBot._defender_cannot_beat`` with the defender's hand known (a card's rank
    as the rules match it, so a joker matches the jokers, as the kernel has it; the
    heuristic's rank mask lets a joker match the deuces)."""
    if transfer and any(defender & MATCH_MASKS[c] for c in cards):
        return False
    return any(not defender & beats[c] for c in cards)


def greedy_playout(state: DurakState, rng: random.Random, epsilon: float = 0.1,
                   max_moves: int = 5000, plain_limit: float = PLAIN_LIMIT,
                   careful: int = 0, shrewd: int = 0) -> Outcome | None:
    """Finish a copy of ``state`` with greedy play; the outcome (None if it ran too long).
    The seats in the bitmask ``careful`` defend as the heuristic does
    (:func:`heuristic_defence`), those in ``shrewd`` lead and throw in as it does
    (:func:`heuristic_attack`)."""
    end = greedy_finish(state, rng, epsilon, max_moves, plain_limit, careful, shrewd)
    return None if end is None else end.outcome


def greedy_finish(state: DurakState, rng: random.Random, epsilon: float = 0.1,
                  max_moves: int = 5000, plain_limit: float = PLAIN_LIMIT,
                  careful: int = 0, shrewd: int = 0) -> DurakState | None:
    """:func:`greedy_playout`, returning the finished copy (its hands give the margin)."""
    s = state.copy()
    worth = card_worth(s.beats, s.deal.trump.suits, plain_limit)
    rand = rng.random
    step = s.step_unchecked
    generate = move_generators(s)
    moves = 0
    while s.outcome is None:
        acts = generate[s.phase]()
        if len(acts) == 1:
            a = acts[0]
        elif s.phase > THROW or rand() < epsilon:
            # (a gift, a call, an exchange choice: no greedy rule, so a random one)
            a = acts[int(rand() * len(acts))]
        elif careful and s.phase == DEFEND_PHASE and careful >> s.defender & 1:
            a = heuristic_defence(s, acts, worth)
        elif shrewd and s.phase != DEFEND_PHASE and shrewd >> s.to_act & 1:
            a = heuristic_attack(s, acts, worth)
        else:
            a = greedy_move(s, acts, worth)
        step(a)
        moves += 1
        if moves > max_moves:
            return None
    return s


def kernel_greedy_usable(state: DurakState) -> bool:
    """Whether :func:`greedy_scores` runs ``state`` in the kernel (else in Python)."""
    return _kernel.available() and _kernel.supports_state(state)


COMPILED_ENTRY_POINTS: tuple[tuple[str, str], ...] = (
    ("greedy", "greedy_move_values"), ("solver", "value_to_act"),
    ("two_decks", "two_deck_move_values"))
"""The compiled functions a search level loads before its first decision (module of
:mod:`bito.kernel`, function): the greedy playouts, the endgame search, and the greedy
playouts of #21's first bouts. Each keeps its machine code in numba's on-disk cache; the
helpers they call are compiled into them."""

COMPILE_SECONDS = (40, 90)
"""How long compiling :data:`COMPILED_ENTRY_POINTS` from an empty cache takes, in seconds:
33.5 s measured at load 6 on the 2-core development machine (``tools/bot_latency.py
--cold``) before the two-deck playouts, the endgame search some 25 s of it; with them 71 s at
load 10, against 43.5 s without them in the same minute; a slower or busier machine takes
longer."""


def compiled_search_cached() -> bool:
    """Whether numba's on-disk cache holds every compiled piece a search level loads (so
    loading is a second or two), rather than only some: a missing one is compiled on load,
    which is the pause a player should be warned of. Looks for each function's cache index
    under its current source line (a moved function is compiled afresh) in
    ``NUMBA_CACHE_DIR`` and beside the kernel's sources. False without the kernel."""
    if not _kernel.available():
        return False
    import importlib
    import os
    from pathlib import Path

    from bito import kernel

    folders = [Path(os.environ["NUMBA_CACHE_DIR"])] if os.environ.get("NUMBA_CACHE_DIR") else []
    folders.append(Path(kernel.__file__).parent / "__pycache__")
    folders = [f for f in folders if f.is_dir()]
    for module, function in COMPILED_ENTRY_POINTS:
        dispatcher = getattr(importlib.import_module(f"bito.kernel.{module}"), function)
        line = dispatcher.py_func.__code__.co_firstlineno
        pattern = f"{module}.{function}-{line}.py*.nbi"
        if not any(any(folder.rglob(pattern)) for folder in folders):
            return False
    return True


@functools.cache
def load_kernel_greedy() -> bool:
    """Load the compiled greedy playouts now (once per process; about a second and a half to
    import numba and load the machine code from its cache), so that the first decision of a
    search bot is not the one that pays; and the compiled endgame search with them (a quarter
    of a second more), which the first endgame would otherwise load inside its budget. Whether
    the playouts are usable here."""
    if not _kernel.available():
        return False
    from bito.games.durak import new_game

    state = new_game("podkidnoy", 2, seed=0)
    greedy_scores(state, state.legal_actions()[:1], 0, 0)
    state = new_game("big_fool", 2, seed=0)  # (two decks from the deal: bito.kernel.two_decks)
    greedy_scores(state, state.legal_actions()[:1], 0, 0)
    load_kernel_solver()
    return True


def greedy_scores(world: DurakState, moves: list[Action], seat: int, seed: int,
                  epsilon: float = 0.1, plain_limit: float = PLAIN_LIMIT,
                  careful: int = 0, shrewd: int = 0, margin: float = 0.0) -> list[float]:
    """Play each move in ``world`` and finish the game with a greedy playout, every move from
    the same random numbers; the score of each for ``seat`` (1 not the fool, ½ a two-player
    draw or a playout that ran too long, 0 the fool). The seats in the bitmask ``careful``
    defend as the heuristic does, those in ``shrewd`` attack as it does
    (:func:`careful_seats`). A ``margin`` above 0 adds to a win (and takes from a loss)
    that share of a point for each card the fool is left holding, up to a hand's worth
    (a hand of cards left: the whole ``margin``): a near thing then scores nearer a draw.
    In the kernel when
    :func:`kernel_greedy_usable`, else with :func:`greedy_playout`."""
    if kernel_greedy_usable(world):
        import numpy as np

        from bito.kernel.convert import action_code, converted
        from bito.kernel.greedy import EPSILON_SCALE, greedy_move_values

        array, index = converted(world)
        codes = [action_code(a, index) for a in moves]
        totals = np.zeros(len(moves), np.float64)
        worth = card_worth(world.beats, world.deal.trump.suits, plain_limit)
        greedy_move_values(array, np.array([c[0] for c in codes], np.int64),
                           np.array([c[1] for c in codes], np.int64),
                           seed & ((1 << 63) - 1), worth.kernel_worth(index),
                           worth.limit_stock,
                           worth.limit_empty,
                           int(epsilon * EPSILON_SCALE), seat, _kernel.MAX_STEPS, totals,
                           worth.kernel_defence(index, world.rules.deck_size), careful,
                           shrewd, margin)
        return [float(x) for x in totals]
    if _kernel.available() and _kernel.supports_two_deck_start(world):
        from bito.kernel.two_decks import two_deck_start

        start = two_deck_start(world)
        if start is not None:
            return _two_deck_scores(start, world, moves, seat, seed, epsilon, plain_limit,
                                    careful, shrewd, margin)
    return [_python_score(world, a, seat, seed, epsilon, plain_limit, careful, shrewd, margin)
            for a in moves]


def _python_score(world: DurakState, move: Action, seat: int, seed: int, epsilon: float,
                  plain_limit: float, careful: int = 0, shrewd: int = 0,
                  margin: float = 0.0) -> float:
    """One move of :func:`greedy_scores` played and finished in Python."""
    child = world.copy()
    child.step_unchecked(move)
    end: DurakState | None = child
    if child.outcome is None:
        end = greedy_finish(child, random.Random(seed), epsilon, plain_limit=plain_limit,
                            careful=careful, shrewd=shrewd)
    outcome = None if end is None else end.outcome
    if end is None or outcome is None:
        return 0.5
    score = seat_score(outcome.loser, outcome.draw, seat, world.deal.players)
    if margin and outcome.loser is not None:
        held = min(end.hands[outcome.loser].bit_count(), world.deal.hand_size)
        share = margin * held / world.deal.hand_size
        score += -share if outcome.loser == seat else share
    return score


def _two_deck_scores(start: Any, world: DurakState, moves: list[Action], seat: int, seed: int,
                     epsilon: float, plain_limit: float, careful: int, shrewd: int,
                     margin: float) -> list[float]:
    """:func:`greedy_scores` of a two-deck position with more than 63 cards in play, on the
    kernel from its start (``bito.kernel.two_decks``), the heuristic's models and the margin
    included; a playout the kernel gives back (its short stock ran low before the discard
    made room) is played in Python with the same models and margin."""
    from bito.kernel.greedy import EPSILON_SCALE
    from bito.kernel.two_decks import greedy_values

    worth = card_worth(world.beats, world.deal.trump.suits, plain_limit)
    totals, given_back = greedy_values(
        start, moves, seat, seed, worth.kernel_worth(start.tables), worth.limit_stock,
        worth.limit_empty, int(epsilon * EPSILON_SCALE), _kernel.MAX_STEPS,
        worth.two_deck_defence(start.tables, world.rules.deck_size), careful, shrewd, margin)
    return [_python_score(world, a, seat, seed, epsilon, plain_limit, careful, shrewd, margin)
            if given_back[i] else float(totals[i]) for i, a in enumerate(moves)]


def seat_score(loser: int | None, draw: bool, seat: int, players: int) -> float:
    """A finished playout's score for ``seat``, as the arena counts a game: 0 the fool, ½ a
    two-player draw, 1 otherwise."""
    if loser == seat:
        return 0.0
    if draw and players == 2:
        return 0.5
    return 1.0


def random_loser(state: DurakState, rng: random.Random) -> tuple[int | None, bool]:
    """Finish ``state`` with random play: (the fool or None, whether it was a draw). Uses the
    fast kernel (``bito.kernel``) when it is installed; it falls back to the reference engine
    itself for rules it does not play."""
    loser = _kernel.random_playout(state, rng.randrange(1 << 62))
    return loser, loser is None


__all__ = [
    "COMPILED_ENTRY_POINTS",
    "COMPILE_SECONDS",
    "DEFENCE_MODELS",
    "DEFENCE_SIZE",
    "HIGH_TRUMP_FLAG",
    "LOW_TRUMP_FLAG",
    "PLAIN_LIMIT",
    "TRUMP_FLAG",
    "CardWorth",
    "card_worth",
    "careful_seats",
    "compiled_search_cached",
    "greedy_finish",
    "greedy_move",
    "greedy_playout",
    "greedy_scores",
    "heuristic_attack",
    "heuristic_defence",
    "kernel_greedy_usable",
    "load_kernel_greedy",
    "random_loser",
    "seat_score",
]
