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

``tests/perft/test_base_games_perft.py`` recomputes every line of the three base games, and
``tests/perft/test_decks_trumps_jokers_perft.py`` those of the Variants I files
``perft_v1_<id>.txt`` (issue 3:
one file per catalogue id the engine plays, named by the id, the spec it was counted with in
the header). ``--only ID`` rewrites just the files whose id is listed (comma-separated), so
adding a variant does not touch the goldens of the others.
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
#: Variants I (issue 3): catalogue id -> (spec, positions that meet the id's special rule). Every
#: file also counts the seeded deals of SEEDS_V1. Positions leave a few cards in the stock or
#: in hand so the tree runs past the rule being exercised.
SEEDS_V1 = ((2, 1), (2, 2), (3, 3), (4, 4))
VARIANTS1: dict[str, tuple[str, tuple[str, ...]]] = {
    "japanese": ("japanese", (
        "japanese players=2 stock=9c8h hands=7s7cKd/8s9sAdTc6d table=- attacker=0",
        "japanese players=3 stock=- hands=9hJs/6d8sAsAd8c6s/Qs table=7s,7c attacker=0",
    )),
    "japanese_revealed_trump": ("japanese_revealed_trump", (
        "japanese_revealed_trump players=2 trump=6h stock=6hKc hands=9d7s/6d8sAsAh7h "
        "table=7c attacker=0",
    )),
    "japanese_diamond_indicator": ("japanese_diamond_indicator", (
        "japanese_diamond_indicator players=2 trump=9d stock=9dQc hands=7s7cKd/8s9sAdTc6d "
        "table=- attacker=0",
    )),
    "no_trump": ("perevodnoy+no_trump", (
        "perevodnoy+no_trump players=3 stock=Kh hands=9h8c/7d8sAd/6c6d6h table=7s attacker=0",
    )),
    "own_trumps": ("podkidnoy+own_trumps", (
        "podkidnoy+own_trumps players=2 stock=- hands=9c7h8d/8h6h7sAd table=7d attacker=0 "
        "own=hs",
    )),
    "own_trumps_binding": ("podkidnoy+own_trumps_binding", (
        "podkidnoy+own_trumps_binding players=3 stock=- hands=9c7d/8h6h7sAdKc/6cJc "
        "table=7h,7c attacker=0 own=hsc",
    )),
    "suitless": ("podkidnoy+suitless", (
        "podkidnoy+suitless players=2 trump=6h stock=- hands=9c8d/6d8sAsAh8c7d6h table=7s,7h "
        "attacker=0",
    )),
    "secret_trump": ("podkidnoy+secret_trump", (
        "podkidnoy+secret_trump players=2 trump=Jc stock=Jc hands=7d8d6h/9dAs8cQs attacker=0 "
        "secret=7h",
    )),
    "royal": ("podkidnoy+royal", (
        "podkidnoy+royal players=2 trump=6d stock=- hands=9c6c/AsKs7sAdAh7d table=6s "
        "attacker=0",
        "podkidnoy+royal players=2 trump=6d stock=- hands=9cAc/6s6cKs7d6d table=As attacker=0",
    )),
    "ace_only_by_trump": ("podkidnoy+royal+ace_only_by_trump", (
        "podkidnoy+royal+ace_only_by_trump players=2 trump=6d stock=- hands=9cAc/6s6cKs7d6d "
        "table=As attacker=0",
    )),
    "big_fool": ("big_fool", (
        "big_fool players=2 trump=6h stock=- hands=7s'8s9d/8s'Ks9sQd table=7s attacker=0",
    )),
    "big_fool_twin_block": ("big_fool_twin_block", (
        "big_fool_twin_block players=3 trump=6h stock=- hands=7c9c/7s'8sTdKcQc/9sJd "
        "table=7s,7d attacker=0",
    )),
    "albanian": ("podkidnoy+albanian", ()),
    "joker_gift": ("podkidnoy+joker_gift", (
        "podkidnoy+joker_gift players=3 trump=2h stock=2hKd hands=BJ5c6c/RJ8s9sTsJs/3c4c5d6d "
        "attacker=0",
        "podkidnoy+joker_gift players=2 trump=2h stock=2hKd hands=RJBJ5c6c7d/8s9sTsJsQsKsAs "
        "attacker=0",
    )),
    "joker_gift_block_combo": ("podkidnoy+joker_gift_block_combo", (
        "podkidnoy+joker_gift_block_combo players=2 trump=2h stock=- "
        "hands=BJ7c7d7hJd9s/8s9hTs attacker=0",
    )),
    "double_joker": ("podkidnoy+double_joker", (
        "podkidnoy+double_joker players=2 trump=2h stock=- hands=9cRJ/BJ3hKsAd table=As "
        "attacker=0",
        "podkidnoy+double_joker players=2 trump=BJ stock=BJ5d hands=9d/Ks3cRJAh table=2c,Ad "
        "attacker=0",
    )),
    "double_joker_color_only": ("podkidnoy+double_joker_color_only", (
        "podkidnoy+double_joker_color_only players=2 trump=2h stock=- hands=9cBJ/3h3sAsRJ "
        "table=Ah attacker=0",
    )),
    "single_joker": ("podkidnoy+single_joker", (
        "podkidnoy+single_joker players=2 trump=2h stock=- hands=9cRJ/AhKh2s3c attacker=0",
    )),
    "novosibirsk_two_joker": ("podkidnoy+novosibirsk_two_joker", (
        "podkidnoy+novosibirsk_two_joker players=2 trump=RJ stock=RJ3c hands=BJ2h9c/AhKd2s "
        "attacker=0",
    )),
    "wild_58": ("podkidnoy+wild_58", (
        "podkidnoy+wild_58 players=3 trump=2h stock=- hands=7c9cKd/W1RJTdKs8s/9sJdQd "
        "table=7s,7d attacker=0",
    )),
    "estonian": ("estonian", (
        "estonian players=3 trump=5h stock=- hands=9h7h/7s8s9d/QhKcKd table=7c<8c,7d "
        "attacker=0",
        "estonian players=2 trump=5h stock=- hands=8s8d8c9h/9s9dRJ2c table=8h<Th attacker=0",
    )),
    "capital": ("capital", (
        "capital players=2 trump=5h stock=- hands=9hMC/4c4hRJAhKs attacker=0",
    )),
}
V1_DEPTH = 4
#: Variants II, teams, dummies and hidden cards (issue 4, #53-59): id -> (spec, seat counts of
#: the seeded deals, positions that meet the id's special rule). Files ``perft_v2t_<id>.txt``.
VARIANTS2_TEAMS: dict[str, tuple[str, tuple[int, ...], tuple[str, ...]]] = {
    "pair_fool": ("pair_fool", (4,), (
        "pair_fool players=4 trump=6h stock=- hands=8s7cAc/-/7d9c/QhQs table=7s attacker=3 "
        "defender=0 out=1",
    )),
    "double_fool": ("double_fool", (4, 6), (
        "double_fool players=4 trump=6h stock=6hKh hands=8s7cAc/9s/7d9c/QhQs table=7s "
        "attacker=3 defender=0",
    )),
    "team_fool": ("team_fool", (4, 6), (
        "team_fool players=4 trump=6h stock=- hands=9dJc/TcQc/AdKd/8s table=7s attacker=2 "
        "defender=3",
    )),
    "tossing_dummy": ("podkidnoy+tossing_dummy", (2, 3), (
        "podkidnoy+tossing_dummy players=3 trump=6h stock=- hands=Qd8c/8sKcAc/7hTd "
        "dummy=7c9d controller=0 table=7s attacker=0",
    )),
    # #57: the dummy (seat 2, played by seat 0) defends, then is passed over as a defender.
    "playing_dummy": ("podkidnoy+playing_dummy", (3, 4), (
        "podkidnoy+playing_dummy players=3 trump=6h stock=- hands=Qd8c/7c9dKc/8sTd "
        "controller=0 table=7s attacker=1 defender=2",
        "podkidnoy+playing_dummy+dummy.defends=false players=3 trump=6h stock=- "
        "hands=Qd8c/7c9dKc/8sTd7d controller=0 table=7s attacker=0 defender=1",
    )),
    "believe_not_believe": ("believe_not_believe", (2, 3), (
        "believe_not_believe players=2 trump=6d stock=- hands=9h/7cKh table=Th attacker=0",
        "believe_not_believe players=3 trump=6d stock=6dAd hands=9hQh/7cKh8s/8c8d "
        "table=Jc<As,Js<Kc,Th<Ah attacker=0",
    )),
    "blind_face_out": ("podkidnoy+blind_face_out", (2, 3), (
        "podkidnoy+blind_face_out players=2 trump=6h stock=- hands=7h9c/8sKs table=7s "
        "attacker=0",
        "perevodnoy+blind_face_out players=3 trump=6h stock=6hAs hands=7h8d/9c7c/QdKdAd "
        "table=7s attacker=0",
    )),
}

#: Variants II (issue 4), leads, the simple family and transfers: catalogue id -> (spec,
#: positions that meet the id's special rule); files ``perft_v2_lead_<id>.txt``, counted like
#: the Variants I files (SEEDS_V1, V1_DEPTH).
VARIANTS2_LEAD: dict[str, tuple[str, tuple[str, ...]]] = {
    "simple_classic_5card": ("simple_classic_5card", (
        "simple_classic_5card players=2 trump=6h stock=6hAc hands=7c7d9sKd/8c8dJsQsKs "
        "attacker=0",
    )),
    "simple_partial_defense": ("simple_partial_defense", (
        "simple_partial_defense players=3 trump=6h stock=- hands=7c7d9sKc/8c9hJsQs/AsAd "
        "attacker=0",
    )),
    "with_pairs": ("with_pairs", (
        "with_pairs players=2 trump=6h stock=6hAc hands=7c7d9s9hKd/8c8dJsQsKs attacker=0",
    )),
    "pairs_only": ("pairs_only", (
        "pairs_only players=3 trump=6h stock=6hAcAd hands=7c8d9s/8c8hJs/9cQcKs attacker=0",
        "pairs_only players=2 trump=6h stock=6hAcKs7h hands=7c8d9s/8c9hJs attacker=0",
    )),
    "from_groups": ("from_groups", (
        "from_groups players=2 trump=6h stock=6hAc hands=7c7d7h7s9s/8c8dJsQsKs attacker=0",
    )),
    "perevodnoy_refusal": ("perevodnoy_refusal", (
        "perevodnoy_refusal players=2 trump=6h stock=- hands=7c/7d8c9h attacker=0",
    )),
    "transfer_2": ("transfer_2", (
        "transfer_2 players=2 trump=6h stock=- hands=TsJcAcAdAs/JsJdKd attacker=0",
    )),
    "transfer_3": ("transfer_3", (
        "transfer_3 players=3 trump=6h stock=- hands=7c9dAs/7dKc/7h8h9c attacker=0",
    )),
    "transfer_no_throw": ("transfer_no_throw", (
        "transfer_no_throw players=3 trump=6h stock=- hands=7c7dKd/7s7hJc/8cJsQc attacker=0",
    )),
    "lead_strongest": ("podkidnoy+lead_strongest", (
        "podkidnoy+lead_strongest players=2 trump=6h stock=6hAc hands=7cKsKd/9cTdJsQsAs "
        "attacker=0",
    )),
    "treshka": ("podkidnoy+treshka", (
        "podkidnoy+treshka players=2 trump=6h stock=6hAc hands=7c9dKsJh/9cTdJsQsAs "
        "attacker=0",
    )),
    "no_skip_after_take": ("podkidnoy+no_skip_after_take", (
        "podkidnoy+no_skip_after_take players=3 trump=6h stock=6hAd hands=7c9c/8dTs/JcQc "
        "attacker=0",
    )),
}

#: Variants II, attack and defence mechanics (#39-45, #48-51, #83): files
#: ``perft_v2_<id>.txt`` in the Variants I format, each with positions that reach its rule.
_STUCK = ("{spec} players=2 trump=6h stock=6hKc7s hands=7c8c9c/7d8s9d table=Qc attacker=0 "
          "defender=1")
_POKER = ("{spec} players=2 trump=6h stock=6h7h8hKcAc hands=8c9cTc/7d8s9dJs table=Qc "
          "attacker=0 defender=1")
_ARMENIAN = "{spec} players=2 trump=6h stock=6hKd7s hands=7c7dAs/8c8s9c9d attacker=0"
_V2_ATTACK_POSITIONS: dict[str, tuple[str, ...]] = {
    "second_try": (_STUCK, _STUCK.replace("table=Qc", "table=Qc,Qs").replace("7d8s9d",
                                                                           "7d8s9d6c")),
    "armenian": (_ARMENIAN, _ARMENIAN.replace("stock=6hKd7s", "stock=6h")),
    "armenian_unlimited": ("{spec} players=2 trump=6h stock=6hKd7s hands=7dAs/8s9c9d "
                           "table=7c<8c attacker=0",),
    "poker": (_POKER,),
    "armenian_second_try": (_STUCK, _ARMENIAN),
    "armenian_poker": (_POKER, _ARMENIAN),
    "poker_second_try": (_POKER, _STUCK),
    "armenian_poker_second_try": (_POKER, _ARMENIAN),
    "self_throw": ("{spec} players=2 trump=6h stock=- hands=7cJs/8c7d9d table=7s<Ks "
                   "attacker=0 defender=1",),
    "counter_throw": ("{spec} players=2 trump=6d stock=- hands=6c7cJsQh/TcTsAh table=9c "
                      "attacker=0 defender=1 owned=9c/-",
                      "{spec} players=3 trump=6d stock=- hands=8h8s/9c9sAh/Kh7dJs "
                      "table=7h<9h,7c attacker=0 defender=1 owned=7h/-/7c"),
    "cunning": ("{spec} players=2 trump=6d stock=- hands=QcKcJh8h/7s7h9d table=Tc "
                "attacker=0 defender=1 owned=Tc/- taking=1",),
    "impudent": ("{spec} players=2 trump=6d stock=- hands=QcTsAs8h/7s7h9d table=Tc "
                 "attacker=0 defender=1 owned=Tc/- taking=1",),
}
_V2_ATTACK_SPECS = {"self_throw": "podkidnoy+self_throw", "cunning": "podkidnoy+cunning",
                    "impudent": "podkidnoy+impudent", "armenian_unlimited":
                    "podkidnoy+armenian_unlimited"}
VARIANTS2_ATTACK: dict[str, tuple[str, tuple[str, ...]]] = {
    vid: (spec, tuple(p.format(spec=spec) for p in positions))
    for vid, positions in _V2_ATTACK_POSITIONS.items()
    for spec in (_V2_ATTACK_SPECS.get(vid, f"perevodnoy+{vid}" if vid == "counter_throw"
                                      else f"podkidnoy+{vid}"),)
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


HEADER_V1 = """\
# bito perft golden file for Variants I id {vid} (issue 3), counted with the spec below.
# REGRESSION GUARD, generated once by tools/make_perft.py: the counts are what the engine
# computed when this file was written, not results derived independently from the rules
# (tests/perft/test_decks_trumps_jokers_perft.py adds hand-counted trees for each special rule).
# Regenerate only for an intended rule change, and review the diff.
# perft(d) = leaf nodes of the legal-action tree exactly d actions deep.
# Line format: <start> ; <perft(1)> ... <perft({depth})>
#   seed <players> <seed>   = new_game(spec, players, seed)
#   position <text>         = parse_position(text)
spec {spec}
"""


def render_v1(vid: str) -> str:
    """The golden file of one Variants I id."""
    spec, positions = VARIANTS1[vid]
    lines = [HEADER_V1.format(vid=vid, spec=spec, depth=V1_DEPTH)]
    for players, seed in SEEDS_V1:
        found = counts(new_game(spec, players=players, seed=seed), V1_DEPTH)
        lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
    for text in positions:
        found = counts(parse_position(text), V1_DEPTH)
        lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
    return "".join(lines)


def render_v2_teams(vid: str) -> str:
    spec, counts_, positions = VARIANTS2_TEAMS[vid]
    lines = [HEADER_V1.format(vid=vid, spec=spec, depth=V1_DEPTH).replace(
        "Variants I id", "Variants II id").replace("(issue 3)", "(issue 4)").replace(
        "test_decks_trumps_jokers_perft.py", "test_teams_dummies_and_believe_perft.py")]
    for players in counts_:
        for seed in (1, 2):
            found = counts(new_game(spec, players=players, seed=seed), V1_DEPTH)
            lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
    for text in positions:
        found = counts(parse_position(text), V1_DEPTH)
        lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
    return "".join(lines)


def render_v2_lead(vid: str) -> str:
    """The golden file of one Variants II id of the lead group."""
    spec, positions = VARIANTS2_LEAD[vid]
    text = render_v1_like(vid, spec, positions)
    return (text.replace("Variants I id", "Variants II id").replace("(issue 3)", "(issue 4)")
            .replace("test_decks_trumps_jokers_perft.py", "test_leads_and_transfers_perft.py"))


def render_v1_like(vid: str, spec: str, positions: tuple[str, ...]) -> str:
    lines = [HEADER_V1.format(vid=vid, spec=spec, depth=V1_DEPTH)]
    for players, seed in SEEDS_V1:
        found = counts(new_game(spec, players=players, seed=seed), V1_DEPTH)
        lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
    for text in positions:
        found = counts(parse_position(text), V1_DEPTH)
        lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
    return "".join(lines)


HEADER_V2 = HEADER_V1.replace("Variants I id {vid} (issue 3)", "Variants II id {vid} (issue 4)"
                               ).replace("tests/perft/test_decks_trumps_jokers_perft.py",
                                         "tests/perft/test_attack_and_defence_perft.py")


def render_v2_attack(vid: str) -> str:
    """The golden file of one Variants II attack-and-defence id."""
    spec, positions = VARIANTS2_ATTACK[vid]
    lines = [HEADER_V2.format(vid=vid, spec=spec, depth=V1_DEPTH)]
    for players, seed in SEEDS_V1:
        found = counts(new_game(spec, players=players, seed=seed), V1_DEPTH)
        lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
    for text in positions:
        found = counts(parse_position(text), V1_DEPTH)
        lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
    return "".join(lines)


def playable(spec: str) -> bool:
    """Whether the engine plays ``spec`` today (ids still held back get no golden file)."""
    from bito.rules import resolve
    from bito.rules.options import pending_options

    return not pending_options(resolve(spec).rules)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    parser.add_argument("--only", default="", help="only these variants or Variants I ids")
    args = parser.parse_args(argv)
    only = {x.strip() for x in args.only.split(",") if x.strip()}
    GOLDEN.mkdir(parents=True, exist_ok=True)
    status = 0
    jobs = [(GOLDEN / f"perft_{v}.txt", render, v) for v in POSITIONS]
    jobs += [(GOLDEN / f"perft_v1_{v}.txt", render_v1, v) for v in VARIANTS1
             if playable(VARIANTS1[v][0])]
    jobs += [(GOLDEN / f"perft_v2t_{v}.txt", render_v2_teams, v) for v in VARIANTS2_TEAMS]
    jobs += [(GOLDEN / f"perft_v2_lead_{v}.txt", render_v2_lead, v) for v in VARIANTS2_LEAD]
    jobs += [(GOLDEN / f"perft_v2_{v}.txt", render_v2_attack, v) for v in VARIANTS2_ATTACK]
    from perft_v2_stock import DEPTH as V2_DEPTH
    from perft_v2_stock import SEEDS as V2_SEEDS
    from perft_v2_stock import STOCK

    def render_v2(vid: str) -> str:
        spec, positions = STOCK[vid]
        lines = [HEADER_V1.format(vid=vid, spec=spec, depth=V2_DEPTH).replace(
            "Variants I id", "Variants II id").replace("(issue 3)", "(issue 4)")]
        for players, seed in V2_SEEDS:
            found = counts(new_game(spec, players=players, seed=seed), V2_DEPTH)
            lines.append(f"seed {players} {seed} ; {' '.join(map(str, found))}\n")
        for text in positions:
            found = counts(parse_position(text), V2_DEPTH)
            lines.append(f"position {text} ; {' '.join(map(str, found))}\n")
        return "".join(lines)

    jobs += [(GOLDEN / f"perft_v2_{v}.txt", render_v2, v) for v in STOCK]
    for path, make, variant in jobs:
        if only and variant not in only:
            continue
        text = make(variant)
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
