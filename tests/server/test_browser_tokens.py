"""Seat tokens stay out of URLs in a real browser (issue 18, item 4): Playwright drives
Debian's Chromium (never a downloaded browser), as ``tests/server/test_browser.py`` does. The
page connects with its token as a websocket subprotocol, downloads its censored record during
play through a single-use ticket, and no URL it ever asks for holds the token."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from bito.record import load_record  # noqa: E402
from browser_kit import chromium, need_chromium, serving  # noqa: E402
from server_kit import ServerThread, create_table  # noqa: E402

need_chromium()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with serving(tmp_path / "tokens-browser.sqlite3", timer=120, bot_delay=0.05) as srv:
        yield srv


def test_the_page_never_puts_its_seat_token_in_a_url(server: ServerThread) -> None:
    t = create_table(server.http, players=2, seats=["heuristic"])
    table, token = t["table"], t["token"]
    urls: list[str] = []
    errors: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 850})
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: urls.append(r.url))
        page.on("websocket", lambda ws: urls.append(ws.url))
        mine = json.dumps({"token": token, "seat": 0})
        page.add_init_script(f"localStorage.setItem('bito:{table}', {json.dumps(mine)})")
        page.goto(f"{server.base}/t/{table}")
        page.wait_for_function("document.getElementById('conn').textContent === 'connected'")
        page.wait_for_selector("#ready")
        page.click("#ready")
        page.wait_for_selector("#download")
        with page.expect_download() as info:
            page.click("#download")
        path = info.value.path()
        record = load_record(Path(path).read_text())
        assert record.censored_for == 0
    assert any("/ws/" in u for u in urls) and any("/ticket" in u for u in urls)
    assert any("/record?ticket=" in u for u in urls)
    leaked = [u for u in urls if token in u]
    assert not leaked, leaked
    assert not errors, errors
