"""The game review in the browser (issue 36, item 2): after a game, the replay
page offers "Review this game"; the review (made in the server's bot workers) marks each of
the person's moves with a colour and an icon, draws the better move's cards, plots the chance
of not being the fool and gives the accuracy, in English and in Russian. A spectator without
a seat is offered no review, and the API refuses him. Rules in play: podkidnoy (VARIANTS.md
#3).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright.sync_api")

from browser_kit import need_chromium, serving, shot, watched_page
from server_kit import Client, ServerThread, create_table, join, play_to_end

need_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test plays and reviews a table of its own."""
    with serving(tmp_path_factory.mktemp("review") / "review.sqlite3", timer=120,
                 bot_delay=0.0) as srv:
        yield srv


def _finished_table(server: ServerThread) -> dict[str, Any]:
    """A two-seat podkidnoy table, Alice against Bob (both played through the API, each
    taking his first legal move), played to the end."""
    t = create_table(server.http, players=2, seats=["open"])
    bob = join(server.http, t["table"], "Bob")
    alice = Client(server.base, t["table"], t["token"])
    b = Client(server.base, t["table"], bob["token"])
    alice.state()
    alice.send({"type": "ready"})
    b.send({"type": "ready"})
    play_to_end({0: alice, 1: b}, timeout=300)
    alice.close()
    b.close()
    return t


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_a_person_reviews_his_game_on_the_replay_page(server: ServerThread, browser: Any,
                                                      locale: str) -> None:
    t = _finished_table(server)
    assert server.http.get(f"/api/tables/{t['table']}/review").status_code == 403
    errors: list[str] = []
    page = watched_page(browser, errors, locale=locale)
    page.goto(server.base + "/")
    page.evaluate(f"localStorage.setItem('bito:{t['table']}', "
                  f"{json.dumps(json.dumps({'token': t['token'], 'seat': t['seat']}))})")
    page.goto(f"{server.base}/replay/{t['table']}#review")
    for _ in range(3):  # a worker that could not start in time (a loaded machine) is
        # said in the summary line, and the button stays for another try
        page.wait_for_function("document.getElementById('review-graph').children.length"
                               " || !document.getElementById('review-open').hidden",
                               timeout=300_000)
        if page.query_selector("#review-graph svg"):
            break
        page.click("#review-open")
    page.wait_for_selector("#review-graph svg", timeout=1000)
    summary = page.inner_text("#review-summary")
    assert ("accuracy" if locale == "en-US" else "точность") in summary
    dots = page.eval_on_selector_all("#review-graph circle", "cs => cs.length")
    assert dots > 0
    # step back through the game to a reviewed move: it carries a mark and a reason
    marked = ""
    for _ in range(200):
        page.click("#prev")
        box = page.get_attribute("#review-move", "class") or ""
        if len(box.split()) > 1:
            marked = box.split()[1]
            break
    assert marked in ("best", "good", "inaccuracy", "mistake", "blunder")
    text = page.inner_text("#review-move")
    assert {"best": "!", "good": "✓", "inaccuracy": "?!", "mistake": "?",
            "blunder": "??"}[marked] in text
    shot(page, f"review-{locale}")
    page.context.close()
    assert not errors, errors
    # a spectator (no seat's token) is offered nothing
    page = watched_page(browser, errors)
    page.goto(f"{server.base}/replay/{t['table']}")
    page.wait_for_selector("#board .opponent")
    assert page.is_hidden("#review-open")
    page.context.close()
