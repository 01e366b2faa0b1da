"""The Durak state machine (VARIANTS.md §1.3): bouts of attack, defence, throw-in and transfer.

One seat acts at a time:

* ``LEAD``: the attacker opens the bout (:data:`~bito.games.durak.actions.ATTACK`).
* ``DEFEND``: the defender covers one card at a time, transfers, or takes.
* ``THROW``: once everything is covered, or the defender has declared *take*, the throwers are
  asked in priority order (the main attacker first, then clockwise). A thrower may throw in
  several cards one at a time and then passes; the right goes round until every thrower has
  passed in a row. Then the defender covers what was added, picks up (after *take*), or the
  bout is *bito*.

A seat that holds no card is skipped (hand sizes are public); a seat that could throw but may
not want to must say ``pass``, so silence never reveals a hand.

The state is immutable from outside: :meth:`DurakState.apply` returns a new state. Search and
playouts may use the in-place :meth:`DurakState.step_unchecked` on a copy they own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, fields
from typing import Final

from bito.cards import (
    MATCH_MASKS,
    card_pretty,
    card_str,
    cards_count,
    cards_of,
    is_mega,
    is_special,
    suit_of,
)
from bito.errors import IllegalActionError
from bito.games.durak.actions import (
    ATTACK,
    DEFEND,
    GIVE,
    PASS,
    PASS_ACTION,
    TAKE,
    TAKE_ACTION,
    TRANSFER,
    Action,
    Revealed,
)
from bito.games.durak.beats import beat_table_of
from bito.games.durak.hooks import (
    DEAL_OUTCOME,
    DECIDER,
    NEXT_ATTACKER,
    PICKED_UP,
    THROW_IN_ORDER,
    DealOutcome,
    Decided,
    Decider,
    GoingOut,
    HookSet,
    Laid,
    LeadShape,
    Moment,
    NextAttacker,
    NextBout,
    PickedUp,
    Played,
    Stage,
    Stepping,
    ThrowInOrder,
    Transferred,
    Turn,
)
from bito.games.durak.phases import NEUTRAL, PHASE_NAMES, Phase
from bito.games.durak.reasons import Refused, TransferBar, TransferRefusal
from bito.games.durak.setup import Deal
from bito.games.durak.view import DurakView, make_view, seen_action
from bito.games.protocol import Hidden, Outcome, PlayAction
from bito.rules import Rules

# The phases by their old names, as plain ints (what a state holds; see actions.Kind for why).
LEAD, DEFEND_PHASE, THROW, OVER, GIVE_PHASE = (int(p) for p in (
    Phase.LEAD, Phase.DEFEND, Phase.THROW, Phase.OVER, Phase.GIVE))
# The hooks' turning points of a bout and stages of a deal, as the plain ints the engine
# carries (see the phases above).
ALL_COVERED: Final = int(Turn.ALL_COVERED)
TAKE_DECLARED: Final = int(Turn.TAKE_DECLARED)
ROUND_OPEN: Final = int(Turn.ROUND_OPEN)
ROUND_OVER: Final = int(Turn.ROUND_OVER)
TRANSFER_BACK: Final = int(Turn.TRANSFER_BACK)
REFILL: Final = int(Turn.REFILL)
GAME_END: Final = int(Turn.GAME_END)
DEALT: Final = int(Stage.DEALT)
REFILLED: Final = int(Stage.REFILLED)
BOUT_OPENED: Final = int(Stage.BOUT_OPENED)
CALL_PHASE: Final = int(Phase.CALL)  # the attacker believes or doubts face-down covers
#: The memory of a state no rule has written to: shared, so read-only by its type (a plain
#: dict rather than a proxy, so that states still pickle and deep-copy).
NO_MEMORY: Final[Mapping[str, object]] = {}
EXCHANGE_PHASE: Final = int(Phase.EXCHANGE)  # exchange.mode=choose: players choose cards to pass
_BIG: Final = 1 << 30
#: Every card with a suit (special cards, suit 4, left out), for both copies.
_SUITED: Final = sum(1 << c for c in range(160) if not is_special(c))

_ATTACK1: Final = [Action(ATTACK, (c,)) for c in range(160)]
_TRANSFER1: Final = [Action(TRANSFER, (c,)) for c in range(160)]
#: ``_DEFEND_ROWS[a][d]`` is the action "cover ``a`` with ``d``", made on first use: a flat
#: list index is the cheapest lookup in the defender's move generation.
_DEFEND_ROWS: Final[list[list[Action | None]]] = [[None] * 160 for _ in range(160)]
#: The -1 ("uncovered") entries that ``defence`` gains when n attack cards are played.
_UNCOVERED: Final = tuple((-1,) * n for n in range(161))
#: Whether a ``defence`` entry is a card (not -1), as a C-level predicate for ``filter``.
_IS_CARD: Final = (-1).__ne__
#: ``_RANK_MASK_AT[low.bit_length()]`` is the rank mask of the card whose bit is ``low``
#: (``MATCH_MASKS[low.bit_length() - 1]`` with the arithmetic done in advance).
_RANK_MASK_AT: Final = (0, *(MATCH_MASKS[c] for c in range(160)))
#: As many cards as one rank group can hold (four suits, two copies): a lead limit at least
#: this large allows every subset of a group, so limits are clamped to it.
_GROUP_MAX: Final = 8


def _defend_action(d: int, a: int) -> Action:
    act = _DEFEND_ROWS[a][d]
    if act is None:
        act = _DEFEND_ROWS[a][d] = Action(DEFEND, (d,), a)
    return act


#: ``_GROUP_LEADS[most][group]``: the leads :func:`_group_leads` finds for one rank group.
_GROUP_LEADS: Final[list[dict[int, tuple[Action, ...]]]] = [{} for _ in range(_GROUP_MAX + 1)]


def _group_leads(group: int, most: int) -> tuple[Action, ...]:
    """Every non-empty subset of at most ``most`` (<= :data:`_GROUP_MAX`) cards of one rank
    group, a single card included (cached: there are few distinct groups, so move generation
    allocates nothing)."""
    hit = _GROUP_LEADS[most].get(group)
    if hit is None:
        cards = cards_of(group)
        n = len(cards)
        hit = tuple(Action(ATTACK, tuple(cards[i] for i in range(n) if sub >> i & 1))
                    for sub in range(1, 1 << n) if sub.bit_count() <= most)
        _GROUP_LEADS[most][group] = hit
    return hit


#: ``_PAIR_PLUS_ONE[hand]``: the leads :func:`pair_plus_one` finds for one hand. A playout
#: asks for the same few hands again and again (every move of a decision is played out from
#: the same world), and building the trios was half the CPU time of a search over face-down covers.
_PAIR_PLUS_ONE: Final[dict[int, tuple[Action, ...]]] = {}
_PAIR_PLUS_ONE_MAX: Final = 1 << 14
#: The lead of each set of three cards, by its cards (a look-up without the call that
#: interns a new action).
_TRIOS: Final[dict[tuple[int, int, int], Action]] = {}


def pair_plus_one(hand: int) -> tuple[Action, ...]:
    """Leads of a pair plus any one more card (Rozaliev's simple fool, S1:53): for each pair
    (lower card first, then the higher), each other card low to high, every set of three
    listed once, where it first occurs (cached per hand)."""
    hit = _PAIR_PLUS_ONE.get(hand)
    if hit is not None:
        return hit
    cards = cards_of(hand)
    out = []
    for i, a in enumerate(cards):
        rank = a & 15
        for b in cards[i + 1:]:
            if b & 15 != rank:
                continue
            for extra in cards:
                if extra in (a, b):
                    continue
                if extra & 15 == rank:
                    if extra < b:
                        continue  # the three of a rank came first from its two lowest
                    trio = (a, b, extra)
                elif extra < a:
                    trio = (extra, a, b)
                elif extra < b:
                    trio = (a, extra, b)
                else:
                    trio = (a, b, extra)
                act = _TRIOS.get(trio)
                if act is None:
                    act = _TRIOS[trio] = Action(ATTACK, trio)
                out.append(act)
    if len(_PAIR_PLUS_ONE) >= _PAIR_PLUS_ONE_MAX:
        _PAIR_PLUS_ONE.clear()
    hit = _PAIR_PLUS_ONE[hand] = tuple(out)
    return hit


def thrower_order(n: int, attacker: int, defender: int, out_mask: int,
                  neighbours_only: bool) -> tuple[int, ...]:
    """Throw-in priority: the main attacker, then clockwise, never the defender or a player who
    is out; with ``throw_in.by=neighbours`` only the defender's two neighbours in play.

    Public for code that rebuilds a bout from a view (the bots' world sampler) and must agree
    with the engine on who throws next."""
    order = [s for s in ((attacker + i) % n for i in range(n))
             if s != defender and not out_mask >> s & 1]
    if neighbours_only:
        in_play = [s for s in ((defender + i) % n for i in range(1, n)) if not out_mask >> s & 1]
        if in_play:
            order = [s for s in order if s in (in_play[0], in_play[-1])]
    return tuple(order)


def _draw_sequence(n: int, rule: str, leader: int, attacker: int, defender: int,
                   out_mask: int) -> tuple[int, ...]:
    """Refill order (VARIANTS.md §1.7, B7) among the players still in the game."""
    start = attacker if rule == "right_of_defender_first" else leader
    ring = [(start + i) % n for i in range(n)]
    if rule == "attacker_then_strict_clockwise":
        seq = ring
    elif rule == "defender_first":
        seq = [defender] + [s for s in ring if s != defender]
    else:
        seq = [s for s in ring if s != defender] + [defender]
    return tuple(s for s in seq if not out_mask >> s & 1)


def closes(cover: int, attack: int, deal: Deal) -> bool:
    """Does this cover close throw-ins for the rest of the bout? An identical twin or a
    wild card or joker (the shared joker convention).

    Public for the same reason as :func:`thrower_order`: a world sampler that rebuilds a bout
    must close it exactly when the engine would."""
    rules = deal.rules
    if rules.beats_identical == "allowed_blocks" and cover % 80 == attack % 80:
        return True
    return ((rules.specials_cover_ends_throw_in or rules.specials_cover_clears_table)
            and is_special(cover) and not is_mega(cover))


_OUTCOME_DEFAULTS: dict[str, object] = {
    f.name: f.default for f in fields(Outcome) if f.default is not MISSING}
"""Every field of :class:`Outcome` that has a default, at it (what ``_new_outcome`` does not
set itself)."""


def _new_outcome(loser: int | None, order: tuple[int, ...], draw: bool, reason: str
                 ) -> Outcome:
    """``Outcome(loser, order, draw, reason)``, the other fields at their defaults: equal
    field for field, without the frozen dataclass's ``__init__`` and its
    ``object.__setattr__`` call per field (every game ends in one, and a run of random games
    pays for it thousands of times)."""
    made = object.__new__(Outcome)
    made.__dict__.update(_OUTCOME_DEFAULTS)
    made.__dict__.update(loser=loser, order=order, draw=draw, reason=reason)
    return made


class DurakState:
    """A position of a Durak-family game. See the module docstring for the flow."""

    __slots__ = (
        "deal", "hands", "known", "stock", "discard", "attack", "defence", "uncovered",
        "table_ranks", "phase", "to_act", "attacker", "leader", "defender", "taking",
        "throwers", "t_idx", "passes", "bout", "out", "out_mask", "outcome", "last_bout",
        "_legal", "beats", "table_mask", "closed", "seen", "revealed", "aside",
        "idle", "memory",
    )

    deal: Deal
    hands: list[int]
    known: list[int]
    stock: list[int]
    discard: int
    attack: list[int]
    defence: list[int]
    uncovered: int
    table_ranks: int
    phase: int
    to_act: int
    attacker: int
    leader: int
    defender: int
    taking: bool
    throwers: tuple[int, ...]
    t_idx: int
    passes: int
    bout: int
    out: list[int]
    out_mask: int
    outcome: Outcome | None
    last_bout: tuple[int, ...]
    _legal: list[Action] | None
    #: What beats what for the current defender (and attacker): ``beats[a]`` is the mask of
    #: the cards that may cover ``a``. Public (read-only outside the engine) because bots
    #: value cards by it and key their caches on it: it is replaced, never changed, when the
    #: beat context changes (personal trumps, a turned secret trump), so ``is`` tells a
    #: searcher that its cached values still hold. World samplers set it from the view.
    beats: tuple[int, ...]
    #: The cards on the table (attack and defence) as a bitmask, kept by
    #: :meth:`step_unchecked` so that ending a bout need not rebuild it; variant hooks that
    #: lay or lift cards keep it too, and code that rewrites ``attack``/``defence`` in place
    #: sets it (or sets -1). -1 while unknown: :meth:`start` cannot know
    #: whether the caller will lay cards on the table by assigning ``attack``/``defence``
    #: (as :mod:`bito.notation` does), so the first bout's end rebuilds it from the lists
    #: (-1 | anything stays -1 until then).
    table_mask: int
    #: The positions that opened a bout since a card was last drawn, for ``end.repetition``:
    #: a tuple shared between copies and replaced (never changed) when a bout opens.
    seen: tuple[tuple[int, ...], ...]
    #: A secret trump card: whether the secret card has been turned (its suit is trump now),
    #: and the cards set aside out of the stock (the secret card while it lies there).
    revealed: bool
    aside: int
    #: Bouts in a row that ended in a take with nobody drawing or going out
    #: (``end.idle_bouts``), in the low 16 bits; above them, how many were out at the last.
    idle: int
    #: What the rules with memory of their own remember during a game, each under its key
    #: (:class:`bito.games.durak.hooks.Memory`: a typed, frozen record, or a count or
    #: bitmask of seats), which only the rule's own module reads and writes (through
    #: :meth:`remember`): a mapping replaced, never changed, so copies may share it. Empty
    #: in the base game.
    memory: Mapping[str, object]

    @classmethod
    def start(cls, deal: Deal) -> DurakState:
        s = object.__new__(cls)
        s.deal = deal
        s.hands = list(deal.hands)
        s.known = list(deal.shown)
        s.stock = list(deal.stock)
        s.discard = 0
        s.attack = []
        s.defence = []
        s.uncovered = 0
        s.table_ranks = 0
        s.phase = LEAD
        s.to_act = s.attacker = s.leader = deal.first_attacker
        s.defender = deal.first_defender
        s.taking = False
        s.throwers = ()
        s.t_idx = 0
        s.passes = 0
        s.bout = 0
        s.out = []
        s.out_mask = 0
        s.outcome = None
        s.last_bout = ()
        s.closed = False
        s.seen = ()
        s.revealed = False
        hidden = deal.trump.hidden
        s.aside = 1 << hidden if hidden >= 0 else 0
        s.idle = 0
        s.memory = NO_MEMORY
        s._legal = None
        s.beats = s.beat_table()
        s.table_mask = -1
        for on in deal.hooks.on_at.get(DEALT, ()):  # a hook's memory of the deal (a buy-in)
            on(s, DEALT)
        return s

    @classmethod
    def placed(cls, deal: Deal, *, discard: int, attack: list[int], defence: list[int],
               out: list[int], attacker: int, leader: int, revealed: bool, aside: int
               ) -> DurakState:
        """A state in the middle of a deal, set up from its parts (the position reader's
        constructor): the table's counts and ranks and the mask of seats out are worked out
        here from the lists, so they agree."""
        s = cls.start(deal)
        s.revealed = revealed
        s.aside = aside
        s.discard = discard
        s.attack = attack
        s.defence = defence
        s.uncovered = sum(1 for c in defence if c == -1)
        for c in attack + [c for c in defence if c >= 0]:
            s.table_ranks |= MATCH_MASKS[c]
        s.out = out
        s.out_mask = sum(1 << x for x in out)
        s.attacker = attacker
        s.leader = leader
        return s

    def place_bout(self, *, defender: int, taking: bool, bout: int, closed: bool,
                   phase: int) -> None:
        """The bout of a placed state (:meth:`placed`): who defends, the take, the bout's
        number, whether throw-ins are closed, the phase; the beat table follows the
        defender."""
        self.defender = defender
        self.taking = taking
        self.bout = bout
        self.closed = closed
        self.phase = phase
        self.beats = self.beat_table()

    def place_round(self, throwers: tuple[int, ...], t_idx: int, passes: int) -> None:
        """A throw-in round of a placed state as the text gives it (who throws, whose turn
        among them, the passes in a row)."""
        self.throwers = throwers
        self.t_idx = t_idx
        self.passes = passes

    def place_counts(self, idle: int) -> None:
        """The counts of a placed state: ``end.idle_bouts``' count (bouts, and players out
        in the bits above 16)."""
        self.idle = idle

    def place_outcome(self, outcome: Outcome) -> None:
        """The outcome of a placed deal that is over, as the text gives it: nobody acts."""
        self.to_act = -1
        self.outcome = outcome

    def beat_table(self) -> tuple[int, ...]:
        """The table of what beats what for the current defender (and attacker), built anew;
        :attr:`beats` holds the current one."""
        deal = self.deal
        trumps, high, wild, binding = deal.trump.context(self.defender, self.attacker,
                                                         self.revealed)
        return beat_table_of(deal.rules, trumps, high, wild, binding)

    def copy(self) -> DurakState:
        """An independent copy (for in-place search and playouts)."""
        s = object.__new__(DurakState)
        s.deal = self.deal
        s.hands = self.hands[:]
        s.known = self.known[:]
        s.stock = self.stock[:]
        s.discard = self.discard
        s.attack = self.attack[:]
        s.defence = self.defence[:]
        s.uncovered = self.uncovered
        s.table_ranks = self.table_ranks
        s.phase = self.phase
        s.to_act = self.to_act
        s.attacker = self.attacker
        s.leader = self.leader
        s.defender = self.defender
        s.taking = self.taking
        s.throwers = self.throwers
        s.t_idx = self.t_idx
        s.passes = self.passes
        s.bout = self.bout
        s.out = self.out[:]
        s.out_mask = self.out_mask
        s.outcome = self.outcome
        s.last_bout = self.last_bout
        s.closed = self.closed
        s.seen = self.seen
        s.revealed = self.revealed
        s.aside = self.aside
        s.idle = self.idle
        s.memory = self.memory
        s._legal = None
        s.beats = self.beats
        s.table_mask = self.table_mask
        return s

    # --- what the views and the position text read of rules' memory ------------------------
    # (read-only: each rule's own module writes its memory, :class:`hooks.Memory`)

    # --- public protocol -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self.deal.rules

    @property
    def players(self) -> int:
        return self.deal.players

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    @property
    def trumps(self) -> frozenset[int]:
        """The trump suits now: after a hidden card is turned, its suit; with trumps that
        follow the seats, the defender's."""
        return self.deal.trump.suits_of(self.defender, self.revealed)

    @property
    def trump_suit(self) -> int:
        """The trump suit now (the lowest-numbered one if there are two; -1: none)."""
        trumps = self.trumps
        return min(trumps) if trumps else -1

    @property
    def trump_card(self) -> int:
        return self.deal.trump_card

    def legal_actions(self) -> list[Action]:
        """Every action the seat :attr:`to_act` may take now (empty once the game is over).

        The list is the caller's own: changing it cannot change the state."""
        return list(self.legal_list())

    def legal_list(self) -> list[Action]:
        """The legal actions as the state's own cached list: the allocation-free form of
        :meth:`legal_actions` for search and playout loops that ask once per node. Never
        change it and never hand it out (the state would change with it)."""
        acts = self._legal
        if acts is None:
            hooks = self.deal.hooks
            if hooks.moves:  # a variant makes some phases' moves itself, or amends them
                acts = self._hooked_moves(hooks)
            else:
                acts = _CORE_MOVES[self.phase](self)
            self._legal = acts
        return acts

    def _hooked_moves(self, hooks: HookSet) -> list[Action]:
        """The moves under these hooks: the base game's, or none in a phase whose moves a
        hook makes, handed through each hook's ``moves`` (that hook's first)."""
        asked = hooks.moves_at.get(self.phase)
        if asked is None:
            acts = _CORE_MOVES[self.phase](self)
            asked = hooks.moves
        else:
            acts = []
        for moves in asked:
            acts = moves(self, acts)
        return acts

    def forget_legal(self) -> None:
        """Drop the cached legal actions. Code that rewrites a state's cards in place (a
        world sampler dealing hidden hands, the sweep's swapped twin) must call it, since the
        cache was computed from the old cards."""
        self._legal = None

    def seeing_actions(self) -> list[Action]:
        """The plays a player who saw his hand could make (public for the hands held face out,
        which check a turned-up card against these)."""
        ph = self.phase
        if ph == DEFEND_PHASE:
            return self._defend_actions()
        if ph == THROW:
            return self._throw_actions()
        if ph == LEAD:
            return self._lead_actions()
        return []

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_list()

    def apply(self, action: PlayAction) -> DurakState:
        """The state after ``action``; this state is left untouched.

        Raises :class:`IllegalActionError` naming the rule the action breaks.
        """
        if not isinstance(action, Action):
            raise IllegalActionError(Refused.NOT_THIS_GAME, f"{action} is not a move of Durak")
        if action not in self.legal_list():
            raise self.explain_illegal(action)
        s = self.copy()
        s.step_unchecked(action)
        return s

    # --- move generation -------------------------------------------------------------------

    def room(self) -> int:
        """How many more attack cards the bout can take now (VARIANTS.md §1.5 caps).

        The move generators and the throw round inline these three lines: they run on most
        moves, and a call costs as much as the arithmetic."""
        deal = self.deal
        by_cap = (self.bout_cap() if deal.cap_varies else deal.cap) - len(self.attack)
        by_hand = self.hands[self.defender].bit_count() - self.uncovered
        return by_cap if by_cap < by_hand else by_hand

    def bout_cap(self) -> int:
        """The most attack cards this bout may hold, under the caps that change during a deal
        (``Deal.cap_varies``): a first bout's cap, none once the stock is gone."""
        deal = self.deal
        cap = deal.cap
        if deal.first_bout_cap and not self.bout and not self.taking:
            cap = deal.first_bout_cap
        if deal.uncapped_after_stock and not self.stock:
            cap = _BIG
        return cap

    def lead_limit(self) -> int:
        """The most cards a lead may hold now: the bout's room (§1.5) and ``lead.max`` (§1.4).
        Public for the lead rules' hook, which lists leads its own way
        within the same limit."""
        deal = self.deal
        by_cap = (self.bout_cap() if deal.cap_varies else deal.cap) - len(self.attack)
        by_hand = self.hands[self.defender].bit_count() - self.uncovered
        limit = by_cap if by_cap < by_hand else by_hand  # room()
        return limit if limit < deal.lead_max else deal.lead_max

    def _lead_actions(self) -> list[Action]:
        """Leads in a fixed order: rank groups by their lowest card, each group's subsets in
        :func:`_group_leads` order (then Rozaliev's pair-plus-one leads)."""
        limit = self.lead_limit()
        if limit <= 0:
            return []
        return self.shape_leads(self.hands[self.to_act], limit)

    def shape_leads(self, hand: int, limit: int) -> list[Action]:
        """The leads of ``hand`` of at most ``limit`` cards under ``lead.shape`` (B2)."""
        deal = self.deal
        shaped = deal.hooks.lead_shape
        if shaped:  # a lead shape of a variant's (one suit)
            leads: list[Action] | None = shaped[0](self, LeadShape(hand, limit), None)
            if leads is not None:
                return leads
        acts: list[Action] = []
        most = deal.lead_most  # 1: single cards only; 2: one or two of a rank; 0: no limit
        if not most or most > limit:
            most = limit if limit < _GROUP_MAX else _GROUP_MAX
        if most == 1:
            while hand:
                low = hand & -hand
                acts.append(_ATTACK1[low.bit_length() - 1])
                hand ^= low
            return acts
        known_groups = _GROUP_LEADS[most]
        m = hand
        while m:
            group = hand & _RANK_MASK_AT[(m & -m).bit_length()]
            m ^= group
            acts += known_groups.get(group) or _group_leads(group, most)
        if deal.lead_pair_plus_one and limit >= 3:
            acts += pair_plus_one(hand)
        return acts

    def _defend_actions(self) -> list[Action]:
        """Covers (attack cards in play order, each with the defender's cards low to high),
        then transfers, then take."""
        hand = self.hands[self.defender]
        beats = self.beats
        acts: list[Action] = []
        for a, d in zip(self.attack, self.defence, strict=True):
            if d == -1:
                m = hand & beats[a]
                if m:
                    row = _DEFEND_ROWS[a]
                    while m:
                        low = m & -m
                        c = low.bit_length() - 1
                        acts.append(row[c] or _defend_action(c, a))
                        m ^= low
        deal = self.deal
        # (transfer_block's own first checks, ahead of the call: most positions fail them)
        if (deal.transfer and (self.uncovered == len(self.attack) or deal.transfer_loose)
                and self.transfer_block() is None):
            # Jokers and wild cards never transfer (§3.3), save the joker gifts' pass-on (a
            # hook's).
            target = self.transfer_rank_card() if deal.transfer_loose else self.attack[0]
            m = hand & MATCH_MASKS[target] & _SUITED
            rules = deal.rules
            if m & (m - 1) and (rules.transfer_cards_per_action == "group"
                                or rules.transfer_must_include_all_of_rank):
                acts += self._group_transfers(m)
            else:
                while m:
                    low = m & -m
                    acts.append(_TRANSFER1[low.bit_length() - 1])
                    m ^= low
        acts.append(TAKE_ACTION)
        return acts

    def _throw_actions(self) -> list[Action]:
        """Each card of a rank on the table, low to high, while the bout has room; then pass.
        (Room implies the defender holds more cards than lie uncovered.) With
        ``throw_in.groups`` several cards of one rank may go in as one action."""
        m = self.hands[self.to_act] & self.table_ranks
        if m:
            deal = self.deal
            by_cap = (self.bout_cap() if deal.cap_varies else deal.cap) - len(self.attack)
            by_hand = self.hands[self.defender].bit_count() - self.uncovered
            if by_cap > 0 and by_hand > 0:  # room() > 0
                acts: list[Action] = []
                if deal.rules.throw_in_groups:
                    most = min(by_cap, by_hand, _GROUP_MAX)
                    hand = m
                    while m:
                        group = hand & _RANK_MASK_AT[(m & -m).bit_length()]
                        m ^= group
                        acts += _GROUP_LEADS[most].get(group) or _group_leads(group, most)
                    acts.append(PASS_ACTION)
                    return acts
                while m:
                    low = m & -m
                    acts.append(_ATTACK1[low.bit_length() - 1])
                    m ^= low
                acts.append(PASS_ACTION)
                return acts
        return [PASS_ACTION]

    def _group_transfers(self, matching: int) -> list[Action]:
        """``transfer.cards_per_action``: a transfer may lay several cards of the rank at once,
        as many as the bout's cap and the next defender's hand allow."""
        rules = self.deal.rules
        nxt = self.next_active(self.defender)
        cap = rules.throw_in_cap
        if rules.throw_in_first_bout_cap and not self.bout and not self.taking:
            cap = min(cap, rules.throw_in_first_bout_cap)
        if rules.throw_in_uncapped_after_stock and not self.stock:
            cap = _BIG
        only_new = rules.transfer_new_defender_beats == "transfer_cards_only"
        room = self.hands[nxt].bit_count() - (0 if only_new else self.uncovered)
        most = min(cap - len(self.attack), room, _GROUP_MAX)
        if most <= 0:
            return []
        if rules.transfer_must_include_all_of_rank:
            # every card of the rank, or as many as the limits allow.
            most = min(most, matching.bit_count())
            return [Action(TRANSFER, a.cards) for a in _group_leads(matching, most)
                    if len(a.cards) == most]
        return [Action(TRANSFER, a.cards) for a in _group_leads(matching, most)]

    def transfer_rank_card(self) -> int:
        """The attack card whose rank a transfer card must match: the lead in the base game;
        under ``transfer.window=any_time`` the last uncovered card thrown."""
        if self.deal.rules.transfer_window == "any_time":
            for a, d in zip(reversed(self.attack), reversed(self.defence), strict=True):
                if d == -1:
                    return a
        return self.attack[0]

    def transfer_block(self) -> TransferRefusal | None:
        """Why the defender may not transfer now (None if he may, given a matching card).

        Public because the explainer and the variants that offer transfers their own way
        (plays by position from a hand held face out) must give the same reason the move
        generator applies."""
        rules = self.deal.rules
        if not rules.transfer_enabled:
            return TransferRefusal(TransferBar.NO_TRANSFERS, "this game has no transfers")
        any_time = rules.transfer_window == "any_time"
        if any_time:
            if not self.uncovered:
                return TransferRefusal(TransferBar.NOTHING_OPEN,
                                       "nothing on the table is left uncovered")
            if rules.transfer_match == "all_uncovered":
                same = MATCH_MASKS[self.transfer_rank_card()]
                for a, d in zip(self.attack, self.defence, strict=True):
                    if d == -1 and not same >> a & 1:
                        return TransferRefusal(TransferBar.RANK,
                                               "the uncovered cards are not all of one rank")
        else:
            # Neutralised cards count as open here, so only then look at each entry.
            if self.uncovered != len(self.attack) and (
                    not self.deal.transfer_only_new or any(d >= 0 for d in self.defence)):
                return TransferRefusal(TransferBar.WINDOW,
                                       "a card on the table is already covered")
            same = MATCH_MASKS[self.attack[0]]
            for a in self.attack:
                if not same >> a & 1:
                    return TransferRefusal(TransferBar.RANK,
                                           "the attack cards are not all of one rank")
        if self.bout == 0:
            fb = rules.transfer_first_bout
            if fb == "first_game" and self.deal.match.game_number == 0:
                return TransferRefusal(TransferBar.FIRST_BOUT,
                                       "first bout of the first game")
            if fb == "under_fool" and self.deal.under_fool:
                return TransferRefusal(TransferBar.UNDER_FOOL,
                                       "this deal is led under the fool")
        if rules.transfer_forbid_if_trump_on_table:
            trumps = self.trumps
            if any(suit_of(a) in trumps for a in self.attack):
                return TransferRefusal(TransferBar.TRUMP_ON_TABLE,
                                       "not while a trump lies on the table")
        nxt = self.next_active(self.defender)
        refused = False
        if nxt == self.defender:
            # Nobody else is in play: only a hook may hand the attack back (a refused
            # transfer's last duel).
            back = self.deal.hooks.goes_on_at.get(TRANSFER_BACK)
            refused = back is not None and _took_over(back, self, TRANSFER_BACK)
            if not refused:
                return TransferRefusal(TransferBar.NOBODY_LEFT,
                                       "nobody else is left in the game to pass the attack to")
        # The new defender must be able to cover what he will face: every uncovered card and
        # the transfer card, or only the transfer card under transfer_cards_only.
        need = 1 if rules.transfer_new_defender_beats == "transfer_cards_only" else (
            self.uncovered + 1)
        if not refused and self.hands[nxt].bit_count() < need:
            return TransferRefusal(TransferBar.NEXT_HAND,
                                   f"the next defender holds "
                                   f"{cards_count(self.hands[nxt].bit_count())}, fewer than "
                                   f"the {cards_count(need)} he would have to cover")
        cap = rules.throw_in_cap  # the same cap as room(): a transfer adds an attack card
        if rules.throw_in_first_bout_cap and not self.bout and not self.taking:
            cap = min(cap, rules.throw_in_first_bout_cap)
        if rules.throw_in_uncapped_after_stock and not self.stock:
            cap = _BIG
        if len(self.attack) + 1 > cap:
            return TransferRefusal(TransferBar.CAP, f"a bout holds at most {cap} attack cards")
        return None

    def next_active(self, seat: int) -> int:
        """The nearest seat to the left (clockwise) of ``seat`` that is still in the game."""
        n = self.deal.players
        out = self.out_mask
        s = (seat + 1) % n
        while out >> s & 1 and s != seat:
            s = (s + 1) % n
        return s

    # --- transitions -------------------------------------------------------------------------

    def step_unchecked(self, action: Action) -> None:
        """Apply a legal action in place, without the legality check :meth:`apply` makes.

        For search and playouts, which step millions of positions: the caller must own
        ``self`` (a :meth:`copy` it made, never a state someone else holds) and take
        ``action`` from :meth:`legal_list`; an illegal action leaves a corrupt state.

        Branches are ordered by how often each kind is played; cards move as the action's
        precomputed :attr:`~Action.mask`, table ranks grow by its :attr:`~Action.ranks`."""
        self._legal = None
        kind = action.kind
        hooks = self.deal.hooks
        if hooks.stepping and _took_over(hooks.stepping, self, Stepping(action)):
            return  # a rule played it itself
        if kind == ATTACK:
            seat = self.to_act
            hands = self.hands
            cards = action.cards
            n = len(cards)
            m = action.mask
            hand = hands[seat] ^ m
            hands[seat] = hand
            self.known[seat] &= ~m
            self.attack += cards
            self.defence += _UNCOVERED[n]
            self.uncovered += n
            self.table_ranks |= action.ranks
            self.table_mask |= m
            self.out_if_done(seat)
            if hooks.laid:
                laid = Laid(seat, m)
                for on in hooks.laid:
                    on(self, laid)
            if self.phase == LEAD:
                self.phase = DEFEND_PHASE
                self.to_act = self.defender
                for goes_on in hooks.played:  # every rule hears a lead: nothing follows it
                    goes_on(self, Played(seat, action))
            else:
                self.passes = 0
                if hooks.played and _took_over(hooks.played, self, Played(seat, action)):
                    return  # (a joker gift comes before the thrower's right is judged)
                if not hand or self.room() <= 0:
                    self.advance_thrower()
        elif kind == PASS:
            passes = self.passes + 1
            self.passes = passes
            if passes >= len(self.throwers):
                # Every thrower has passed in a row: the round is over (what
                # advance_thrower concludes too, without its search).
                self._end_throw_round()
            else:
                self.advance_thrower()
        elif kind >= GIVE:
            hooks.steps[kind](self, action)  # a variant's own kind of move
        elif kind == DEFEND:
            seat = self.defender
            m = action.mask
            hand = self.hands[seat] ^ m
            self.hands[seat] = hand
            self.known[seat] &= ~m
            self.defence[self.attack.index(action.target)] = action.cards[0]
            if self.deal.cover_closes and closes(action.cards[0], action.target, self.deal):
                self.closed = True  # a twin beat, a wild or joker cover: no more throw-ins
                cover = action.cards[0]
                if (self.deal.rules.specials_cover_clears_table and is_special(cover)
                        and not is_mega(cover)):
                    # ``specials.cover_clears_table``: bito at once, the open cards discarded
                    # with the rest.
                    self.hands[seat] = hand
                    if not hand and not self.stock:
                        self.go_out(seat)
                    self.table_mask |= m
                    self.end_bout(taken=False)
                    return
            uncovered = self.uncovered - 1
            self.uncovered = uncovered
            self.table_ranks |= action.ranks
            self.table_mask |= m
            self.out_if_done(seat)
            if hooks.played and _took_over(hooks.played, self, Played(seat, action)):
                return  # (a joker cover's gift)
            if not uncovered:
                if self.deal.throw_in:
                    self.start_throw_round()
                elif not (hooks.goes_on and _asked(hooks, self, ALL_COVERED)):
                    self.end_bout(taken=False)
        elif kind == TAKE:
            self.taking = True
            if self.deal.throw_in:
                self.start_throw_round()
            elif not (hooks.goes_on and _asked(hooks, self, TAKE_DECLARED)):
                self.end_bout(taken=True)
        else:  # TRANSFER
            c = action.cards[0]
            n_cards = len(action.cards)
            seat = self.defender
            b = action.mask
            self.hands[seat] ^= b
            self.known[seat] &= ~b
            if self.deal.transfer_only_new:
                # the cards the old defender left uncovered are neutralised by the transfer
                # card; the new defender beats only that (``transfer.new_defender_beats``).
                defence = self.defence
                for i, d in enumerate(defence):
                    if d == -1:
                        defence[i] = NEUTRAL
                self.uncovered = 0
            if n_cards == 1:
                self.attack.append(c)
                self.defence.append(-1)
            else:  # a group transfer
                self.attack += action.cards
                self.defence += _UNCOVERED[n_cards]
            self.uncovered += n_cards
            self.table_mask |= b
            if hooks.on:
                for on in hooks.on_at.get(Transferred, ()):
                    on(self, Transferred(seat, b))
                for on in hooks.laid:
                    on(self, Laid(seat, b))
            if not self.hands[seat] and not self.stock:
                self.go_out(seat)
            self.pass_attack_on()
            for goes_on in hooks.played:  # (a joker passed on costs five cards); nothing
                goes_on(self, Played(seat, action))  # follows

    def pass_attack_on(self) -> None:
        """The defender passes the attack to the next player in play, as a transfer does: he
        becomes the attacker, the next player defends (back to an attacker just gone out
        under a refused transfer), and the beat table follows the new defender.

        Public for variants that transfer their own way (``transfer.show_trump``)."""
        seat = self.defender
        nxt = self.next_active(seat)
        if nxt == seat:  # nobody else in play: a hook let it go back to the attacker
            nxt = self.attacker
            self.rejoin(nxt)
        self.attacker = seat
        self.defender = nxt
        self.to_act = nxt
        if self.deal.beats_vary:
            self.beats = self.beat_table()

    def rejoin(self, seat: int) -> None:
        """``seat``, out of the game, plays again (a refused transfer's attacker, who comes
        back to defend with no cards and can only take). Public for hooks."""
        self.out_mask &= ~(1 << seat)
        self.out.remove(seat)

    def out_if_done(self, seat: int) -> None:
        """Put ``seat`` out if the base rule says he is out now (§1.8): his hand and the stock
        are empty, and the bout needs nothing more from him. That holds at once for a player
        who attacks, throws in, transfers or gives his last card; the defender stays in while
        any attack card lies uncovered or he has declared *take*, since he must pick those
        cards up and play on. Normally the throw-in limit keeps the defender from running
        out before everything is covered; a joker gift can leave him short, and this
        is the one place that decides for every move, gifts included."""
        if self.hands[seat] or self.stock:
            return
        if seat == self.defender and (self.uncovered > 0 or self.taking):
            return
        self.go_out(seat)

    def go_out(self, seat: int) -> None:
        """Put ``seat`` out now, unless a ``goes_on`` hook keeps him in (``GoingOut``;
        callers that know he is done; :meth:`out_if_done` asks the base rule first)."""
        stays = self.deal.hooks.goes_on_at.get(GoingOut)
        if stays is not None and _took_over(stays, self, GoingOut(seat)):
            return  # he plays on (a buy-in, locked cards)
        if not self.out_mask >> seat & 1:
            self.out_mask |= 1 << seat
            self.out.append(seat)

    def start_throw_round(self) -> None:
        """Open the round of throw-ins after the last open card was covered or a take was
        declared: the throwers in priority order, or close the bout at once when nobody may
        throw and no ``goes_on`` hook keeps it (``Turn.ROUND_OPEN``). Public for hooks whose
        moves end a covering their own way (a joker gift, a counter-attack) and for the
        position reader."""
        deal = self.deal
        key = (self.out_mask << 8 | self.attacker) << 8 | self.defender  # seats < 256
        order = deal.thrower_orders.get(key)
        if order is None:
            order = deal.thrower_orders[key] = thrower_order(
                deal.players, self.attacker, self.defender, self.out_mask,
                deal.rules.throw_in_by == "neighbours")
            for query in deal.hooks.query_at.get(ThrowInOrder, ()):  # partnerships
                order = deal.thrower_orders[key] = query(self, THROW_IN_ORDER, order)
        self.throwers = order
        self.passes = 0
        self.t_idx = 0
        by_cap = (self.bout_cap() if deal.cap_varies else deal.cap) - len(self.attack)
        by_hand = self.hands[self.defender].bit_count() - self.uncovered
        if not order or self.closed or ((by_cap <= 0 or by_hand <= 0) and not (
                self.taking and self._round_open())):
            self._end_throw_round()  # nobody, no room(), and no hook keeps the round open
            return
        self.phase = THROW
        if not self.hands[order[0]]:
            self.t_idx = -1
            self.advance_thrower()
            return
        self.to_act = order[0]

    def advance_thrower(self) -> None:
        """Hand the right to throw to the next thrower who holds cards, or close the round.

        Public for variants whose own moves end a thrower's turn (a tossing dummy, the
        bout extras): the throw-in order and round end stay in one place."""
        if self.room() <= 0 and not (self.taking and self.deal.hooks.goes_on
                                     and self._round_open()):
            self._end_throw_round()
            return
        throwers = self.throwers
        n = len(throwers)
        hands = self.hands
        passes = self.passes
        t = self.t_idx
        while passes < n:
            t = (t + 1) % n
            seat = throwers[t]
            if hands[seat]:
                self.t_idx = t
                self.passes = passes
                self.to_act = seat
                self.phase = THROW
                return
            passes += 1  # a seat without cards passes silently
        self.t_idx = t
        self.passes = passes
        self._end_throw_round()

    def _end_throw_round(self) -> None:
        if self.taking:
            self.end_bout(taken=True)
        elif self.uncovered:
            self.phase = DEFEND_PHASE
            self.to_act = self.defender
        elif not (self.deal.hooks.goes_on and _asked(self.deal.hooks, self, ROUND_OVER)):
            self.end_bout(taken=False)

    def _round_open(self) -> bool:
        """Whether a hook keeps a throw-in round without room open (the taker's
        attackers may still cover their own cards)."""
        return bool(self.deal.hooks.goes_on) and _asked(self.deal.hooks, self, ROUND_OPEN)

    def end_bout(self, taken: bool, receiver: int = -1, taker: int = -1) -> None:
        """Close the bout: the table to the discard (bito) or to the defender (``taken``),
        refill, put out whoever is done, open the next bout or end the game.

        Public for variants that end a bout by their own moves (calls of face-down covers,
        blind takes, the bout extras): every bout ends through this one path. ``receiver``: a
        beaten bout's cards go to this seat's hand, face up, instead of the discard (a
        wrong call on face-down covers; nothing of it is tallied as beaten); ``taker``: this
        seat picks the table up in the defender's place (a blind play's penalty)."""
        if taker >= 0:
            self.defender = taker
        # Every attack card is covered unless the defender takes: only then skip the gaps.
        defence = self.defence
        covers: Iterable[int] = filter(_IS_CARD, defence) if self.uncovered else defence
        if self.deal.transfer_only_new or self.deal.rules.defense_counter:  # NEUTRAL entries
            covers = (d for d in defence if d >= 0)
        self.last_bout = bout = (*self.attack, *covers)
        table = self.table_mask
        if table < 0:  # not tracked yet (see table_mask)
            table = 0
            for c in bout:
                table |= 1 << c
        defender = self.defender
        hooks = self.deal.hooks
        if taken:
            for query in hooks.query_at.get(PickedUp, ()):  # a rule may send some elsewhere
                table = query(self, PICKED_UP, table)
            self.hands[defender] |= table
            self.known[defender] |= table
        elif receiver >= 0:
            self.hands[receiver] |= table
            self.known[receiver] |= table
            self.attack = []
            self.defence = []
        else:
            self.discard |= table
        for on in hooks.on_at.get(Decided, ()):  # the stock group's tallies
            on(self, Decided(taken))
        self.attack = []
        self.defence = []
        self.uncovered = 0
        self.table_ranks = 0
        self.taking = False
        self.throwers = ()
        self.table_mask = 0
        self.closed = False
        stock_before = len(self.stock)
        if not (hooks.goes_on and _asked(hooks, self, REFILL)):
            self._draw()
        for on in hooks.on_at.get(REFILLED, ()):
            on(self, REFILLED)
        drew = len(self.stock) != stock_before
        n = self.deal.players
        idle_limit = self.deal.idle_limit
        if idle_limit:
            # Progress is a bito, a card drawn, or somebody going out: the count of players
            # out is kept in the bits above the first 16.
            outs = len(self.out)
            same = taken and not drew and self.idle >> 16 == outs
            self.idle = ((self.idle & 0xFFFF) + 1 if same else 0) | outs << 16
            if self.idle & 0xFFFF >= idle_limit and n - self.out_mask.bit_count() > 1:
                # end.idle_bouts: the takes have gone round with no progress: a draw.
                self._declare_draw("idle")
                return
        limit = self.deal.rules.end_instant_loss_cards
        if limit and taken and self.hands[defender].bit_count() >= limit:
            self.finish([defender], "instant loss")  # a hand this big loses at once
            return
        if hooks.goes_on and _asked(hooks, self, GAME_END):
            return  # a hook finished the game (a hand of nothing but jokers)
        out_mask = self.out_mask
        skip = taken and self.deal.rules.take_skip  # take.skip=false: the taker attacks next
        opened = hooks.next_bout[0](self, NextBout(defender, skip), None) if \
            hooks.next_bout else None  # partnerships: partners are never attacked
        if opened is not None:
            attacker = opened
            if attacker < 0:
                return  # the hook finished the game
        elif not out_mask:  # everybody is still in: next_active is simply the next seat
            attacker = (defender + 1) % n if skip else defender
            self.defender = (attacker + 1) % n
        else:
            if n - out_mask.bit_count() <= 1:
                self.finish([s for s in range(n) if not out_mask >> s & 1])
                return
            if skip or out_mask >> defender & 1:
                attacker = self.next_active(defender)
            else:
                attacker = defender
            self.defender = self.next_active(attacker)
        for query in hooks.query_at.get(NextAttacker, ()):  # a rule may pass him over
            attacker = query(self, NEXT_ATTACKER, attacker)
        self.attacker = self.leader = self.to_act = attacker
        self.bout += 1
        self.phase = LEAD
        if self.deal.beats_vary:
            self.beats = self.beat_table()
        if self.deal.repetition:
            if drew or not taken:
                # The stock only shrinks and a bito takes cards out of the hands for good:
                # no earlier opening can come back, so there is nothing left to compare with.
                self.seen = ()
            else:
                self._check_repetition()
        for on in hooks.on_at.get(BOUT_OPENED, ()):
            on(self, BOUT_OPENED)

    def _check_repetition(self) -> None:
        """``end.repetition``: the same bout opening, once more, draws the deal.

        Between two draws from the stock the positions are finite, so a game that never ends
        must repeat some opening for ever (with an empty stock, or above a stock nobody draws
        from because every hand is full); counting them bounds every game. (An engine rule:
        the seeds never meet a table where nobody can cover.)"""
        key = (*self.hands, self.attacker, self.defender, len(self.stock))
        seen = self.seen
        if seen.count(key) + 1 >= self.deal.repetition:
            self._declare_draw("repetition")
            return
        self.seen = (*seen, key)

    def _declare_draw(self, reason: str) -> None:
        """End the deal as a draw (``idle`` or ``repetition``): nobody is the fool."""
        self.phase = OVER
        self.to_act = -1
        self.outcome = Outcome(loser=None, order=(*self.out, *self._still_in(None)),
                               draw=True, reason=reason)
        for fact in self.deal.facts:  # the rules' sides: teams, the dummy's seat
            self.outcome = fact.settle(self.outcome)
        for query in self.deal.hooks.query_at.get(DealOutcome, ()):  # the tallies
            self.outcome = query(self, DEAL_OUTCOME, self.outcome)

    def draw_order(self) -> tuple[int, ...]:
        """Who refills, in order, at the end of the current bout (VARIANTS.md §1.7, B7)."""
        deal = self.deal
        key = ((self.out_mask << 8 | self.leader) << 8 | self.attacker) << 8 | self.defender
        seq = deal.draw_orders.get(key)
        if seq is None:
            seq = deal.draw_orders[key] = _draw_sequence(
                deal.players, deal.rules.draw_order, self.leader, self.attacker,
                self.defender, self.out_mask)
        return seq

    def take_from_stock(self, count: int) -> int:
        """Take ``count`` cards off the top of the stock (its end; the whole stock if it holds
        fewer), as a set of cards. Every draw goes through here, the refill and the hooks'
        own (a stock rule's refill, the dummy's, a short joker giver's)."""
        stock = self.stock
        got = 0
        for c in stock[-count:]:
            got |= 1 << c
        del stock[-count:]
        return got

    def _draw(self) -> None:
        """Refill hands from the top of the stock (its end), in :meth:`draw_order`."""
        stock = self.stock
        hands = self.hands
        if stock:
            target = self.deal.hand_size
            face_up = self.deal.trump.face_up
            for seat in self.draw_order():
                need = target - hands[seat].bit_count()
                if need > 0:
                    got = self.take_from_stock(need)
                    hands[seat] |= got
                    up = got & face_up  # face-up cards are public once drawn
                    if up:
                        self.known[seat] |= up
                    if not stock:
                        if self.reveal_secret() and stock:
                            self._draw()  # the secret card is now the last card to draw
                            return
                        break
        if not stock and 0 in hands:  # somebody may go out (or is out already)
            for seat in self.draw_order():
                if not hands[seat]:
                    self.go_out(seat)

    # --- the core's operations for hooks -----------------------------------------------------
    #
    # A rule's own moves change a game only through these (and the bout machinery above:
    # end_bout, start_throw_round, advance_thrower, pass_attack_on, go_out, rejoin, finish),
    # never by assigning the state's fields: each keeps the hands and what is known of them,
    # the table and its masks, and the turn consistent with one another, so a hook cannot
    # leave a state the core would misread (tests/engine/test_core_operations.py walks every
    # hook module for such assignments).

    def to_hand(self, seat: int, cards: int, public: int = 0) -> None:
        """``cards`` join ``seat``'s hand; the ``public`` ones (a subset) in view of all."""
        self.hands[seat] |= cards
        if public:
            self.known[seat] |= public

    def from_hand(self, seat: int, cards: int) -> None:
        """``cards`` leave ``seat``'s hand (nobody may still count them there)."""
        self.hands[seat] &= ~cards
        self.known[seat] &= ~cards

    def show(self, seat: int, cards: int) -> None:
        """``cards`` of ``seat``'s hand are shown: everyone knows them from now on."""
        self.known[seat] |= cards

    def unsee(self, seat: int, keep: int) -> None:
        """Of what is known in ``seat``'s hand only ``keep`` stays certain (cards went back
        face down and nobody can tell which)."""
        self.known[seat] &= keep

    def pass_hands(self, moves: Iterable[tuple[int, int, int]]) -> None:
        """Whole hands change places: each ``(to, cards, known)`` of ``moves`` makes
        ``cards`` seat ``to``'s hand, with what was known of them (an exchange of hands).
        ``moves`` is read to the end before any hand changes."""
        for to, cards, known in list(moves):
            self.hands[to] = cards
            self.known[to] = known

    def draw(self, seat: int, count: int) -> int:
        """``seat`` draws ``count`` cards off the top of the stock (fewer if it holds fewer);
        the cards the deal turned face up are public once drawn, as in the core's refill.
        Returns the cards."""
        got = self.take_from_stock(count)
        self.to_hand(seat, got, got & self.deal.trump.face_up)
        return got

    def set_aside(self, cards: int) -> None:
        """``cards`` lie aside face down, out of play (a stock set aside unseen): apart from
        the stock and the discard, nobody draws them."""
        self.aside |= cards

    def from_stock(self, at: int) -> int:
        """Take the card at index ``at`` out of the stock (0: the bottom, -1: the top)."""
        return self.stock.pop(at)

    def replace_stock(self, cards: list[int]) -> None:
        """The stock is rebuilt as ``cards``, bottom first (a bito shuffled back in)."""
        self.stock[:] = cards

    def to_stock(self, cards: Iterable[int], at: int | None = None) -> None:
        """Put ``cards`` into the stock at index ``at`` (0: the bottom; None: on top)."""
        if at is None:
            self.stock.extend(cards)
        else:
            self.stock[at:at] = list(cards)

    def reset_openings(self) -> None:
        """The stock has shrunk: no earlier bout opening can come back (``end.repetition``)."""
        self.seen = ()

    def to_discard(self, cards: int) -> None:
        """``cards`` go to the discard pile (bito), face down for good."""
        self.discard |= cards

    def from_discard(self, cards: int) -> None:
        """``cards`` leave the discard pile (recycled into the stock)."""
        self.discard &= ~cards

    def lay(self, cards: tuple[int, ...], opens: int) -> None:
        """Lay ``cards`` as uncovered attack cards; ``opens``: the ranks they open to
        throw-ins (the cards' own, or none). The bout's counts and masks follow."""
        self.attack += cards
        self.defence += _UNCOVERED[len(cards)]
        self.uncovered += len(cards)
        self.table_ranks |= opens
        mask = 0
        for c in cards:
            mask |= 1 << c
        self.table_mask |= mask

    def lay_covered(self, attack_card: int, cover: int, opens: int, open: bool) -> None:
        """Lay ``attack_card`` with ``cover`` already on it (a self-throw, an impudent
        throw-in); ``open``: whether it still counts against the defender's hand as an
        uncovered card does."""
        self.attack.append(attack_card)
        self.defence.append(cover)
        self.table_mask |= 1 << attack_card | 1 << cover
        self.table_ranks |= opens
        if open:
            self.uncovered += 1

    def cover(self, target: int, card: int, settles: bool = True) -> None:
        """``card`` lies on the attack card ``target`` (``settles``: it was uncovered and
        now counts as covered; a cover of one's own card after a take does not)."""
        self.defence[self.attack.index(target)] = card
        self.table_mask |= 1 << card
        if settles:
            self.uncovered -= 1

    def neutralise(self, target: int) -> None:
        """The attack card ``target`` counts as beaten without a card on it (a counter-throw)."""
        self.defence[self.attack.index(target)] = NEUTRAL
        self.uncovered -= 1

    def lift(self, which: Callable[[int, int], bool]) -> int:
        """Take the pairs (attack card, cover) for which ``which`` holds off the table and
        count the ranks on it anew; returns the cards lifted (the caller says where they
        go, :meth:`to_discard`)."""
        gone = 0
        keep_a: list[int] = []
        keep_d: list[int] = []
        uncovered = self.uncovered
        for a, d in zip(self.attack, self.defence, strict=True):
            if which(a, d):
                gone |= 1 << a
                if d >= 0:
                    gone |= 1 << d
                elif d == -1:
                    uncovered -= 1
            else:
                keep_a.append(a)
                keep_d.append(d)
        if not gone:
            return 0
        self.attack = keep_a
        self.defence = keep_d
        self.uncovered = uncovered
        if self.table_mask >= 0:
            self.table_mask &= ~gone
        ranks = 0
        for c in (*keep_a, *keep_d):
            if c >= 0:
                ranks |= MATCH_MASKS[c]
        self.table_ranks = ranks
        return gone

    def recount_table(self, skip_covers: int = 0, more_open: int = 0) -> None:
        """Count the ranks on the table anew, leaving out the covers in ``skip_covers``
        (which open no throw-ins), and count ``more_open`` more cards as uncovered (a
        position read back with such covers)."""
        ranks = 0
        for a in self.attack:
            ranks |= MATCH_MASKS[a]
        for d in self.defence:
            if d >= 0 and not skip_covers >> d & 1:
                ranks |= MATCH_MASKS[d]
        self.table_ranks = ranks
        self.uncovered += more_open

    def set_turn(self, seat: int, phase: int | None = None) -> None:
        """``seat`` acts next (in ``phase``, or the phase as it is)."""
        if phase is not None:
            self.phase = phase
        self.to_act = seat

    def open_round(self, throwers: tuple[int, ...], passes: int = 0) -> None:
        """A throw-in round among ``throwers``, the first of them to act (a self-throw asks
        the defender alone)."""
        self.phase = THROW
        self.throwers = throwers
        self.t_idx = 0
        self.passes = passes
        self.to_act = throwers[0]

    def set_passes(self, passes: int) -> None:
        """The count of passes in a row: 0 after a card is thrown in; a rule may keep its own
        mark there for the lead phase (a lead gone round the table)."""
        self.passes = passes

    def lead_from(self, attacker: int) -> None:
        """``attacker`` leads this bout instead (a passed lead), at the next player in
        play; the beat table follows the new defender."""
        self.attacker = self.leader = self.to_act = attacker
        self.defender = self.next_active(attacker)
        if self.deal.beats_vary:
            self.beats = self.beat_table()

    def defend_as(self, seat: int) -> None:
        """While the next bout is being opened (the ``NextBout`` and ``NextAttacker``
        questions), ``seat`` defends it; the core builds the beat table
        afterwards."""
        self.defender = seat

    def mark_out(self, seat: int) -> None:
        """``seat`` is out of the deal without asking any hook (a deal handed over with an
        empty hand)."""
        if not self.out_mask >> seat & 1:
            self.out_mask |= 1 << seat
            self.out.append(seat)

    def remember(self, key: str, value: object) -> None:
        """A rule's memory under its key (``None``: forgotten): :attr:`memory` is replaced,
        never changed, so copies may share it."""
        memory = self.memory
        if value is None:
            if key in memory:
                self.memory = {k: v for k, v in memory.items() if k != key}
        else:
            self.memory = {**memory, key: value}

    def reveal_secret(self) -> bool:
        """A secret trump: once the stock is out (the trump card drawn), the deal's hidden
        card is turned over and its suit is trump from the next bout on; it stays out of play
        unless ``trump.secret_drawable`` makes it the last card of the stock. Every draw that
        may empty the stock, the core's or a rule's, calls this after it: nothing happens
        while the stock lasts, without a hidden card, or once it is turned. True when the
        card was turned now."""
        hidden = self.deal.trump.hidden
        if self.stock or self.revealed or hidden < 0:
            return False
        self.revealed = True
        if self.deal.rules.trump_secret_drawable:
            self.stock.append(hidden)
            self.aside &= ~(1 << hidden)  # a removed stock stays aside
        self.beats = self.beat_table()
        return True

    def _still_in(self, loser: int | None) -> list[int]:
        """Players still holding cards when a deal ends early (an instant loss,
        or a repetition draw), other than the fool: ranked after those who went out, fewest
        cards first, ties in seat order, so the finishing order always names every seat."""
        n = self.deal.players
        rest = [s for s in range(n) if not self.out_mask >> s & 1 and s != loser]
        return sorted(rest, key=lambda s: (self.hands[s].bit_count(), s))

    def finish(self, active: list[int], reason: str = "") -> None:
        """End the deal: ``active`` are the players still holding cards (one of them the
        fool, or none: a draw), ``reason`` the note an unusual end leaves in the outcome.
        Public for hooks that end a game their own way (a hand of jokers, partnerships)."""
        self.phase = OVER
        self.to_act = -1
        if active:
            loser: int | None = active[0]
            order: tuple[int, ...] = (*self.out, *self._still_in(active[0]), active[0])
            draw = False
        elif self.deal.rules.end_draw_allowed:
            loser, order, draw = None, tuple(self.out), True
        else:
            loser, order, draw = self.out[-1], tuple(self.out), False
        self.outcome = _new_outcome(loser, order, draw, reason)
        for fact in self.deal.facts:  # the rules' sides: teams, the dummy's seat
            self.outcome = fact.settle(self.outcome)
        for query in self.deal.hooks.query_at.get(DealOutcome, ()):  # the tallies
            self.outcome = query(self, DEAL_OUTCOME, self.outcome)

    # --- errors --------------------------------------------------------------------------------

    def explain_illegal(self, action: Action) -> IllegalActionError:
        """The rule that ``action`` breaks here (assumes it is not legal)."""
        from bito.games.durak.explain import explain

        return explain(self, action)

    # --- views and printing ----------------------------------------------------------------------

    def action_seen_by(self, action: Action, seat: int | None) -> Action | Hidden | Revealed:
        """``action``, played from this state, as ``seat`` sees it (the protocol's
        ``seen_by`` hook), decided by :func:`bito.games.durak.view.private_to`, the one
        visibility table that the views' known cards follow too."""
        return seen_action(self, action, seat)

    @property
    def decider(self) -> int:
        """The seat whose player decides the move now (the protocol's ``decider`` hook):
        :attr:`to_act` itself, except on a playing dummy's turn, which its controller plays
        (a playing dummy) through ``view(to_act)``."""
        seat = self.to_act
        for query in self.deal.hooks.query_at.get(Decider, ()):
            seat = query(self, DECIDER, seat)
        return seat

    def view(self, seat: int) -> DurakView:
        """Everything ``seat`` may know (see :class:`bito.games.durak.view.DurakView`)."""
        return make_view(self, seat)

    def table_pairs(self) -> list[tuple[int, int]]:
        """(attack card, covering card or -1) for each attack card, in play order."""
        return list(zip(self.attack, self.defence, strict=True))

    def __str__(self) -> str:
        from bito.games.durak.render import render_state

        return render_state(self)

    def __repr__(self) -> str:
        from bito.games.durak.position_text import position_text

        return f"position({position_text(self)!r})"

    def trump_text(self) -> str:
        card = self.deal.trump_card
        if card < 0:
            suits = "".join("cdhs"[x] for x in sorted(self.deal.trump.suits))
            return f"trump {suits}, no card turned up" if suits else "no trumps"
        return f"{card_str(card)} ({card_pretty(card)})"


def _asked(hooks: HookSet, state: DurakState, turn: int) -> bool:
    """Whether a hook that plays this turning point (a :class:`Turn`) took it over."""
    points = hooks.goes_on_at.get(turn)
    return points is not None and _took_over(points, state, turn)


def _took_over(points: tuple[Callable[[DurakState, Moment], bool], ...], state: DurakState,
               turn: Moment) -> bool:
    """Whether a hook took this turning point of the bout over (the first that does ends
    the ask); called only when some hook has ``goes_on``."""
    return any(point(state, turn) for point in points)


def _no_moves(state: DurakState) -> list[Action]:
    return []


#: The base game's move generator of each phase (a phase the core does not know has none):
#: one indexed call, the same cost as the chain of phase tests it replaces.
_CORE_MOVES: Final[tuple[Callable[[DurakState], list[Action]], ...]] = (
    DurakState._lead_actions, DurakState._defend_actions, DurakState._throw_actions,
    *(_no_moves,) * (max(Phase) - int(Phase.THROW)))
