#!/usr/bin/env python
"""Which Durak-family catalogue entries the compiled kernel takes over, and why not the rest.

For every game and house rule of the Durak family (a house rule on its default base, with its
parameter's default value), at the smallest seat count the rules allow, a fresh deal is asked
of :func:`bito.kernel.supports_state` (or, for two decks, of
:func:`bito.kernel.supports_two_deck_start`). A refused entry is listed with the rule facts
the kernel refuses (:func:`bito.rules.kernel_rules.kernel_refuses`: options and values, never
catalogue ids), or the deal fact that stops it.

    python tools/kernel_coverage.py [--json]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bito.games.durak import new_game
from bito.kernel import supports_state, supports_two_deck_start
from bito.rules.kernel_rules import kernel_refuses
from bito.rules.options import OPTION_SPECS
from bito.rules.registry import all_variants, rules_for


def _spec(v: Any) -> str:
    if v.kind == "game":
        return str(v.id)
    base = v.default_base or (v.applies_to[0] if v.applies_to else "podkidnoy")
    if v.parameter and v.parameter_default is None:  # a house rule with no default value
        choices = OPTION_SPECS[v.parameter].choices or ()
        return f"{base}+{v.id}={choices[0]}"
    return f"{base}+{v.id}"


def coverage() -> list[dict[str, Any]]:
    rows = []
    for v in sorted(all_variants(), key=lambda v: v.number):
        if v.family != "durak":
            continue
        spec = _spec(v)
        row: dict[str, Any] = {"number": v.number, "id": v.id, "spec": spec}
        try:
            rules = rules_for(spec)
            players = rules.players_min
            state = new_game(rules, players, seed=1)
        except Exception as e:  # a house rule that needs a value or another base
            row.update(kernel=False, why=f"not built: {e}")
            rows.append(row)
            continue
        ok = supports_state(state) or supports_two_deck_start(state)
        row["players"] = players
        row["kernel"] = ok
        if not ok:
            refused = kernel_refuses(rules)
            trump = state.deal.trump
            facts = [f for f, bad in (("several trump suits", len(trump.suits) > 1),
                                      ("a high joker", trump.high_joker >= 0),
                                      ("wild jokers", trump.jokers_wild),
                                      ("a closed deal", state.closed)) if bad]
            row["why"] = ", ".join(refused + facts) or "seat count"
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = coverage()
    if args.json:
        print(json.dumps(rows))
        return
    on = [r for r in rows if r["kernel"]]
    print(f"{len(on)} of {len(rows)} Durak-family entries on the kernel:")
    print("  " + " ".join(f"#{r['number']}" for r in on))
    print("refused:")
    for r in rows:
        if not r["kernel"]:
            print(f"  #{r['number']} {r['id']}: {r['why']}")


if __name__ == "__main__":
    main()
