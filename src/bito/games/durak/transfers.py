"""Transfer rules of the transfer family beyond the base game's (VARIANTS.md §3.1).

* ``transfer.refusal`` (#9, "with refusal"): in the last duel, an attacker who goes out with
  his lead can still be handed the attack back; holding nothing, he must take it.
* ``transfer.neutralised=discard`` (#11 A1): the cards a transfer neutralises leave the table
  for the discard pile at once instead of staying with the bout.

The state machine calls these from one line each, and only when the option is on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bito.cards import MATCH_MASKS
from bito.games.durak.phases import NEUTRAL

if TYPE_CHECKING:
    from bito.games.durak.state import DurakState

_NEUTRAL = NEUTRAL


def refusal_target(state: DurakState) -> int:
    """#9: the player the defender may transfer back to although he holds no card, or -1.

    That is the bout's attacker when he has just gone out (he is the last player out) and the
    defender is the only one still holding cards: the last duel (A1)."""
    attacker = state.attacker
    out = state.out
    if (out and out[-1] == attacker and attacker != state.defender
            and state.deal.players - state.out_mask.bit_count() == 1):
        return attacker
    return -1


def refuse_back(state: DurakState, seat: int) -> None:
    """#9: the refused player comes back into the game as the defender (with no cards he can
    only take, S4:6)."""
    state.out_mask &= ~(1 << seat)
    state.out.remove(seat)
    state.defender = seat


def discard_neutralised(state: DurakState) -> None:
    """#11 A1 option: move the neutralised attack cards from the table to the discard pile,
    and recount the ranks on the table from what is left."""
    attack, defence = state.attack, state.defence
    gone = 0
    keep_a: list[int] = []
    keep_d: list[int] = []
    for a, d in zip(attack, defence, strict=True):
        if d == _NEUTRAL:
            gone |= 1 << a
        else:
            keep_a.append(a)
            keep_d.append(d)
    if not gone:
        return
    state.attack = keep_a
    state.defence = keep_d
    state.discard |= gone
    if state.table_mask >= 0:
        state.table_mask &= ~gone
    ranks = 0
    for c in (*keep_a, *keep_d):
        if c >= 0:
            ranks |= MATCH_MASKS[c]
    state.table_ranks = ranks
