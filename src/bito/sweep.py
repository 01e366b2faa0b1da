"""The sweep: random games over every registered game, house rule, seat count and option stack,
checked at every step, so that every variant survives every move.

The sweep is the safety net for engine changes: it plays random legal moves and checks the
invariants that every rule set must keep, whatever the rules mean, so a new rule that breaks
an old one where they meet is found before a user finds it. At **every** step:

* cards are conserved exactly: each card of the deck lies in exactly one zone
  (:func:`card_zones` lists the zones of every family);
* exactly one seat is to act, and it is a seat of the game;
* there are legal actions until the game is over;
* (Durak) a seat that is out holds no cards;
* the game ends by a rule: ``is_over`` with an outcome ranking every seat once; hitting the
  sweep's action cap, or an engine's silent move cap, is a violation.

On sampled steps (one in ``sample_every``, drawn from a generator of its own so that the
games played do not depend on the sampling): ``apply`` leaves its input unchanged; a seat's
view (and, for Durak, its censored position text) does not change when cards it cannot know
are swapped between two other seats; random illegal action texts raise only
:class:`~bito.errors.IllegalActionError`. On sampled games, the game's record round-trips,
full (replays to the same final state) and censored for each seat (loads back).

A game is fixed by ``(seed, index)``: its case (spec and seat count, or a random option
stack drawn from that pair), its deal seed and its moves, so any violation is reproduced by
the spec, players, deal seed and action list it reports, and a run is the same whatever
``jobs`` is. ``new_game`` may refuse an option stack with :class:`~bito.errors.RulesError`
(counted as *refused*, that is the rule working); anything it accepts must play correctly.
"""

from __future__ import annotations

import dataclasses
import json
import math
import multiprocessing
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, reduce
from operator import or_
from typing import Any, Protocol, cast, runtime_checkable

from bito.cards import card_str
from bito.errors import IllegalActionError, InvalidNotationError, RulesError, UnknownVariantError
from bito.games import FAMILIES, family_for, new_game
from bito.games.protocol import MoveCapped, PlayAction
from bito.i18n import _
from bito.rules import Rules
from bito.rules.options import OPTION_SPECS
from bito.rules.registry import Variant, all_variants, lookup

__all__ = ["Case", "Summary", "Violation", "all_cases", "card_zones", "case_for_game",
           "check_conserved", "command", "main", "play_game", "run"]

#: Random moves per game before the sweep calls it a hang (every rule set must end well
#: before: ``end.idle_bouts`` and the families' own end rules bound them).
ACTION_CAP = 20_000
#: Wall-clock seconds one game may take before the sweep reports it (``slow_game``) and goes
#: on: a legal game that runs this long would stall a server's table or a bot match too. The
#: 67a4b7a run stalled for ten minutes on a game with an end rule turned off, without a word.
GAME_SECONDS = 300
#: One game in this many is a random option stack; the others walk the fixed cases in order.
STACK_EVERY = 3
#: The family whose rules the option specs of :mod:`bito.rules` describe: its games take
#: random option stacks; the other families' games take their own options.
OPTIONS_FAMILY = family_for(Rules()).name


# --- cases ---------------------------------------------------------------------------------


@runtime_checkable
class _KeepsOut(Protocol):
    """A state that keeps who is out as a mask, and as a list of seats."""

    @property
    def out_mask(self) -> int: ...

    @property
    def out(self) -> Sequence[int]: ...


#: Each state class's answer to ``isinstance(state, _KeepsOut)``: a protocol check costs more
#: than a whole step of the game, and the sweep asks it at every step.
_KEEPS_OUT: dict[type, bool] = {}


def _keeps_out(state: object) -> bool:
    kind = type(state)
    if kind not in _KEEPS_OUT:
        _KEEPS_OUT[kind] = isinstance(state, _KeepsOut)
    return _KEEPS_OUT[kind]


@dataclass(frozen=True)
class Case:
    """A spec and a seat count; ``key`` names it in reports and in the tests' known set."""

    spec: str
    players: int

    @property
    def key(self) -> str:
        return f"{self.spec}@{self.players}"


def _seat_range(spec: str) -> range:
    rules = family_for(spec).rules_for(spec)
    return range(rules.players_min, rules.max_players + 1)


def _modifier_specs(mod: Variant) -> list[str]:
    """A house rule on each base it names; a rule that needs a value, with each value."""
    values: list[str | None] = [None]
    if mod.parameter and mod.parameter_default is None:
        values = [str(c).lower() if isinstance(c, bool) else str(c)
                  for c in OPTION_SPECS[mod.parameter].ready_choices or ()]
    return [f"{base}+{mod.id}" + (f"={v}" if v is not None else "")
            for base in mod.applies_to for v in values]


@cache
def all_cases() -> tuple[Case, ...]:
    """Every registered game at every seat count it allows, and every house rule on every
    base it names at every seat count the stack allows (a spec the registry itself refuses
    is left out: it is not a game anyone can start)."""
    specs: list[str] = []
    for v in all_variants():
        if v.family not in FAMILIES:  # #64's tournament is an event over many games
            continue
        specs.extend([v.id] if v.kind == "game" else _modifier_specs(v))
    out: list[Case] = []
    for spec in specs:
        try:
            seats = _seat_range(spec)
        except (RulesError, UnknownVariantError):
            continue
        out.extend(Case(spec, n) for n in seats)
    return tuple(out)


@cache
def _stack_parts() -> tuple[tuple[str, ...], tuple[Variant, ...],
                          tuple[tuple[str, tuple[Any, ...]], ...]]:
    games = tuple(v.id for v in all_variants()
                  if v.kind == "game" and v.family == OPTIONS_FAMILY)
    mods = tuple(v for v in all_variants() if v.kind == "modifier" and v.family == OPTIONS_FAMILY)
    options = tuple((k, tuple(s.ready_choices)) for k, s in OPTION_SPECS.items()
                    if s.ready_choices and k not in ("family",))
    return games, mods, options


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _roots(game: str) -> set[str]:
    out, v = set(), lookup(game)
    while True:
        out.add(v.id)
        if v.base is None:
            return out
        v = lookup(v.base)


def random_stack(rng: random.Random) -> Case:
    """A Durak game with up to three house rules that name it (or an ancestor) as a base and
    up to three options at random values, at a seat count of its range. The spec may be one
    the registry or ``new_game`` refuses; that is counted, not reported."""
    if rng.random() < 0.25:
        return _family_stack(rng)
    games, mods, options = _stack_parts()
    game = rng.choice(games)
    roots = _roots(game)
    fitting = [m for m in mods if roots & set(m.applies_to)]
    parts = [game]
    for mod in rng.sample(fitting, min(len(fitting), rng.randint(1, 3))):
        spec = rng.choice(_modifier_specs(mod))
        parts.append(spec.split("+", 1)[1])
    for key, choices in rng.sample(options, rng.randint(0, 3)):
        parts.append(f"{key}={_text(rng.choice(choices))}")
    spec = "+".join(parts)
    try:
        seats = _seat_range(spec)
        players = rng.choice(seats) if len(seats) else 2
    except (RulesError, UnknownVariantError, ValueError):
        players = rng.randint(2, 6)
    return Case(spec, players)


@cache
def _family_games() -> tuple[str, ...]:
    return tuple(v.id for v in all_variants()
                 if v.kind == "game" and v.family in FAMILIES and v.family != OPTIONS_FAMILY)


def _family_stack(rng: random.Random) -> Case:
    """A game of another family with one or two of its own options at a random value, near
    the default or far out of range: ``new_game`` must refuse what it cannot play (issue 16
    item 5), never accept it and break later."""
    from bito.games import family_options

    game = rng.choice(_family_games())
    options = [(k, v) for k, v in family_options(game).items()
               if isinstance(v, int) and not k.endswith(("players_min", "players_max"))]
    parts = [game]
    for key, value in rng.sample(options, min(len(options), rng.randint(1, 2))):
        if isinstance(value, bool):
            parts.append(f"{key}={_text(not value)}")
        else:
            pick = rng.choice((value + 1, value - 1, 0, 1, -1, 2 * value, 10 ** 12))
            parts.append(f"{key}={pick}")
    spec = "+".join(parts)
    try:
        seats = _seat_range(game)
        players = rng.choice(seats)
    except (RulesError, UnknownVariantError, ValueError, IndexError):
        players = rng.randint(2, 6)
    return Case(spec, players)


def case_for_game(seed: int, index: int, cases: Sequence[Case] | None = None) -> tuple[Case, int]:
    """The case and deal seed of game ``index`` of a run from ``seed``: games walk the fixed
    cases in order, every ``STACK_EVERY``-th game a random option stack instead."""
    cases = all_cases() if cases is None else cases
    rng = random.Random(f"bito-sweep:{seed}:{index}:case")
    deal_seed = rng.randrange(1 << 32)
    if index % STACK_EVERY == STACK_EVERY - 1:
        return random_stack(rng), deal_seed
    k = index // STACK_EVERY * (STACK_EVERY - 1) + index % STACK_EVERY
    return cases[k % len(cases)], deal_seed


def games_for_every_case(cases: Sequence[Case] | None = None) -> int:
    """How many games a run needs to play every fixed case once."""
    n = len(all_cases() if cases is None else cases)
    return -(-n * STACK_EVERY // (STACK_EVERY - 1))


# --- cards: one public conservation function for every family ------------------------------


#: ``_BIT[c] == 1 << c`` for every card id (jokers, twins and the *Fool!* deck included).
_BIT: tuple[int, ...] = tuple(1 << c for c in range(512))


@cache
def _deck_mask(deck: tuple[int, ...]) -> int:
    mask = 0
    for c in deck:
        mask |= 1 << c
    return mask


def card_zones(state: Any) -> list[int | Sequence[int]]:
    """Every place a card can lie in ``state``, of any family: each a bitmask or a list of
    cards. Conservation is that these hold the deck, each card exactly once. (The families'
    own ``cards_total()`` counts cards but cannot see a card in two places, and the Durak
    state has none; each family object lists its zones, :meth:`Family.card_zones`.)"""
    return family_for(state).card_zones(state)


def _multiset(zones: Iterable[int | Sequence[int]]) -> Counter[int]:
    out: Counter[int] = Counter()
    for z in zones:
        if isinstance(z, int):
            while z:
                low = z & -z
                out[low.bit_length() - 1] += 1
                z ^= low
        else:
            out.update(z)
    return out


def check_conserved(state: Any, reference: Counter[int] | None = None) -> str | None:
    """None if every card of the game lies in exactly one zone, else what is wrong.

    Where the family holds one deck from the deal to the end (Durak: the rules' deck) that is
    the reference; the other families deal a fresh pack each round, so their reference is the
    multiset dealt at the start of the round (``reference``)."""
    family = family_for(state)
    deck = family.deck(state)
    if deck is not None:
        mask, size = _deck_mask(deck), len(deck)
        zones = family.card_zones(state)
        union = count = 0
        for z in zones:
            if z.__class__ is int:
                union |= z
                count += z.bit_count()
            elif z:
                count += len(z)  # type: ignore[arg-type]
                union |= reduce(or_, map(_BIT.__getitem__, z))  # type: ignore[arg-type]
        if union == mask and count == size:
            return None
        have = _multiset(zones)
        want = _multiset([mask])
        return _difference(have, want)
    if reference is None:
        return None
    have = _multiset(card_zones(state))
    return None if have == reference else _difference(have, reference)


def _card_name(card: int) -> str:
    """A card's text where the standard notation names it, else its number (the *Fool!*
    deck numbers its cards differently)."""
    try:
        return card_str(card)
    except (KeyError, IndexError, ValueError):
        return f"#{card}"


def _difference(have: Counter[int], want: Counter[int]) -> str:
    extra = sorted((have - want).elements())
    lost = sorted((want - have).elements())
    parts = []
    if extra:
        parts.append("twice or not of the deck: " + " ".join(map(_card_name, extra)))
    if lost:
        parts.append("lost: " + " ".join(map(_card_name, lost)))
    return f"{sum(have.values())} cards of {sum(want.values())}; " + "; ".join(parts)


# --- the checks ------------------------------------------------------------------------------


@dataclass
class Violation:
    """One broken invariant with everything needed to reproduce it."""

    kind: str
    case: str
    spec: str
    players: int
    seed: int
    game: int
    step: int
    detail: str
    actions: list[str] = field(default_factory=list)
    position: str = ""

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class _Stop(Exception):
    """Ends a game after a violation that leaves nothing sensible to check further."""


def _text_of(state: Any) -> str:
    try:
        return family_for(state).position_text(state, None)
    except Exception as exc:
        return f"<position text failed: {type(exc).__name__}: {exc}>"


def fingerprint(state: Any) -> tuple[Any, ...]:
    """Every field of a state (caches left out), as text: equal before and after ``apply``
    iff ``apply`` left its input alone. A slot or attribute whose name starts with ``_`` is a
    cache (the legal actions worked out once), not a fact of the game."""
    names: Iterable[str]
    if dataclasses.is_dataclass(state):
        names = (f.name for f in dataclasses.fields(state))
    else:
        names = sorted(n for n in {n for k in type(state).__mro__
                                   for n in getattr(k, "__slots__", ())}
                       | set(getattr(state, "__dict__", ())) if not n.startswith("_"))
    return tuple((n, _field_text(n, getattr(state, n, None))) for n in names)


def _field_text(name: str, value: Any) -> str:
    if name == "deal" and dataclasses.is_dataclass(value):
        # the match context as given (dealer None: drawn by lot) and as a record writes it
        # back (the dealer the lot drew) are the same deal; fields left out of equality are
        # the deal's memos (draw orders worked out once), not facts of the game
        return repr(tuple((f.name, getattr(value, f.name)) for f in dataclasses.fields(value)
                          if f.name != "match" and f.compare))
    return repr(value)


def _parser(spec: str, state: Any) -> Callable[[str], Any]:
    reader = getattr(state, "parse_action", None)
    return reader if reader is not None else family_for(spec).parse_action


_DURAK_FORMS = ("{c}", "{c}+{c}", "{c}>{c}", "={c}", "take", "pass", "^{c}", "!{c}+{c}+{c}",
                "believe", "doubt", "~{c}", "try", "stock", "${c}+{c}", "{c}<{c}", "@{c}>{c}",
                "{c}>{c}+{c}", "#{n}", "#{n}>{c}", "=#{n}", "&{c}+{c}", "&{c}")
_OTHER_FORMS = ("{c}", "{c}{c}", "{c}=s", "{c}=h", "draw", "pass", "doubt", "sound", "laugh",
                "claim", "take", "turn", "{c}{c}{c}")
_CARD = re.compile(r"[2-9TJQKA][cdhs]'?|[RB]J|W\d|MC")


def _illegal_texts(state: Any, rng: random.Random, seen: Sequence[str], count: int
                   ) -> list[str]:
    """Action texts of every kind with random cards (of the deck and of texts seen in this
    game), and legal texts with one card changed."""
    family = family_for(state)
    own = NOTATION_FORMS.get(family.name)
    forms: Sequence[str]
    if own is not None:
        cards = [card_str(c) for c in family.deck(state) or ()]
        forms = own
    else:
        cards = sorted({m.group() for t in seen for m in _CARD.finditer(t)}) or ["7h"]
        forms = (*_OTHER_FORMS, *seen[-20:])
    out = []
    for _k in range(count):
        form = rng.choice(forms)
        text = re.sub(r"\{c\}", lambda _m: rng.choice(cards), form)
        text = text.replace("{n}", str(rng.randint(1, 12)))
        if seen and rng.random() < 0.3:
            base = rng.choice(seen)
            text = _CARD.sub(lambda m: rng.choice(cards) if rng.random() < 0.5 else m.group(),
                             base)
        out.append(text)
    return out


#: Action forms of the families with a notation of their own, by family name; the other
#: families' bad texts are built from :data:`_OTHER_FORMS` and the texts seen in the game.
NOTATION_FORMS: dict[str, Sequence[str]] = {"durak": _DURAK_FORMS}


def _durak_hidden(state: Any, view: Any) -> list[int] | None:
    """The cards of each Durak hand the viewer cannot know of; None where hands are held by
    position (#58) or a dummy's hand is played openly (#56, #57)."""
    from bito.games.durak.dummy import TossingDummy
    from bito.games.durak.dummy_seat import dummy_seat_of
    from bito.games.durak.view import extension_of

    if not state.rules.deal_owner_sees_hand or dummy_seat_of(state.deal) >= 0:
        return None
    known = getattr(view, "known", None)
    hidden = [state.hands[s] & ~(known[s] if known else 0) for s in range(state.players)]
    dummy = extension_of(view, TossingDummy)
    if dummy is not None and dummy.hand:
        hidden = [h & ~dummy.hand for h in hidden]
    return hidden


def _family_hidden(state: Any, view: Any) -> list[int] | None:
    """The cards of each hand the viewer cannot know of, for a family whose views list the
    known cards per seat; None for a state without its own ``copy()`` or one that has
    handed over to a Durak game (#67, #68)."""
    if not hasattr(state, "copy") or getattr(state, "main", None) is not None:
        return None
    known = getattr(view, "known", None)
    return [h & ~(known[s] if known and s < len(known) and isinstance(known[s], int) else 0)
            for s, h in enumerate(getattr(state, "hands", ()))]


#: How each family's hidden cards are found, by family name (default :func:`_family_hidden`).
HIDDEN_CARDS: dict[str, Callable[[Any, Any], list[int] | None]] = {"durak": _durak_hidden}


def _swap_hidden(state: Any, viewer: int, rng: random.Random) -> Any | None:
    """A copy of ``state`` (its own ``copy()``) in which two other seats have exchanged an
    equal number of cards the viewer cannot know of, or None if no such exchange exists (or
    the game holds hands by position, #58, where a swap would have to move positions too)."""
    n = state.players
    others = [s for s in range(n) if s != viewer]
    if len(others) < 2:
        return None
    view = state.view(viewer)
    hidden = HIDDEN_CARDS.get(family_for(state).name, _family_hidden)(state, view)
    if hidden is None:
        return None
    a, b = rng.sample(others, 2)
    ca = [i for i in range(hidden[a].bit_length()) if hidden[a] >> i & 1]
    cb = [i for i in range(hidden[b].bit_length()) if hidden[b] >> i & 1]
    k = min(len(ca), len(cb))
    if k == 0:
        return None
    k = rng.randint(1, k)
    ga, gb = rng.sample(ca, k), rng.sample(cb, k)
    ma = sum(1 << c for c in ga)
    mb = sum(1 << c for c in gb)
    if ma & mb:
        return None
    hands = list(state.hands)
    hands[a] = hands[a] & ~ma | mb
    hands[b] = hands[b] & ~mb | ma
    twin = state.copy()  # every family's copy is independent of the original
    twin.hands = hands
    forget = getattr(twin, "forget_legal", None)  # legal actions worked out for the old hands
    if forget is not None:
        forget()
    return twin


def _censored_text(state: Any, seat: int) -> str | None:
    family = family_for(state)
    return family.position_text(state, seat) if family.views_are_positions else None


def _round_of(state: Any) -> Any:
    return getattr(state, "round", None)  # the round of the families that play rounds


def _sampled_checks(spec: str, state: Any, legal: Sequence[PlayAction], seen: list[str],
                    rng: random.Random, report: Callable[[str, str], None]) -> None:
    """apply leaves its input alone; views ignore other seats' hidden cards; bad texts raise
    only IllegalActionError."""
    before = fingerprint(state)
    try:
        state.apply(legal[rng.randrange(len(legal))])
    except Exception:
        return
    if fingerprint(state) != before:
        changed = [a[0] for a, b in zip(before, fingerprint(state), strict=True) if a != b]
        report("apply_mutates_input", "apply changed its input: " + ", ".join(changed))
    viewer = rng.randrange(state.players)
    twin = _swap_hidden(state, viewer, rng)
    if twin is not None:
        try:
            same = twin.view(viewer) == state.view(viewer)
            same_text = _censored_text(twin, viewer) == _censored_text(state, viewer)
        except Exception as exc:
            report("view_crash", f"view of seat {viewer} after a hidden swap: "
                   f"{_exc_text(exc)}")
        else:
            if not same:
                report("view_leak", f"seat {viewer}'s view changed when cards it cannot see "
                       "were swapped between two other seats")
            elif not same_text:
                report("view_leak", f"seat {viewer}'s censored position changed when cards "
                       "it cannot see were swapped between two other seats")
    parse = _parser(spec, state)
    legal_texts = {str(a) for a in legal}
    for text in _illegal_texts(state, rng, seen, 4):
        if text in legal_texts:
            continue
        try:
            action = parse(text)
        except InvalidNotationError:
            continue
        except Exception as exc:
            report("parse_crash", f"parsing {text!r}: {_exc_text(exc)}")
            continue
        if action in legal:
            continue
        try:
            state.apply(action)
        except IllegalActionError:
            continue
        except Exception as exc:
            report("illegal_move_crash", f"{text!r} raised {_exc_text(exc)}")
            continue
        report("illegal_move_accepted", f"{text!r} is not among the legal actions but "
               "apply accepted it")
    if fingerprint(state) != before:
        report("apply_mutates_input", "a refused action changed the state")


def _exc_text(exc: BaseException) -> str:
    where = traceback.extract_tb(exc.__traceback__)
    at = f" ({where[-1].filename.rsplit('/', 1)[-1]}:{where[-1].lineno})" if where else ""
    return f"{type(exc).__name__}: {exc}"[:300] + at


def _record_round_trip(spec: str, start: Any, actions: list[Any], final: Any,
                       report: Callable[[str, str], None]) -> None:
    """The full record replays to the same final state; each censored record loads back."""
    from bito.games.game import Game
    from bito.record import load_record, record_from_game

    try:
        game = Game(start)
        for a in actions:
            game.push(a)
        record = record_from_game(game, spec=spec)
        text = record.to_jsonl()
    except Exception as exc:
        report("record_write", _exc_text(exc))
        return
    try:
        states = load_record(text).replay()
        if fingerprint(states[-1]) != fingerprint(final):
            report("record_replay", "the full record replays to a different final state")
    except Exception as exc:
        report("record_replay", _exc_text(exc))
    for seat in range(start.players):
        try:
            load_record(record.censored(seat).to_jsonl())
        except Exception as exc:
            report("record_censored", f"seat {seat}: {_exc_text(exc)}")


#: Options by which a player bounds a game himself: a game stopped there ends by his rule.
CAP_OPTIONS = ("move_cap=", "max_rounds=")


def _cap_note(state: Any, spec: str = "") -> str | None:
    """Why the game stopped at an engine's move cap rather than by a rule, if it did. A cap
    the spec sets explicitly (``polish_fool+polish.move_cap=500``) is the table's own rule;
    only the engine's default last guard may never be reached."""
    if any(key in spec for key in CAP_OPTIONS):
        return None
    rules = state.rules
    note = str(getattr(state.outcome, "note", "") or "")
    if "cap" in note.lower() or "limit" in note.lower():
        return note
    cap = rules.move_cap if isinstance(rules, MoveCapped) else None
    moves = getattr(state, "moves", None)
    if isinstance(cap, int) and isinstance(moves, int) and moves >= cap:
        return f"{moves} moves, the engine's move_cap ({cap})"
    return None


def _check_end(state: Any, spec: str = "") -> str | None:
    out = state.outcome
    if out is None:
        return "is_over but no outcome"
    bad = END_CHECKS.get(family_for(state).name, _order_names_seats_once)(state, out)
    if bad:
        return bad
    note = _cap_note(state, spec)
    return note and f"ended by a move cap, not a rule: {note}"


def _durak_end(state: Any, out: Any) -> str | None:
    """A Durak outcome ranks every seat, has a loser unless drawn, and a game played out
    leaves cards only in the loser's hand."""
    order = list(out.order)
    n = state.players
    if sorted(order) != list(range(n)):
        return f"outcome order {order} is not every seat once"
    if out.draw != (out.loser is None):
        return f"outcome {out}: draw and loser disagree"
    if not out.draw and not out.reason and not out.teams and out.dummy < 0:
        holding = [s for s in range(n) if s != out.loser and state.hands[s]]
        if holding:
            return (f"played out with a loser (seat {out.loser}) while seats {holding} "
                    "still hold cards")
    return None


def _order_names_seats_once(state: Any, out: Any) -> str | None:
    order = list(getattr(out, "order", ()))
    if len(order) != len(set(order)) or not set(order) <= set(range(state.players)):
        return f"outcome order {order} names a seat twice or a seat not in the game"
    return None


#: The end checks of each family, by family name (default: the order names seats once).
END_CHECKS: dict[str, Callable[[Any, Any], str | None]] = {"durak": _durak_end}


# --- one game ---------------------------------------------------------------------------------


@dataclass
class GameResult:
    actions: int = 0
    refused: bool = False
    violations: list[Violation] = field(default_factory=list)


def play_game(seed: int, index: int, sample_every: int = 20,
              cases: Sequence[Case] | None = None) -> GameResult:
    """Play and check game ``index`` of a run from ``seed``."""
    case, deal_seed = case_for_game(seed, index, cases)
    result = GameResult()
    moves = random.Random(f"bito-sweep:{seed}:{index}:moves")
    checks = random.Random(f"bito-sweep:{seed}:{index}:checks")
    actions: list[Any] = []  # written as text only when a violation is reported
    step = 0
    current: list[Any] = [None]

    def report(kind: str, detail: str) -> None:
        if any(v.kind == kind for v in result.violations):
            return  # one report of each kind per game: the first is the reproducer
        result.violations.append(Violation(
            kind=kind, case=case.key, spec=case.spec, players=case.players, seed=deal_seed,
            game=index, step=step, detail=detail, actions=[str(a) for a in actions],
            position=_text_of(current[0]) if current[0] is not None else ""))

    try:
        state = new_game(case.spec, players=case.players, seed=deal_seed)
    except (RulesError, UnknownVariantError):
        result.refused = True
        return result
    except Exception as exc:
        report("deal_crash", _exc_text(exc))
        return result
    start = state
    seen: list[str] = []
    reference = None if family_for(state).deck(state) is not None else _multiset(
        card_zones(state))
    round_no = _round_of(state)
    n = case.players
    # The sweep's own cap, unless the engine's declared last guard is higher (Polish fool's
    # random games run to tens of thousands of moves): that guard then ends the game first,
    # and reaching it is a violation of its own (see _cap_note).
    rules = getattr(state, "rules", None)
    engine_cap = rules.move_cap if isinstance(rules, MoveCapped) else 0
    cap = max(ACTION_CAP, engine_cap + 1 if isinstance(engine_cap, int) else 0)
    began = time.monotonic()
    try:
        while True:
            current[0] = state
            if _round_of(state) != round_no:  # a new round deals a new pack
                round_no = _round_of(state)
                reference = _multiset(card_zones(state))
            bad = check_conserved(state, reference)
            if bad:
                report("cards_not_conserved", bad)
                raise _Stop
            keeper = cast(_KeepsOut, state) if _keeps_out(state) else None
            if keeper is not None and keeper.out_mask:  # who is out, as a mask
                holding = [s for s in keeper.out if state.hands[s]]
                if holding:
                    report("out_holds_cards", f"seats {holding} are out but hold cards")
                    raise _Stop
            if state.is_over:
                bad = _check_end(state, case.spec)
                if bad:
                    report("bad_end", bad)
                break
            to_act = state.to_act
            if not isinstance(to_act, int) or isinstance(to_act, bool) or not 0 <= to_act < n:
                report("to_act", f"to_act is {to_act!r}, not one seat of {n}")
                raise _Stop
            legal = state.legal_actions()
            if not legal:
                report("no_legal_actions", f"seat {to_act} to act has no legal action and "
                       "the game is not over")
                raise _Stop
            if step >= cap:
                report("action_cap", f"not over after {cap} random actions")
                raise _Stop
            if not step & 255 and time.monotonic() - began > GAME_SECONDS:
                report("slow_game", f"still running after {GAME_SECONDS} s ({step} moves)")
                raise _Stop
            if len(seen) < 200:
                seen.extend(str(a) for a in legal[:3])
            if checks.randrange(sample_every) == 0:
                _sampled_checks(case.spec, state, legal, seen, checks, report)
            action = legal[moves.randrange(len(legal))]
            state = state.apply(action)
            actions.append(action)
            step += 1
    except _Stop:
        pass
    except Exception as exc:
        report("crash", _exc_text(exc))
    result.actions = step
    if state.is_over and not result.violations and checks.randrange(sample_every) == 0:
        _record_round_trip(case.spec, start, actions, state, report)
    return result


# --- a run ---------------------------------------------------------------------------------


@dataclass
class Summary:
    games: int = 0
    actions: int = 0
    refused: int = 0
    seconds: float = 0.0
    cases: int = 0
    violations: list[Violation] = field(default_factory=list)
    command: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "actions": self.actions,
                "violations": len(self.violations), "refused": self.refused,
                "cases": self.cases, "seconds": round(self.seconds, 1),
                "command": self.command}


def _chunk(job: tuple[int, int, int, int, float | None, str | None]
           ) -> tuple[int, int, int, list[Violation], set[str]]:
    seed, first, last, sample_every, deadline, only = job
    cases = _only_cases(only)
    games = actions = refused = 0
    violations: list[Violation] = []
    touched: set[str] = set()
    for index in range(first, last):
        if deadline is not None and time.time() > deadline:
            break
        r = play_game(seed, index, sample_every, cases)
        games += 1
        actions += r.actions
        refused += r.refused
        violations.extend(r.violations)
        touched.add(case_for_game(seed, index, cases)[0].key)
    return games, actions, refused, violations, touched


@cache
def _only_cases(only: str | None) -> tuple[Case, ...]:
    if not only:
        return all_cases()
    from fnmatch import fnmatchcase

    chosen = tuple(c for c in all_cases() if fnmatchcase(c.spec, only)
                   or fnmatchcase(c.key, only))
    if not chosen:
        raise RulesError("--only", f"no case matches {only!r}")
    return chosen


def run(games: int | None = None, seed: int = 0, jobs: int = 1, only: str | None = None,
        seconds: float | None = None, sample_every: int = 20,
        progress: Callable[[Summary], None] | None = None, chunk: int = 25,
        command: str = "") -> Summary:
    """Play ``games`` games (default: enough to play every case once) from ``seed``.

    ``only`` keeps the fixed cases whose spec or ``spec@players`` key matches the glob (and
    the random stacks then come only from games whose index falls on a stack: pass
    ``only`` to look at one case). ``seconds`` stops early (the count then depends on speed).
    """
    cases = _only_cases(only)
    total = games_for_every_case(cases) if games is None else games
    deadline = time.time() + seconds if seconds else None
    jobs_list = [(seed, a, min(a + chunk, total), sample_every, deadline, only)
                 for a in range(0, total, chunk)]
    summary = Summary(command=command)
    touched: set[str] = set()
    began = time.perf_counter()

    def add(part: tuple[int, int, int, list[Violation], set[str]]) -> None:
        g, a, r, v, t = part
        summary.games += g
        summary.actions += a
        summary.refused += r
        summary.violations.extend(v)
        touched.update(t)
        summary.cases = len(touched)
        summary.seconds = time.perf_counter() - began
        if progress is not None:
            progress(summary)

    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            # in the order chunks finish: one very long game (a 60-card hand's leads under
            # wild jokers) holds up only its own chunk, not the progress of the others
            for part in pool.imap_unordered(_chunk, jobs_list):
                add(part)
    else:
        for job in jobs_list:
            add(_chunk(job))
    summary.violations.sort(key=lambda v: v.game)
    summary.seconds = time.perf_counter() - began
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bito.sweep``: the same command as ``bito sweep``."""
    import argparse

    parser = argparse.ArgumentParser(prog="bito sweep", description=__doc__.split("\n", 1)[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return command(args)
    except RulesError as exc:
        print(f"bito sweep: error: {exc}", file=sys.stderr)
        return 2


def add_arguments(parser: Any) -> None:
    """The options of ``bito sweep`` (the CLI registers them on its subparser)."""
    parser.add_argument("--games", type=int, default=None,
                        help="games to play (default: enough to play every case once)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON line per violation before the summary")
    parser.add_argument("--only", default=None, metavar="SPEC_GLOB",
                        help="only the fixed cases whose spec (or spec@players) matches")
    parser.add_argument("--seconds", type=float, default=None,
                        help="stop after this many seconds")
    parser.add_argument("--sample-every", type=int, default=20, metavar="K",
                        help="run the expensive checks on one step (and one game) in K "
                             "(default 20)")


def command(args: Any) -> int:
    """Run ``bito sweep`` from parsed arguments: progress on stderr, then (``--json``) one
    line per violation and the summary line on stdout; 1 if any violation. A bad option
    raises :class:`RulesError` naming it, before any game is played."""
    for name in ("games", "jobs", "sample_every"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise RulesError("--" + name.replace("_", "-"), _("must be at least 1"))
    if args.seconds is not None and not 0 < args.seconds < math.inf:
        raise RulesError("--seconds", _("must be a positive number"))
    from bito.cli_checks import capped_workers

    args.jobs = capped_workers("sweep", "--jobs", args.jobs)
    _only_cases(args.only)  # an --only that matches nothing is refused before any game
    words = ["bito sweep"]
    for name in ("games", "seed", "jobs", "only", "seconds", "sample_every"):
        value = getattr(args, name)
        if value is not None and not (name == "seed" and value == 0) and not (
                name == "jobs" and value == 1) and not (name == "sample_every" and value == 20):
            words.append(f"--{name.replace('_', '-')} {value}")
    last = [0.0]
    shown = [0]  # violations already printed: a long run shows each as soon as it is found

    def show_new(s: Summary) -> None:
        if args.json:
            for v in s.violations[shown[0]:]:
                print(json.dumps(v.to_json(), ensure_ascii=False), flush=True)
        shown[0] = len(s.violations)

    def progress(s: Summary) -> None:
        show_new(s)
        now = time.perf_counter()
        if now - last[0] >= 5:
            last[0] = now
            rate = s.games / s.seconds if s.seconds else 0.0
            print("sweep: " + _("{games} games, {actions} actions, {violations} violations, "
                                "{refused} refused, {rate} games/s").format(
                games=s.games, actions=s.actions, violations=len(s.violations),
                refused=s.refused, rate=f"{rate:.0f}"), file=sys.stderr, flush=True)

    summary = run(args.games, args.seed, args.jobs, args.only, args.seconds,
                  args.sample_every, progress, command=" ".join(words))
    for kind, n in sorted(Counter(v.kind for v in summary.violations).items()):
        print(f"sweep: {n} x {kind}", file=sys.stderr)
    # every violation was printed (with --json) by the progress call after its chunk
    print(json.dumps(summary.to_json()), flush=True)
    return 1 if summary.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
