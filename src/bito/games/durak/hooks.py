"""Variant hooks: how a house rule attaches to the core without the core knowing it.

The core (:mod:`bito.games.durak.state`) plays the base game of VARIANTS.md §1. A variant
whose behaviour is more than a different value read by the core (a new kind of move, a new
phase, a different end of the bout) lives in its own module and exports one :class:`Hook`
object, ``HOOK``. :mod:`bito.games.durak.installed` lists them; for each rule set the deal
selects the hooks whose :meth:`Hook.applies` is true, once, into a :class:`HookSet`, and the
core runs over its tuples at the named points below. The base game's tuples are empty, so it
pays one truth test per point and never calls into a variant.

A hook overrides only the points it needs; :func:`select` keeps a method in a point's tuple
only when the hook's class overrides it. Four points are general: ``on`` hears typed events,
``goes_on`` answers typed turning points, ``query`` amends (or settles) typed questions'
answers and ``position`` answers typed requests of the position text and the move numbering,
so a new kind of moment is a new record here, not a new point; a hook lists what it plays at
the first three (``moments``, ``events``, ``questions``) and the core asks it only there. A
hook refuses a move with an :class:`~bito.errors.IllegalActionError` carrying its own typed
reason (a member of a :class:`~bito.errors.Reason` subclass in its module), never a bare name,
as its answer to the :class:`Refusal` question. The points (ten), in the order a bout meets
them:

=================  ==========================================================================
``applies``        whether this rule set plays the hook (once per rule set and seat count)
``check``          refuse, naming the option, rule mixes this mechanism cannot play
``moves``          the move list amended: the core's, with the rule's moves added or some
                   taken away (#39-51's extra moves, #56's dummy throws), or in a phase the
                   hook lists in ``phases`` its own list in place of the core's (#58 plays
                   by position, #59's face-down covers and calls, #31's choices)
``step``           play an action of a kind the hook owns (``kinds``)
``goes_on``        at a turning point (a :class:`Turn`, an action :class:`Stepping` in, an
                   action :class:`Played`, a seat :class:`GoingOut`), take over how the game
                   goes on (True) or leave it to the core: an action before the core plays
                   it (consume it), a lead, throw-in, cover or transfer the core has played
                   (interrupt the bout there, #24's joker gifts; after a lead or a transfer
                   nothing follows and every hook hears it), every attack card covered with
                   no throw-in (end it some other way), a take with no throw-in (same), a
                   round without room after a take (keep it open), every thrower passed
                   with nothing uncovered (go on instead of bito), a transfer that finds
                   nobody else in play (send it back to the attacker who went out, #9), the
                   refill (draw in place of the core), the refilled hands (finish the game
                   now, #24 A4), a seat with nothing left (keep him in)
``on``             an event of the game (:data:`Event`): a :class:`Stage` of the deal (just
                   dealt, the hands refilled after a bout, the next bout set up), cards
                   :class:`Laid` as an attack or a transfer, a :class:`Transferred` transfer
                   before the attack passes on (#11 A1 clears the neutralised cards), the
                   bout :class:`Decided` (its cards gone to the discard or the taker, still
                   listed on the table)
``query``          amend an answer the core worked out to a typed :class:`Question`: the
                   table cards a taker picks up (#3 sends the covered pairs to the discard),
                   who may throw in at this defender, in turn (memoized per seating), the
                   next attacker (passed over), the hands and the cards of hands a seat sees
                   beyond the public ones, the stock cards lying face up, the deal's outcome
                   (the hook's tallies added), who decides the move now (#57's controller),
                   the defender a position without ``defender=`` implies (#53-55, #57), a
                   move every seat sees, as they see it (#58 turns up the card played); and
                   the questions the first hook that plays them settles (:func:`settle`):
                   the next bout's attacker and defender, or the game finished
                   (:class:`NextBout`, #53-55), the leads of a shape the core does not play
                   (:class:`LeadShape`, #73), a hand's cards in the order they lie
                   (:class:`HandOrder`, #58); and asked only when a move is refused, the
                   rule it breaks (:class:`Refusal`: the first hook to name one speaks)
``deal_facts``     the rule's own record of facts fixed for the deal (a
                   :class:`~bito.games.durak.facts.DealFact`; #53-55's teams, #57's seat),
                   which also draws any lot deciding the first bout (its ``first_bout``)
``view``           the view of ``seat`` with the rule's own record added
                   (``view.extended``, a :class:`~bito.games.durak.view.ViewExtension`)
                   and what it may not see censored
``position``       a typed request about the hook's own ``key=value`` fields of the position
                   text (``position_keys`` lists them): :class:`WriteFields` writes them,
                   :class:`PlaceCards` says which cards they place and whether the turned
                   trump card has left the stock's bottom, :class:`ReadFields` reads them
                   back (the seat they say acts now, if the base game's turn order would
                   not name him); and :class:`CodecBlocks`, the RL codec's numbered blocks
                   of the hook's moves
=================  ==========================================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, Generic, TypeAlias, TypeVar, cast

from bito.errors import IllegalActionError
from bito.games.durak.actions import Action, Revealed
from bito.games.protocol import Outcome
from bito.rules import Rules

if TYPE_CHECKING:
    from bito.games.durak.facts import DealFact
    from bito.games.durak.state import DurakState
    from bito.games.durak.view import DurakView

__all__ = ["DEAL_OUTCOME", "DECIDER", "NEXT_ATTACKER", "NOTHING_PLACED", "PICKED_UP", "POINTS",
           "STOCK_FACE_UP", "THROW_IN_ORDER", "Answer", "CodecBlocks", "Decided", "Event",
           "GoingOut", "HandOrder", "Hook", "HookSet", "Laid", "LeadShape", "Memory", "Moment",
           "NextBout", "OpenHands", "PlaceCards", "Placed", "Played", "PositionDefender",
           "PositionRequest", "Question", "ReadFields", "Refusal", "SeenHands", "Shown", "Stage",
           "Stepping", "Transferred", "Turn", "WriteFields", "answered", "refused", "select",
           "settle"]

T = TypeVar("T")
#: The type of a :class:`Question`'s answer, in :meth:`Hook.query`.
Answer = TypeVar("Answer")


class Turn(IntEnum):
    """The turning points at which a rule may take over how the game goes on
    (:meth:`Hook.goes_on`; a seat about to go out is a :class:`GoingOut`)."""

    #: Every attack card is covered and nobody may throw in (#59: the attacker calls).
    ALL_COVERED = 0
    #: The defender took and nobody may throw in (#59).
    TAKE_DECLARED = 1
    #: A throw-in round after a take has no room left (#50: it stays open).
    ROUND_OPEN = 2
    #: Every thrower passed with nothing uncovered (#48: the defender may throw to himself).
    ROUND_OVER = 3
    #: A transfer finds nobody else in play: True sends it back to the attacker, who went out
    #: (#9; the core brings him back as the defender).
    TRANSFER_BACK = 4
    #: The bout's cards are gone: True when the rule refilled the hands in place of the core's
    #: draw (the stock group).
    REFILL = 5
    #: The hands are refilled and the core's draws and instant losses decided: True when the
    #: rule finished the game (#24 A4's hand of nothing but jokers).
    GAME_END = 6


@dataclass(frozen=True, slots=True)
class Stepping:
    """The turning point before the core plays ``action``: True when the rule played it
    itself (#5's pass of the lead, #49's counters) and the core must not."""

    action: Action


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` has played ``action`` (a lead, throw-in, cover or transfer) and the core has
    done its part: True when the rule interrupted the bout there (#24's joker gifts)."""

    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class GoingOut:
    """The turning point of a seat left with no cards and no stock: True keeps him in (#37's
    buy-in, #35's locked cards)."""

    seat: int


#: What :meth:`Hook.goes_on` is asked at: a :class:`Turn` (as the plain int the core carries),
#: an action :class:`Stepping` in or :class:`Played`, or a seat :class:`GoingOut`.
Moment: TypeAlias = int | Stepping | Played | GoingOut


class Stage(IntEnum):
    """The stages of a deal a rule may act at (an :data:`Event` of :meth:`Hook.on`)."""

    #: The state has just been set up from its deal.
    DEALT = 0
    #: The bout's cards went to the discard or the taker and the hands were refilled.
    REFILLED = 1
    #: The next bout has been set up (the last step of a bout's end).
    BOUT_OPENED = 2


@dataclass(frozen=True, slots=True)
class Laid:
    """Cards (``mask``) were laid by ``seat`` as an attack or a transfer."""

    seat: int
    mask: int


@dataclass(frozen=True, slots=True)
class Transferred:
    """The defender ``seat`` laid ``mask`` as a transfer; the attack has not passed on yet (it
    comes before the :class:`Laid` of the same cards)."""

    seat: int
    mask: int


@dataclass(frozen=True, slots=True)
class Decided:
    """The bout is decided (``taken``, or bito): its cards have gone to the discard or the
    taker but are still listed on the table."""

    taken: bool


#: What :meth:`Hook.on` hears: a :class:`Stage` (as the plain int the core carries), or a
#: record of what happened.
Event: TypeAlias = int | Laid | Transferred | Decided


class Question(Generic[T]):
    """A question the core asks the rules (:meth:`Hook.query`), whose answer, a ``T``, the core
    has already worked out for the base game: each hook that plays it amends the answer in
    turn, in installation order. A question without arguments is one shared instance."""

    __slots__ = ()


class PickedUp(Question[int]):
    """The defender takes: the table cards (a bitmask) he picks up (#3 sends the covered pairs
    to the discard)."""

    __slots__ = ()


class ThrowInOrder(Question[tuple[int, ...]]):
    """Who may throw in at this defender, in turn (memoized per seating; #53-55 keep only the
    defender's opponents)."""

    __slots__ = ()


class NextAttacker(Question[int]):
    """The seat that attacks next, after the core's choice (#57 may pass the dummy over)."""

    __slots__ = ()


class StockFaceUp(Question[int]):
    """The stock cards (a bitmask) that lie face up: the deal's, unless a rule turned some
    (#38 A2's rebuilt stock lies face down, #97's six face up)."""

    __slots__ = ()


class DealOutcome(Question[Outcome]):
    """The deal is over: its outcome, with the rule's tallies added (#61-63)."""

    __slots__ = ()


class Decider(Question[int]):
    """The seat whose player decides the move now: the seat to act, unless a rule has someone
    play for him (#57's controller plays the dummy's seat)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class PositionDefender(Question[int]):
    """Reading a position without ``defender=``: the defender ``attacker`` would face had the
    engine opened this bout (the core's answer: the next seat in play; #53-55 pass partners
    over, #57 the dummy)."""

    attacker: int


@dataclass(frozen=True, slots=True)
class Shown(Question[Action | Revealed]):
    """``action``, which every seat sees, as they see it once played (the core's answer: the
    action itself; #58 turns up the card a play by position took)."""

    action: Action


@dataclass(frozen=True, slots=True)
class OpenHands(Question[tuple[int, ...]]):
    """Per seat, the cards ``seat`` sees, with the whole hands he plays or plays for (#57), in
    views and the censored position text (asked before :class:`SeenHands`)."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeenHands(Question[tuple[int, ...]]):
    """Per seat, the cards of each hand ``seat`` may see beyond the public ones (#31: where
    the cards he passed went)."""

    seat: int


@dataclass(frozen=True, slots=True)
class NextBout(Question[int | None]):
    """The bout is over and the game goes on: the next bout's attacker (the defender set with
    :meth:`~bito.games.durak.state.DurakState.defend_as`), -1 when the rule finished the
    game, or None to leave it to the core (``defender``: the last bout's; ``skip``: he took
    and loses his turn to attack). The first hook that plays it settles it (#53-55: partners
    are never attacked)."""

    defender: int
    skip: bool


@dataclass(frozen=True, slots=True)
class HandOrder(Question[tuple[int, ...]]):
    """``seat``'s cards in the order they lie, for the texts (the core's answer: by card
    code). The first hook that plays it settles it (#58: by position)."""

    seat: int


@dataclass(frozen=True, slots=True)
class LeadShape(Question[list[Action] | None]):
    """The leads of ``hand`` of at most ``limit`` cards, for a lead shape the core does not
    play (the core's answer, None: its own shapes; #73's one-suit leads). The first hook that
    plays it settles it; the lead rules' filters apply to its leads too."""

    hand: int
    limit: int


@dataclass(frozen=True, slots=True)
class Refusal(Question[IllegalActionError | None]):
    """``action`` is not among the legal moves: the rule it breaks, as an
    :class:`~bito.errors.IllegalActionError` with the rule's typed reason, or None when it is
    not this hook's rule (the core's answer: None, its own reasons come after). Asked only on
    the illegal path, by :func:`bito.games.durak.explain.explain`, of the rule set's hooks
    and of the hook owning the action's kind (to say these rules have no such move), in
    installation order; the first hook to name a rule speaks."""

    action: Action


def refused(state: DurakState, question: Question[Answer], answer: Answer,
            why: Callable[[DurakState, Action], IllegalActionError | None]) -> Answer:
    """The answer of a hook's ``query`` to a :class:`Refusal`: ``why(state, action)``, the
    rule the action breaks by the hook's own explainer (None: not its rule); any other
    question gets ``answer`` back, as given."""
    if isinstance(question, Refusal):
        return cast(Answer, why(state, question.action))
    return answer


PICKED_UP: Final = PickedUp()
THROW_IN_ORDER: Final = ThrowInOrder()
NEXT_ATTACKER: Final = NextAttacker()
STOCK_FACE_UP: Final = StockFaceUp()
DEAL_OUTCOME: Final = DealOutcome()
DECIDER: Final = Decider()


class Memory(Generic[T]):
    """The key of one rule's memory in :attr:`DurakState.memory
    <bito.games.durak.state.DurakState.memory>`, typed by what it holds (a frozen record, a
    count, a bitmask of seats). The rule's module owns it: it reads with :meth:`of` and
    writes with :meth:`keep`, which goes through the state's ``remember``, so no other code
    needs to know the record's type or its key."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key

    def of(self, state: DurakState) -> T | None:
        """What the rule remembers now (None: nothing)."""
        return cast("T | None", state.memory.get(self.key))

    def keep(self, state: DurakState, value: T | None) -> None:
        """Remember ``value`` from now on (None: forget)."""
        state.remember(self.key, value)

    def __repr__(self) -> str:
        return f"Memory({self.key!r})"


class Hook:
    """A variant's behaviour at the core's named points; every method here does nothing.

    Subclasses set ``name`` (the catalogue ids, for errors and docs), ``kinds`` (the action
    kinds whose :meth:`step` they own), ``phases`` (the phases whose moves :meth:`moves`
    makes in place of the core) and ``position_keys``, and override the points they need.
    Hooks hold no state of their own: what a variant remembers during a game lives in the
    state, under the rule's own :class:`Memory` key."""

    name: str = ""
    kinds: frozenset[int] = frozenset()
    #: The phases (:class:`~bito.games.durak.phases.Phase` values) whose whole move list this
    #: hook's :meth:`moves` makes: there the core makes none and hands it an empty list,
    #: before any other hook amends it (#31's exchange, #59's defence and call, #58's every
    #: phase). Two hooks of one rule set never make the same phase's moves.
    phases: frozenset[int] = frozenset()
    position_keys: frozenset[str] = frozenset()
    #: What this hook's general points play: ``moments``, the :class:`Turn` members and
    #: record classes (``Stepping``, ``Played``, ``GoingOut``) its ``goes_on`` answers;
    #: ``events``, the :class:`Stage` members and record classes (``Laid``, ...) its ``on``
    #: hears; ``questions``, the :class:`Question` classes its ``query`` answers. The core
    #: asks a hook only there, so a rule that keeps a seat in pays nothing on every move; a
    #: hook that overrides one of the three points must list what it plays at it
    #: (:func:`select` refuses it otherwise).
    moments: frozenset[object] = frozenset()
    events: frozenset[object] = frozenset()
    questions: frozenset[type[Question[Any]]] = frozenset()

    def applies(self, rules: Rules, players: int) -> bool:
        """Whether this rule set plays the hook (decided once per rule set)."""
        return False

    def check(self, rules: Rules, players: int) -> None:
        """Raise :class:`~bito.errors.RulesError` for a rule mix this mechanism cannot play.
        Asked of every installed hook, whether or not it applies."""

    def moves(self, state: DurakState, acts: list[Action]) -> list[Action]:
        """The moves of the seat to act under this rule: ``acts`` (the core's list, amended by
        the hooks before this one; empty in a phase this hook lists in ``phases``) with the
        rule's moves added or some taken away, or, in its own phases, the hook's list. A
        hook returns a new list or ``acts`` itself, never changed in place."""
        return acts

    def step(self, state: DurakState, action: Action) -> None:
        raise NotImplementedError

    def on(self, state: DurakState, event: Event) -> None:
        """Something happened in the game (an :data:`Event`); a hook ignores what it does not
        play. The hooks hear each event in installation order."""

    def goes_on(self, state: DurakState, moment: Moment) -> bool:
        """At a turning point (a :class:`Turn`, or a seat :class:`GoingOut`): True when this
        rule took over how the game goes on there (the first hook to say so ends the ask)."""
        return False

    def query(self, state: DurakState, question: Question[Answer], answer: Answer) -> Answer:
        """The ``answer`` to ``question`` (a :class:`Question`) as this rule has it: the core's,
        or the hooks' before this one, amended; a hook returns what it does not play as
        given."""
        return answer

    def position(self, request: PositionRequest[Answer]) -> Answer:
        """The answer to a request of the position text about this hook's own ``key=value``
        fields (``position_keys``), a :class:`WriteFields`, :class:`PlaceCards` or
        :class:`ReadFields`, or of the move numbering (:class:`CodecBlocks`); a hook answers
        what it does not play with ``request.nothing()``. The reader and the numbering ask
        every installed hook, so that a field or a move the rules do not play is refused or
        numbered by the hook that knows it."""
        return request.nothing()

    def deal_facts(self, rules: Rules, players: int) -> DealFact | None:
        """The rule's record of facts fixed for every deal of this rule set and seat count,
        which the deal holds (:meth:`~bito.games.durak.setup.Deal.fact`); worked out once
        per rule set."""
        return None

    def view(self, state: DurakState, seat: int, view: DurakView) -> DurakView:
        """The view of ``seat`` with this hook's fields: never a card ``seat`` may not
        know."""
        return view


#: The points a :class:`HookSet` gathers, by method name.
POINTS: tuple[str, ...] = (
    "moves", "on", "goes_on", "query", "position", "deal_facts", "view")


@dataclass(frozen=True)
class HookSet:
    """The hooks one rule set plays, gathered per point (each tuple holds the bound methods
    of the hooks that override that point, in installation order)."""

    hooks: tuple[Hook, ...] = ()
    moves: tuple[Callable[[DurakState, list[Action]], list[Action]], ...] = ()
    on: tuple[Callable[[DurakState, Event], None], ...] = ()
    goes_on: tuple[Callable[[DurakState, Moment], bool], ...] = ()
    query: tuple[Callable[[DurakState, Question[Any], Any], Any], ...] = ()
    position: tuple[Callable[[PositionRequest[Any]], Any], ...] = ()
    deal_facts: tuple[Callable[[Rules, int], DealFact | None], ...] = ()
    view: tuple[Callable[[DurakState, int, DurakView], DurakView], ...] = ()
    #: For each phase whose moves a hook makes (``Hook.phases``), the ``moves`` methods to
    #: call there: that hook's first, then the others' in installation order (elsewhere:
    #: ``moves``, after the core's list).
    moves_at: dict[int, tuple[Callable[[DurakState, list[Action]], list[Action]], ...]] = (
        field(default_factory=dict))
    #: The hook that plays each owned action kind.
    steps: dict[int, Callable[[DurakState, Action], None]] = field(default_factory=dict)
    #: For each moment, event or question class a hook lists (``Hook.moments``, ...), the bound
    #: ``goes_on``, ``on`` or ``query`` methods to call there, in installation order (the
    #: core asks only these: ``hooks.goes_on_at.get(REFILL, ())``).
    goes_on_at: dict[object, tuple[Callable[[DurakState, Moment], bool], ...]] = field(
        default_factory=dict)
    on_at: dict[object, tuple[Callable[[DurakState, Event], None], ...]] = field(
        default_factory=dict)
    query_at: dict[object, tuple[Callable[[DurakState, Question[Any], Any], Any], ...]] = (
        field(default_factory=dict))
    #: The same for the moments of every move, kept apart so that a move pays one truth test
    #: for each: ``goes_on_at[Stepping]``, ``goes_on_at[Played]``, ``on_at[Laid]``.
    stepping: tuple[Callable[[DurakState, Moment], bool], ...] = ()
    played: tuple[Callable[[DurakState, Moment], bool], ...] = ()
    laid: tuple[Callable[[DurakState, Event], None], ...] = ()
    #: The hook that settles :class:`NextBout` (empty: the core opens the next bout), kept
    #: apart as every bout's end asks it.
    next_bout: tuple[Callable[[DurakState, Question[Any], Any], Any], ...] = ()
    #: The hook that settles :class:`LeadShape` (empty: the core's shapes), kept apart as
    #: every lead asks it.
    lead_shape: tuple[Callable[[DurakState, Question[Any], Any], Any], ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.hooks)


def _overrides(hook: Hook, point: str) -> bool:
    return getattr(type(hook), point) is not getattr(Hook, point)


def select(installed: tuple[Hook, ...], rules: Rules, players: int) -> HookSet:
    """The hooks of ``installed`` that these rules play, gathered per point."""
    chosen = tuple(h for h in installed if h.applies(rules, players))
    if not chosen:
        return EMPTY
    points: dict[str, Any] = {
        p: tuple(getattr(h, p) for h in chosen if _overrides(h, p)) for p in POINTS}
    steps: dict[int, Callable[[DurakState, Action], None]] = {}
    for hook in chosen:
        for kind in hook.kinds:
            steps[kind] = hook.step
    goes_on_at, on_at = _by_key(chosen, "goes_on"), _by_key(chosen, "on")
    query_at = _by_key(chosen, "query")
    return HookSet(hooks=chosen, steps=steps, moves_at=_makers(chosen), goes_on_at=goes_on_at,
                   on_at=on_at, query_at=query_at, stepping=goes_on_at.get(Stepping, ()),
                   played=goes_on_at.get(Played, ()), laid=on_at.get(Laid, ()),
                   next_bout=query_at.get(NextBout, ())[:1],
                   lead_shape=query_at.get(LeadShape, ())[:1], **points)


def settle(hooks: HookSet, state: DurakState, question: Question[Answer], answer: Answer
           ) -> Answer:
    """The answer to a question the first hook that plays it settles (:class:`HandOrder`,
    :class:`NextBout`, :class:`LeadShape`): that hook's, or ``answer`` when no hook plays it.
    (The state machine asks the last two through :attr:`HookSet.next_bout` and
    :attr:`HookSet.lead_shape`, the same first hook, without the lookup.)"""
    asked = hooks.query_at.get(type(question))
    return cast(Answer, asked[0](state, question, answer)) if asked else answer


@dataclass(frozen=True, slots=True)
class Placed:
    """What a hook's position fields say of the cards (the answer to a :class:`PlaceCards`): the
    cards they place, as (place, card, offset in the text), and whether the turned trump
    card has left the bottom of a stock that lasts (a stock rebuilt from a bito, #38; a
    trump swapped for it, #97)."""

    cards: tuple[tuple[str, int, int], ...] = ()
    trump_card_moved: bool = False


#: A hook's fields that place no card.
NOTHING_PLACED: Final = Placed()


class PositionRequest(Generic[T]):
    """What the position text asks a hook about its own ``key=value`` fields
    (:meth:`Hook.position`), whose answer is a ``T``."""

    __slots__ = ()

    def nothing(self) -> T:
        """The answer of a hook without fields here."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class WriteFields(PositionRequest[list[str]]):
    """Writing ``state``'s text: the hook's fields, after the core's (``seat``: the seat the
    text is censored for, None for the whole truth). The core asks the rule set's hooks."""

    state: DurakState
    seat: int | None

    def nothing(self) -> list[str]:
        return []


@dataclass(frozen=True, slots=True)
class PlaceCards(PositionRequest[Placed]):
    """Reading a text, before the state is built: what the hook's ``fields`` (each found at
    ``where[key]`` in ``text``) say of the cards."""

    fields: dict[str, str]
    where: dict[str, int]
    text: str

    def nothing(self) -> Placed:
        return NOTHING_PLACED


@dataclass(frozen=True, slots=True)
class ReadFields(PositionRequest[int | None]):
    """Reading a text, the state built (the seat to act already set when the text gives
    it): the hook sets its memory from its ``fields``; the answer is the seat they say acts
    now where the base game's turn order would not name him (a gift's giver, a
    counter-attack's target), else None."""

    state: DurakState
    fields: dict[str, str]
    where: dict[str, int]
    text: str

    def nothing(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class CodecBlocks(PositionRequest[list[tuple[str, Iterable[Action]]]]):
    """Numbering every move of a rule set for the RL codec: the hook's own moves under
    ``rules`` as named blocks, in a fixed order (``cards``: the pack in code order); none
    when the rules do not play them. The codec asks every installed hook."""

    rules: Rules
    cards: tuple[int, ...]

    def nothing(self) -> list[tuple[str, Iterable[Action]]]:
        return []


def answered(request: PositionRequest[Answer],
             write: Callable[[DurakState, int | None], list[str]] | None = None,
             read: Callable[[DurakState, dict[str, str], dict[str, int], str], int | None]
             | None = None,
             place: Callable[[dict[str, str], dict[str, int], str], Placed] | None = None,
             blocks: Callable[[Rules, tuple[int, ...]], list[tuple[str, Iterable[Action]]]]
             | None = None) -> Answer:
    """The answer to a position request by a hook's own writer, reader, (for fields that
    place cards or move the trump card) card placer and numberer of its moves for the codec:
    what a hook's ``position`` returns. A request the hook gave no function for gets
    ``request.nothing()``."""
    if isinstance(request, WriteFields) and write is not None:
        return cast(Answer, write(request.state, request.seat))
    if isinstance(request, ReadFields) and read is not None:
        return cast(Answer, read(request.state, request.fields, request.where, request.text))
    if isinstance(request, PlaceCards) and place is not None:
        return cast(Answer, place(request.fields, request.where, request.text))
    if isinstance(request, CodecBlocks) and blocks is not None:
        return cast(Answer, blocks(request.rules, request.cards))
    return request.nothing()


def _makers(chosen: tuple[Hook, ...]
            ) -> dict[int, tuple[Callable[[DurakState, list[Action]], list[Action]], ...]]:
    """For each phase a chosen hook makes the moves of, the ``moves`` methods to call there:
    the maker's, then every other hook's that overrides ``moves``, in installation order."""
    movers = tuple(h for h in chosen if _overrides(h, "moves"))
    at: dict[int, tuple[Callable[[DurakState, list[Action]], list[Action]], ...]] = {}
    for hook in chosen:
        if hook.phases and hook not in movers:
            raise TypeError(f"{hook.name}: lists phases but does not override moves")
        for phase in hook.phases:
            if phase in at:
                raise TypeError(f"{hook.name}: another hook already makes phase {phase}'s moves")
            at[phase] = (hook.moves, *(h.moves for h in movers if h is not hook))
    return at


#: The general points, and the attribute in which a hook lists what it plays at each.
GENERAL: dict[str, str] = {"goes_on": "moments", "on": "events", "query": "questions"}


def _by_key(chosen: tuple[Hook, ...], point: str) -> dict[object, tuple[Any, ...]]:
    """For each key the hooks overriding ``point`` list, their bound methods in installation
    order."""
    found: dict[object, list[Any]] = {}
    listed = GENERAL[point]
    for hook in chosen:
        if not _overrides(hook, point):
            continue
        keys: frozenset[object] = getattr(hook, listed)
        if not keys:
            raise TypeError(f"{hook.name}: overrides {point} but lists no {listed}")
        for key in keys:
            found.setdefault(key, []).append(getattr(hook, point))
    return {key: tuple(methods) for key, methods in found.items()}


#: The base game's hook set: every point empty.
EMPTY = HookSet()
