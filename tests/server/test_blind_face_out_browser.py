"""#58 ``blind_face_out`` in a real browser: Playwright drives Debian's Chromium (never a
downloaded browser) against the real server, as ``tests/server/test_browser.py`` does. Alice plays a
face-out table against a bot by clicking numbered card backs; her hand never shows a face.
Screenshots go to ``build/test-artifacts/browser`` (or ``$BITO_ARTIFACTS``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from browser_kit import (  # noqa: E402
    chromium,
    need_chromium,
    serving,
    shot,
    wait_for_turn_or_end,
)
from server_kit import ServerThread, create_table  # noqa: E402

need_chromium()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with serving(tmp_path / "blind-browser.sqlite3", timer=120, bot_delay=0.05) as srv:
        yield srv


def test_a_face_out_hand_is_played_by_clicking_numbered_backs(server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["heuristic"],
                     variant="podkidnoy+blind_face_out")
    table = t["table"]
    errors: list[str] = []
    with chromium() as browser:
        # (reduced motion: a click lands without waiting for a card under it to stop sliding)
        page = browser.new_page(viewport={"width": 1100, "height": 850}, reduced_motion="reduce")
        page.on("pageerror", lambda e: errors.append(str(e)))
        mine = json.dumps({"token": t["token"], "seat": 0})
        page.add_init_script(f"localStorage.setItem('bito:{table}', {json.dumps(mine)})")
        page.goto(f"{server.base}/t/{table}")
        page.wait_for_function("document.getElementById('conn').textContent === 'connected'")
        page.wait_for_selector("#ready")  # the first frame has arrived
        page.click("#ready")
        page.wait_for_selector("#hand .hand-card.blind")
        # Six numbered backs, no card face in one's own hand; the bot's hand lies face up.
        assert page.eval_on_selector_all("#hand .hand-card", "cs => cs.length") == 6
        assert page.eval_on_selector_all("#hand svg.card:not(.back)", "cs => cs.length") == 0
        # (read in one go: the bot may already have led a card)
        shown, said = page.evaluate(
            "() => { const o = document.querySelector('#board .opponent');"
            " return [o.querySelectorAll('.known svg.card').length, o.innerText]; }")
        assert shown >= 5 and f"{shown} card" in said
        shot(page, "blind-1-dealt")
        played = 0
        deadline = time.time() + 90
        while time.time() < deadline and played < 12:
            if not wait_for_turn_or_end(page, timeout=60):
                break
            n = int(page.evaluate("Number(document.body.dataset.n)"))
            backs = page.query_selector_all("#hand .hand-card.blind.playable")
            if backs:
                backs[0].click()
                if page.query_selector(".pair.target"):
                    page.click(".pair.target")
            else:
                page.click("#actions button")
            page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                                   "document.body.dataset.status === 'over'", timeout=20000)
            played += 1
            assert page.eval_on_selector_all("#hand svg.card:not(.back)", "cs => cs.length") == 0
        assert played >= 3
        log = page.inner_text("#log")
        assert "#1" in log and "(" in log  # a blind move, logged with the card turned up
        shot(page, "blind-2-played")
    assert not errors, errors
