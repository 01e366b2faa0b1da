"""What beats what, precomputed.

``beaters[a]`` is the set (bitmask) of every card that may cover attack card ``a``. Asking
"which of my cards cover this?" is then ``hand & beaters[a]``. The table is built once per
(rules, trump) and shared by every state of a game.

This module is the ``hook.beats`` point of the catalogue (VARIANTS.md §4.6): variants that change
the relation change :func:`beats`; everything else reads only the table.
"""

from __future__ import annotations

from functools import lru_cache

from bito.cards import rank_of, standard_deck, suit_of
from bito.rules import Rules


def beats(defence: int, attack: int, trump_suit: int, rules: Rules) -> bool:
    """The base relation (VARIANTS.md §1.2): a higher card of the same suit, or any trump over a
    non-trump. ``rules`` is the hook's context for variants that change the relation."""
    del rules
    ds, as_ = suit_of(defence), suit_of(attack)
    if ds == as_:
        return rank_of(defence) > rank_of(attack)
    return ds == trump_suit


#: The most recent rules object and its tables by trump suit: a game after game of one variant
#: (a simulation, a benchmark) finds its table by identity, without hashing every option of
#: the rules as the ``lru_cache`` below must.
_recent: tuple[Rules, dict[int, tuple[int, ...]]] | None = None


def beat_table_of(rules: Rules, trump_suit: int) -> tuple[int, ...]:
    """:func:`beat_table`, remembering the tables of the last ``rules`` object seen."""
    global _recent
    recent = _recent
    if recent is None or recent[0] is not rules:
        recent = _recent = (rules, {})
    table = recent[1].get(trump_suit)
    if table is None:
        table = recent[1][trump_suit] = beat_table(rules, trump_suit)
    return table


@lru_cache(maxsize=256)
def beat_table(rules: Rules, trump_suit: int) -> tuple[int, ...]:
    """``table[a]`` = set of cards that beat ``a`` (indexed by card code)."""
    deck = standard_deck(rules.deck_size)
    size = max(deck) + 1
    table = [0] * size
    for a in deck:
        m = 0
        for d in deck:
            if d != a and beats(d, a, trump_suit, rules):
                m |= 1 << d
        table[a] = m
    return tuple(table)
