#!/usr/bin/env python
"""Write the golden perft files ``tests/golden/perft_<variant>.txt``.

perft(start, d) is the number of leaf nodes of the full legal-action tree d actions deep (as in
chess): every legal action of ``start`` is applied, recursively, and the positions reached
after exactly d actions are counted. A finished game has no actions, so a line that ends the
game before depth d contributes nothing.

The files are a **regression guard**: they record what the engine computed when they were
generated, so any change to move generation or to the transitions shows up as a diff. They
are not an independent derivation of the rules; regenerate them (and review the diff) only
when a rule change is intended::

    python tools/make_perft.py            # rewrite the files
    python tools/make_perft.py --check    # compare without writing (exit 1 on a difference)

``tests/test_perft.py`` recomputes every line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bito.games.durak import DurakState, new_game
from bito.notation import parse_position

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"
DEPTH = 4

#: (players, seed) deals per variant, and a couple of fixed positions.
SEEDS = ((2, 1), (2, 2), (2, 3), (3, 4), (3, 5), (3, 6))
POSITIONS = {
    "simple": (
        "simple players=2 trump=6h stock=6hAc9d hands=7c7d7s9s9hKd/8c8dJsQsKsAs attacker=0",
        "simple players=3 trump=6h stock=- hands=AcKc/9s8hKd7h/QdJd table=7s,7d attacker=0",
    ),
    "podkidnoy": (
        "podkidnoy players=3 trump=6h stock=6hAcAd hands=7c7dJc8s/9sTdJdQdKs/7h8h8dKc "
        "table=7s attacker=0",
        "podkidnoy players=2 trump=6h stock=- hands=7h8hJhAcAs/9c9s9dTcTsTdJc "
        "table=7c,7s taking=1 attacker=0",
    ),
    "perevodnoy": (
        "perevodnoy players=3 trump=6h stock=- hands=7dTcTs8hAd/7hJcQc9c/7cTh9hAsKs table=7s "
        "attacker=0",
        "perevodnoy players=2 trump=6h stock=6hAs hands=7c7dKh/7hJcQc9cTs table=7s attacker=0",
    ),
}
HEADER = """\
# bito perft golden file for {variant}.
# REGRESSION GUARD, generated once by tools/make_perft.py: the counts are what the engine
# computed when this file was written, not results derived independently from the rules.
# Regenerate only for an intended rule change, and review the diff.
# perft(d) = leaf nodes of the legal-action tree exactly d actions deep (a finished game has
# no actions, so it adds nothing below itself).
# Line format: <start> ; <perft(1)> <perft(2)> ... <perft({depth})>
#   seed <players> <seed>   = new_game("{variant}", players, seed)
#   position <text>         = parse_position(text)
"""


def perft(state: DurakState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def counts(state: DurakState, depth: int = DEPTH) -> list[int]:
    return [perft(state, d) for d in range(1, depth + 1)]


def render(variant: str) -> str:
    lines = [HEADER.format(variant=variant, depth=DEPTH)]
    for players, seed in SEEDS:
        found = counts(new_game(variant, players=players, seed=seed))
        lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
    for text in POSITIONS[variant]:
        found = counts(parse_position(text))
        lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    status = 0
    for variant in POSITIONS:
        path = GOLDEN / f"perft_{variant}.txt"
        text = render(variant)
        if args.check:
            if not path.exists() or path.read_text() != text:
                print(f"{path}: differs", file=sys.stderr)
                status = 1
        else:
            path.write_text(text)
            print(f"wrote {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
