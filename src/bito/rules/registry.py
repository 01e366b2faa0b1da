"""The variant registry: catalogue ids, names and aliases, and how to build their rules.

A *game* variant is a base (another variant, or the default :class:`Rules`) plus option values.
A *modifier* is a delta that stacks on any of the bases it names, written with ``+`` on the
command line: ``perevodnoy+no_transfer_first_bout=under_fool+throw_in.by=neighbours``. A
``+key=value`` part may also set any single option by its dotted name.

Two parts of one spec that set the same option to different values are a configuration error
(VARIANTS.md §5.2), reported with the option's key.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bito.errors import RulesError, UnknownVariantError
from bito.rules.options import OPTION_SPECS, Rules


@dataclass(frozen=True)
class Variant:
    """One catalogue entry that bito can play."""

    id: str
    number: int
    names: tuple[str, ...]
    family: str
    summary: str
    description: str
    base: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    kind: str = "game"  # "game" or "modifier"
    applies_to: tuple[str, ...] = ()
    parameter: str | None = None  # the option a "modifier=value" sets
    parameter_default: Any = None
    references: str = ""

    @property
    def default_base(self) -> str | None:
        """The game a house rule plays on when named alone (``bito play --variant
        no_trump``): its own ``base`` if the entry names one, else podkidnoy where the rule
        applies to it (the catalogue's ``default_base`` wherever it names one, §3.2), else
        the first base it applies to (perevodnoy for the transfer-only rules). None for a
        game."""
        if self.kind != "modifier":
            return None
        if self.base:
            return self.base
        if not self.applies_to or "podkidnoy" in self.applies_to:
            return "podkidnoy"
        return self.applies_to[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "number": self.number, "names": list(self.names),
            "family": self.family, "kind": self.kind, "summary": self.summary,
            "base": self.base, "applies_to": list(self.applies_to),
            "options": {k: _jsonable(v) for k, v in self.options.items()},
            "references": self.references,
        }


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


_REGISTRY: dict[str, Variant] = {}
_NAMES: dict[str, str] = {}


def normalise(name: str) -> str:
    """Case, spacing and punctuation-insensitive key for names and aliases."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    return re.sub(r"[\s\-–—_'’\"().,]+", "_", text).strip("_")


def register(variant: Variant) -> Variant:
    if variant.id in _REGISTRY:
        raise ValueError(f"variant {variant.id!r} registered twice")
    for key in variant.options:
        if key not in OPTION_SPECS:
            raise ValueError(f"{variant.id}: unknown option {key!r}")
    _REGISTRY[variant.id] = variant
    for name in (variant.id, *variant.names):
        key = normalise(name)
        owner = _NAMES.setdefault(key, variant.id)
        if owner != variant.id:
            raise ValueError(f"name {name!r} of {variant.id} already names {owner}")
    return variant


def all_variants() -> list[Variant]:
    """Every registered variant in catalogue order."""
    return sorted(_REGISTRY.values(), key=lambda v: (v.number, v.id))


def lookup(name: str) -> Variant:
    """The variant with this id, name or alias."""
    vid = _NAMES.get(normalise(name))
    if vid is None:
        known = ", ".join(v.id for v in all_variants())
        raise UnknownVariantError(name, f"no such variant (known: {known})")
    return _REGISTRY[vid]


_ROOTS = ("simple", "podkidnoy", "perevodnoy")


def _rules_of_game(variant: Variant) -> tuple[Rules, dict[str, tuple[Any, str]]]:
    """Rules of a game variant and the options that *define* it: those set by a variant
    other than the three base games, with the id that set them. A modifier may not change a
    defining option (``japanese+no_trump``), but may change a base game's defaults (house
    rules exist to do that)."""
    chain: list[Variant] = []
    v: Variant | None = variant
    while v is not None:
        chain.append(v)
        v = lookup(v.base) if v.base else None
    options: dict[str, Any] = {}
    defining: dict[str, str] = {}
    for link in reversed(chain):
        options.update(link.options)
        for key in link.options:
            if link.id in _ROOTS:
                defining.pop(key, None)
            else:
                defining[key] = link.id
    rules = Rules().with_options(**options)
    return rules, {k: (getattr(rules, k.replace(".", "_")), who) for k, who in defining.items()}


@dataclass(frozen=True)
class Resolved:
    """A parsed variant spec: the game, the stacked modifiers, and the resulting rules."""

    spec: str
    game: Variant
    modifiers: tuple[tuple[Variant | None, str, Any], ...]
    rules: Rules

    @property
    def name(self) -> str:
        return self.spec


@lru_cache(maxsize=512)
def resolve(spec: str, base_rules: Rules | None = None) -> Resolved:
    """Turn ``game[+modifier[=value]][+option.key=value]...`` into rules.

    Raises :class:`UnknownVariantError` for an unknown name and :class:`RulesError` (naming the
    key) for an unknown option, a modifier on a base it does not accept, or a conflict.
    """
    parts = [p.strip() for p in spec.split("+")]
    if not parts or not parts[0]:
        raise UnknownVariantError(spec, "empty variant name")
    game = lookup(parts[0])
    if game.kind != "game":
        raise RulesError(game.id, f"is a house rule; stack it on a game: "
                         f"{game.default_base}+{game.id}")
    rules, defining = _rules_of_game(game)
    if base_rules is not None:
        rules = base_rules
    applied: dict[str, tuple[Any, str]] = {}
    mods: list[tuple[Variant | None, str, Any]] = []
    for part in parts[1:]:
        if not part:
            raise RulesError(spec, "empty part between '+' signs")
        name, _, raw = part.partition("=")
        name = name.strip()
        if name in OPTION_SPECS or name.replace("_", ".", 1) in OPTION_SPECS:
            key = name if name in OPTION_SPECS else name.replace("_", ".", 1)
            if not raw:
                raise RulesError(key, "an option needs a value: key=value")
            changes = {key: raw.strip()}
            mods.append((None, key, raw.strip()))
            origin = f"option {key}"
        else:
            if "." in name:  # a dotted name is always an option key, never a variant
                raise RulesError(name, "unknown option (see the options in docs/variants.md "
                                 "and bito.rules.options.OPTION_SPECS)")
            mod = lookup(name)
            if mod.kind != "modifier":
                raise RulesError(mod.id, "is a game, not a modifier; only one game per spec")
            if mod.applies_to and _base_for(game) not in mod.applies_to:
                raise RulesError(mod.id, f"applies to {', '.join(mod.applies_to)}, not {game.id}")
            changes = dict(mod.options)
            if mod.parameter:
                value = raw.strip() if raw else mod.parameter_default
                if value is None:
                    choices = OPTION_SPECS[mod.parameter].choices or ()
                    raise RulesError(mod.id, "needs a value: " + " | ".join(
                        f"{mod.id}={c}" for c in choices))
                changes[mod.parameter] = value
            elif raw:
                raise RulesError(mod.id, "takes no value")
            mods.append((mod, mod.id, raw or None))
            origin = mod.id
        probe = rules.with_options(**changes)
        for key in changes:
            new = getattr(probe, key.replace(".", "_"))
            earlier = applied.get(key)
            if earlier is None and not origin.startswith("option "):
                earlier = defining.get(key)
            if earlier is not None and earlier[0] != new:
                raise RulesError(key, f"set to {earlier[0]!r} by {earlier[1]} and to "
                                 f"{new!r} by {origin}")
            applied[key] = (new, origin)
        rules = probe
    return Resolved(spec=spec, game=game, modifiers=tuple(mods), rules=rules)


def _base_for(game: Variant) -> str:
    """The base a house rule must list to stack on ``game``: the game itself or its nearest
    ancestor that some house rule names as a base (japanese, estonian, ...), else its root.
    So a plain preset such as big_fool takes the house rules of podkidnoy, while japanese
    takes only those that list japanese (royal, albanian, ...), as the catalogue says."""
    named = {b for v in _REGISTRY.values() for b in v.applies_to}
    v = game
    while v.id not in named and v.base is not None and v.id not in _ROOTS:
        v = lookup(v.base)
    return v.id


def rules_for(spec: str | Rules) -> Rules:
    """Rules for a variant spec, or the rules themselves."""
    if isinstance(spec, Rules):
        return spec
    return resolve(spec).rules
