"""The surface every game family speaks, and the small pieces the non-Durak families share.

Bots, the simulator, records, the terminal and the adapters only ever use :class:`GameState`:
one seat acts at a time (``to_act``), ``legal_actions()`` lists what it may do, ``apply`` returns
the next state and leaves the old one alone, ``view(seat)`` is exactly what that seat may know,
and ``is_over`` / ``outcome`` say how it ended. Every state also reads and writes its own action
text (``parse_action`` / ``str(action)``) and prints itself (``str(state)``).

Every family ends in one :class:`Outcome`. The Durak family has its own action type; the
shedding, trick-taking, social and bout families share :class:`Move` and the option handling
below, so each of those engines is only its rules.

What every family's rules, states, views and actions offer is written down as protocols
(:class:`PlayRules`, :class:`PlayState`, :class:`SeatView`, :class:`PlayAction`): the
typed seam :class:`bito.games.family.Family` is generic over each family's own types and
bounded by these, so an interface that holds "some game" may use exactly these members and
asks the game's family to narrow to its own types for anything more.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import ClassVar, Final, Protocol, Self, TypeGuard, TypeVar, runtime_checkable

from bito.cards import (
    SUIT_CHARS,
    SUIT_SYMBOLS,
    card_pretty,
    card_str,
    cards_of,
    check_length,
    split_cards,
)
from bito.errors import IllegalActionError, InvalidNotationError, RulesError


@runtime_checkable
class GameOutcome(Protocol):
    """How any game ended: what tallies, records and the server read. :class:`Outcome` is
    the one implementation every family's engine returns; the protocol lets
    :class:`GameState` name it before the class is defined."""

    @property
    def loser(self) -> int | None: ...

    @property
    def order(self) -> tuple[int, ...]: ...

    @property
    def draw(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    def to_json(self) -> dict[str, object]: ...


A = TypeVar("A")
V_co = TypeVar("V_co", covariant=True)
O_co = TypeVar("O_co", bound=GameOutcome, covariant=True)


@runtime_checkable
class GameState(Protocol[A, V_co, O_co]):
    """What bots, the simulator, records and the terminal may rely on, whatever the game:
    ``GameState[A, V, O]`` is a state whose actions are ``A``, whose views are ``V`` and
    whose outcome is ``O`` (for Durak: ``GameState[Action, DurakView, Outcome]``).

    Beyond these members: ``str(state)`` prints the whole position, ``str(action)`` is an
    action's notation, and the family object (``bito.games.family_for(state)``) reads it
    back (the non-Durak states also offer ``state.parse_action(text)``)."""

    @property
    def players(self) -> int: ...

    @property
    def to_act(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> O_co | None: ...

    def legal_actions(self) -> list[A]: ...

    def apply(self, action: A) -> Self: ...

    def view(self, seat: int) -> V_co: ...


@runtime_checkable
class PlayAction(Protocol):
    """What every action offers, whatever its game (Durak's :class:`~bito.games.durak.Action`,
    the other families' :class:`Move`, and what a seat sees of one: :class:`Hidden`):
    its kind, the cards it puts down (none for a word such as ``take``), its words for the
    terminal, and its notation (``str(action)``)."""

    @property
    def kind(self) -> int | str: ...

    @property
    def cards(self) -> tuple[int, ...]: ...

    def pretty(self) -> str: ...


@runtime_checkable
class FamilyRules(Protocol):
    """What every family's rules object declares, Durak's :class:`bito.rules.Rules` included:
    the family it belongs to, so a state or view is dispatched by its rules alone."""

    @property
    def family(self) -> str: ...


class PlayRules(FamilyRules, Protocol):
    """What every family's rules offer: the family and the seats a game takes."""

    @property
    def players_min(self) -> int: ...

    @property
    def max_players(self) -> int: ...


class Progress(Protocol):
    """What a state and a seat's view both say: how many seats, whose turn it is, and how
    the game ended, once it has."""

    @property
    def players(self) -> int: ...

    @property
    def to_act(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None: ...


class SeatView(Progress, Protocol):
    """What every seat's view offers beyond :class:`Progress`: whose view it is, the seat's
    own hand (a card bitmask) and every seat's card count, and the moves the seat may make
    now (empty when it is not its turn)."""

    @property
    def seat(self) -> int: ...

    @property
    def hand(self) -> int: ...

    @property
    def hand_counts(self) -> tuple[int, ...]: ...

    @property
    def legal(self) -> Sequence[PlayAction]: ...


class PlayState(Progress, Protocol):
    """What every game's state offers, as :class:`GameState` does for one family's types:
    an interface that holds a state of some game plays it through these members alone.

    ``apply`` takes any action and refuses one that is not legal here (an action of another
    game included) with :class:`~bito.errors.IllegalActionError`, so a move read from text
    or a list of legal moves needs no cast to be played."""

    @property
    def rules(self) -> PlayRules: ...

    @property
    def hands(self) -> Sequence[int]:
        """Every seat's hand, a card bitmask each (the whole position: a state is not a
        view)."""

    def legal_actions(self) -> Sequence[PlayAction]: ...

    def apply(self, action: PlayAction) -> Self: ...

    def view(self, seat: int) -> SeatView: ...


@runtime_checkable
class HasDecider(Protocol):
    """A state where the player who moves is not always the seat to act (#57's playing
    dummy, whose controller makes all its moves)."""

    @property
    def decider(self) -> int: ...


class OptionRules(PlayRules, Protocol):
    """The rules of the shedding, trick-taking, social and bout families: a frozen dataclass
    of options under one dotted prefix (``shed.hand_size``), each option with its declared
    :class:`Limit`, and the game's catalogue id."""

    PREFIX: ClassVar[str]
    LIMITS: ClassVar[dict[str, Limit]]

    def __init__(self, *, variant: str) -> None:
        """A game's rules at its defaults (every option has one)."""

    @property
    def variant(self) -> str: ...

    def check(self) -> None: ...


def not_this_game(action: object, game: str) -> IllegalActionError:
    """The refusal of an action of another game (what :meth:`PlayState.apply` raises when it
    is handed a move it cannot even read)."""
    return IllegalActionError("not a move of this game", f"{action} is not a move of {game}")


# --- actions ------------------------------------------------------------------------------

SIMPLE_KINDS = ("draw", "pass", "doubt", "sound", "laugh", "claim")
"""Actions written as one word."""


@dataclass(frozen=True)
class Move:
    """One action of a shedding, trick-taking or social game.

    ``kind`` is ``play`` (put down ``cards``) or one of :data:`SIMPLE_KINDS`. ``call`` is the
    suit a player names with his card (Mau-Mau's wild card, the English ace), -1 for none.
    ``text`` is the action's notation; it is made by the family (the *Fool!* deck has its own
    card names, ``deck`` says so) and does not take part in equality.
    """

    kind: str
    cards: tuple[int, ...] = ()
    call: int = -1
    text: str = field(default="", compare=False)
    deck: str = field(default="standard", compare=False)

    def __str__(self) -> str:
        return self.text or self.kind

    def pretty(self) -> str:
        """The terminal form: suit symbols instead of letters for standard cards."""
        if self.kind != "play" or self.deck != "standard":
            return str(self)
        words = " ".join(card_pretty(c) for c in self.cards)
        return words + (f", calls {SUIT_SYMBOLS[self.call]}" if self.call >= 0 else "")


def play(cards: Sequence[int], call: int = -1) -> Move:
    """A play of standard cards, optionally naming a suit (``Qh=s``); interned, so move
    generation builds each distinct action once."""
    return _play(tuple(cards), call)


@cache
def _play(cards: tuple[int, ...], call: int) -> Move:
    text = "".join(card_str(c) for c in cards)
    if call >= 0:
        text += "=" + SUIT_CHARS[call]
    return Move("play", cards, call, text)


def word(kind: str) -> Move:
    """A one-word action (``draw``, ``pass``...)."""
    return Move(kind, (), -1, kind)


ALIASES = {"take": "draw", "skip": "pass", "done": "pass", "believe": "pass",
           "cheat": "doubt", "liar": "doubt"}


def parse_move(text: str) -> Move:
    """Read standard-card action text: ``7h``, ``Qh=s``, ``7h8c``, ``draw``, ``pass``...

    Raises :class:`InvalidNotationError` pointing at the bad character.
    """
    check_length(text, what="an action")
    t = text.strip()
    low = ALIASES.get(t.lower(), t.lower())
    if low in SIMPLE_KINDS:
        return word(low)
    body, eq, suit = t.partition("=")
    call = -1
    if eq:
        call = SUIT_CHARS.find(suit.strip().lower()[:1]) if suit.strip() else -1
        if call < 0 or len(suit.strip()) != 1:
            raise InvalidNotationError("after '=' name a suit: c d h s", text, len(body) + 1)
    if not body.strip():
        raise InvalidNotationError("expected a card, or draw / pass", text, 0)
    cards = split_cards(body)
    return play(cards, call)


# --- what the other seats see of an action -----------------------------------------------


@dataclass(frozen=True)
class Hidden:
    """An action as a seat that may not see its cards sees it: the kind and the number of
    cards, never which (Cheat's cards put down face down; a face-down defence). ``text`` is
    its notation, one ``?`` per hidden card where the action's own text has a card.

    It has no cards, so a censored record or a log entry built from it cannot leak one."""

    kind: str
    count: int = 1
    text: str = "?"

    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        return self.text

    def pretty(self) -> str:
        cards = "a card" if self.count == 1 else f"{self.count} cards"
        if self.kind in ("play", "defend"):  # put down on the table face down
            return f"{cards} face down"
        return f"{self.kind}: {cards} unseen"  # a poker swap, an exchange: cards change hands


def hidden(kind: str, count: int, text: str | None = None) -> Hidden:
    """The :class:`Hidden` form of an action that puts ``count`` cards down unseen."""
    return Hidden(kind, count, text if text is not None else "?" * count)


def is_hidden_text(text: str) -> bool:
    """Whether an action text is a :class:`Hidden` form (as censored records carry them)."""
    return "?" in text


# --- who decides -------------------------------------------------------------------------


def decider(state: PlayState) -> int:
    """The seat whose player makes the move now; he acts from ``state.view(state.to_act)``.

    Usually that is ``to_act`` itself. A game where one player plays a seat that nobody sits
    in (#57's playing dummy, whose controller makes all its moves) says so with a property
    ``decider`` naming him; the simulator, the arena, the terminal and the server ask here
    which player (bot or person) to ask, and hand him the acting seat's view."""
    return state.decider if _decides(state) else state.to_act


_DECIDES: dict[type, bool] = {}


def _decides(state: PlayState) -> TypeGuard[HasDecider]:
    """Whether ``state`` names its decider: its class is checked against
    :class:`HasDecider` once (a runtime protocol check costs tens of microseconds, and a
    state class either has the property or not)."""
    kind = type(state)
    found = _DECIDES.get(kind)
    if found is None:
        found = _DECIDES[kind] = isinstance(state, HasDecider)
    return found


def human_loser(outcome: Outcome) -> int | None:
    """The fool, if a person: None on a draw and where the fool is a phantom seat (#57 A1:
    when the dummy is the fool nobody loses). Tallies of losses by player count this."""
    return outcome.human_loser


# --- outcomes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """How a game ended, for every family (a Durak deal; a whole match of rounds, where the
    game has rounds).

    ``loser`` is the fool (None when nobody is, or on a draw), ``order`` ranks the seats best
    first (the order they went out, the fool, if any, last), ``draw`` says nobody lost.

    The rest is written only where a game has it, so each family's records keep the keys
    they always had (see :meth:`to_json`):

    * Durak (#1-#63): ``reason`` why the deal ended early ("repetition", "instant loss";
      empty when played out); partnerships' ``teams`` and the ``losing_team`` (#53-55); the
      scoring variants' ``points``, ``figures`` and ``epaulettes`` (#61-63); the playing
      dummy's seat ``dummy`` (#57; -1: none), which may be the fool (then no person loses:
      :attr:`human_loser`).
    * The other families: final ``scores`` where the game keeps score (Mau-Mau's penalty
      points, where less is better; *Fool!*'s points, where more is better) after
      ``rounds`` rounds, a per-seat count ``tallies`` named ``tally_name`` (*Fool!*'s +10
      rounds, Mau-Mau's rounds won), and a ``note`` (blocked rounds, a move cap).
    """

    loser: int | None
    order: tuple[int, ...]
    draw: bool = False
    reason: str = ""
    teams: tuple[tuple[int, ...], ...] = ()
    losing_team: int | None = None
    points: tuple[int, ...] = ()
    figures: tuple[int, ...] = ()
    epaulettes: int = 0
    dummy: int = -1
    scores: tuple[int, ...] = ()
    rounds: int = 1
    note: str = ""
    tallies: tuple[int, ...] = ()
    tally_name: str = ""

    @property
    def winner(self) -> int | None:
        """The first player out, or the best ranked (for ``next_game_leader=previous_winner``)."""
        return self.order[0] if self.order else None

    @property
    def human_loser(self) -> int | None:
        """The fool if he is a person: None on a draw and when the dummy is the fool (#57
        A1), so tallies never charge its controller with the dummy's loss."""
        return None if self.loser == self.dummy else self.loser

    @property
    def team_order(self) -> tuple[int, ...]:
        """Team numbers by when their last member went out, the losing team last (#54 A1:
        with three pairs the others rank by the order they finished)."""
        place = {seat: i for i, seat in enumerate(self.order)}
        last = len(place)

        def finished(k: int) -> tuple[bool, int]:
            return k == self.losing_team, max(place.get(m, last) for m in self.teams[k])

        return tuple(sorted(range(len(self.teams)), key=finished))

    @property
    def top_scorers(self) -> tuple[int, ...]:
        """#61: the seats with the most points, who share the win (empty without points)."""
        if not self.points:
            return ()
        best = max(self.points)
        return tuple(s for s, p in enumerate(self.points) if p == best)

    def to_json(self) -> dict[str, object]:
        """The outcome as records, the server and ``bito replay`` write it: ``loser``,
        ``order``, ``draw``, then only what differs from the defaults. The Durak keys come
        before the other families' (no game has both), so each family writes exactly the keys,
        in the order, its records have always had."""
        out: dict[str, object] = {"loser": self.loser, "order": list(self.order),
                                  "draw": self.draw}
        if self.reason:
            out["reason"] = self.reason
        if self.teams:
            out["teams"] = [list(t) for t in self.teams]
            out["losing_team"] = self.losing_team
        if self.points:
            out["points"] = list(self.points)
            out["top_scorers"] = list(self.top_scorers)
        if self.figures:
            out["figures"] = list(self.figures)
        if self.epaulettes:
            out["epaulettes"] = self.epaulettes
        if self.dummy >= 0:
            out["dummy"] = self.dummy
            out["human_loser"] = self.human_loser
        if self.scores:
            out["scores"] = list(self.scores)
            out["rounds"] = self.rounds
        if self.tallies:
            out[self.tally_name or "tallies"] = list(self.tallies)
        if self.note:
            out["note"] = self.note
        return out


# --- endings ------------------------------------------------------------------------------

REPEATS: Final = 3
"""The repetition rule of the non-Durak engines: a game (a Mau-Mau round) is drawn when the
same position follows a take (a draw, a pick-up of the pile) for this many times since the
game last moved on for good, as chess's threefold repetition and Durak's ``end.repetition``."""


K = TypeVar("K", bound=tuple[object, ...])


def watch_repetition(seen: tuple[K, ...], key: K) -> tuple[tuple[K, ...], bool]:
    """The positions seen after takes since the game last moved on, with ``key`` added, and
    whether ``key`` has now come round :data:`REPEATS` times. A key's last item marks how far
    the game has moved on (the players out): a new mark starts the count afresh."""
    if seen and seen[-1][-1] != key[-1]:
        seen = ()
    if seen.count(key) + 1 >= REPEATS:
        return seen, True
    return (*seen, key), False


def last_holder_loses(hands: Sequence[int], active: Sequence[int], out: Sequence[int],
                      note: str) -> Outcome:
    """The end of a shedding race: those out first, in order, then the rest by cards held;
    the last holding cards is the fool, unless two hold as many (a draw) or the game was
    stopped by a rule (``note``: the repetition rule, a last guard), which draws it."""
    rest = sorted(active, key=lambda s: (hands[s].bit_count(), s))
    loser: int | None = rest[-1] if rest and not note else None
    if len(rest) > 1 and hands[rest[-1]].bit_count() == hands[rest[-2]].bit_count():
        loser = None
    return Outcome(loser=loser, order=tuple(out) + tuple(rest), draw=loser is None, note=note)


# --- family rules ------------------------------------------------------------------------

R = TypeVar("R")
OR = TypeVar("OR", bound=OptionRules)


@runtime_checkable
class MoveCapped(Protocol):
    """Rules whose engine ends a game after ``move_cap`` moves, a last guard against random
    play that never ends (Polish fool, Cheat, ...). Durak's rules have none: repetition and
    idle bouts (``end.repetition``, ``end.idle_bouts``) end its games instead."""

    @property
    def move_cap(self) -> int: ...


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``game+key=value+...`` as the game name and the option texts."""
    parts = [p.strip() for p in spec.split("+")]
    options: dict[str, str] = {}
    for part in parts[1:]:
        key, eq, value = part.partition("=")
        if not part or not eq or not value.strip():
            raise RulesError(part or spec, "an option is written key=value")
        options[key.strip()] = value.strip()
    return parts[0], options


def with_options(rules: R, prefix: str, changes: Mapping[str, object]) -> R:
    """A copy of a frozen family rules object with dotted options changed
    (``shed.hand_size=4`` sets ``hand_size``). Unknown keys and bad values raise
    :class:`RulesError` naming the key."""
    assert dataclasses.is_dataclass(rules) and not isinstance(rules, type)
    names = {f.name: f for f in dataclasses.fields(rules)}
    updates: dict[str, object] = {}
    for key, value in changes.items():
        if not key.startswith(prefix + "."):
            raise RulesError(key, f"unknown option: options of this game start with {prefix}.")
        attr = key[len(prefix) + 1:].replace(".", "_")
        if attr not in names or attr in ("variant", "family"):
            known = ", ".join(f"{prefix}.{n}" for n in names if n not in ("variant", "family"))
            raise RulesError(key, f"unknown option (known: {known})")
        updates[attr] = _coerce(key, getattr(rules, attr), value)
    return dataclasses.replace(rules, **updates)


def _is_number(text: str) -> bool:
    """A whole number short enough to mean something (longer ones are refused, not parsed)."""
    digits = text.removeprefix("-")
    return 0 < len(digits) <= 12 and digits.isascii() and digits.isdigit()


def _coerce(key: str, current: object, value: object) -> object:
    if isinstance(current, bool):
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise RulesError(key, f"expected true or false, not {value!r}")
    if isinstance(current, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = str(value).strip()
        if _is_number(text):
            return int(text)
        raise RulesError(key, f"expected a whole number, not {_shown(text)}")
    if isinstance(current, tuple):
        if isinstance(value, tuple):
            return value
        # every list option of these families is a list of whole numbers
        items = [v for v in str(value).replace(" ", "").split(",") if v]
        if len(items) > 16 or not all(_is_number(v) for v in items):
            raise RulesError(key, f"expected whole numbers, not {_shown(str(value))}")
        return tuple(int(v) for v in items)
    return str(value)


@dataclass(frozen=True)
class Limit:
    """What one family option may hold, declared next to the option (each family rules class
    maps its fields to limits in ``LIMITS``) and checked in one place, :func:`check_limits`,
    so a value that would break the engine later (a deal that runs out of cards, a match that
    never ends) is refused when the game is set up, naming the key and the allowed values.

    ``low``/``high`` bound a whole number, or every item of a list of numbers; ``choices``
    lists the allowed values; ``length`` bounds how many items a list holds; ``kind`` is
    ``int``, ``bool``, ``str`` or ``ints`` (a list of whole numbers)."""

    kind: str
    low: int | None = None
    high: int | None = None
    choices: tuple[object, ...] | None = None
    length: tuple[int, int] | None = None

    def allowed(self) -> str:
        """The allowed values in words, for error messages and ``docs/games.md``."""
        if self.choices is not None:
            return "one of: " + ", ".join(str(c).lower() if isinstance(c, bool) else str(c)
                                          for c in self.choices)
        if self.kind == "str":
            return "text"
        span = f"{self.low} to {self.high}"
        if self.kind == "ints":
            lo, hi = self.length or (0, 0)
            return f"{lo} to {hi} whole numbers, each {span}"
        return f"a whole number from {span}"

    def check(self, key: str, value: object) -> None:
        bad = RulesError(key, f"{_shown(value)} is not allowed ({self.allowed()})")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad
            return
        if self.choices is not None:
            if value not in self.choices or isinstance(value, bool) != any(
                    isinstance(c, bool) for c in self.choices):
                raise bad
            return
        if self.kind == "str":
            if not isinstance(value, str):
                raise bad
            return
        items = value if self.kind == "ints" else (value,)
        if not isinstance(items, tuple):
            raise bad
        if self.length is not None and not self.length[0] <= len(items) <= self.length[1]:
            raise bad
        for item in items:
            if isinstance(item, bool) or not isinstance(item, int):
                raise bad
            if (self.low is not None and item < self.low) or (
                    self.high is not None and item > self.high):
                raise bad


def _shown(value: object) -> str:
    text = ",".join(map(str, value)) if isinstance(value, tuple) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def span(low: int, high: int) -> Limit:
    """A whole number from ``low`` to ``high``."""
    return Limit("int", low, high)


def one_of(*choices: object) -> Limit:
    """One of a few values (numbers or words)."""
    kind = "int" if all(isinstance(c, int) for c in choices) else "str"
    return Limit(kind, choices=tuple(choices))


FLAG: Final = Limit("bool", choices=(False, True))
"""A yes/no option."""

TEXT: Final = Limit("str")
"""Free text (checked by the rules class itself, e.g. a variant spec)."""


def numbers(low: int, high: int, length: tuple[int, int]) -> Limit:
    """A list of whole numbers, each from ``low`` to ``high``."""
    return Limit("ints", low, high, length=length)


def check_limits(rules: OptionRules) -> None:
    """Check every option of a family rules object against its declared :class:`Limit`
    (``rules.LIMITS``); an option without a declaration is a programming error, so a new
    option cannot slip in unchecked."""
    limits = rules.LIMITS
    for name in option_names(rules):
        if name not in limits:
            raise AssertionError(f"{type(rules).__name__}.{name} declares no Limit")
        limits[name].check(f"{rules.PREFIX}.{name}", getattr(rules, name))


def check_choice(key: str, value: object, choices: Sequence[object]) -> None:
    """Raise :class:`RulesError` naming ``key`` unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise RulesError(key, f"{value!r} is not one of: {', '.join(map(str, choices))}")


def check_players(rules: OptionRules, players: int) -> None:
    """Refuse a seat count the rules do not allow, naming the limits. Rules whose deal
    depends on the seat count (hand size x players must fit the pack) say what is wrong with
    a method ``check_seats(players)``, which names its own key."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError("players", f"a whole number of players, not {players!r}")
    if players >= rules.players_min and isinstance(rules, ChecksSeats):
        rules.check_seats(players)
    if not rules.players_min <= players <= rules.max_players:
        raise RulesError("players", f"{rules.variant} seats {rules.players_min} to "
                         f"{rules.max_players} players, not {players}")


@runtime_checkable
class ChecksSeats(Protocol):
    """Rules whose deal depends on the seat count, which say what is wrong with one."""

    def check_seats(self, players: int) -> None: ...


def family_rules(spec: str, classes: Mapping[str, type[OR]]) -> OR:
    """The family rules object of ``game+prefix.key=value+...``: the game's catalogue values
    (``bito.rules.catalogue_games``) on the dataclass its ``engine`` names, then the options
    in the spec. ``classes`` maps engine names to rules dataclasses (each with a ``PREFIX``)."""
    from bito.rules import lookup
    from bito.rules.catalogue_games import GAME_OPTIONS, game_options

    name, user = split_spec(spec)
    variant = lookup(name)
    if variant.id not in GAME_OPTIONS:
        raise RulesError(variant.id, f"is a {variant.family} game, not one of this family")
    options = game_options(variant.id)
    engine = options.pop("engine")
    if engine not in classes:
        raise RulesError(variant.id, f"is played by the {engine} engine, not this family's")
    cls = classes[engine]
    rules = cls(variant=variant.id)
    rules = with_options(rules, rules.PREFIX, options)
    rules = with_options(rules, rules.PREFIX, user)
    rules.check()
    return rules


def option_text(rules: OptionRules, base: OptionRules) -> str:
    """The spec of a family rules object: its game plus every option that differs from the
    game's catalogue values (so records name exactly the rules played)."""
    parts = [rules.variant]
    for name in option_names(rules):
        value = getattr(rules, name)
        if value != getattr(base, name):
            text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            if isinstance(value, bool):
                text = text.lower()
            parts.append(f"{rules.PREFIX}.{name}={text}")
    return "+".join(parts)


def option_names(rules: OptionRules) -> list[str]:
    """The options of a family rules object, in the order its dataclass declares them (its
    game and family are not options)."""
    assert dataclasses.is_dataclass(rules)
    return [f.name for f in dataclasses.fields(rules) if f.name not in ("variant", "family")]


def seat_lines(hands: Sequence[int], to_act: int, outcome: Outcome | None) -> list[str]:
    """The hands part of a printed position, one line per seat, the seat to act starred, and
    the outcome once there is one: what every family's ``__str__`` ends with."""
    lines = []
    for s, hand in enumerate(hands):
        mark = "*" if s == to_act and outcome is None else " "
        held = " ".join(card_pretty(c) for c in cards_of(hand)) or "-"
        lines.append(f"{mark} seat {s}: {held}")
    if outcome is not None:
        lines.append(f"over: {outcome.to_json()}")
    return lines
