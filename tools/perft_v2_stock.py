"""Perft specs of the Variants II stock group (#31-38, #61-63), for ``tools/make_perft.py``.

One golden file ``tests/golden/perft_v2_<id>.txt`` per id: the seeded deals of
:data:`SEEDS` and positions that meet the id's own rule a few actions in (a bito that refills,
exchanges, unlocks or recycles; a last card that picks up a buy-in; a tally). The counts are a
regression guard; ``tests/perft/test_stock_perft.py`` recomputes them.
"""

from __future__ import annotations

from typing import Final

SEEDS: Final = ((2, 1), (2, 2), (3, 3), (4, 4))
DEPTH: Final = 4

STOCK: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "exchange": ("podkidnoy+exchange", (
        "podkidnoy+exchange players=3 trump=6h stock=6hKsAh hands=9cKd/8s9dQc/JcJdAs7c "
        "table=7s attacker=0 defender=1",
    )),
    # #31 A1 option: the chosen exchange (k = 2), from a bout about to end (with a draw first)
    # and from a round half made.
    "exchange_choose": ("podkidnoy+exchange=choose+exchange.cards=2", (
        "podkidnoy+exchange=choose+exchange.cards=2 players=3 trump=6h stock=6hKsAh "
        "hands=9cKd/8s9dQc/JcJdAs7c table=7s attacker=0 defender=1",
        "podkidnoy+exchange=choose+exchange.cards=2 players=3 trump=6h stock=- "
        "hands=9cKdAd/9dQc/JcJdAs7c phase=exchange attacker=1 defender=2 "
        "to_act=2 choosing=2.0 chosen=-/9dQc/-",
    )),
    "no_stock": ("podkidnoy+no_stock", ()),
    "piled_up": ("podkidnoy+piled_up", ()),
    "draw_when_empty": ("podkidnoy+draw_when_empty", (
        "podkidnoy+draw_when_empty players=2 trump=6h stock=6hAc9dJsQsKs8c hands=7c9c7h/8dTd "
        "table=7d attacker=0 defender=1",
    )),
    "gradual_access": ("podkidnoy+gradual_access", (
        "podkidnoy+gradual_access players=2 trump=6h stock=6hAcAd hands=7c9c/8dTd "
        "locked=JcQc/KcKd table=7d attacker=0 defender=1",
    )),
    "arithmetic_progression": ("podkidnoy+arithmetic_progression", ()),
    "buy_in": ("podkidnoy+buy_in", (
        "podkidnoy+buy_in players=3 trump=6h stock=- hands=7d/9c8d/JcQd "
        "reserve=AcAdAs/-/Kh table=- attacker=0 defender=1",
    )),
    "recycle_discard": ("podkidnoy+recycle_discard", (
        "podkidnoy+recycle_discard players=2 trump=6h stock=6hAcAdAsKh hands=7c9c/8dKs "
        "table=7d attacker=0 defender=1 bitos=1",
    )),
    "points_fool": ("podkidnoy+points_fool", (
        "podkidnoy+points_fool players=3 trump=6h stock=- hands=7c8cAd/9s9dQcKc/JcJdAs "
        "table=7s,7d attacker=0 defender=1",
    )),
    "figure_count": ("podkidnoy+figure_count", ()),
    "epaulettes": ("podkidnoy+epaulettes", (
        "podkidnoy+epaulettes players=2 trump=6h stock=- hands=9s/8c9cTc6d "
        "table=6s attacker=0 defender=1",
    )),
}
