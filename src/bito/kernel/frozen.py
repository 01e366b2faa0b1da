"""Rule facts as compile-time constants: one compiled copy of the kernel per rule set.

The state machine (:mod:`bito.kernel.core`) reads every rule fact from the position array
(``s[CAP]``, ``s[TRANSFER]``, ...), so one compiled loop plays every variant, and pays for it:
each fact is a load and each rule a branch the CPU takes again at every action. This module
gives the same source a second kind of position pointer, :class:`FrozenPosition`, whose numba
*type* carries the values of the rule facts of one rule set (:data:`FROZEN`). Reading such a
fact at a constant index (``s[CAP]``) compiles to the constant itself; LLVM then folds the
branches of the rules that are off and the arithmetic of those that are on. Everything else
(hands, table, the deal's trump and beat table, any index computed at run time) is read from
memory as through a plain pointer.

So there is still one copy of the rules: the facts come from the array that
:func:`bito.kernel.convert.rule_facts` writes from :class:`~bito.rules.Rules` (the options
declared in :mod:`bito.rules.kernel_rules`), are read back from it by :func:`facts_of`, and
become the type's parameters; the compiled code is the same functions of ``core`` either way.
numba compiles a function once per argument type and keeps each compilation in its on-disk
cache, keyed by that type, so a rule set compiles once per install (a few seconds) and loads
from disk afterwards.

The facts that change within a deal or per position (the trump, the beat table, the cards
that have a suit under a two-deck numbering, ``NO_FIRST_TRANSFER`` which the match context
sets) are never frozen.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.datamodel import models
from numba.core.extending import (
    NativeValue,
    intrinsic,
    lower_builtin,
    register_model,
    typeof_impl,
    unbox,
)
from numba.core.typing.templates import AbstractTemplate, infer_global, signature

from bito.kernel import layout as L

FROZEN: Final[tuple[int, ...]] = (
    L.PLAYERS, L.HAND_SIZE, L.CAP, L.FIRST_CAP, L.UNCAPPED, L.LEAD_MAX, L.LEAD_MOST,
    L.ROZALIEV, L.THROW_IN, L.TRANSFER, L.NEIGHBOURS, L.DRAW_RULE, L.NO_TRUMP_TRANSFER,
    L.DRAW_ALLOWED, L.TRUMP_SOURCE, L.REJECT_ACE, L.REJECT_LOW, L.LOW_RANK, L.LEFT_OF_DEALER,
    L.LOT_FALLBACK, L.REPETITION, L.IDLE_LIMIT, L.FIXED_SUIT, L.ANY_TIME, L.MATCH_ALL,
    L.STOCK_LEAD, L.SECOND_TRY, L.TEAMS, L.TEAM_OF, L.TEAM_THROW, L.TEAM_ATTACK, L.TEAM_PROXY,
    L.ONLY_NEW, L.THROW_GROUPS, L.INSTANT_LOSS, L.SHOW_TRUMP, L.TAKE_SKIP, L.WHOLE_RANK,
    L.STRONGEST, L.WHOLE_PACK, L.REMOVE_STOCK, L.DESCENDING, L.SEARCH_INDICATOR, L.REFUSAL,
    L.DRAW_EMPTY, L.PROGRESSIVE, L.PROGRESSIVE_CAP, L.EXCHANGE, L.GIFTS, L.GIFT_BLOCK,
    L.GIFT_ON_COVER, L.GIVER_TRANSFERRER, L.SCORE_POINTS, L.SCORE_FIGURES, L.EPAULETTES,
    L.RESERVE_SIZE, L.PATTERN_LEADS, L.STOCK_THROW, L.STOCK_ONCE, L.SECRET_SECOND,
    L.SECRET_DRAWABLE, L.STOCK_REFILL, L.SWAP_SIX, L.SUIT_LEADS, L.CLOSING, L.BOOKS,
    L.PARTIAL, L.PASS_LEAD, L.TWIN_BLOCK,
)
"""The slots of the array whose values are facts of the rules and the seat count alone,
fixed for a whole game: these become constants. (Not the trump, the beat table, the trump
set, the suited cards or the first-bout transfer ban: a deal, a card numbering or the match
sets those; nor the card sets of the jokers and of #28's closing covers, which follow the
card numbering.)"""


@dataclass(frozen=True)
class RuleFacts:
    """The frozen facts of one rule set, as a value compiled code is specialised on: pass it
    to an entry point and :func:`frozen_ptr` turns a position array into a pointer whose rule
    facts are constants."""

    values: tuple[int, ...]


def facts_of(template: np.ndarray) -> RuleFacts:
    """The :data:`FROZEN` facts of a position or rule-fact array."""
    return RuleFacts(tuple(int(template[i]) for i in FROZEN))


class FactsType(types.Type):
    """numba's type of a :class:`RuleFacts`: the values are part of the type."""

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = values
        super().__init__(name=f"RuleFacts{values}")


class FrozenPosition(types.Type):
    """A pointer to a position's ``int64`` array whose :data:`FROZEN` facts are constants."""

    def __init__(self, values: tuple[int, ...]) -> None:
        self.values = values
        self.constants = dict(zip(FROZEN, values, strict=True))
        super().__init__(name=f"FrozenPosition{values}")


@register_model(FactsType)
class _FactsModel(models.OpaqueModel):
    """Nothing at run time: the facts live in the type."""


@register_model(FrozenPosition)
class _PositionModel(models.PrimitiveModel):
    def __init__(self, dmm: Any, fe_type: Any) -> None:
        super().__init__(dmm, fe_type, ir.PointerType(ir.IntType(64)))


@typeof_impl.register(RuleFacts)
def _typeof_facts(val: RuleFacts, c: Any) -> FactsType:
    return FactsType(val.values)


@unbox(FactsType)
def _unbox_facts(typ: Any, obj: Any, c: Any) -> NativeValue:
    return NativeValue(c.context.get_dummy_value())


@intrinsic
def frozen_ptr(typingctx, arr, facts):  # type: ignore[no-untyped-def]
    """The data pointer of a position array: typed with the rule facts ``facts`` (a
    :class:`RuleFacts` the caller read from this very array with :func:`facts_of`), or a
    plain ``int64`` pointer when ``facts`` is None (every fact read from the array)."""
    if isinstance(facts, FactsType):
        sig = FrozenPosition(facts.values)(arr, facts)
    elif isinstance(facts, types.NoneType):
        sig = types.CPointer(types.int64)(arr, facts)
    else:
        return None

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    return sig, codegen


@infer_global(operator.getitem)
class _GetItem(AbstractTemplate):
    """``s[i]`` on a frozen position: an ``int64``; the index's literal value, when it has
    one, picks the constant."""

    prefer_literal = True

    def generic(self, args: Any, kws: Any) -> Any:
        s, i = args
        if isinstance(s, FrozenPosition) and isinstance(i, types.Integer):
            return signature(types.int64, s, i)
        return None


@infer_global(operator.setitem)
class _SetItem(AbstractTemplate):
    def generic(self, args: Any, kws: Any) -> Any:
        s, i, v = args
        if (isinstance(s, FrozenPosition) and isinstance(i, types.Integer)
                and isinstance(v, (types.Integer, types.Boolean))):
            return signature(types.none, s, types.unliteral(i), v)
        return None


@lower_builtin(operator.getitem, FrozenPosition, types.Integer)
def _lower_get(context, builder, sig, args):  # type: ignore[no-untyped-def]
    s, i = sig.args
    if isinstance(i, types.IntegerLiteral):
        constant = s.constants.get(i.literal_value)
        if constant is not None:
            return context.get_constant(types.int64, constant)
    index = context.cast(builder, args[1], i, types.intp)
    return builder.load(builder.gep(args[0], [index]))


@lower_builtin(operator.setitem, FrozenPosition, types.Integer, types.Any)
def _lower_set(context, builder, sig, args):  # type: ignore[no-untyped-def]
    index = context.cast(builder, args[1], sig.args[1], types.intp)
    value = context.cast(builder, args[2], sig.args[2], types.int64)
    builder.store(value, builder.gep(args[0], [index]))
    return context.get_dummy_value()


__all__ = ["FROZEN", "FactsType", "FrozenPosition", "RuleFacts", "facts_of", "frozen_ptr"]
