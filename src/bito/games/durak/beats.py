"""What beats what, precomputed.

``beaters[a]`` is the set (bitmask) of every card that may cover attack card ``a``. Asking
"which of my cards cover this?" is then ``hand & beaters[a]``. The relation itself, with every
variant's rule, is :mod:`bito.games.durak.relation` (the ``hook.beats`` point of the
catalogue, VARIANTS.md §4.6); this module builds and remembers its tables.
"""

from __future__ import annotations

from bito.games.durak.relation import BeatContext, relation_table
from bito.rules import Rules

#: The most recent rules object and its tables by context: game after game of one variant (a
#: simulation, a benchmark) finds its table by identity, without hashing every option of the
#: rules as ``relation_table``'s cache must.
_recent: tuple[Rules, dict[tuple[frozenset[int], int, bool, frozenset[int]],
                           tuple[int, ...]]] | None = None


def beat_table_of(rules: Rules, trumps: frozenset[int], high_joker: int = -1,
                  jokers_wild: bool = False, binding: frozenset[int] = frozenset()
                  ) -> tuple[int, ...]:
    """The beat table for these rules and trump context, remembered per rules object."""
    global _recent
    recent = _recent
    if recent is None or recent[0] is not rules:
        recent = _recent = (rules, {})
    key = (trumps, high_joker, jokers_wild, binding)
    table = recent[1].get(key)
    if table is None:
        table = recent[1][key] = relation_table(
            BeatContext(rules, trumps, high_joker=high_joker, binding=binding,
                        jokers_wild=jokers_wild))
    return table


def beat_table(rules: Rules, trump_suit: int) -> tuple[int, ...]:
    """The table for a game with one trump suit (``-1``: no trump)."""
    return beat_table_of(rules, frozenset({trump_suit}) if trump_suit >= 0 else frozenset())
