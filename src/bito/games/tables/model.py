"""The table model: one seat's view of any game described as data.

Every face that draws a game -- the terminal, the browser, an RL observation -- needs the same
few things: who sits where and what is known of each hand, the zones where cards lie (the
hand, attack/defence pairs, a trick, a pile with its top card, face-down claims, the stock
and the discard), whose turn it is and why, the legal moves with a label in words, and the
game's own card vocabulary (Fool!'s colours and wild cards, jokers, a called suit). A family
builds one :class:`TableModel` from a seat's view with a pure function registered on its
:class:`~bito.games.family.Family` (``table_module``), so an interface draws every game the
same way and a family with a special need adds to the model, not a branch to an interface.

The model holds only what the view holds: a card the seat may not see is never in it
(``tests/properties/test_table_model.py`` checks this over random games of every family).
Every type is a frozen dataclass; :meth:`TableModel.to_json` gives plain JSON.

**The learner's build.** A learner reads the model at every step of every game it plays, and
reads none of its words. So each family's builder takes ``words=False``
(:func:`bito.games.tables.facts_of`): the same model, with the same cards, counts, seats and
facts of play, but without what is only said to a person -- the moves and their order (a
learner has the codec's mask), what the seat to act is doing, every note, the vocabulary's
rules, wild cards and trump in words. It is the one model type and the one reading of the
view, only cheaper to build (``tests/env/test_observation_from_table.py`` holds it to the
whole model less those words).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import FunctionType
from typing import Literal

ZoneKind = Literal["hand", "pairs", "trick", "pile", "claim", "stock", "discard", "centre"]
"""How a zone lies: a hand (fanned, its owner's cards), attack/defence ``pairs``, a ``trick``
(one card per seat), a ``pile`` (face up, its top card matters), a ``claim`` (face down,
announced), the ``stock`` (face down, perhaps one card face up under it), the ``discard``
(face down), a ``centre`` (face-up cards of a bout)."""

JsonValue = None | bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True)
class Card:
    """One face-up card as the game names it: ``text`` is the notation a player types
    (``7h``, ``g12``, ``w1``), ``label`` its printed face (``7♥``, ``green 12``, ``wild 1``).
    ``suit`` is one of ``clubs diamonds hearts spades`` or empty; ``colour`` Fool!'s colour
    or empty; ``wild`` a card that stands for any (a wild 1, a joker); ``trump`` a card of a
    trump suit."""

    code: int
    text: str
    label: str
    suit: str = ""
    colour: str = ""
    wild: bool = False
    trump: bool = False


@dataclass(frozen=True)
class Pair:
    """An attack card and its cover on a Durak table (``face_down``: covered, the cover not
    shown, #59; ``needs_cover`` False: a card a transfer left that nobody has to beat, #11)."""

    attack: Card
    cover: Card | None = None
    face_down: bool = False
    needs_cover: bool = True


@dataclass(frozen=True)
class Play:
    """A card played to a trick or a bout by a seat."""

    seat: int
    card: Card


@dataclass(frozen=True)
class Zone:
    """A place cards lie. ``count`` is how many cards lie there in all; ``cards`` those the
    seat sees face up (a pile's visible cards, the hand); ``top`` the card that matters on a
    pile (or the face-up card under the stock); ``face_down`` how many lie face down;
    ``owner`` the seat a hand or a claim belongs to (-1: nobody's); ``note`` a short fact in
    words (``claims 3 kings``); ``by_position``: a hand its owner holds face out, unseen by
    him, so he plays it by position (#58: ``count`` numbered backs, #1 his oldest card)."""

    name: str
    kind: ZoneKind
    count: int
    cards: tuple[Card, ...] = ()
    pairs: tuple[Pair, ...] = ()
    plays: tuple[Play, ...] = ()
    top: Card | None = None
    face_down: int = 0
    owner: int = -1
    note: str = ""
    by_position: bool = False


@dataclass(frozen=True)
class Seat:
    """One seat at the table as the viewing seat knows it: ``role`` in words (``attacker``,
    ``defender``, ``sits out``, ``out``...), the number of cards held, the cards publicly known
    to be in that hand, the score (None: the game keeps none), whether the seat is out, its
    team (-1: none), a short public note (an animal's sound) and the seat that plays it for
    it when it does not play itself (a playing dummy's controller, -1: itself) and its own
    ``trump`` suit where every seat has one (#16; empty: the game's trumps). Facts of some
    games: ``pending_out`` (the adjacent-rank game: the seat has played its last card and is
    out unless the next player answers it), ``sits_out`` (*Fool!*: it holds the Fool disc and
    sits out the next trick), ``plus_tens`` (*Fool!*: its +10 rounds) and ``laughed`` (animal
    sounds: it laughed at the sound being judged)."""

    seat: int
    role: str
    cards: int
    known: tuple[Card, ...] = ()
    score: int | None = None
    out: bool = False
    team: int = -1
    note: str = ""
    played_by: int = -1
    trump: str = ""
    pending_out: bool = False
    sits_out: bool = False
    plus_tens: int = 0
    laughed: bool = False


@dataclass(frozen=True)
class Choice:
    """A legal move: ``id`` is its notation (stable: it reads back as the same move),
    ``kind`` its kind in one word, ``label`` a short phrase a player understands
    (``cover 7♥ with 9♥``, ``draw a card``), ``cards`` the cards it puts down."""

    id: str
    kind: str
    label: str
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Vocabulary:
    """The game's own cards: ``deck`` (``french`` or ``fool``), the trump suits, the suit a
    player called (Mau-Mau's wild card, empty when none), what is wild, whether the pack has
    jokers, and short rules of play a player needs at the table (China fool's one card
    taken, Mau-Mau's penalties...); ``trump_words`` the trump as the table shows it, in
    words (``trump card 7♦, at the bottom of the stock``; empty: the trumps alone say it)."""

    deck: Literal["french", "fool"] = "french"
    trumps: tuple[str, ...] = ()
    called_suit: str = ""
    wild: tuple[str, ...] = ()
    jokers: bool = False
    colours: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    trump_words: str = ""


@dataclass(frozen=True)
class TableModel:
    """What one seat sees of a game, as data (see the module docstring). ``seat`` is the
    viewing seat, ``to_act`` the seat whose turn it is and ``doing`` why, in words; ``moves``
    the viewing seat's legal moves (empty when it is another seat's turn); once the game is
    ``over``, the ``fool`` (-1: none), the seats of the ``losing_team`` in a partnership game,
    and whether it was a ``draw``; ``bout`` and ``round`` the bout or round under way,
    counting from 1 (0: the game does not count them); ``order`` the indices of ``moves`` in
    the order a player scans them, cheapest first (empty: as listed).

    Facts a face or a learner needs beyond the zones (each left at its default by a game
    that lacks it): ``phase``, the engine's own word for the step of play (``cover``,
    ``judge``, ``defend``...); the card the seat has just ``drawn`` and may play at
    once (Mau-Mau); whether an ace is open (``ace_open``: Mau-Mau's ace to follow); whether
    the pile calls for ``any_card`` (the adjacent-rank game after a pile-closing card); the
    colour or suit ``led`` to the trick; the rank ``due`` (2 to 14 for ace; 0: none) and the
    seat whose sound or claim is being ``judged`` (-1: none) in the social games; the cards
    ``to_beat`` (open attack cards, the card led at the defender, the top of a heap or chain)
    and the ``trump_card`` turned up at the deal, which stays public after the stock runs
    out.

    The bout's seats and what every seat has seen, in the Durak games: the ``attacker``, the
    ``leader`` (the seat that led the bout) and the ``defender`` (-1: none); whether the
    defender is ``taking`` the cards (he said *take*; the others may still throw in); the cards
    every seat saw go to the discard (``discarded``); and the cards lying ``face_up``
    for every seat outside the hands and the table (the trump card under the stock, the
    personal trump cards turned under it (#16), a stock rebuilt face up (#38), the secret
    card once turned (#18)).

    ``decider``, the seat that makes ``to_act``'s moves when that is another one (a playing
    dummy's controller, #57; -1: ``to_act`` itself); ``prompt``, what the seat to act is asked
    to do, said to him (``lead an attack``; empty: the table says only whose turn it is)."""

    family: str
    game: str
    seat: int
    players: int
    seats: tuple[Seat, ...]
    zones: tuple[Zone, ...]
    to_act: int
    doing: str
    moves: tuple[Choice, ...]
    vocabulary: Vocabulary
    over: bool = False
    fool: int = -1
    losing_team: tuple[int, ...] = ()
    draw: bool = False
    bout: int = 0
    round: int = 0
    order: tuple[int, ...] = ()
    attacker: int = -1
    leader: int = -1
    defender: int = -1
    taking: bool = False
    discarded: tuple[Card, ...] = ()
    face_up: tuple[Card, ...] = ()
    phase: str = ""
    drawn: Card | None = None
    ace_open: bool = False
    any_card: bool = False
    led: str = ""
    due: int = 0
    judged: int = -1
    to_beat: tuple[Card, ...] = ()
    trump_card: Card | None = None
    decider: int = -1
    prompt: str = ""

    def zone(self, name: str) -> Zone | None:
        """The zone of this name, or None."""
        return next((z for z in self.zones if z.name == name), None)

    def cards(self) -> list[Card]:
        """Every card the model shows, wherever it lies (with repeats)."""
        out: list[Card] = []
        for s in self.seats:
            out.extend(s.known)
        for z in self.zones:
            out.extend(z.cards)
            out.extend(p.card for p in z.plays)
            for pair in z.pairs:
                out.append(pair.attack)
                if pair.cover is not None:
                    out.append(pair.cover)
            if z.top is not None:
                out.append(z.top)
        out.extend(self.discarded)
        out.extend(self.face_up)
        for m in self.moves:
            out.extend(m.cards)
        out.extend(self.to_beat)
        out.extend(c for c in (self.drawn, self.trump_card) if c is not None)
        return out

    def to_json(self) -> dict[str, JsonValue]:
        """The model as plain JSON (lists, dicts, strings, numbers, booleans, null)."""
        raw = _plain(dataclasses.asdict(self))
        assert isinstance(raw, dict)
        return raw


def _plain(value: object) -> JsonValue:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not JSON")


def _stored_at_once(cls: type) -> None:
    """Give a frozen dataclass of the model the ``__init__`` its dataclass writes -- the same
    parameters, defaults and errors -- storing the fields in the instance's dict in one
    update instead of one ``object.__setattr__`` call per field: a learner builds a model at
    every step (some fifty fields in all), and this makes the build a third cheaper. The Durak
    engine makes its ``Deal`` and ``Outcome`` the same way (``bito.games.durak.setup``)."""
    fields = dataclasses.fields(cls)
    defaults = {f"_default_{f.name}": f.default for f in fields
                if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name if f.default is dataclasses.MISSING else
                       f"{f.name}=_default_{f.name}" for f in fields)
    stored = ", ".join(f"{f.name}={f.name}" for f in fields)
    made: dict[str, object] = dict(defaults)
    exec(f"def __init__(self, {params}):\n    self.__dict__.update({stored})\n", made)
    init = made["__init__"]
    assert isinstance(init, FunctionType)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 (mypy refuses `cls.__init__ = init`)


for _kind in (Card, Pair, Play, Zone, Seat, Choice, Vocabulary, TableModel):
    _stored_at_once(_kind)


__all__ = ["Card", "Choice", "JsonValue", "Pair", "Play", "Seat", "TableModel", "Vocabulary",
           "Zone", "ZoneKind"]
