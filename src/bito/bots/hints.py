"""Hints for a human player: what the strong bot would play, and its win chance per move.

``bito play --hint`` shows this before each of the human's moves. The chance is the search's
mean score for the move: the share of sampled worlds (finished by quick playouts) in which the
player does not end up the fool, a draw counting half in a two-player game; once a two-player
endgame is solved exactly it is 100 %, 50 % or 0 % and marked *proven*. When the search played
a cheaper move than the best mean because the sample could not tell them apart
(:mod:`bito.bots.prudence`), a second line says so and what the cheaper move keeps.
"""

from __future__ import annotations

import math

from bito.bots.levels import make_level
from bito.bots.prudence import keeps_text
from bito.bots.search import MoveEstimate, SearchBot
from bito.games.durak import DurakView


class Hinter:
    """Asks a strong search bot about the human's position (``think_ms`` per hint)."""

    def __init__(self, seed: int | None = None, think_ms: float | None = None,
                 shown: int = 3) -> None:
        bot = make_level("strong", seed, think_ms=think_ms)
        assert isinstance(bot, SearchBot)
        self.bot = bot
        self.shown = shown

    def estimates(self, view: DurakView) -> list[MoveEstimate]:
        return self.bot.analyse(view)

    def __call__(self, view: DurakView) -> str:
        """One or two lines for the terminal."""
        if not view.legal:
            return ""
        if len(view.legal) == 1:
            return f"Hint: {view.legal[0].pretty()} (the only move)."
        estimates = self.estimates(view)
        text = hint_text(estimates, self.shown)
        why = tie_reason(estimates, self.bot.replaced, view)
        return f"{text}\n{why}" if why else text


def _chance(e: MoveEstimate) -> str:
    if e.proven is not None:
        return {1: "wins (proven)", 0: "draws (proven)", -1: "loses (proven)"}[e.proven]
    if math.isnan(e.score):
        return "?"
    return f"{100 * e.score:.0f}% not the fool"


def tie_reason(estimates: list[MoveEstimate], replaced: MoveEstimate | None,
               view: DurakView) -> str:
    """Why the hint is not the move with the best mean, when the tie-break chose it:
    ``cover 6♣ with 6♥ rather than A♥: the same chance within the sample, keeps a trump``."""
    if replaced is None or not estimates:
        return ""
    best = estimates[0]
    return (f"Why: {best.action.pretty()} rather than {replaced.action.pretty()}: the same "
            f"chance within the sample, {keeps_text(best.action, replaced.action, view)}.")


def hint_text(estimates: list[MoveEstimate], shown: int = 3) -> str:
    """``Hint: cover 6♥ with 10♥ (71% not the fool); then take (40%), ...``"""
    best = estimates[0]
    head = f"Hint: {best.action.pretty()} ({best.action}) — {_chance(best)}"
    others = [f"{e.action} {_chance(e)}" for e in estimates[1:shown]]
    samples = best.samples
    tail = f"; others: {', '.join(others)}" if others else ""
    basis = f" [{samples} sampled world{'' if samples == 1 else 's'}]" if samples else ""
    return head + tail + basis
