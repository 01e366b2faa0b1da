"""Position text describing a state that legal play can never reach is rejected."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, complaint", [
    ("podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d to_act=0",
     "defender must be the one to act"),
    ("podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<9d phase=throw to_act=1",
     "never the defender"),
    ("podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<6d", "does not beat"),
    ("podkidnoy players=2 trump=2h hands=7c8c/TcJd", "not in a 36-card deck"),
    ("podkidnoy players=2 trump=6h hands=7c8c/TcJd phase=over", "more than one player"),
    ("podkidnoy players=2 trump=6h stock=6h9c hands=7c8c/TcJd table=7d<9d phase=throw "
     "throwers=0 t_idx=5", "t_idx"),
])
def test_impossible_positions_are_rejected(text: str, complaint: str) -> None:
    """Positions that legal play can never reach are refused, naming what is wrong."""
    from bito.errors import InvalidNotationError
    from bito.notation import parse_position

    with pytest.raises(InvalidNotationError, match=complaint):
        parse_position(text)
