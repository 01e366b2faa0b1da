"""Hints for a human player: what the strong bot would play, and its win chance per move.

``bito play --hint`` shows this before each of the human's moves. The chance is the search's
mean score for the move: the share of sampled worlds (finished by quick playouts) in which the
player does not end up the fool, a draw counting half in a two-player game; once a two-player
endgame is solved exactly it is 100 %, 50 % or 0 % and marked *proven*. When the search played
a cheaper move than the best mean because the sample could not tell them apart
(:mod:`bito.bots.prudence`), a second line says so in a player's words: the gap is chance over
that many deals, and what the cheaper move keeps. A move shown with a better figure than the
recommendation always gets such a line, or else it is recommended instead.
"""

from __future__ import annotations

import math

from bito.bots.levels import make_level
from bito.bots.prudence import keeps_text
from bito.bots.search import MoveEstimate, SearchBot
from bito.games.durak import DurakView


class Hinter:
    """Asks a strong search bot about the human's position: ``think_ms`` per hint, or a
    budget of ``playouts`` (with no clock unless ``think_ms`` is given too)."""

    def __init__(self, seed: int | None = None, think_ms: float | None = None,
                 shown: int = 3, playouts: int | None = None) -> None:
        if playouts is not None and think_ms is None:
            think_ms = 0.0  # the budget alone decides: the same hint on any machine
        bot = make_level("strong", seed, think_ms=think_ms, playouts=playouts)
        assert isinstance(bot, SearchBot)
        self.bot: SearchBot = bot
        self.shown: int = shown

    def estimates(self, view: DurakView) -> list[MoveEstimate]:
        return self.bot.analyse(view)

    def __call__(self, view: DurakView) -> str:
        """One line for the terminal, and one more for each move shown with a better figure
        than the one recommended, saying why it is not played."""
        if not view.legal:
            return ""
        if len(view.legal) == 1:
            return f"Hint: {view.legal[0].pretty()} (the only move)."
        order, reasons = recommendation(self.estimates(view), self.bot.replaced, view,
                                        self.shown)
        return "\n".join([hint_text(order, self.shown), *reasons])


def _chance(e: MoveEstimate) -> str:
    if e.proven is not None:
        return {1: "wins (proven)", 0: "draws (proven)", -1: "loses (proven)"}[e.proven]
    if math.isnan(e.score):
        return "?"
    return f"{_percent(e)}% not the fool"


def _percent(e: MoveEstimate) -> int:
    """The figure the player reads (``42%``): comparisons that must hold for him use it."""
    return round(100 * e.score)


def _estimated(e: MoveEstimate) -> bool:
    """Whether the move has a sampled figure (not a solved value, not a believe/doubt call)."""
    return e.proven is None and not math.isnan(e.score)


#: What the cheaper of two tied moves keeps (:func:`bito.bots.prudence.keeps_text`), as the
#: end of the hint's sentence.
_KEEPS = {"no need to take": "there is no need to take",
          "keeps the card": "you keep the card",
          "keeps a trump": "you keep a trump",
          "keeps the higher trump": "you keep the higher trump",
          "keeps the higher card": "you keep the higher card",
          "sheds more cards at once": "you shed more cards at once"}


def _deals(n: int) -> str:
    return f"{n} sampled deal" if n == 1 else f"{n} sampled deals"


def why_not(played: MoveEstimate, other: MoveEstimate, replaced: MoveEstimate | None,
            view: DurakView) -> str:
    """Why ``played`` is recommended though ``other`` shows a better figure, in words a player
    follows; "" when there is no such reason (the hint then recommends ``other``).

    Two reasons hold: the sample cannot tell the two apart and ``played`` gives up less (the
    tie-break of :mod:`bito.bots.prudence`), or ``other`` was set aside early as clearly worse,
    so its figure is from its first few deals only."""
    tied = other is replaced or (other.tied and played.tied)
    if tied and played.cost < other.cost:
        keeps = keeps_text(played.action, other.action, view)
        return (f"Why: {played.action.pretty()} rather than {other.action.pretty()} "
                f"({_percent(other)}% against {_percent(played)}%): over "
                f"{_deals(played.samples)} a gap this small is chance, and "
                f"{_KEEPS.get(keeps, keeps)}.")
    if other.samples < played.samples:
        return (f"Why not {other.action.pretty()} ({_percent(other)}%): that figure is from "
                f"its first {_deals(other.samples)} only, where it did clearly worse than "
                f"{played.action.pretty()}, so the search set it aside.")
    return ""


def recommendation(estimates: list[MoveEstimate], replaced: MoveEstimate | None,
                   view: DurakView, shown: int = 3) -> tuple[list[MoveEstimate], list[str]]:
    """The moves in the order the hint shows them, its recommendation first, and a reason for
    every move shown with a higher figure than the recommendation (:func:`why_not`).

    The search's own choice is recommended where each such move has a reason; otherwise the
    best figure without one is recommended instead: a hint never asks the player to take the
    lower of two chances without saying why."""
    order = list(estimates)
    for _ in range(len(order)):
        if not order or not _estimated(order[0]):
            return order, []
        played = order[0]
        reasons: list[str] = []
        unexplained: list[MoveEstimate] = []
        for e in order[1:shown]:
            if not _estimated(e) or _percent(e) <= _percent(played):
                continue
            reason = why_not(played, e, replaced, view)
            if reason:
                reasons.append(reason)
            else:
                unexplained.append(e)
        if not unexplained:
            return order, reasons
        best = max(unexplained, key=lambda e: e.score)
        order = [best, *sorted((e for e in order if e is not best), key=lambda e: -e.score)]
    return order, []


def tie_reason(estimates: list[MoveEstimate], replaced: MoveEstimate | None,
               view: DurakView) -> str:
    """Why the hint is not the move with the best mean, when the tie-break chose it:
    ``Why: cover 6♣ with 6♥ rather than cover 6♣ with A♥ (61% against 58%): over 400 sampled
    deals a gap this small is chance, and you keep the higher trump.``"""
    if replaced is None or not estimates:
        return ""
    return why_not(estimates[0], replaced, replaced, view)


def hint_text(estimates: list[MoveEstimate], shown: int = 3) -> str:
    """``Hint: cover 6♥ with 10♥ (71% not the fool); then take (40%), ...``"""
    best = estimates[0]
    head = f"Hint: {best.action.pretty()} ({best.action}) — {_chance(best)}"
    others = [f"{e.action} {_chance(e)}" for e in estimates[1:shown]]
    samples = best.samples
    tail = f"; others: {', '.join(others)}" if others else ""
    basis = f" [{samples} sampled world{'' if samples == 1 else 's'}]" if samples else ""
    return head + tail + basis
