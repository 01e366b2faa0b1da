"""Actions as integers: one fixed numbering per rules object.

Learning code wants a fixed-size action space and a mask of the legal entries; the engine
speaks :class:`~bito.games.durak.Action` objects. The codec numbers every action that *could*
be legal under a rules object, derived from the pack itself (``rules.deck()``, so twin decks,
jokers and wild cards need no edit here) and from the options that shape multi-card plays:

========================  =====================================================================
block                     entries
========================  =====================================================================
``take``, ``pass``        one each
attack                    one per card of the pack (a lead, a throw-in, or a one-card lead)
transfer                  one per card, when the rules have transfers (or joker gifts, #24 A3)
defend                    one per ordered pair (covering card, attack card), twins included
group                     every set of 2..k cards that count as one rank (``MATCH_MASKS``),
                          k the most a lead (or a group throw-in) may hold
group transfer            the same sets as transfers (``transfer.cards_per_action=group``)
give                      one per card, with joker gifts (#24)
block                     every three cards of one rank (#84, ``specials.gift_block_combo``)
pair plus one             Rozaliev's lead: a pair and any third card (``lead.shape=rozaliev``)
lead patterns             every lead of the shapes in ``lead.patterns`` (``lead.shape=patterns``)
suit leads                every lead of 2..k cards of one suit (Akulina, ``lead.shape=same_suit``)
toss                      one per card, a throw-in from the dummy's hand (#56, ``dummy.mode``)
believe, doubt            one each, the call on face-down covers (#59, ``defense.face_down``)
try, stock                one each: a second try (#39), a stock-top attack (#40, #83)
swap                      every set of 1..k cards of the pack (#42, ``defense.exchange=k``)
pair                      every (card, its own cover) pair (#48 self-throw, #51 impudent)
own cover                 every (cover, own card) pair (#50, #51)
counter                   every cover of a card with one or more cards of the cover's rank
                          added (#49 ``defense.counter``)
========================  =====================================================================

Indices are stable for a rules object: the same rules give the same numbering on every
machine, so a trained policy's output layer stays meaningful.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Any

from bito.cards import MATCH_MASKS, card_str
from bito.env._optional import require
from bito.env.numbering import NumberedActions, Numbering
from bito.errors import RulesError
from bito.games.durak import actions as _kinds
from bito.games.durak.actions import (
    ATTACK,
    DEFEND,
    PASS_ACTION,
    TAKE_ACTION,
    TRANSFER,
    Action,
)
from bito.games.durak.hooks import CodecBlocks
from bito.games.durak.installed import HOOKS
from bito.games.family import family_for
from bito.rules import Rules, rules_for

if TYPE_CHECKING:
    pass

np: Any = require("numpy", "bito.env")

#: Joker gifts (#24) and the blocking hand (#84): action kinds of newer engines (absent: -1).
GIVE: int = getattr(_kinds, "GIVE", -1)
BLOCK: int = getattr(_kinds, "BLOCK", -1)

#: Most cards one rank group can hold (four suits, two copies).
_GROUP_MAX = 8


def durak_rules(spec: Rules | str) -> Rules:
    """The rules of a Durak-family spec; ValueError naming the family for any other game.

    This numbering covers the Durak family (attack/defence bouts); the environments pick
    every other family's own (:func:`bito.env.kit.kit_for`)."""
    family = family_for(spec)
    if not family.codec:
        what = f"{spec!r} is a game" if isinstance(spec, str) else "rules"
        raise ValueError(f"{what} of the {family.name} family; ActionCodec numbers the Durak "
                         "family's moves: the environments take any game and pick its "
                         "family's numbering (bito.env.kit.kit_for, see docs/rl.md)")
    if isinstance(spec, str):
        return durak_rules(rules_for(spec))
    if not spec.deal_owner_sees_hand:
        raise ValueError("deal.owner_sees_hand=false (#58, cards held face out): bito.env "
                         "does not cover it: its observation is built around the seat's own "
                         "hand, which this seat may not see, and its action numbering names "
                         "cards, not hand positions (see docs/rl.md)")
    if spec.exchange_mode == "choose":
        raise ValueError("exchange.mode=choose (#31's chosen passes): bito.env does not encode "
                         "its exchange phase or moves; play it with exchange.mode=whole_hand "
                         "or through the engine (see docs/rl.md)")
    return spec


class ActionCodec(NumberedActions[Action]):
    """The integer numbering of every action a rules object can produce.

    ``codec.index(action)`` and ``codec.action(i)`` convert; ``codec.size`` is the fixed
    count; ``codec.mask(state)`` marks the legal entries of a position.
    """

    scope = "these rules"

    def __init__(self, rules: Rules | str) -> None:
        self.rules = durak_rules(rules)
        r = self.rules
        if r.dummy_mode == "playing":
            raise RulesError("dummy.mode", "the RL environments give every seat its own agent, "
                             "but #57's playing dummy is played by another seat's player; "
                             "playing_dummy is not offered as an environment")
        #: The cards of the pack in code order; ``card_index[code]`` is a card's position.
        self.cards: tuple[int, ...] = tuple(sorted(set(r.deck())))
        self.card_index: dict[int, int] = {c: i for i, c in enumerate(self.cards)}
        numbering: Numbering[Action] = Numbering()
        block = numbering.block

        groups = self._groups()
        block("take", [TAKE_ACTION])
        block("pass", [PASS_ACTION])
        block("attack", (Action(ATTACK, (c,)) for c in self.cards))
        if r.transfer_enabled or (GIVE >= 0 and r.specials_joker_gifts):
            # (#24 A3: with joker gifts a joker may pass a led joker on in any base game.)
            block("transfer", (Action(TRANSFER, (c,)) for c in self.cards))
        block("defend", (Action(DEFEND, (cover,), target)
                         for target in self.cards for cover in self.cards if cover != target))
        most = self._group_most(r)
        block("group", (Action(ATTACK, combo) for group in groups
                        for k in range(2, min(most, len(group)) + 1)
                        for combo in combinations(group, k)))
        if r.transfer_enabled and r.transfer_cards_per_action == "group":
            # #29 A5: several cards of the rank passed on in one transfer.
            block("group transfer", (Action(TRANSFER, combo) for group in groups
                                     for k in range(2, min(_GROUP_MAX, len(group)) + 1)
                                     for combo in combinations(group, k)))
        if r.lead_shape == "rozaliev" and r.lead_max >= 3 and r.throw_in_cap >= 3:
            block("pair plus one", (Action(ATTACK, tuple(sorted((*pair, extra))))
                                    for group in groups for pair in combinations(group, 2)
                                    for extra in self.cards if extra not in pair))
        for hook in HOOKS:  # each variant hook numbers its own moves (dummy, calls, extras...)
            for name, acts in hook.position(CodecBlocks(r, self.cards)):
                block(name, acts)
        self.keep(numbering)

    @staticmethod
    def _group_most(r: Rules) -> int:
        """The most cards one attack action may hold under these rules."""
        most = min(r.lead_most or _GROUP_MAX, r.lead_max, r.throw_in_cap)
        if r.throw_in_groups:  # group throw-ins: any part of a rank group in one action
            most = max(most, min(_GROUP_MAX, r.throw_in_cap))
        return max(most, 1)

    def _groups(self) -> list[tuple[int, ...]]:
        """The pack split into sets of cards that count as one rank."""
        out: list[tuple[int, ...]] = []
        done: set[int] = set()
        for c in self.cards:
            if c in done:
                continue
            group = tuple(x for x in self.cards if MATCH_MASKS[c] >> x & 1)
            done.update(group)
            out.append(group)
        return out

    # --- conversions ---------------------------------------------------------------------

    def indices(self, actions: Iterable[Action]) -> list[int]:
        return [self.index(a) for a in actions]

    def card_name(self, position: int) -> str:
        return card_str(self.cards[position])

    def __repr__(self) -> str:
        return f"ActionCodec({self.rules.changed_options()!r}, size={self.size})"


@lru_cache(maxsize=64)
def codec_for(rules: Rules) -> ActionCodec:
    """A shared codec per rules object (building one enumerates every action once)."""
    return ActionCodec(rules)
