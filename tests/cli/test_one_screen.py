"""Issue 33 item 3: one terminal screen for every family, drawn from the table model.

Each family's game is played to its end through :class:`bito.tui.TerminalGame` with scripted
answers (a move number picked at random from the list), at the smallest and the largest seat
count its rules accept. At every prompt the screen just printed is checked against the human's
table model of that moment: every seat, every zone the model has (its face-up cards, the top
of a pile, the pairs of a table, the plays of a trick, the stock's and the discard's counts),
and the numbered moves with their labels. No line of the whole game shows an internal key, a
seed citation or an option spec.
"""

from __future__ import annotations

import inspect
import random
import re

import pytest
from terminal_kit import terminal

import bito.tui
import bito.tui_families
import bito.tui_table
import bito.tui_words
from bito.games.tables import TableModel, Zone
from bito.tui import TerminalGame
from bito.tui_table import card_text, ordered
from bito.tui_words import INTERNAL, OPTION_KEY

#: (catalogue id, players): each family at the fewest and the most seats its rules accept
#: (the Durak games' 36 cards deal six hands of six; team_fool seats partners, 4 or 6).
GAMES = [
    ("podkidnoy", 2), ("podkidnoy", 6), ("perevodnoy", 3), ("team_fool", 4), ("team_fool", 6),
    ("czech_fool", 2), ("czech_fool", 6), ("ontoys_adjacent_rank", 2),
    ("ontoys_adjacent_rank", 10), ("friese_fool", 4), ("friese_fool", 8),
    ("believe_not_believe_2", 2), ("believe_not_believe_2", 6), ("animal_sounds", 2),
    ("animal_sounds", 6), ("chinese", 2), ("chinese", 6), ("heaped", 3), ("polish_fool", 3),
    ("deck_duel_prelude", 2),
]

#: Words no player should read: seed citations (S3:25-28, §4.1), the catalogue's own marks.
CITATION = re.compile(r"\bS\d+:\d+|§\s?\d|NOT FROM THE SEEDS|OPTION_SPECS|#\d{2,3}\b")


def _zone_shown(zone: Zone, screen: str) -> list[str]:
    """What of ``zone`` is missing from ``screen`` (empty: all of it is there)."""
    missing = []
    if zone.kind in ("stock", "discard") and zone.name in ("stock", "discard"):
        if not re.search(rf"\b{zone.name} {zone.count}\b", screen):
            missing.append(f"{zone.name} {zone.count}")
    faces = [card_text(c) for c in zone.cards] if zone.top is None or zone.kind == "stock" \
        else [card_text(zone.top)]
    if zone.kind == "pile" and zone.top is None:  # a face-down pile: the seat's own in it
        faces = [card_text(c) for c in zone.cards]
    faces += [card_text(p.attack) for p in zone.pairs]
    faces += [card_text(p.cover) for p in zone.pairs if p.cover is not None]
    faces += [card_text(p.card) for p in zone.plays]
    missing += [f"{zone.name}: {face}" for face in faces if face not in screen]
    if zone.kind == "pairs" and zone.name == "table" and "Table:" not in screen:
        missing.append("the table")
    if zone.kind == "trick" and "Trick:" not in screen:
        missing.append("the trick")
    return missing


def _check_screen(model: TableModel, screen: str, labels: list[str]) -> None:
    for seat in model.seats:
        if seat.seat != model.seat:
            assert labels[seat.seat] in screen, (labels[seat.seat], screen)
    for zone in model.zones:
        assert not _zone_shown(zone, screen), (_zone_shown(zone, screen), screen)
    numbered = re.findall(r"^\s+(\d+)\. (\S+)\s+(.*)$", screen, re.M)
    expected = [model.moves[i] for i in ordered(model)]
    assert [(int(n), ident) for n, ident, _ in numbered] == [
        (i, m.id) for i, m in enumerate(expected, 1)], screen
    for (_, _, label), move in zip(numbered, expected, strict=True):
        assert label.strip() == move.label


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_whole_game_of_each_family_through_the_one_screen(variant: str, players: int) -> None:
    rng = random.Random(f"{variant}-{players}")
    printed: list[str] = []
    since = [0]
    screens = [0]

    def write(text: str = "") -> None:
        printed.append(str(text))

    def answer(_prompt: str) -> str:
        screen = "\n".join(printed[since[0]:])
        since[0] = len(printed)
        model = term.model(term.state.to_act)
        if "Your move" in screen:
            labels = [bito.tui.shown(label) for label in term.labels]
            _check_screen(model, screen, labels)
            screens[0] += 1
        assert screens[0] < 3000, "the game never ended"
        return str(rng.randint(1, len(model.moves)))

    term = terminal(variant, players, seed=players, answer=answer, write=write, auto=False)
    result = term.run()
    assert result.finished, "\n".join(printed[-30:])
    assert screens[0] > 0
    text = "\n".join(printed)
    assert "Game over. Final position:" in text and "Result:" in text
    assert "Traceback" not in text
    for line in text.splitlines():
        assert not INTERNAL.search(line), line
        assert not OPTION_KEY.search(line), line
        assert not CITATION.search(line), line


def test_there_is_one_screen_class() -> None:
    """The Durak screen and the families' screen are one class: no other class of the
    terminal's modules plays a game (reads moves from a person)."""
    assert not hasattr(bito.tui_families, "FamilyTerminal")
    assert not hasattr(bito.tui_families, "play_family")
    players = [obj for module in (bito.tui, bito.tui_families, bito.tui_table, bito.tui_words)
               for _, obj in inspect.getmembers(module, inspect.isclass)
               if obj.__module__ == module.__name__ and hasattr(obj, "run")]
    assert players == [TerminalGame]


def test_the_screen_asks_no_family_which_game_it_draws() -> None:
    """The drawing module reads the table model only: it imports no game engine and names
    no family."""
    source = inspect.getsource(bito.tui_table)
    assert "bito.games.durak" not in source and "bito.games.shedding" not in source
    for family in ("durak", "shedding", "tricks", "social", "bouts"):
        assert f'"{family}"' not in source
