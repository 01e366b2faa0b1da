"""Durak's table in a real browser, drawn from its table model like every other family's
(issue 34 item 1): Playwright drives Debian's Chromium against the real server. The tossing
dummy's hand (#56), the seat a playing dummy's controller plays (#57) and the rule notes of a
Mau-Mau game with values in them are drawn, in English and in Russian, on a desktop and a
phone-sized window, and no page error occurs. Screenshots go to ``build/test-artifacts/browser``
(or ``$BITO_ARTIFACTS``)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from browser_kit import need_chromium, serving, shot, wait_for_turn_or_end
from server_kit import ServerThread, create_table

need_chromium()

SIZES = {"desktop": {"width": 1100, "height": 850}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own table in its own context."""
    with serving(tmp_path_factory.mktemp("durak-model") / "durak-model.sqlite3", timer=120,
                 bot_delay=0.05) as srv:
        yield srv


def open_table(browser: Any, server: ServerThread, lang: str, size: str, variant: str,
               players: int, errors: list[str]) -> Any:
    """Alice's page at a new table against bots, Ready pressed, the deal on screen."""
    t = create_table(server.http, players=players, seats=["heuristic"] * (players - 1),
                     variant=variant)
    table = t["table"]
    # still pictures: no card is caught in flight when the screenshot is taken
    context = browser.new_context(viewport=SIZES[size], locale=lang, reduced_motion="reduce")
    context.add_cookies([{"name": "bito_lang", "value": lang, "url": server.base}])
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    mine = json.dumps({"token": t["token"], "seat": 0})
    page.add_init_script(f"localStorage.setItem('bito:{table}', {json.dumps(mine)})")
    page.goto(f"{server.base}/t/{table}")
    page.wait_for_selector("#ready")
    page.click("#ready")
    page.wait_for_function("document.body.dataset.status === 'playing'")
    page.wait_for_selector("#board .opponent")
    return page


def play_moves(page: Any, moves: int) -> None:
    """Alice plays her first move (the cheapest, the model's order) ``moves`` times."""
    played = 0
    deadline = time.time() + 60
    while time.time() < deadline and played < moves:
        if not wait_for_turn_or_end(page, timeout=60):
            return
        n = int(page.evaluate("Number(document.body.dataset.n)"))
        page.click("#actions button")
        page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                               "document.body.dataset.status === 'over'", timeout=20000)
        played += 1


@pytest.mark.parametrize(("lang", "size"), [("en", "desktop"), ("ru", "phone")])
def test_the_tossing_dummy_is_drawn_from_the_model(server: ServerThread, browser: Any,
                                                   lang: str, size: str) -> None:
    """#56: the dummy's hand lies on the table as a zone of its own, its count in words (its
    cards face up for its controller only); the status line asks the seat to act in its
    words."""
    errors: list[str] = []
    page = open_table(browser, server, lang, size, "podkidnoy+tossing_dummy", 2, errors)
    zone = page.wait_for_selector("[data-zone=dummy]")
    said = zone.inner_text()
    assert ("dummy's hand" in said) if lang == "en" else ("dummy's" not in said), said
    assert page.inner_text("#status").strip()
    play_moves(page, 2)
    shot(page, f"durak-model-tossing-dummy-{lang}-{size}")
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize(("lang", "size"), [("en", "phone"), ("ru", "desktop")])
def test_a_playing_dummy_says_who_plays_it(server: ServerThread, browser: Any, lang: str,
                                          size: str) -> None:
    """#57: the dummy's seat says which seat plays it, and its name is in the page's
    language."""
    errors: list[str] = []
    page = open_table(browser, server, lang, size, "podkidnoy+playing_dummy", 3, errors)
    page.wait_for_selector(".played-by")
    said = page.inner_text(".played-by")
    assert said.strip() and ("played by" in said) == (lang == "en"), said
    assert ("Dummy" in page.inner_text("#board")) == (lang == "en")  # its name, in words
    play_moves(page, 3)
    shot(page, f"durak-model-playing-dummy-{lang}-{size}")
    page.context.close()
    assert not errors, errors


def test_a_rule_note_with_a_value_is_said_in_russian(server: ServerThread, browser: Any) -> None:
    """Issue 34: the rules of play whose words carry an option's value (Mau-Mau's wild rank,
    ``queens are wild``) are shown on a Russian page in Russian, not left off."""
    errors: list[str] = []
    page = open_table(browser, server, "ru", "desktop", "czech_fool", 2, errors)
    page.click(".rules-notes summary")
    notes = page.inner_text(".rules-notes")
    assert "джокеры" in notes and "are wild" not in notes, notes
    shot(page, "durak-model-maumau-notes-ru")
    page.context.close()
    assert not errors, errors


KINDS = [("show trump", ["7h"], ""), ("trump swap", ["6s"], ""), ("give", ["Qd"], ""),
         ("block", ["9c", "9d", "9h"], ""), ("believe", [], ""), ("toss", ["8c"], ""),
         ("try", [], ""), ("stock", [], ""), ("swap", ["6c", "7c"], ""),
         ("exchange", ["Kd"], ""), ("pair", ["Td"], "9d"), ("own", ["Jh"], "8h"),
         ("counter", ["Qs", "7c"], "9s")]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_house_rules_moves_are_said_in_words(server: ServerThread, browser: Any,
                                                 lang: str) -> None:
    """Issue 34 item 5: the kinds of move Durak's house rules add (#83's trump shown to
    transfer, #97's trump swap, #56's throw-in from the dummy...) are buttons and log lines
    in the page's language, never the engine's name for the kind."""
    errors: list[str] = []
    page = open_table(browser, server, lang, "desktop", "podkidnoy", 2, errors)
    said = page.evaluate(
        """async (kinds) => {
             const { actionLabel } = await import('/static/js/board.js');
             return kinds.map(([kind, cards, target]) =>
               actionLabel({ kind, cards, target: target || undefined, text: 'x' }));
           }""", [list(k) for k in KINDS])
    for (kind, cards, _), words in zip(KINDS, said, strict=True):
        assert words and words != "x", (kind, words)  # never the notation
        if lang == "ru":  # no English word left (card ranks such as K are one letter)
            assert not re.search(r"[a-z]{2,}", words), (kind, words)
        else:  # more than the kind's name and its cards
            assert len(words.split()) > len(kind.split()) + len(cards), (kind, words)
    page.context.close()
    assert not errors, errors
