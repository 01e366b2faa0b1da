"""One game at the one terminal screen (:class:`bito.tui.TerminalGame`) for the tests: any
catalogue id, the human at a seat, random bots elsewhere, the answers scripted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from bito.games import family_for, new_game
from bito.tui import PlayResult, TerminalGame, table_seats


def terminal(variant: str, players: int, seed: int,
             answer: Callable[[str], str] = lambda _: "1",
             write: Callable[[str], None] = print, seat: int = 0,
             save: Path | None = None, auto: bool = True) -> TerminalGame:
    """``variant`` at the terminal, ``answer`` typing for the human at ``seat``."""
    state = new_game(variant, players, seed=seed)
    rules = family_for(variant).rules_for(variant)
    dummy = family_for(variant).dummy_seat(rules, players)
    bots = ["random"] * (players - 1 - (dummy >= 0))
    seats = table_seats(players, seat, bots, seed, dummy)
    return TerminalGame(state, seats, seat, input_fn=answer, output=write, save=save,
                        auto=auto, spec=variant)


def play_at_terminal(variant: str, players: int, seed: int,
                     answer: Callable[[str], str] = lambda _: "1",
                     write: Callable[[str], None] = print, seat: int = 0,
                     save: Path | None = None, auto: bool = True) -> PlayResult:
    """Play ``variant`` to its end (or until ``answer`` quits)."""
    return terminal(variant, players, seed, answer, write, seat, save, auto).run()
