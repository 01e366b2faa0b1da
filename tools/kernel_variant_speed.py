"""Playouts per second of the ``strong`` search, Python engine against the kernel, per variant
(issue 20 item 4; a benchmark, not a test).

Positions come from games the heuristic plays against itself (every decision with at least two
legal moves, skipping the two-player endgames the exact solver settles without playouts). At
each position the ``strong`` level analyses the view twice at a fixed playout budget, once with
the kernel switched off (``BITO_KERNEL=off``: the reference engine, what main does for a variant
the kernel refuses) and once with it on, alternating which goes first, so both engines meet the
same positions under the same load. Prints one JSON line per variant. The level runs with the
search's default playout models (``SearchBot.attack_model``, ``defence_model``, ``margin``),
which each line reports as ``models``.

    python tools/kernel_variant_speed.py --variants japanese podkidnoy+no_trump --positions 30
"""

from __future__ import annotations

import argparse
import json
import os
import time
from typing import Any

from bito import kernel
from bito.bots import make_bot
from bito.bots.levels import make_level
from bito.games import new_game


def _engine(on: bool) -> None:
    """Switch the kernel on or off for this process (``kernel.available`` is cached)."""
    if on:
        os.environ.pop("BITO_KERNEL", None)
    else:
        os.environ["BITO_KERNEL"] = "off"
    kernel.available.cache_clear()


def positions(variant: str, players: int, count: int, seed: int) -> list[Any]:
    """Views of the seat to act, from heuristic self-play, with a choice to make and not a
    two-player endgame with an empty stock (those the solver settles)."""
    out: list[Any] = []
    g = 0
    while len(out) < count:
        state = new_game(variant, players, seed=seed + g)
        bots = [make_bot("heuristic", seed + g * 10 + s) for s in range(players)]
        k = 0
        while not state.is_over and len(out) < count:
            seat = state.to_act
            view = state.view(seat)
            if len(view.legal) > 1 and (players > 2 or view.stock_count > 0) and k % 3 == 0:
                out.append(view)
            k += 1
            state = state.apply(bots[seat].choose(view))
        g += 1
    return out


EARLY_IN_PLAY = 63
"""Cards in play above which a position counts as early in :func:`measure`'s split: a
two-deck game (#21, 72 cards) fits a one-word kernel card set only from here on."""


def measure(variant: str, players: int, count: int, playouts: int, seed: int) -> dict[str, Any]:
    views = positions(variant, players, count, seed)
    # (engine on, early position) -> seconds and playouts
    spent: dict[tuple[bool, bool], float] = {}
    done: dict[tuple[bool, bool], int] = {}
    on_kernel = 0
    models: dict[str, Any] = {}
    load = [os.getloadavg()[0]]
    for i, view in enumerate(views):
        deck = len(view.rules.deck()) if hasattr(view.rules, "deck") else 0
        early = deck - view.discard_count > EARLY_IN_PLAY
        for on in ((False, True) if i % 2 == 0 else (True, False)):
            _engine(on)
            bot = make_level("strong", seed + i, think_ms=0.0, playouts=playouts)
            models = {"attack": getattr(bot, "attack_model", None),
                      "defence": getattr(bot, "defence_model", None),
                      "margin": getattr(bot, "margin", None)}
            t0 = time.perf_counter()
            bot.choose(view)
            spent[on, early] = spent.get((on, early), 0.0) + time.perf_counter() - t0
            # playouts = worlds times moves (the samples of every move's estimate)
            done[on, early] = done.get((on, early), 0) + sum(
                getattr(e, "samples", 0) for e in getattr(bot, "last", ()))
            if on:
                on_kernel += kernel.supports(view.rules, players)
    load.append(os.getloadavg()[0])
    _engine(True)

    def rate(on: bool, phases: tuple[bool, ...]) -> float:
        seconds = sum(spent.get((on, e), 0.0) for e in phases)
        return sum(done.get((on, e), 0) for e in phases) / seconds if seconds else 0.0

    python = rate(False, (False, True))
    compiled = rate(True, (False, True))
    out: dict[str, Any] = {
        "variant": variant, "players": players, "positions": len(views),
        "playouts_per_decision": playouts, "kernel_plays": on_kernel == len(views),
        "python_playouts_per_s": round(python), "kernel_playouts_per_s": round(compiled),
        "speedup": round(compiled / python, 1), "models": models, "load": load}
    if any(early for _, early in spent):
        # more than 63 cards in play (two decks' first bouts) against the rest
        for name, early in (("early", True), ("later", False)):
            py, ke = rate(False, (early,)), rate(True, (early,))
            out[name] = {"positions": sum(1 for v in views if (len(v.rules.deck())
                                                                - v.discard_count
                                                                > EARLY_IN_PLAY) == early),
                         "python_playouts_per_s": round(py), "kernel_playouts_per_s": round(ke),
                         "speedup": round(ke / py, 1) if py else None,
                         "kernel_seconds": round(spent.get((True, early), 0.0), 2)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="+", default=["podkidnoy", "japanese"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kernel.available()
    from bito.bots.rollouts import load_kernel_greedy

    load_kernel_greedy()  # the compiled playouts are loaded before the clock starts
    for variant in args.variants:
        print(json.dumps(measure(variant, args.players, args.positions, args.playouts,
                                 args.seed)), flush=True)


if __name__ == "__main__":
    main()
