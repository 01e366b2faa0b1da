"""``bito arena`` with the Cheat judge's constants changed, for tuning them on paired seeds
(issue 20, item 5).

The rollout judge (:func:`bito.bots.claims.rollout_judge`) reads :data:`~bito.bots.claims.
JUDGE_WORLDS` and :data:`~bito.bots.claims.TRUE_SINGLE` when it judges, so setting them in
this process before the arena starts (its worker processes are forked from it) plays the same
deals with another judge. Everything after the options goes to ``bito arena``:

    python tools/cheat_judge.py --judge-worlds 8 -- --variant believe_not_believe_2 \\
        --bots easy,strong --pairs 40 --playouts 40 --seed 2001 --workers 1 --json
"""

from __future__ import annotations

import argparse
import sys

from bito import cli
from bito.bots import claims


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--judge-worlds", type=int, default=claims.JUDGE_WORLDS,
                   help=f"worlds a doubt is played out in (default {claims.JUDGE_WORLDS})")
    p.add_argument("--true-single", type=float, default=claims.TRUE_SINGLE,
                   help=f"how often a one-card claim is dealt true (default "
                        f"{claims.TRUE_SINGLE})")
    p.add_argument("arena", nargs=argparse.REMAINDER, help="-- then bito arena's options")
    a = p.parse_args(argv)
    if a.judge_worlds < 1:
        p.error("--judge-worlds must be at least 1")
    if not 0.0 <= a.true_single <= 1.0:
        p.error("--true-single must be between 0 and 1")
    rest = a.arena[1:] if a.arena[:1] == ["--"] else a.arena
    # Module constants (Final to the type checker), read at call time by the judge.
    setattr(claims, "JUDGE_WORLDS", a.judge_worlds)  # noqa: B010
    setattr(claims, "TRUE_SINGLE", a.true_single)  # noqa: B010
    return cli.main(["arena", *rest])


if __name__ == "__main__":
    sys.exit(main())
