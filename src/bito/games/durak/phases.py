"""The phases of a Durak deal and the marks a ``defence`` entry can hold.

One small module that imports nothing of the engine, so the state machine and every variant
module name the same phases without re-declaring their numbers (the numbers are those the
position text, the kernel's arrays and the RL codec store).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Phase(IntEnum):
    """Who acts, and how. The value is what a position stores; the name, lower-cased, is what
    position text writes (``phase=throw``)."""

    LEAD = 0  #: the attacker opens a bout
    DEFEND = 1  #: the defender covers, transfers or takes
    THROW = 2  #: the throwers add cards in turn, or pass
    OVER = 3  #: the game has ended
    GIVE = 4  #: a joker's gift is being handed over (#24)
    CALL = 5  #: the attacker believes or doubts face-down covers (#59)
    EXCHANGE = 6  #: players choose the cards they pass on (#31)


#: Each phase's name in position text, by number.
PHASE_NAMES: Final = tuple(p.name.lower() for p in Phase)

#: ``defence`` entries that are not cards: an uncovered attack card, and an attack card
#: neutralised by a transfer under ``transfer.new_defender_beats=transfer_cards_only`` (#11),
#: which counts as covered, needs no cover and goes with the rest of the table.
UNCOVERED: Final = -1
NEUTRAL: Final = -2
