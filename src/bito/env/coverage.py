"""Which catalogue entries the research adapters play: every Durak-family game and house rule
the engine accepts today (:func:`covered_specs`), every game of the shedding, trick and social
families (:func:`card_play_specs`, through :mod:`bito.env.cardplay`), and every catalogue game
of every family with the seat counts it takes (:func:`family_games`).

A game variant is taken as it is; a modifier or house rule is stacked on the first base game
it applies to (``podkidnoy+no_trump``). Entries the engine still refuses (options it does not
play yet) are left out, so this list grows by itself as the engine does; so are entries the
adapters themselves refuse (#58's hands held face out, see :func:`bito.env.codec.durak_rules`).
"""

from __future__ import annotations

from functools import cache

from bito.env.codec import durak_rules
from bito.errors import BitoError
from bito.games import FAMILIES, new_game
from bito.rules import all_variants


@cache
def covered_specs() -> tuple[str, ...]:
    """Variant specs of the families the codec covers (the Durak family) that deal a game
    now, in catalogue order."""
    covered = {f.name for f in FAMILIES.values() if f.codec}
    out: list[str] = []
    for v in all_variants():
        if v.family not in covered:
            continue
        if v.kind == "game":
            spec = v.id
        else:
            bases = [b for b in ("podkidnoy", "perevodnoy", "simple") if b in v.applies_to]
            base = bases[0] if bases else v.applies_to[0] if v.applies_to else "podkidnoy"
            spec = f"{base}+{v.id}"
        try:
            new_game(spec, 2, seed=0)
            durak_rules(spec)
        except (BitoError, ValueError):
            continue  # not playable yet, or a house rule that needs a value (key=value)
        out.append(spec)
    return tuple(out)


@cache
def card_play_specs() -> tuple[str, ...]:
    """The catalogue games of the shedding, trick and social families
    (:mod:`bito.env.cardplay`) that deal a game now, in catalogue order."""
    from bito.env.cardplay import CARD_PLAY_FAMILIES

    return tuple(v.id for v in all_variants()
                 if v.family in CARD_PLAY_FAMILIES and v.kind == "game")


#: The most seats any game of the catalogue takes (the adjacent-rank game's ten, Durak's
#: two-deck games' twelve).
MOST_SEATS = 12


@cache
def family_games() -> tuple[tuple[str, str, tuple[int, ...]], ...]:
    """Every catalogue game (``kind == "game"``) of every family that deals one game, as
    (family, id, the seat counts it deals and the environments take), in catalogue order.
    A game the environments refuse at every seat count (#57's playing dummy, #58's hands
    held face out, #31's chosen passes) is left out."""
    from bito.env.kit import kit_for

    out: list[tuple[str, str, tuple[int, ...]]] = []
    for v in all_variants():
        if v.kind != "game" or v.family not in FAMILIES:
            continue
        seats = []
        for n in range(2, MOST_SEATS + 1):
            try:
                kit_for(v.id, n)
            except (BitoError, ValueError):
                continue
            seats.append(n)
        if seats:
            out.append((v.family, v.id, tuple(seats)))
    return tuple(out)
