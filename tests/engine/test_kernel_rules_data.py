"""The kernel's rule set, declared once in :mod:`bito.rules.kernel_rules`, against the option
specs and against the kernel's own conversion of rules to arrays.

Three ways the declaration could lie, each checked here:

* it names an option or a value the rules do not have;
* an option it does not name still reaches the kernel (a new option would then be played by
  the kernel as if it were at its default: ``supports`` must refuse any other value);
* it claims an option whose values the kernel cannot tell apart (the kernel would ignore it).

Every value tried is read from the specs, the ``Rules`` annotations or the declaration, never
written out here.
"""

from __future__ import annotations

import typing
from itertools import combinations
from typing import Any

import pytest

from bito import kernel
from bito.cards import card_str, standard_deck
from bito.errors import RulesError
from bito.rules import KERNEL_OPTIONS, OPTION_SPECS, KernelOption, Rules
from bito.rules.kernel_rules import KERNEL_OPTION, kernel_refuses

BASE = Rules()
HINTS = typing.get_type_hints(Rules)
LIST_KEYS = {k for k, v in BASE.options().items() if isinstance(v, tuple)}
UNDECLARED = [s for s in OPTION_SPECS.values() if s.key not in KERNEL_OPTION]


def _with(key: str, value: Any) -> Rules | None:
    """The base game with one option changed, or None when the rules refuse that value alone."""
    try:
        return BASE.with_options(**{key: value})
    except RulesError:
        return None


def _other_values(key: str) -> list[Any]:
    """Values of ``key`` other than the base game's, read from its spec or its field's type."""
    spec = OPTION_SPECS[key]
    default = getattr(BASE, spec.attr)
    if spec.choices is not None:
        return [c for c in spec.choices if c != default]
    if key in LIST_KEYS:
        (item,) = {a for a in typing.get_args(HINTS[spec.attr]) if a is not Ellipsis}
        items = typing.get_args(item) or tuple(card_str(c) for c in standard_deck()[:1])
        return [(items[0],), tuple(items[:2])]
    assert isinstance(default, int) and not isinstance(default, bool), key
    return [default + 1, default + 2]


#: Values to tell apart for options that take any value and that the verifier does not draw
#: (it plays them through the catalogue's games).
OPEN_VALUES: dict[str, tuple[Any, ...]] = {
    "draw.target_cap": (0, 4), "deal.reserve": (0, 3),
    "lead.patterns": ((), ("three_any",), ("pair",), ("single", "pair_plus_one")),
    "beats.unbeatable": ((), ("Qs",)),
}


def _kernel_values(option: KernelOption) -> tuple[Any, ...]:
    """Values of a declared option the kernel must tell apart: those it plays, else (any value
    the rules accept) the spec's choices, else what the verifier draws."""
    if option.plays is not None and option.key not in LIST_KEYS:
        return option.plays
    choices = OPTION_SPECS[option.key].choices
    if choices is not None:
        return choices
    return option.draws or OPEN_VALUES.get(option.key, ())


# --- (a) the declaration names only options and values the rules have -----------------------


def test_declared_keys_are_option_keys_once_each() -> None:
    keys = [o.key for o in KERNEL_OPTIONS]
    assert len(keys) == len(set(keys))
    assert set(keys) <= set(OPTION_SPECS)


@pytest.mark.parametrize("option", KERNEL_OPTIONS, ids=lambda o: o.key)
def test_declared_values_are_accepted_by_the_option(option: KernelOption) -> None:
    """Each value the kernel plays or the verifier draws is one the option accepts (one of its
    choices when it has choices), and the verifier draws only what the kernel plays."""
    spec = OPTION_SPECS[option.key]
    listed = option.key in LIST_KEYS
    plays = [(v,) for v in option.plays] if listed and option.plays else option.plays or ()
    for value in (*plays, *option.draws):
        if spec.choices is not None:
            assert value in spec.choices, (option.key, value)
        assert _with(option.key, value) is not None, (option.key, value)
    assert not kernel_refuses(BASE.with_options(**{option.key: BASE.options()[option.key]}))
    for value in option.draws:
        assert not kernel_refuses(BASE.with_options(**{option.key: value})), (option.key, value)


# --- (b) an option the kernel does not read cannot slip in ------------------------------------


def test_the_base_game_is_played_by_the_kernel() -> None:
    assert kernel.supports(BASE, 2)


@pytest.mark.parametrize("spec", UNDECLARED, ids=lambda s: s.key)
def test_an_undeclared_option_off_its_default_is_refused(spec: Any) -> None:
    """The kernel does not read this option, so it must not claim a game where it is set."""
    tried = 0
    for value in _other_values(spec.key):
        rules = _with(spec.key, value)
        if rules is None:
            continue
        tried += 1
        assert not kernel.supports(rules, rules.players_min), (spec.key, value)
        assert any(r.startswith(f"{spec.key}=") for r in kernel_refuses(rules))
    if spec.choices != (getattr(BASE, spec.attr),):  # an option with one value cannot be set
        assert tried, f"no other value of {spec.key} makes valid rules: extend _other_values"


def test_lead_patterns_the_kernel_does_not_build_are_refused() -> None:
    """#47's option treshka=three_of_a_rank: a lead the kernel does not make; ``supports``
    must send these games to the reference engine. (#4's pair plus one, #47's any three cards
    and #73's leads of one suit it makes.)"""
    assert kernel.supports(BASE.with_options(**{"lead.shape": "same_suit"}), 2)
    rank = BASE.with_options(**{"lead.shape": "patterns",
                                "lead.patterns": ("single", "three_of_a_rank")})
    assert not kernel.supports(rank, 2)
    assert kernel_refuses(rank) == ["lead.patterns=('single', 'three_of_a_rank')"]
    for patterns in (("three_any",), ("single", "pair_plus_one")):
        assert kernel.supports(BASE.with_options(**{"lead.shape": "patterns",
                                                    "lead.patterns": patterns}), 2)


# --- (c) the kernel tells apart every value it claims to play ---------------------------------


np = pytest.importorskip("numpy", reason="the kernel needs the fast extra")
pytest.importorskip("numba", reason="the kernel needs the fast extra")

from bito.games.durak import MatchContext, new_game  # noqa: E402
from bito.kernel.convert import from_state, rule_facts  # noqa: E402

PLAYERS = 2
#: A first deal and later deals with each seat the previous fool (#78 reads the match).
CONTEXTS = (MatchContext(), *(MatchContext(game_number=1, dealer=f, previous_fool=f,
                                           previous_winner=(f + 1) % PLAYERS)
                              for f in range(PLAYERS)))
FACTS = [o for o in KERNEL_OPTIONS if o.reading == "facts"]
NOT_FACTS = [o for o in KERNEL_OPTIONS if o.reading != "facts" and _kernel_values(o)]


def _arrays(rules: Rules, players: int = PLAYERS) -> list[bytes]:
    return [from_state(new_game(rules, players, seed=11, match=m)).tobytes() for m in CONTEXTS]


#: Options of the beat relation that change what beats what only beside another option
#: (VARIANTS.md §4.6: #19 A1's scope and #20 qualify royal; the 36-card pack has no twos for
#: #29): their values are compared on that rule set instead of the base game.
WHERE_IT_MATTERS: dict[str, dict[str, Any]] = {
    "beats.royal_suit_scope": {"beats.royal": True},
    "beats.ace_only_by_trump": {"beats.royal": True},
    "beats.deuce_beats_ace": {"deck.size": 52},
    "beats.deuce_scope": {"deck.size": 52, "beats.deuce_beats_ace": True},
    # partnerships (#53-55): the team rules act only with a team layout
    "team.throw_in": {"team.layout": "alternating"},
    "team.attack": {"team.layout": "alternating"},
    "team.proxy": {"team.layout": "alternating"},
    # #29's joker system differs from the default only where there are jokers to beat
    "specials.joker": {"deck.size": 52, "deck.jokers": 2},
    # the joker systems' own options (issue 35): each qualifies one system, and #27 A1's only
    # what a turned-up joker means (the deal's beat-table rows for a turned joker)
    "specials.joker_beaten_by_any": {"deck.jokers": 2, "specials.joker": "single"},
    "specials.joker_unbeatable": {"deck.jokers": 2, "specials.joker": "double_color_only"},
    "specials.wild_jokers": {"deck.jokers": 2, "specials.joker": "novosibirsk"},
    # issue 35's options that qualify another
    "lead.stock_top_throw_in": {"lead.stock_top": "unlimited"},
    "trump.search_indicator": {"trump.source": "fixed"},
    "draw.target_cap": {"draw.progressive": True},
    "lead.patterns": {"lead.shape": "patterns"},
}
#: Seats for an option that needs more than :data:`PLAYERS` (partnerships seat 4 or more).
SEATS: dict[str, int] = {"team.layout": 6, "team.throw_in": 4, "team.attack": 4,
                         "team.proxy": 4}  # (with four seats both layouts pair 0-2 and 1-3)


@pytest.mark.parametrize("option", FACTS, ids=lambda o: o.key)
def test_each_value_the_kernel_plays_converts_to_its_own_array(option: KernelOption) -> None:
    """Two rule sets differing only in this option give different kernel arrays of a fresh
    deal (in at least one match context): the conversion reads the option."""
    values = _kernel_values(option)
    assert len(values) >= 2, option.key
    base = BASE.with_options(**WHERE_IT_MATTERS.get(option.key, {}))
    seats = SEATS.get(option.key, PLAYERS)
    for v, w in combinations(values, 2):
        a, b = base.with_options(**{option.key: v}), base.with_options(**{option.key: w})
        assert kernel.supports(a, seats) and kernel.supports(b, seats), (v, w)
        assert _arrays(a, seats) != _arrays(b, seats), (
            f"{option.key}: {v!r} and {w!r} convert alike")


@pytest.mark.parametrize("option", NOT_FACTS, ids=lambda o: o.key)
def test_an_option_read_elsewhere_leaves_the_rule_facts_alone(option: KernelOption) -> None:
    """An option the declaration says the kernel learns from the deal, the seat count or not
    at all is not written into the rule facts (the declaration says where it is read)."""
    facts = {rule_facts(BASE.with_options(**{option.key: v}), PLAYERS).tobytes()
             for v in _kernel_values(option)}
    assert len(facts) == 1, option.key
