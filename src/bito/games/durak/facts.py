"""What a rule adds to a deal: the base of the frozen records a rule's hook module defines.

A deal (:class:`~bito.games.durak.setup.Deal`) keeps only the facts of the base games; a
rule that needs facts of its own fixed for the whole deal (who sits with whom, which seat is
the playing dummy) puts them in a frozen record of a type its hook module defines, which its
``deal_facts`` hook gives once per rule set. The deal holds those records, and whoever knows
the rule asks for its record by type (:meth:`Deal.fact`); the core, which knows no rule,
only asks every record what it adds to the deal's outcome (:meth:`DealFact.settle`) and to
a seat in the plain-text picture (:meth:`DealFact.seat_words`).

This module imports nothing of the engine, so a rule's module can subclass it while the
deal's module imports the rules' modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from bito.games.durak.setup import Deal
    from bito.games.protocol import Outcome


class DealFact:
    """One rule's facts of a deal. Subclasses are frozen dataclasses defined by the rule's
    hook module; the methods below add nothing here."""

    __slots__ = ()

    def seat_words(self, deal: Deal, seat: int) -> str:
        """Words after ``seat`` in the plain-text picture of a state (the dummy's seat and
        who plays it); the core's renderer, which knows no rule, asks every record."""
        return ""

    def settle(self, outcome: Outcome) -> Outcome:
        """The deal's outcome with what this rule says about it (the teams, the dummy's
        seat); the core calls it for every record before the rules' tallies."""
        return outcome


F = TypeVar("F", bound=DealFact)


def fact_of(facts: tuple[DealFact, ...], kind: type[F]) -> F | None:
    """The record of type ``kind`` among ``facts`` (None: the rule is not played)."""
    for fact in facts:
        if type(fact) is kind:
            return fact
    return None
