"""Transfer with refusal (``transfer.refusal``, #9, S4:6): in the last duel, an attacker
who has just gone out with his lead can still be handed the attack back by a transfer, and
holding nothing, he must take it.

A hook at the core's ``goes_on`` point (``Turn.TRANSFER_BACK``): when a transfer finds nobody
else in play, the core asks whether the attack may go back to the attacker; it then brings him
back into play as the defender (:meth:`~bito.games.durak.state.DurakState.rejoin`). The
transfer's other limits (the new defender's cards excepted: he has none to beat with, S4:6)
apply as usual, so the explainer and the trump-show transfer (#96) give the same answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bito.games.durak.hooks import Hook, Moment, Turn

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.rules import Rules


def refusal_target(state: DurakState) -> int:
    """The player the defender may transfer back to although he holds no card, or -1.

    That is the bout's attacker when he has just gone out (he is the last player out) and the
    defender is the only one still holding cards: the last duel (A1)."""
    attacker = state.attacker
    out = state.out
    if (out and out[-1] == attacker and attacker != state.defender
            and state.deal.players - state.out_mask.bit_count() == 1):
        return attacker
    return -1


class _Refusal(Hook):
    """#9 at the one point it needs: who a transfer may go back to in the last duel."""

    name = "#9 transfer with refusal"
    moments = frozenset({Turn.TRANSFER_BACK})

    def applies(self, rules: Rules, players: int) -> bool:
        return rules.transfer_refusal

    def goes_on(self, state: DurakState, moment: Moment) -> bool:
        return moment == Turn.TRANSFER_BACK and refusal_target(state) >= 0


HOOK: Final = _Refusal()
