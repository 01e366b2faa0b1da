"""What a rule adds to a deal: the base of the frozen records a rule's hook module defines.

A deal (:class:`~bito.games.durak.setup.Deal`) keeps only the facts of the base games; a
rule that needs facts of its own fixed for the whole deal (who sits with whom, which seat is
the playing dummy) puts them in a frozen record of a type its hook module defines, which its
``deal_facts`` hook gives once per rule set. The deal holds those records, and whoever knows
the rule asks for its record by type (:meth:`Deal.fact`); the core, which knows no rule,
only asks every record what it adds at a few places it knows: the deal's outcome
(:meth:`DealFact.settle`), the next deal's dealer (:meth:`DealFact.deals_next`), the
position text (:meth:`DealFact.position_fields`) and the plain-text picture
(:meth:`DealFact.seat_words`, :meth:`DealFact.lines`). A record may also hold the result of
the dealing: cards the rule deals face down beside the hands (:meth:`DealFact.before_hands`,
:meth:`DealFact.after_trump`), what it does to the stock and the trumps once the trump is
turned (:meth:`DealFact.trump_turned`), the order each hand was dealt in
(:meth:`DealFact.dealt`) and
the first bout's lot, which the record draws (:meth:`DealFact.first_bout`): who attacks
first and who plays for a seat nobody sits in (:meth:`DealFact.played_by`).

This module imports nothing of the engine, so a rule's module can subclass it while the
deal's module imports the rules' modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import random

    from bito.games.durak.relation import Trumps
    from bito.games.durak.setup import Deal
    from bito.games.durak.state import DurakState
    from bito.games.protocol import Outcome
    from bito.rules import Rules


class DealFact:
    """One rule's facts of a deal. Subclasses are frozen dataclasses defined by the rule's
    hook module; the methods below add nothing here."""

    __slots__ = ()

    def dealt(self, order: tuple[tuple[int, ...], ...]) -> DealFact:
        """The record of a deal that gave each seat its cards in ``order`` (each seat's
        cards as they were dealt one at a time, or as a position lists them)."""
        return self

    def before_hands(self, rules: Rules, players: int, dealer: int, pack: list[int]
                     ) -> tuple[DealFact, list[int]]:
        """The record of a deal whose rule deals cards of its own from the top of the shuffled
        ``pack`` before the hands (#37's buy-in), and the pack left for the hands. Asked
        while dealing, after the dealer is chosen."""
        return self, pack

    def trump_turned(self, rules: Rules, players: int, dealer: int, trump_card: int,
                     stock: tuple[int, ...], trump: Trumps
                     ) -> tuple[DealFact, tuple[int, ...], Trumps]:
        """The record of a deal whose rule changes the stock or what trumps once the core has
        turned the trump card (``trump_card``, -1: none turned up; ``stock``: bottom
        first; ``trump``: what trumps so far), with the stock and the trumps it leaves.
        Asked while dealing, in the order of the rules' hooks, before :meth:`after_trump`."""
        return self, stock, trump

    def after_trump(self, rules: Rules, players: int, dealer: int, pack: list[int],
                    hands: list[int], stock: tuple[int, ...]) -> tuple[DealFact, list[int]]:
        """The record of a deal whose rule sets hand cards aside once the trump is turned
        (#35's locked cards; ``pack``: as the hands were dealt from it, ``stock``: what is
        left to draw), and the hands left in play. Asked while dealing, before the first
        attacker is chosen."""
        return self, hands

    def first_bout(self, rules: Rules, players: int, rng: random.Random, attacker: int,
                   defender: int) -> tuple[int, int, int] | None:
        """(attacker, defender, controller) of the deal's first bout when a lot of this rule
        decides them, drawn from ``rng`` (controller: the seat that plays a seat nobody sits
        in); None: the core's first attacker stands. Asked while dealing, after the hands."""
        return None

    def played_by(self, controller: int) -> DealFact:
        """The record of a deal whose lot chose ``controller`` to play for a seat nobody sits
        in (:meth:`first_bout`'s third answer, or a position's ``controller=``)."""
        return self

    def deals_next(self, outcome: Outcome) -> int | None:
        """Who deals the next deal of a match when this rule decides it (the playing dummy
        was the fool, so no person was); None: the match's own rule."""
        return None

    def position_fields(self, state: DurakState, seat: int | None) -> list[str]:
        """The record's ``key=value`` fields in the position text, after the hands (``seat``:
        the seat the text is censored for, None for the whole truth)."""
        return []

    def lines(self, state: DurakState) -> list[str]:
        """Lines after the hands in the plain-text picture of a state, which shows every
        hand (the tossing dummy's)."""
        return []

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
