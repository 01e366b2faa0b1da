"""Durak actions and their text form.

An action never names the seat that makes it: the state knows who is to act, so a game is a
plain list of actions. Actions are interned (one object per distinct action), which keeps
move generation free of allocation and makes ``==`` an identity test in the common case.

Text forms (see ``docs/notation.md``):

========  ===============  ==========================================================
kind      text             meaning
========  ===============  ==========================================================
attack    ``6h``           lead or throw in the six of hearts
attack    ``6h+6s``        lead several cards at once (one rank, per the lead rules)
defend    ``Th>6h``        cover the six of hearts with the ten of hearts
transfer  ``=6s``          pass the attack on with the six of spades
take      ``take``         pick up the table (others may still throw in first)
pass      ``pass``         stop throwing in for now (also ``bito`` / ``done``); as a lead,
                           pass the attack on (#5, ``lead.pass_if_no_legal``)
give      ``^7c``          hand the seven of clubs over as a joker gift (#24)
block     ``!7c+7d+7h``    show three of a kind to cancel a joker gift (#84)
believe   ``believe``      accept the face-down covers as they lie (#59)
doubt     ``doubt``        call the face-down covers a bluff: "don't believe" (#59)
toss      ``~7c``          throw the seven of clubs in from the dummy's hand (#56)
try       ``try``          draw the top stock card for a second try at covering (#39)
stock     ``stock``        attack with the top card of the stock, turned up (#40, #83)
swap      ``$7c+8d``       swap these cards for the top cards of the stock (#42)
pair      ``6h<Th``        lay the six of hearts and cover it yourself at once (#48, #51)
own       ``@Th>6h``       cover your own attack card after a take (#50, #51)
counter   ``Th>9c+Ts``     cover the nine of clubs with the ten of hearts and counter-attack
                           its player with the ten of spades (#49)
blind     ``#3``           lead or throw in the card at position 3 of your own hidden hand
                           (#58: ``deal.owner_sees_hand=false``; positions count from 1)
blind     ``#3>6h``        cover the six of hearts with the card at position 3 (#58)
blind     ``=#3``          transfer with the card at position 3 (#58)
exchange  ``&7c+8d``       after the bout, pass these cards to the left neighbour (#31,
                           ``exchange.mode=choose``); others see ``&?+?``
========  ===============  ==========================================================

Once played, a blind card is turned up: logs and records show it in brackets after the
position (``#3(9d)>6h``), and the bracket is accepted (and ignored) when parsed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from bito.cards import (
    MATCH_MASKS,
    MAX_CARDS,
    card_pretty,
    card_str,
    check_length,
    parse_card,
    parse_count,
    split_cards,
)
from bito.errors import InvalidNotationError


class Kind(IntEnum):
    """What an action does. The numbers are stored by records of positions, the kernel's
    arrays and the RL codec, and their ranges are used by the state machine to branch once."""

    ATTACK = 0  #: a lead or a throw-in
    DEFEND = 1  #: a cover
    TRANSFER = 2
    TAKE = 3
    PASS = 4
    GIVE = 5  #: a card handed over for a joker (#24)
    BLOCK = 6  #: three of a kind shown to cancel a gift (#84)
    #: The attacker's call on face-down covers (#59). Numbered above every other kind: the
    #: state machine sends kinds from GIVE up to one rarely taken branch.
    BELIEVE = 7
    DOUBT = 8
    #: A throw-in from the dummy's hand by its controller (#56): the kind says which hand.
    TOSS = 9
    #: Plays by position from a hand its owner cannot see (#58, :mod:`bito.games.durak.blind`):
    #: a lead or throw-in, a cover, a transfer. The position (0-based) is kept as the action's
    #: only "card", stored as ``~position`` (negative), so :attr:`Action.mask` stays empty: the
    #: action names no card until the state turns it up.
    BLIND_PLAY = 10
    BLIND_COVER = 11
    BLIND_TRANSFER = 12
    #: Second tries, stock leads, poker swaps and post-take attacks (#39-51): numbered from 20
    #: so that :meth:`DurakState.step_unchecked` sends every one of them to
    #: :mod:`bito.games.durak.bout_extras` with a single comparison.
    TRY = 20
    STOCK = 21
    SWAP = 22
    PAIR = 23
    OWN_COVER = 24
    COUNTER = 25
    #: The cards a player chooses to pass on after a bout (#31,
    #: :mod:`bito.games.durak.exchange`), numbered above the kinds of #39-51 so that it shares
    #: their rarely taken branch.
    EXCHANGE = 30


# The kinds by name, as plain ints: actions carry these. An enum member in every action would
# cost the interning table and the state machine's comparisons about 1.5 % of the engine's
# speed (measured with tools/ab_engines.py); ``Kind(action.kind)`` gives the member.
ATTACK, DEFEND, TRANSFER, TAKE, PASS = (int(k) for k in (Kind.ATTACK, Kind.DEFEND,
                                                           Kind.TRANSFER, Kind.TAKE, Kind.PASS))
GIVE, BLOCK, BELIEVE, DOUBT, TOSS = (int(k) for k in (Kind.GIVE, Kind.BLOCK, Kind.BELIEVE,
                                                        Kind.DOUBT, Kind.TOSS))
TRY, STOCK, SWAP, PAIR, OWN_COVER, COUNTER = (int(k) for k in (
    Kind.TRY, Kind.STOCK, Kind.SWAP, Kind.PAIR, Kind.OWN_COVER, Kind.COUNTER))
BLIND_PLAY, BLIND_COVER, BLIND_TRANSFER = (int(k) for k in (
    Kind.BLIND_PLAY, Kind.BLIND_COVER, Kind.BLIND_TRANSFER))
EXCHANGE: Final = int(Kind.EXCHANGE)
#: The first kind of the blind plays and of the rarely taken extra kinds: range tests.
BLIND_KINDS: Final = int(Kind.BLIND_PLAY)
EXTRA_KINDS: Final = int(Kind.TRY)
#: Each kind's name in words (errors, the move log): the enum's name, but for a few.
_SHORT_NAMES: Final = {"BLIND_PLAY": "blind", "OWN_COVER": "own"}
KIND_NAMES: Final[dict[int, str]] = {
    int(k): _SHORT_NAMES.get(k.name, k.name.lower().replace("_", " ")) for k in Kind}


@dataclass(frozen=True)
class KindNotation:
    """A kind of move a variant hook adds, with its text: ``prefix`` and the cards joined by
    ``+`` (``*7s``), or ``word`` and the cards (``show 7s``) when typed; ``pretty`` words
    the move for the terminal, before the cards. ``kind`` is the number
    :func:`register_kind` allocated.

    ``trade``, for a move that exchanges cards of the mover's hand for others (#97's trump
    swap): given the mover's view and the move, the cards it gives up and the cards it brings
    into the hand, as masks, so that a bot can weigh any such move by the cards alone."""

    kind: int
    name: str
    prefix: str
    word: str
    pretty: str
    trade: Callable[[Any, Action], tuple[int, int]] | None = None


#: The kinds variant hooks added (:func:`register_kind`), by number.
HOOKED_KINDS: Final[dict[int, KindNotation]] = {}
#: The first number :func:`register_kind` hands out: above every core kind, with room for
#: the core to grow.
FIRST_HOOKED_KIND: Final = 31
#: Prefixes and typed words the core's own notation reads (a hooked kind may not take them).
_CORE_PREFIXES: Final = "=#^~!$&@<>/+"
_CORE_WORDS: Final = ("give", "dummy", "block", "swap", "exchange", "transfer")


def register_kind(name: str, prefix: str, word: str, pretty: str,
                  trade: Callable[[Any, Action], tuple[int, int]] | None = None
                  ) -> KindNotation:
    """Add a hook's kind of move by its name and notation; its number is allocated here (the
    next free one from :data:`FIRST_HOOKED_KIND`), so two rules can never share one. The name,
    the prefix and the typed word must be new, so that every text still reads as exactly one
    move; a clash is refused at once, naming what is taken."""
    if name in KIND_NAMES.values():
        raise ValueError(f"action kind name {name!r} is taken")
    if (not prefix or prefix in _CORE_PREFIXES or prefix.isalnum()
            or any(n.prefix == prefix for n in HOOKED_KINDS.values())):
        raise ValueError(f"action prefix {prefix!r} is taken")
    if (not word or word.lower() in _CORE_WORDS or word.lower() in _WORDS
            or any(n.word == word for n in HOOKED_KINDS.values())):
        raise ValueError(f"action word {word!r} is taken")
    kind = max((FIRST_HOOKED_KIND - 1, *HOOKED_KINDS)) + 1
    notation = KindNotation(kind, name, prefix, word, pretty, trade)
    HOOKED_KINDS[kind] = notation
    KIND_NAMES[kind] = name
    return notation


class Action:
    """One move. Build with :func:`attack`, :func:`defend`, :func:`transfer`, or use the
    constants :data:`TAKE_ACTION` and :data:`PASS_ACTION`; parse with :func:`parse_action`."""

    __slots__ = ("kind", "cards", "target", "mask", "ranks", "_key")

    kind: int
    cards: tuple[int, ...]
    target: int
    #: The set of :attr:`cards` as a bitmask, and the union of their rank masks: the state
    #: machine moves cards and records table ranks with one operation per action instead of
    #: one per card (precomputed once, since actions are interned).
    mask: int
    ranks: int
    _key: tuple[int, tuple[int, ...], int]

    def __new__(cls, kind: int, cards: tuple[int, ...] = (), target: int = -1) -> Action:
        key = (kind, cards, target)
        hit = _INTERN.get(key)
        if hit is not None:
            return hit
        self = object.__new__(cls)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "target", target)
        mask = ranks = 0
        for c in cards:
            if c >= 0:  # a malformed action (never legal) must still construct
                mask |= 1 << c
                ranks |= MATCH_MASKS[c]
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "_key", key)
        _INTERN[key] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Action) and self._key == other._key)

    def __hash__(self) -> int:
        return hash(self._key)

    def __reduce__(self) -> tuple[type[Action], tuple[int, tuple[int, ...], int]]:
        return (Action, (self.kind, self.cards, self.target))

    @property
    def card(self) -> int:
        """The single card of an attack, defence or transfer."""
        return self.cards[0]

    @property
    def position(self) -> int:
        """The hand position (0-based) a blind play (#58) takes its card from."""
        return ~self.cards[0]

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]

    def __str__(self) -> str:
        k = self.kind
        if k == ATTACK:
            return "+".join(card_str(c) for c in self.cards)
        if k == DEFEND:
            return f"{card_str(self.cards[0])}>{card_str(self.target)}"
        if k == TRANSFER:
            return "=" + "+".join(card_str(c) for c in self.cards)
        if k == GIVE:
            return "^" + card_str(self.cards[0])
        if k == BLOCK:
            return "!" + "+".join(card_str(c) for c in self.cards)
        if k == TOSS:
            return "~" + card_str(self.cards[0])
        if k == SWAP:
            return "$" + "+".join(card_str(c) for c in self.cards)
        if k == EXCHANGE:
            return "&" + "+".join(card_str(c) for c in self.cards)
        if k == PAIR:
            return f"{card_str(self.target)}<{card_str(self.cards[0])}"
        if k == OWN_COVER:
            return f"@{card_str(self.cards[0])}>{card_str(self.target)}"
        if k == COUNTER:
            return (f"{card_str(self.cards[0])}>{card_str(self.target)}+"
                    + "+".join(card_str(c) for c in self.cards[1:]))
        if BLIND_KINDS <= k < EXTRA_KINDS:
            return blind_text(k, self.position, self.target)
        hooked = HOOKED_KINDS.get(k)
        if hooked is not None:
            return hooked.prefix + "+".join(card_str(c) for c in self.cards)
        return KIND_NAMES[k]

    def pretty(self) -> str:
        """Words and suit symbols for the terminal (``cover 6♥ with 10♥``)."""
        k = self.kind
        if k == ATTACK:
            return "attack " + " ".join(card_pretty(c) for c in self.cards)
        if k == DEFEND:
            return f"cover {card_pretty(self.target)} with {card_pretty(self.cards[0])}"
        if k == TRANSFER:
            return "transfer with " + " ".join(card_pretty(c) for c in self.cards)
        if k == TAKE:
            return "take the cards"
        if k == GIVE:
            return f"give {card_pretty(self.cards[0])}"
        if k == BLOCK:
            return "block the gift showing " + " ".join(card_pretty(c) for c in self.cards)
        if k == TOSS:
            return f"throw in {card_pretty(self.cards[0])} from the dummy"
        if k == BELIEVE:
            return "believe the covers (I believe)"
        if k == DOUBT:
            return "call a bluff (I don't believe)"
        if k == TRY:
            return "second try: draw the top card of the stock"
        if k == STOCK:
            return "attack with the top card of the stock"
        if k == SWAP:
            return "swap " + " ".join(card_pretty(c) for c in self.cards) + " with the stock"
        if k == EXCHANGE:
            return "pass " + " ".join(card_pretty(c) for c in self.cards) + " to the left"
        if k == PAIR:
            return (f"lay {card_pretty(self.target)} and cover it yourself with "
                    f"{card_pretty(self.cards[0])}")
        if k == OWN_COVER:
            return (f"cover your own {card_pretty(self.target)} with "
                    f"{card_pretty(self.cards[0])} (the taker gets both)")
        if k == COUNTER:
            return (f"cover {card_pretty(self.target)} with {card_pretty(self.cards[0])} and "
                    "counter-attack with " + " ".join(card_pretty(c) for c in self.cards[1:]))
        if BLIND_KINDS <= k < EXTRA_KINDS:
            return blind_pretty(k, self.position, self.target)
        hooked = HOOKED_KINDS.get(k)
        if hooked is not None:
            return hooked.pretty + " " + " ".join(card_pretty(c) for c in self.cards)
        return "pass (bito)"

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


_INTERN: dict[tuple[int, tuple[int, ...], int], Action] = {}


def attack(*cards: int) -> Action:
    return Action(ATTACK, tuple(sorted(cards)))


def defend(card: int, target: int) -> Action:
    return Action(DEFEND, (card,), target)


def transfer(card: int) -> Action:
    return Action(TRANSFER, (card,))


def give(card: int) -> Action:
    return Action(GIVE, (card,))


def toss(card: int) -> Action:
    return Action(TOSS, (card,))


def block(*cards: int) -> Action:
    return Action(BLOCK, tuple(sorted(cards)))


def swap(*cards: int) -> Action:
    return Action(SWAP, tuple(sorted(cards)))


def exchange(*cards: int) -> Action:
    """The cards passed to the left neighbour after a bout (#31), in card order."""
    return Action(EXCHANGE, tuple(sorted(cards)))


def pair(attack_card: int, cover: int) -> Action:
    """Lay ``attack_card`` and cover it with ``cover`` in one go (the cover is the action's
    card and the attack card its target, as in a defence)."""
    return Action(PAIR, (cover,), attack_card)


def own_cover(cover: int, target: int) -> Action:
    return Action(OWN_COVER, (cover,), target)


def counter(cover: int, target: int, *extra: int) -> Action:
    """Cover ``target`` with ``cover`` and counter-attack with ``extra`` (#49): the cover
    first, then the added cards in card order."""
    return Action(COUNTER, (cover, *sorted(extra)), target)


def blind_play(position: int) -> Action:
    """Lead or throw in the card at ``position`` (0-based) of one's own unseen hand (#58)."""
    return Action(BLIND_PLAY, (~position,))


def blind_cover(position: int, target: int) -> Action:
    """Cover ``target`` with the card at ``position`` of one's own unseen hand (#58)."""
    return Action(BLIND_COVER, (~position,), target)


def blind_transfer(position: int) -> Action:
    """Transfer with the card at ``position`` of one's own unseen hand (#58)."""
    return Action(BLIND_TRANSFER, (~position,))


def blind_text(kind: int, position: int, target: int, card: int = -1) -> str:
    """``#3``, ``#3>6h``, ``=#3`` (positions shown from 1); with the card turned up,
    ``#3(9d)``, ``#3(9d)>6h``, ``=#3(9d)``."""
    seen = f"({card_str(card)})" if card >= 0 else ""
    body = f"#{position + 1}{seen}"
    if kind == BLIND_COVER:
        return f"{body}>{card_str(target)}"
    if kind == BLIND_TRANSFER:
        return "=" + body
    return body


def blind_pretty(kind: int, position: int, target: int, card: int = -1) -> str:
    """Words for a blind play, with the card once it is turned up."""
    what = f"the card at position {position + 1}"
    if card >= 0:
        what += f" ({card_pretty(card)})"
    if kind == BLIND_COVER:
        return f"cover {card_pretty(target)} with {what}"
    if kind == BLIND_TRANSFER:
        return f"transfer with {what}"
    return f"play {what}"


class Revealed:
    """A blind play (#58) as the log shows it once its card is turned up: every seat, the
    player himself included, sees which card the position held. It carries the card, so a
    server log or censored record built from it names the card, which by then lies face up."""

    __slots__ = ("action", "card", "fits")

    def __init__(self, action: Action, card: int, fits: bool = True) -> None:
        self.action = action
        self.card = card
        #: False when the card broke the rules and its player was penalised (#58 A2).
        self.fits = fits

    @property
    def kind(self) -> int:
        return self.action.kind

    @property
    def kind_name(self) -> str:
        return self.action.kind_name

    @property
    def cards(self) -> tuple[int, ...]:
        return (self.card,)

    @property
    def target(self) -> int:
        return self.action.target

    def __str__(self) -> str:
        return blind_text(self.action.kind, self.action.position, self.action.target,
                          self.card)

    def pretty(self) -> str:
        words = blind_pretty(self.action.kind, self.action.position, self.action.target,
                             self.card)
        return words if self.fits else words + ": illegal, takes the bout's cards"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Revealed) and self.action == other.action
                and self.card == other.card and self.fits == other.fits)

    def __hash__(self) -> int:
        return hash((self.action, self.card, self.fits))

    def __repr__(self) -> str:
        return f"Revealed({self.action!r}, {self.card}, {self.fits})"


def parse_revealed(text: str) -> Action | Revealed:
    """An action as a log or censored record writes it: a blind play with its turned-up card
    in brackets (``#3(9d)>6h``) becomes :class:`Revealed`; anything else parses as usual."""
    action = parse_action(text)
    if BLIND_KINDS <= action.kind < EXTRA_KINDS and "(" in text:
        inside = text[text.index("(") + 1:text.index(")")]
        return Revealed(action, parse_card(inside))
    return action


def _parse_blind(s: str, text: str, offset: int) -> Action:
    """``#3``, ``#3>6h``, ``=#3``, each optionally with the turned-up card in brackets."""
    transfer_ = s.startswith("=")
    body = s[1:] if transfer_ else s
    at = offset + (1 if transfer_ else 0)
    head, sep, target_txt = body.partition(">")
    digits = head[1:]
    if "(" in digits:
        digits, _, seen = digits.partition("(")
        if not seen.endswith(")"):
            raise InvalidNotationError("a turned-up card is written in brackets, like #3(9d)",
                                       text, at + len(head))
        try:
            parse_card(seen[:-1])
        except InvalidNotationError as e:
            raise InvalidNotationError(e.reason, text, at + 2 + len(digits) + e.position
                                       ) from None
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidNotationError("a hand position is a number from 1, like #3", text, at + 1)
    position = parse_count(digits, text, at + 1, low=1, high=MAX_CARDS,
                           what="a hand position") - 1
    if sep:
        if transfer_:
            raise InvalidNotationError("a transfer covers nothing: write =#3", text,
                                       at + len(head))
        try:
            return blind_cover(position, parse_card(target_txt))
        except InvalidNotationError as e:
            raise InvalidNotationError(e.reason, text, at + len(head) + 1 + e.position
                                       ) from None
    return blind_transfer(position) if transfer_ else blind_play(position)


TAKE_ACTION: Final = Action(TAKE)
PASS_ACTION: Final = Action(PASS)
BELIEVE_ACTION: Final = Action(BELIEVE)
DOUBT_ACTION: Final = Action(DOUBT)
TRY_ACTION: Final = Action(TRY)
STOCK_ACTION: Final = Action(STOCK)

_WORDS: Final = {
    "take": TAKE_ACTION, "t": TAKE_ACTION, "pickup": TAKE_ACTION, "беру": TAKE_ACTION,
    "pass": PASS_ACTION, "bito": PASS_ACTION, "done": PASS_ACTION, "p": PASS_ACTION,
    "бито": PASS_ACTION, "пас": PASS_ACTION,
    "believe": BELIEVE_ACTION, "верю": BELIEVE_ACTION,
    "doubt": DOUBT_ACTION, "don't believe": DOUBT_ACTION, "dont_believe": DOUBT_ACTION,
    "не верю": DOUBT_ACTION,
    "try": TRY_ACTION, "second try": TRY_ACTION, "stock": STOCK_ACTION, "top": STOCK_ACTION,
}


def parse_action(text: str) -> Action:
    """Parse the text form of an action. Raises :class:`InvalidNotationError` that points at
    the offending character. Accepts a few friendly spellings (``transfer 6s``, ``Th/6h``).

    A friendly spelling reads as the short form, which is what the action prints as:

    >>> parse_action("transfer 6s"), parse_action("Th/6h"), parse_action("7c+7d")
    (parse_action('=6s'), parse_action('6h>Th'), parse_action('7c+7d'))
    >>> str(parse_action("take"))
    'take'
    """
    check_length(text, what="an action")
    s = text.strip()
    low = s.lower()
    if low in _WORDS:
        return _WORDS[low]
    if not s:
        raise InvalidNotationError("empty move", text, 0)
    offset = len(text) - len(text.lstrip())
    if s.startswith("#") or s.startswith("=#"):
        return _parse_blind(s, text, offset)
    for hooked in HOOKED_KINDS.values():
        for pre in (hooked.prefix, hooked.word + " "):
            if low.startswith(pre):
                try:
                    return Action(hooked.kind, tuple(sorted(split_cards(s[len(pre):]))))
                except InvalidNotationError as e:
                    raise InvalidNotationError(e.reason, text, offset + len(pre) + e.position
                                               ) from None
    for prefixes, make in ((("give ", "^"), give), (("dummy ", "~"), toss)):
        for prefix in prefixes:
            if low.startswith(prefix):
                try:
                    return make(parse_card(s[len(prefix):]))
                except InvalidNotationError as e:
                    raise InvalidNotationError(e.reason, text, offset + len(prefix) + e.position
                                               ) from None
    for starts, make_many in ((("block ", "!"), block), (("swap ", "$"), swap),
                              (("exchange ", "&"), exchange)):
        for pre in starts:
            if not low.startswith(pre):
                continue
            try:
                return make_many(*split_cards(s[len(pre):]))
            except InvalidNotationError as e:
                raise InvalidNotationError(e.reason, text, offset + len(pre) + e.position
                                           ) from None
    if low.startswith("@"):
        if s[1:].lstrip().startswith("@"):  # checked here: recursing once per '@' overflows
            raise InvalidNotationError("'@' is followed by a cover, like @Th>6h", text,
                                       offset + 1)
        inner = parse_action(s[1:])
        if inner.kind != DEFEND:
            raise InvalidNotationError("'@' is followed by a cover, like @Th>6h", text,
                                       offset + 1)
        return own_cover(inner.cards[0], inner.target)
    if "<" in s:
        left, right = s.split("<", 1)
        try:
            a = parse_card(left)
        except InvalidNotationError as e:
            raise InvalidNotationError(e.reason, text, offset + e.position) from None
        try:
            return pair(a, parse_card(right))
        except InvalidNotationError as e:
            raise InvalidNotationError(e.reason, text, offset + len(left) + 1 + e.position
                                       ) from None
    for prefix in ("transfer ", "transfer:", "="):
        if low.startswith(prefix):
            rest = s[len(prefix):]
            try:
                if "+" in rest:  # a group transfer (#29 A5 option)
                    return Action(TRANSFER, tuple(sorted(split_cards(rest))))
                return transfer(parse_card(rest))
            except InvalidNotationError as e:
                raise InvalidNotationError(e.reason, text, offset + len(prefix) + e.position
                                           ) from None
    for sep in (">", "/"):
        if sep in s:
            left, right = s.split(sep, 1)
            cover, target = (left, right) if sep == ">" else (right, left)
            try:
                c = parse_card(cover)
            except InvalidNotationError as e:
                at = 0 if sep == ">" else len(left) + 1
                raise InvalidNotationError(e.reason, text, offset + at + e.position) from None
            extra: list[int] = []
            if sep == ">" and "+" in right:  # a counter-attack (#49): Th>9c+Ts
                target, _, added = right.partition("+")
                try:
                    extra = split_cards(added)
                except InvalidNotationError as e:
                    at = len(left) + 1 + len(target) + 1
                    raise InvalidNotationError(e.reason, text, offset + at + e.position
                                               ) from None
            try:
                t = parse_card(target)
            except InvalidNotationError as e:
                at = len(left) + 1 if sep == ">" else 0
                raise InvalidNotationError(e.reason, text, offset + at + e.position) from None
            return counter(c, t, *extra) if extra else defend(c, t)
    for i, ch in enumerate(s):
        if ch == "+" and (i == 0 or i == len(s) - 1 or s[i - 1] == "+"):
            raise InvalidNotationError("'+' joins two cards", text, offset + i)
    try:
        cards = split_cards(s)
    except InvalidNotationError as e:
        raise InvalidNotationError(e.reason, text, offset + e.position) from None
    if len(set(cards)) != len(cards):
        repeated = next(c for i, c in enumerate(cards) if c in cards[:i])
        name = card_str(repeated)
        at = s.find(name, s.find(name) + 1)
        raise InvalidNotationError("the same card twice", text, offset + max(at, 0))
    return attack(*cards)
