"""One object per game family, registered once: what the interfaces dispatch on.

The CLI, records, the server, the simulator, the kernel and the RL adapters must not ask
"is this Durak?": each asks the game's :class:`Family` (found by :func:`family_for` from a spec,
a rules object, a state or a view) for what it needs -- how to deal, read an action, write a
position for a record, which seat is a dummy -- or for a capability (``codec``,
``match_of_deals``...). A new family is one entry in :data:`FAMILIES` and answers every
interface at once.

The seam is typed: ``Family[R, S, V, A]`` deals states of type ``S`` under rules ``R``, whose
views are ``V`` and whose actions are ``A`` (the Durak family is ``Family[Rules, DurakState,
DurakView, Action]``). The four are bounded by the protocols of :mod:`bito.games.protocol`
(:class:`~bito.games.protocol.PlayRules`, :class:`~bito.games.protocol.PlayState`,
:class:`~bito.games.protocol.SeatView`, :class:`~bito.games.protocol.PlayAction`), and the
family is covariant in them, so every family is a :data:`SomeFamily` -- what
:func:`family_for` returns to an interface that holds a game it does not know. Such an
interface uses the protocols' members; where it needs a family's own type it narrows, with
``isinstance(family, DurakFamily)`` and then :meth:`Family.own` / :meth:`Family.own_view`
(which check the object's class), never with ``getattr``.

Renderers and heuristics live in the layers that draw and play (the terminal, the bots); they
keep their own per-family tables keyed by :attr:`Family.name`, since the games layer imports
nothing above it.

Each family's engine package is imported on first use, so dealing a Durak game loads none of
the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Final, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from bito.errors import RulesError
from bito.games.protocol import (
    FamilyRules,
    OptionRules,
    PlayAction,
    PlayRules,
    PlayState,
    SeatView,
    decider,
    option_names,
    option_text,
)

if TYPE_CHECKING:
    from bito.games.bouts import BoutsRules
    from bito.games.bouts.base import BoutsState
    from bito.games.bouts.common import BoutsView
    from bito.games.durak import Action, DurakState, DurakView, MatchContext
    from bito.games.protocol import Move
    from bito.games.shedding import (
        AdjacentRules,
        AdjacentState,
        AdjacentView,
        MauMauRules,
        MauMauState,
        MauMauView,
    )
    from bito.games.social import (
        AnimalRules,
        AnimalState,
        AnimalView,
        CheatRules,
        CheatState,
        CheatView,
    )
    from bito.games.tables.model import TableModel
    from bito.games.tricks import FoolRules, FoolState, FoolView
    from bito.games.worlds import Sampler
    from bito.rules import Rules

EVENT_FAMILIES = ("meta",)
"""Registry families that are events over many games (#64's tournament), not one game."""

R = TypeVar("R", bound=PlayRules, covariant=True)
S = TypeVar("S", bound=PlayState, covariant=True)
V = TypeVar("V", bound=SeatView, covariant=True)
A = TypeVar("A", bound=PlayAction, covariant=True)


class SeededState(PlayState, Protocol):
    """A state of the shedding, trick-taking, social or bout families: it keeps the seed
    that dealt it and its rules are options under one prefix."""

    @property
    def seed(self) -> int: ...

    @property
    def rules(self) -> OptionRules: ...


OR = TypeVar("OR", bound=OptionRules, covariant=True)
OS = TypeVar("OS", bound=SeededState, covariant=True)


class Engine(Protocol[R, S, A]):
    """What a family's engine package exports (``bito.games.shedding`` and its kin): the
    rules of a spec, a deal, and action text read back. Rules of another family are
    refused with :class:`RulesError`."""

    def rules_for(self, spec: str | PlayRules) -> R: ...

    def new_game(self, spec: str | PlayRules, players: int, seed: int) -> S: ...

    def parse_action(self, text: str) -> A: ...


class FamilySpec(NamedTuple, Generic[R]):
    """A resolved spec: the spec text, its family's name and its rules."""

    spec: str
    family: str
    rules: R


class Resolution(Protocol[R]):
    """A spec resolved: the text and the rules (Durak's :class:`bito.rules.Resolved` also
    keeps the game and the modifiers it stacked)."""

    @property
    def spec(self) -> str: ...

    @property
    def rules(self) -> R: ...


@runtime_checkable
class _Ruled(Protocol):
    """A state or a view that carries its rules."""

    @property
    def rules(self) -> object: ...


@runtime_checkable
class _Named(Protocol):
    """A view that names its game (the bout games' views)."""

    @property
    def variant(self) -> object: ...


@dataclass(frozen=True)
class Family(Generic[R, S, V, A]):
    """A family of games behind the shared protocol (:mod:`bito.games.protocol`), dealing
    states ``S`` under rules ``R`` with views ``V`` and actions ``A``.

    This base class holds what every family declares and answers alike; each family's class
    below says how its engine deals, reads and writes (the Durak family its own way, the
    others through their engine package: :class:`OptionFamily`).
    """

    name: str
    package: str
    #: Names of the state classes the package exports (its engines).
    state_names: tuple[str, ...]
    #: Module of the world samplers a search bot uses, or None; it maps view types to
    #: sampler factories in ``SAMPLERS``.
    samplers_module: str | None = None
    #: The games are deals of a match (the next deal's dealer follows from the last; the
    #: terminal and the simulator play ``--deals``); False: rounds are played inside one game.
    match_of_deals: bool = False
    #: The option key that sets the deck size from outside (``--deck``); None: the game
    #: fixes its own deck.
    deck_option: str | None = None
    #: ``bito.env``'s action codec and observation cover its games.
    codec: bool = False
    #: A seat's view is written as position text that parses back, so a censored record's
    #: frames can be checked line by line; otherwise a view is a picture (``str(view)``).
    views_are_positions: bool = False
    #: ``described_options`` lists only what differs from the base game (else every option).
    lists_changed_options: bool = False
    #: Module whose ``table_model(view)`` describes a seat's view as a
    #: :class:`~bito.games.tables.model.TableModel` (every face draws from it).
    table_module: str = ""

    # --- the family's own types ------------------------------------------------------------

    def engine(self) -> ModuleType:
        """The family's engine package (imported on first use)."""
        return import_module(self.package)

    def state_types(self) -> tuple[type[S], ...]:
        """The state classes of the family's engines."""
        raise NotImplementedError

    def view_types(self) -> tuple[type[V], ...]:
        """The view classes of the family's engines."""
        raise NotImplementedError

    def action_types(self) -> tuple[type[A], ...]:
        """The action classes of the family's engines."""
        raise NotImplementedError

    def own(self, state: PlayState) -> S:
        """``state`` as the family's own state type; a state of another family is a
        programming error (:class:`TypeError` naming both)."""
        if isinstance(state, self.state_types()):
            return state
        raise TypeError(f"a {type(state).__name__} is not a state of the {self.name} family")

    def own_action(self, action: PlayAction) -> A:
        """``action`` as the family's own action type (:class:`TypeError` for another's, or
        for a seat's censored form of one)."""
        if isinstance(action, self.action_types()):
            return action
        raise TypeError(f"a {type(action).__name__} is not an action of the {self.name} family")

    def own_view(self, view: SeatView) -> V:
        """``view`` as the family's own view type (:class:`TypeError` for another's)."""
        if isinstance(view, self.view_types()):
            return view
        raise TypeError(f"a {type(view).__name__} is not a view of the {self.name} family")

    # --- the engine ------------------------------------------------------------------------

    def rules_for(self, spec: str | PlayRules) -> R:
        """The rules of a spec of this family, or the rules themselves (checked); rules of
        another family are refused with :class:`RulesError`."""
        raise NotImplementedError

    def resolve(self, spec: str) -> Resolution[R]:
        """The spec resolved: an object with ``spec`` and ``rules`` (raises
        :class:`RulesError` or ``UnknownVariantError`` naming the part at fault)."""
        return FamilySpec(spec, self.name, self.rules_for(spec))

    def new_game(self, spec: str | PlayRules, players: int, seed: int | None = None,
                 match: MatchContext | None = None) -> S:
        """Deal a game; ``match`` is the deal's place in a match, for families whose games
        are deals of a match (the others play their rounds inside one game)."""
        raise NotImplementedError

    def parse_action(self, text: str) -> A:
        """Read action text in the family's notation."""
        raise NotImplementedError

    def parse_seen_action(self, text: str) -> PlayAction:
        """Read an action as a censored record writes it (what its seat saw)."""
        return self.parse_action(text)

    def seen_by(self, state: PlayState, action: PlayAction, seat: int | None) -> PlayAction:
        """``action``, played from ``state``, as ``seat`` sees it (``None``: a spectator):
        the action itself, unless the family's game puts cards down unseen."""
        del state, seat
        return action

    def decider(self, state: PlayState) -> int:
        """The seat whose player makes the move now (:func:`bito.games.protocol.decider`)."""
        return decider(state)

    def options(self, spec: str | PlayRules) -> dict[str, object]:
        """Every option of a game by its dotted key (``shed.hand_size``), with the value the
        spec gives it."""
        raise NotImplementedError

    def described_options(self, spec: str) -> dict[str, object]:
        """The options shown for a game by ``bito variants``, by dotted key."""
        return self.options(spec)

    def dummy_seat(self, rules: PlayRules, players: int) -> int:
        """The seat of a playing dummy (#57), which no person or bot takes; -1 for none."""
        del rules, players
        return -1

    def seats_partners(self, rules: PlayRules) -> bool:
        """Whether the game is played in partnerships, which need an even number of seats
        (the CLI says so before the engine refuses an odd count)."""
        del rules
        return False

    def seed(self, state: PlayState) -> int:
        """The seed that dealt ``state``."""
        raise NotImplementedError

    def table(self, view: SeatView) -> TableModel:
        """A seat's view as the table model every interface draws from."""
        raise NotImplementedError

    # --- records -----------------------------------------------------------------------------

    def record_fields(self, start: PlayState, spec: str | None = None) -> dict[str, object]:
        """The header fields of a full record that fix the game dealt as ``start`` from
        ``spec`` (in the order records write them); without a spec, the rules are written as
        their game plus the options that differ from it."""
        raise NotImplementedError

    def start_from_record(self, header: Mapping[str, object]) -> S:
        """The dealt position a full record's header fixes."""
        variant, players, seed = header["variant"], header["players"], header["seed"]
        if not isinstance(variant, str):
            raise RulesError("variant", "a record names its game as text")
        if not isinstance(players, int) or not isinstance(seed, int):
            raise RulesError("players" if not isinstance(players, int) else "seed",
                             "a record gives the seats and the seed as whole numbers")
        return self.new_game(variant, players, seed=seed)

    def position_text(self, state: PlayState, seat: int | None) -> str:
        """What ``seat`` sees of ``state``, as a censored record writes it (``None``: the
        whole position)."""
        return str(state) if seat is None else str(state.view(seat))

    def check_position_text(self, text: str) -> None:
        """Raise :class:`~bito.errors.InvalidNotationError` unless ``text`` is a view this
        family writes (a picture is not checked)."""
        del text

    def picture(self, state: PlayState) -> str:
        """The whole position as text for a person (``bito replay``)."""
        return str(state)

    def samplers(self) -> dict[type[SeatView], Callable[[], Sampler]]:
        """World samplers by view type, for search bots (empty: none)."""
        return {}

    # --- cards -------------------------------------------------------------------------------

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        """Every place a card can lie in ``state``: each a bitmask or a list of cards.
        Conservation is that these hold the cards in play, each exactly once."""
        raise NotImplementedError

    def deck(self, state: PlayState) -> tuple[int, ...] | None:
        """The cards a game holds from the deal to the end, or None where each round deals
        a fresh pack (then the cards dealt at the start of a round are the reference)."""
        del state
        return None


SomeFamily = Family[PlayRules, PlayState, SeatView, PlayAction]
"""A family the holder does not know: every family is one (the seam is covariant)."""


@dataclass(frozen=True)
class OptionFamily(Family[OR, OS, V, A]):
    """A family whose engine package exports ``rules_for``, ``new_game`` and
    ``parse_action`` (:class:`Engine`) and whose rules are a frozen dataclass of options under
    one prefix (shedding, tricks, social, bouts). Each subclass names its engine, its state
    and view classes and its table builder."""

    def play(self) -> Engine[OR, OS, A]:
        """The engine package, typed (imported on first use)."""
        raise NotImplementedError

    def rules_for(self, spec: str | PlayRules) -> OR:
        return self.play().rules_for(spec)

    def new_game(self, spec: str | PlayRules, players: int, seed: int | None = None,
                 match: MatchContext | None = None) -> OS:
        del match
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 63)
        return self.play().new_game(spec, players, seed)

    def parse_action(self, text: str) -> A:
        return self.play().parse_action(text)

    def options(self, spec: str | PlayRules) -> dict[str, object]:
        rules = self.rules_for(spec)
        return {f"{rules.PREFIX}.{name}": getattr(rules, name) for name in option_names(rules)}

    def seed(self, state: PlayState) -> int:
        return self.own(state).seed

    def record_fields(self, start: PlayState, spec: str | None = None) -> dict[str, object]:
        own = self.own(start)
        if not spec:
            rules = own.rules
            spec = option_text(rules, self.rules_for(rules.variant))
        return {"game": self.name, "variant": spec, "players": own.players, "seed": own.seed}

    def samplers(self) -> dict[type[SeatView], Callable[[], Sampler]]:
        if self.samplers_module is None:
            return {}
        found: Mapping[type[SeatView], Callable[[], Sampler]] = import_module(
            self.samplers_module).SAMPLERS
        return dict(found)


@dataclass(frozen=True)
class DurakFamily(Family["Rules", "DurakState", "DurakView", "Action"]):
    """Attack/defence bouts: the Durak engine, its rules from :mod:`bito.rules`, its own
    action notation and position text, matches of deals."""

    def state_types(self) -> tuple[type[DurakState], ...]:
        from bito.games.durak import DurakState

        return (DurakState,)

    def view_types(self) -> tuple[type[DurakView], ...]:
        from bito.games.durak import DurakView

        return (DurakView,)

    def action_types(self) -> tuple[type[Action], ...]:
        from bito.games.durak import Action

        return (Action,)

    def rules_for(self, spec: str | PlayRules) -> Rules:
        from bito.rules import Rules, rules_for

        if not isinstance(spec, (str, Rules)):
            raise RulesError("family", f"{spec.family} rules are not rules of a Durak game")
        return rules_for(spec)

    def resolve(self, spec: str) -> Resolution[Rules]:
        from bito.rules import resolve

        return resolve(spec)

    def new_game(self, spec: str | PlayRules, players: int, seed: int | None = None,
                 match: MatchContext | None = None) -> DurakState:
        from bito.games.durak import new_game

        return new_game(self.rules_for(spec), players, seed=seed, match=match)

    def parse_action(self, text: str) -> Action:
        from bito.games.durak import parse_action

        return parse_action(text)

    def parse_seen_action(self, text: str) -> PlayAction:
        from bito.games.durak.actions import parse_revealed

        return parse_revealed(text)  # #58's turned-up cards: #3(9d)>7d

    def seen_by(self, state: PlayState, action: PlayAction, seat: int | None) -> PlayAction:
        from bito.games.durak import Action

        if not isinstance(action, Action):
            return action  # already a seat's form of it
        return self.own(state).action_seen_by(action, seat)

    def options(self, spec: str | PlayRules) -> dict[str, object]:
        return dict(self.rules_for(spec).options())

    def described_options(self, spec: str) -> dict[str, object]:
        return dict(self.rules_for(spec).changed_options())

    def dummy_seat(self, rules: PlayRules, players: int) -> int:
        from bito.games.durak.dummy_seat import playing_seat

        return playing_seat(self.rules_for(rules), players)

    def seats_partners(self, rules: PlayRules) -> bool:
        return self.rules_for(rules).team_layout != "none"  # §3.6 #53-55

    def seed(self, state: PlayState) -> int:
        return self.own(state).deal.seed

    def table(self, view: SeatView) -> TableModel:
        from bito.games.tables.durak import table_model

        return table_model(self.own_view(view))

    def record_fields(self, start: PlayState, spec: str | None = None) -> dict[str, object]:
        from bito.games.durak.position import rules_spec

        del spec  # the deal's own rules are written out in full
        d = self.own(start).deal
        return {"game": self.name, "variant": rules_spec(d.rules), "players": d.players,
                "seed": d.seed,
                "match": {"game_number": d.match.game_number, "dealer": d.dealer,
                          "previous_fool": d.match.previous_fool,
                          "previous_winner": d.match.previous_winner}}

    def start_from_record(self, header: Mapping[str, object]) -> DurakState:
        from bito.games.durak import DurakState, MatchContext
        from bito.games.durak.setup import deal
        from bito.rules import resolve

        variant, players, seed, m = (header["variant"], header["players"], header["seed"],
                                     header.get("match") or {})
        if not isinstance(variant, str) or not isinstance(m, Mapping):
            raise RulesError("variant", "a record names its game as text")
        if not isinstance(players, int) or not isinstance(seed, int):
            raise RulesError("players" if not isinstance(players, int) else "seed",
                             "a record gives the seats and the seed as whole numbers")
        rules = resolve(variant).rules
        match = MatchContext(game_number=_whole(m, "game_number", 0), dealer=_seat(m, "dealer"),
                             previous_fool=_seat(m, "previous_fool"),
                             previous_winner=_seat(m, "previous_winner"))
        return DurakState.start(deal(rules, players, seed, match))

    def position_text(self, state: PlayState, seat: int | None) -> str:
        from bito.games.durak.position import position_text

        return position_text(self.own(state), seat)

    def check_position_text(self, text: str) -> None:
        from bito.games.durak.position import parse_censored

        parse_censored(text)

    def picture(self, state: PlayState) -> str:
        from bito.games.durak.render import render_state

        return render_state(self.own(state))

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        return durak_zones(self.own(state))

    def deck(self, state: PlayState) -> tuple[int, ...] | None:
        return _rules_deck(self.own(state).rules)


def _whole(m: Mapping[object, object], key: str, default: int) -> int:
    value = m.get(key, default)
    if not isinstance(value, int):
        raise RulesError(f"match.{key}", "a whole number")
    return value


def _seat(m: Mapping[object, object], key: str) -> int | None:
    value = m.get(key)
    if value is not None and not isinstance(value, int):
        raise RulesError(f"match.{key}", "a seat number")
    return value


def _moves() -> tuple[type[Move], ...]:
    """The action class the shedding, trick-taking and social games share."""
    from bito.games.protocol import Move

    return (Move,)


@dataclass(frozen=True)
class MoveFamily(OptionFamily[OR, OS, V, "Move"]):
    """An option family whose actions are all the shared :class:`~bito.games.protocol.Move`
    (the shedding, trick-taking and social games)."""

    def action_types(self) -> tuple[type[Move], ...]:
        return _moves()


def durak_zones(s: DurakState) -> list[int | Sequence[int]]:
    """The zones of a Durak state: hands, stock, table, discard, the cards set aside, an
    unfinished counter-throw (#49) and the points games' books (#61-#63)."""
    from bito.games.durak.bout_extras import EXTRAS
    from bito.games.durak.position_stock import BOOKS

    out: list[int | Sequence[int]] = [*s.hands, s.stock, s.attack, s.discard, s.aside]
    if s.defence:  # an uncovered attack card leaves a negative place-holder there
        out.append([c for c in s.defence if c >= 0])
    extra = EXTRAS.of(s)
    if extra is not None and extra.counter:
        out.append([c for c in (*extra.counter, *extra.counter_cover) if c >= 0])
    books = BOOKS.of(s)
    if books is not None:
        out.extend((*books.reserve, *books.locked))
    return out


@cache
def _rules_deck(rules: Rules) -> tuple[int, ...]:
    return tuple(rules.deck())


@dataclass(frozen=True)
class SheddingFamily(MoveFamily["MauMauRules | AdjacentRules", "MauMauState | AdjacentState",
                                "MauMauView | AdjacentView"]):
    """The Mau-Mau games and the adjacent-rank game: hands, the stock and the pile."""

    def play(self) -> Engine[MauMauRules | AdjacentRules, MauMauState | AdjacentState, Move]:
        from bito.games import shedding

        return shedding

    def state_types(self) -> tuple[type[MauMauState | AdjacentState], ...]:
        from bito.games.shedding import AdjacentState, MauMauState

        return (MauMauState, AdjacentState)

    def view_types(self) -> tuple[type[MauMauView | AdjacentView], ...]:
        from bito.games.shedding import AdjacentView, MauMauView

        return (MauMauView, AdjacentView)

    def table(self, view: SeatView) -> TableModel:
        from bito.games.tables.shedding import table_model

        return table_model(self.own_view(view))

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        s = self.own(state)
        return [*s.hands, s.stock, s.pile]


@dataclass(frozen=True)
class TricksFamily(MoveFamily["FoolRules", "FoolState", "FoolView"]):
    """*Fool!*: the hands, the trick on the table and the cards won."""

    def play(self) -> Engine[FoolRules, FoolState, Move]:
        from bito.games import tricks

        return tricks

    def state_types(self) -> tuple[type[FoolState], ...]:
        from bito.games.tricks import FoolState

        return (FoolState,)

    def view_types(self) -> tuple[type[FoolView], ...]:
        from bito.games.tricks import FoolView

        return (FoolView,)

    def table(self, view: SeatView) -> TableModel:
        from bito.games.tables.tricks import table_model

        return table_model(self.own_view(view))

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        s = self.own(state)
        return [*s.hands, [c for _, c in s.trick], s.gone]


@dataclass(frozen=True)
class SocialFamily(MoveFamily["AnimalRules | CheatRules", "AnimalState | CheatState",
                              "AnimalView | CheatView"]):
    """Animal sounds and Cheat: the hands, the pile and Cheat's open claim; Cheat's cards go
    down face down, so the other seats see a claim's count, not its cards."""

    def play(self) -> Engine[AnimalRules | CheatRules, AnimalState | CheatState, Move]:
        from bito.games import social

        return social

    def state_types(self) -> tuple[type[AnimalState | CheatState], ...]:
        from bito.games.social import AnimalState, CheatState

        return (AnimalState, CheatState)

    def view_types(self) -> tuple[type[AnimalView | CheatView], ...]:
        from bito.games.social import AnimalView, CheatView

        return (AnimalView, CheatView)

    def seen_by(self, state: PlayState, action: PlayAction, seat: int | None) -> PlayAction:
        from bito.games.protocol import Move
        from bito.games.social import CheatState

        own = self.own(state)
        if isinstance(own, CheatState) and isinstance(action, Move):
            return own.action_seen_by(action, seat)
        return action

    def table(self, view: SeatView) -> TableModel:
        from bito.games.tables.social import table_model

        return table_model(self.own_view(view))

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        from bito.games.social import CheatState

        s = self.own(state)
        if isinstance(s, CheatState):
            return [*s.hands, s.pile, s.claim]
        return [*s.hands, s.pile]


@dataclass(frozen=True)
class BoutsFamily(OptionFamily["BoutsRules", "BoutsState", "BoutsView", "Action | Move"]):
    """The bout-structure games; a prelude (#67, #68) holds the Durak game it handed over
    to, whose zones are the Durak ones plus the prelude's leftovers."""

    def play(self) -> Engine[BoutsRules, BoutsState, Action | Move]:
        from bito.games import bouts

        return bouts

    def state_types(self) -> tuple[type[BoutsState], ...]:
        from bito.games.bouts import ChineseState, HeapState, PolishState, PreludeState

        return (HeapState, ChineseState, PreludeState, PolishState)

    def view_types(self) -> tuple[type[BoutsView], ...]:
        from bito.games.bouts import BoutsView

        return (BoutsView,)

    def action_types(self) -> tuple[type[Action | Move], ...]:
        from bito.games.durak import Action
        from bito.games.protocol import Move

        return (Action, Move)

    def table(self, view: SeatView) -> TableModel:
        from bito.games.tables.bouts import table_model

        return table_model(self.own_view(view))

    def card_zones(self, state: PlayState) -> list[int | Sequence[int]]:
        from bito.games.bouts import PreludeState

        s = self.own(state)
        if isinstance(s, PreludeState) and s.main is not None:
            return [*durak_zones(s.main), s.stock, s.pile]
        return [*s.hands, s.stock, s.discard, list(s.centre())]


DURAK: Final = DurakFamily(
    "durak", "bito.games.durak", ("DurakState",), match_of_deals=True,
    deck_option="deck.size", codec=True, views_are_positions=True,
    lists_changed_options=True, table_module="bito.games.tables.durak")
"""The Durak family, typed as itself: ``DURAK.own(state)`` is a :class:`DurakState`."""

FAMILIES: dict[str, SomeFamily] = {f.name: f for f in (
    DURAK,
    SheddingFamily("shedding", "bito.games.shedding", ("MauMauState", "AdjacentState"),
                   samplers_module="bito.games.shedding.worlds",
                   table_module="bito.games.tables.shedding"),
    TricksFamily("tricks", "bito.games.tricks", ("FoolState",),
                 samplers_module="bito.games.tricks.worlds",
                 table_module="bito.games.tables.tricks"),
    SocialFamily("social", "bito.games.social", ("AnimalState", "CheatState"),
                 samplers_module="bito.games.social.worlds",
                 table_module="bito.games.tables.social"),
    BoutsFamily("bouts", "bito.games.bouts",
                ("HeapState", "ChineseState", "PreludeState", "PolishState"),
                samplers_module="bito.games.bouts.worlds",
                table_module="bito.games.tables.bouts"),
)}
"""Every family that deals games, by name (the ``family`` of its registry entries)."""


def family_name(thing: object) -> str:
    """The family's name of a variant spec (``czech_fool+shed.rounds=3`` is ``shedding``), a
    rules object, a state, a view, or a :class:`Family`."""
    if isinstance(thing, str):
        from bito.rules import lookup

        return lookup(thing.split("+", 1)[0].strip()).family
    if isinstance(thing, Family):
        return thing.name
    known = _NAME_BY_TYPE.get(type(thing))
    if known is not None:
        return known
    # (A runtime protocol check costs tens of microseconds: a state's or a view's family is
    # remembered by its class, whose rules always belong to one family.)
    if isinstance(thing, FamilyRules) and isinstance(thing.family, str):  # rules, a registry entry
        return thing.family
    name = None
    if isinstance(thing, _Ruled):  # a state's or a view's
        rules = thing.rules
        if isinstance(rules, FamilyRules) and isinstance(rules.family, str):
            name = rules.family
    if name is None and isinstance(thing, _Named) and isinstance(thing.variant, str):
        name = family_name(thing.variant)  # a view naming its game
    if name is None:
        raise TypeError(f"{type(thing).__name__} names no game family")
    _NAME_BY_TYPE[type(thing)] = name
    return name


_NAME_BY_TYPE: dict[type, str] = {}


def family_for(thing: object) -> SomeFamily:
    """The :class:`Family` of a spec, a rules object, a state or a view. Raises
    :class:`RulesError` (key ``family``) for a registry entry that is not one game."""
    name = family_name(thing)
    family = FAMILIES.get(name)
    if family is None:
        # #64's tournament (family "meta") is an event over many games, not one game.
        raise RulesError("family", f"{name!r} games are not dealt as one game (a tournament "
                         "runs with `bito tournament`)")
    return family


def family_of_state(state: PlayState) -> SomeFamily:
    """The family of a state (remembered by the state's class, as :func:`family_name` does):
    what the per-move questions (:func:`seen_by`) ask."""
    return family_for(state)


def seen_by(state: PlayState, action: PlayAction, seat: int | None) -> PlayAction:
    """``action``, played from ``state``, as ``seat`` sees it (``None``: a spectator).

    The game's family answers (:meth:`Family.seen_by`): a game whose actions can hide cards
    returns the action itself or its :class:`~bito.games.protocol.Hidden` form; every other
    action of every game is public. The server's move log, censored records and the
    terminal all ask here."""
    return family_of_state(state).seen_by(state, action, seat)


def is_event(spec: str) -> bool:
    """Whether a registry entry is an event over many games (#64), not one game."""
    return family_name(spec) in EVENT_FAMILIES


__all__ = ["DURAK", "EVENT_FAMILIES", "FAMILIES", "BoutsFamily", "DurakFamily", "Engine",
           "Family", "FamilySpec", "OptionFamily", "SheddingFamily", "SocialFamily",
           "SomeFamily", "TricksFamily", "family_for", "family_name", "family_of_state",
           "is_event", "seen_by"]
