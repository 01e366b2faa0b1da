"""One object per game family, registered once: what the interfaces dispatch on.

The CLI, records, the server, the simulator, the kernel and the RL adapters must not ask
"is this Durak?": each asks the game's :class:`Family` (found by :func:`family_for` from a spec,
a rules object or a state) for what it needs -- how to deal, read an action, write a position
for a record, which seat is a dummy -- or for a capability (``codec``,
``match_of_deals``...). A new family is one entry in :data:`FAMILIES` and answers every
interface at once.

Renderers and heuristics live in the layers that draw and play (the terminal, the bots); they
keep their own per-family tables keyed by :attr:`Family.name`, since the games layer imports
nothing above it.

Each family's engine package is imported on first use, so dealing a Durak game loads none of
the others.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from bito.errors import RulesError
from bito.games.protocol import FamilyRules

if TYPE_CHECKING:
    from bito.games.tables.model import TableModel
    from bito.rules import Rules

EVENT_FAMILIES = ("meta",)
"""Registry families that are events over many games (#64's tournament), not one game."""


class FamilySpec(NamedTuple):
    """A resolved spec: the spec text, its family's name and its rules."""

    spec: str
    family: str
    rules: Any


@dataclass(frozen=True)
class Family:
    """A family of games behind the shared protocol (:mod:`bito.games.protocol`).

    This base class serves the families whose engine package exports ``rules_for``,
    ``new_game`` and ``parse_action`` and whose rules are a frozen dataclass with a ``PREFIX``
    (shedding, tricks, social, bouts); the Durak family overrides what it does its own way.
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

    # --- the engine ------------------------------------------------------------------------

    def engine(self) -> Any:
        """The family's engine package (imported on first use)."""
        return import_module(self.package)

    def state_types(self) -> tuple[type[Any], ...]:
        module = self.engine()
        return tuple(getattr(module, n) for n in self.state_names)

    def rules_for(self, spec: Any) -> Any:
        """The rules of a spec of this family, or the rules themselves (checked)."""
        return self.engine().rules_for(spec)

    def resolve(self, spec: str) -> Any:
        """The spec resolved: an object with ``spec`` and ``rules`` (raises
        :class:`RulesError` or ``UnknownVariantError`` naming the part at fault)."""
        return FamilySpec(spec, self.name, self.rules_for(spec))

    def new_game(self, spec: Any, players: int, seed: int | None = None,
                 match: Any = None) -> Any:
        """Deal a game; ``match`` is the deal's place in a match, for families whose games
        are deals of a match (the others play their rounds inside one game)."""
        del match
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 63)
        return self.engine().new_game(spec, players, seed)

    def parse_action(self, text: str) -> Any:
        """Read action text in the family's notation."""
        return self.engine().parse_action(text)

    def parse_seen_action(self, text: str) -> Any:
        """Read an action as a censored record writes it (what its seat saw)."""
        return self.parse_action(text)

    def options(self, spec: Any) -> dict[str, Any]:
        """Every option of a game by its dotted key (``shed.hand_size``), with the value the
        spec gives it."""
        rules = self.rules_for(spec)
        return {f"{rules.PREFIX}.{f.name}": getattr(rules, f.name)
                for f in dataclasses.fields(rules) if f.name not in ("variant", "family")}

    def described_options(self, spec: str) -> dict[str, Any]:
        """The options shown for a game by ``bito variants``, by dotted key."""
        return self.options(spec)

    def dummy_seat(self, rules: Any, players: int) -> int:
        """The seat of a playing dummy (#57), which no person or bot takes; -1 for none."""
        del rules, players
        return -1

    def seats_partners(self, rules: Any) -> bool:
        """Whether the game is played in partnerships, which need an even number of seats
        (the CLI says so before the engine refuses an odd count)."""
        del rules
        return False

    def seed(self, state: Any) -> int:
        """The seed that dealt ``state``."""
        return int(state.seed)

    def table(self, view: object) -> TableModel:
        """A seat's view as the table model every interface draws from."""
        build: Callable[[object], TableModel] = import_module(self.table_module).table_model
        return build(view)

    # --- records -----------------------------------------------------------------------------

    def record_fields(self, start: Any, spec: str | None = None) -> dict[str, Any]:
        """The header fields of a full record that fix the game dealt as ``start`` from
        ``spec`` (in the order records write them); without a spec, the rules are written as
        their game plus the options that differ from it."""
        if not spec:
            from bito.games.protocol import option_text

            rules = start.rules
            spec = option_text(rules, self.rules_for(rules.variant))
        return {"game": self.name, "variant": spec, "players": start.players,
                "seed": self.seed(start)}

    def start_from_record(self, header: Mapping[str, Any]) -> Any:
        """The dealt position a full record's header fixes."""
        return self.new_game(header["variant"], header["players"], seed=header["seed"])

    def position_text(self, state: Any, seat: int | None) -> str:
        """What ``seat`` sees of ``state``, as a censored record writes it (``None``: the
        whole position)."""
        return str(state) if seat is None else str(state.view(seat))

    def check_position_text(self, text: str) -> None:
        """Raise :class:`~bito.errors.InvalidNotationError` unless ``text`` is a view this
        family writes (a picture is not checked)."""
        del text

    def picture(self, state: Any) -> str:
        """The whole position as text for a person (``bito replay``)."""
        return str(state)

    def samplers(self) -> dict[type[Any], Callable[[], Any]]:
        """World samplers by view type, for search bots (empty: none)."""
        if self.samplers_module is None:
            return {}
        return dict(import_module(self.samplers_module).SAMPLERS)

    # --- cards -------------------------------------------------------------------------------

    def card_zones(self, state: Any) -> list[int | Sequence[int]]:
        """Every place a card can lie in ``state``: each a bitmask or a list of cards.
        Conservation is that these hold the cards in play, each exactly once."""
        return [*state.hands, state.stock, state.pile]

    def deck(self, state: Any) -> tuple[int, ...] | None:
        """The cards a game holds from the deal to the end, or None where each round deals
        a fresh pack (then the cards dealt at the start of a round are the reference)."""
        del state
        return None


@dataclass(frozen=True)
class DurakFamily(Family):
    """Attack/defence bouts: the Durak engine, its rules from :mod:`bito.rules`, its own
    action notation and position text, matches of deals."""

    def rules_for(self, spec: Any) -> Any:
        from bito.rules import rules_for

        return rules_for(spec)

    def resolve(self, spec: str) -> Any:
        from bito.rules import resolve

        return resolve(spec)

    def new_game(self, spec: Any, players: int, seed: int | None = None,
                 match: Any = None) -> Any:
        return self.engine().new_game(spec, players, seed=seed, match=match)

    def parse_seen_action(self, text: str) -> Any:
        from bito.games.durak.actions import parse_revealed

        return parse_revealed(text)  # #58's turned-up cards: #3(9d)>7d

    def options(self, spec: Any) -> dict[str, Any]:
        return dict(self.rules_for(spec).options())

    def described_options(self, spec: str) -> dict[str, Any]:
        return dict(self.rules_for(spec).changed_options())

    def dummy_seat(self, rules: Any, players: int) -> int:
        from bito.games.durak.dummy_seat import playing_seat

        return playing_seat(rules, players)

    def seats_partners(self, rules: Rules) -> bool:
        return rules.team_layout != "none"  # §3.6 #53-55

    def seed(self, state: Any) -> int:
        return int(state.deal.seed)

    def record_fields(self, start: Any, spec: str | None = None) -> dict[str, Any]:
        from bito.games.durak.position import rules_spec

        del spec  # the deal's own rules are written out in full
        d = start.deal
        return {"game": self.name, "variant": rules_spec(d.rules), "players": d.players,
                "seed": d.seed,
                "match": {"game_number": d.match.game_number, "dealer": d.dealer,
                          "previous_fool": d.match.previous_fool,
                          "previous_winner": d.match.previous_winner}}

    def start_from_record(self, header: Mapping[str, Any]) -> Any:
        from bito.games.durak import DurakState, MatchContext
        from bito.games.durak.setup import deal
        from bito.rules import resolve

        rules = resolve(header["variant"]).rules
        m = header.get("match") or {}
        match = MatchContext(game_number=m.get("game_number", 0), dealer=m.get("dealer"),
                             previous_fool=m.get("previous_fool"),
                             previous_winner=m.get("previous_winner"))
        return DurakState.start(deal(rules, header["players"], header["seed"], match))

    def position_text(self, state: Any, seat: int | None) -> str:
        from bito.games.durak.position import position_text

        return position_text(state, seat)

    def check_position_text(self, text: str) -> None:
        from bito.games.durak.position import parse_censored

        parse_censored(text)

    def picture(self, state: Any) -> str:
        from bito.games.durak.render import render_state

        return render_state(state)

    def card_zones(self, state: Any) -> list[int | Sequence[int]]:
        return durak_zones(state)

    def deck(self, state: Any) -> tuple[int, ...] | None:
        return _rules_deck(state.rules)


def durak_zones(s: Any) -> list[int | Sequence[int]]:
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
def _rules_deck(rules: Any) -> tuple[int, ...]:
    return tuple(rules.deck())


@dataclass(frozen=True)
class BoutsFamily(Family):
    """The bout-structure games; a prelude (#67, #68) holds the Durak game it handed over
    to, whose zones are the Durak ones plus the prelude's leftovers."""

    def card_zones(self, state: Any) -> list[int | Sequence[int]]:
        main = getattr(state, "main", None)
        if main is not None:
            return [*durak_zones(main), state.stock, getattr(state, "pile", [])]
        return [*state.hands, state.stock, state.discard, list(state.centre())]


@dataclass(frozen=True)
class TricksFamily(Family):
    """*Fool!*: the hands, the trick on the table and the cards won."""

    def card_zones(self, state: Any) -> list[int | Sequence[int]]:
        return [*state.hands, [c for _, c in state.trick], state.gone]


@dataclass(frozen=True)
class SocialFamily(Family):
    """Animal sounds and Cheat: the hands, the pile and Cheat's open claim."""

    def card_zones(self, state: Any) -> list[int | Sequence[int]]:
        claim = getattr(state, "claim", None)
        if claim is not None:
            return [*state.hands, state.pile, claim]
        return [*state.hands, state.pile]


FAMILIES: dict[str, Family] = {f.name: f for f in (
    DurakFamily("durak", "bito.games.durak", ("DurakState",), match_of_deals=True,
                deck_option="deck.size", codec=True, views_are_positions=True,
                lists_changed_options=True, table_module="bito.games.tables.durak"),
    Family("shedding", "bito.games.shedding", ("MauMauState", "AdjacentState"),
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


def family_name(thing: Any) -> str:
    """The family's name of a variant spec (``czech_fool+shed.rounds=3`` is ``shedding``), a
    rules object, a state, a view, or a :class:`Family`."""
    if isinstance(thing, str):
        from bito.rules import lookup

        return lookup(thing.split("+", 1)[0].strip()).family
    if isinstance(thing, Family):
        return thing.name
    # (A runtime protocol check costs a few microseconds; this runs once per game, not per move.)
    if isinstance(thing, FamilyRules) and isinstance(thing.family, str):  # rules, a registry entry
        return thing.family
    rules = getattr(thing, "rules", None)  # a state's or a view's
    if isinstance(rules, FamilyRules) and isinstance(rules.family, str):
        return rules.family
    variant = getattr(thing, "variant", None)  # a view that names its game
    if isinstance(variant, str):
        return family_name(variant)
    raise TypeError(f"{type(thing).__name__} names no game family")


def family_for(thing: Any) -> Family:
    """The :class:`Family` of a spec, a rules object, a state or a view. Raises
    :class:`RulesError` (key ``family``) for a registry entry that is not one game."""
    name = family_name(thing)
    family = FAMILIES.get(name)
    if family is None:
        # #64's tournament (family "meta") is an event over many games, not one game.
        raise RulesError("family", f"{name!r} games are not dealt as one game (a tournament "
                         "runs with `bito tournament`)")
    return family


def is_event(spec: str) -> bool:
    """Whether a registry entry is an event over many games (#64), not one game."""
    return family_name(spec) in EVENT_FAMILIES


__all__ = ["EVENT_FAMILIES", "FAMILIES", "DurakFamily", "Family", "FamilySpec", "family_for",
           "family_name", "is_event"]
