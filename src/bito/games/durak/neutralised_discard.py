"""Neutralised cards to the discard (``transfer.neutralised=discard``, #11 A1 option).

Under #11 (``transfer.new_defender_beats=transfer_cards_only``) a transfer neutralises the
cards its defender left uncovered: the new defender beats only the transfer cards. By default
the neutralised cards stay on the table with the bout; under this option they leave it for
the discard pile at once, so they are neither picked up by a taker nor ranks to throw in on.

A hook hearing the core's ``Transferred`` event (its ``on`` point), which the core sends right
after it has laid the transfer cards and before the attack passes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bito.games.durak.hooks import Event, Hook, Transferred
from bito.games.durak.phases import NEUTRAL

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState
    from bito.rules import Rules


def discard_neutralised(state: DurakState) -> None:
    """Move the neutralised attack cards from the table to the discard pile, and recount the
    ranks on the table from what is left."""
    state.to_discard(state.lift(_neutral))


def _neutral(attack: int, cover: int) -> bool:
    return cover == NEUTRAL


class _Discard(Hook):
    """#11 A1 at the one point it needs: a transfer has just been laid."""

    name = "#11 neutralised cards to the discard"
    events = frozenset({Transferred})

    def applies(self, rules: Rules, players: int) -> bool:
        return (rules.transfer_new_defender_beats == "transfer_cards_only"
                and rules.transfer_neutralised == "discard")

    def on(self, state: DurakState, event: Event) -> None:
        if isinstance(event, Transferred):
            discard_neutralised(state)


HOOK: Final = _Discard()
