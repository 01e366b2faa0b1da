"""Helpers for the Chromium tests of the web app's languages, keyboard, sound and motion:
Debian's Chromium driven by Playwright (never a downloaded browser), a real server, and a
table of one person against a bot made through the lobby as a person would.

Screenshots go to ``build/test-artifacts/browser`` (or ``$BITO_ARTIFACTS/browser``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync",
        # sounds may start without a click first (a person clicks; a test may not)
        "--autoplay-policy=no-user-gesture-required"]
ARTIFACTS = Path(os.environ.get("BITO_ARTIFACTS", "build/test-artifacts")) / "browser"


def have_chromium() -> bool:
    return os.path.exists(CHROMIUM)


def need_chromium() -> None:
    """Skip the calling test module, at import, where Playwright or Debian's Chromium is
    missing (a browser is never downloaded for a test)."""
    pytest.importorskip("fastapi")
    pytest.importorskip("playwright.sync_api")
    if not have_chromium():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium; .ci/run does)",
                    allow_module_level=True)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium launched headless by Playwright, closed on leaving."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def serving(db: Path, timer: float = 120, bot_delay: float = 0.05) -> Iterator[Any]:
    """A real server on ``db`` (SQLite), stopped on leaving; the timer and the bots' delay
    are what the test's game needs (a long game wants a long timer, a race a slow bot)."""
    from bito.server.rooms import Settings
    from server_kit import ServerThread

    srv = ServerThread(str(db), Settings(timer=timer, bot_delay=bot_delay))
    try:
        yield srv
    finally:
        srv.stop()


def settled(page: Any, timeout: float = 15) -> None:
    """Wait until nothing on the page moves: no animation runs and no card is in flight (a
    flying copy removes itself when it lands). With reduced motion this returns at once; a
    flight that never ends fails here."""
    page.wait_for_function("document.getAnimations().length === 0 && "
                           "!document.querySelector('.ghost-card')", timeout=timeout * 1000)


def shot(page: Any, name: str, also: Path | None = None) -> Path:
    """Screenshot ``page`` into the artifacts (and into ``also`` first, e.g. the test's
    ``tmp_path``, where a failing run keeps it next to its database)."""
    for where in ([also] if also is not None else []) + [ARTIFACTS]:
        where.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(where / f"{name}.png"), full_page=True)
    return ARTIFACTS / f"{name}.png"


def watched_page(browser: Any, errors: list[str], locale: str | None = None) -> Any:
    """A page of a fresh context (a desktop window, ``locale`` if given) whose script
    errors are collected in ``errors``, so a test can assert the page never failed."""
    options: dict[str, Any] = {"viewport": {"width": 1100, "height": 900}}
    if locale is not None:
        options["locale"] = locale
    page = browser.new_context(**options).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def table_with_a_bot(page: Any, base: str, name: str = "Alice", bot: str = "random",
                     deck: str = "") -> str:
    """Create a two-seat podkidnoy table against ``bot`` from the lobby (with the lobby's
    ``deck`` choice, "" being the game's own 36 cards), press Ready, wait for the deal;
    returns the table's link."""
    page.goto(base + "/")
    page.wait_for_selector("#seats select[data-seat='1']", state="attached")
    page.fill("#name", name)
    page.select_option("#variant", "podkidnoy")
    if deck:
        page.select_option("#deck", deck)
    page.select_option("#seats select[data-seat='1']", bot)
    page.click("#create-button")
    page.wait_for_selector("#ready")
    link: str = page.url
    page.click("#ready")
    page.wait_for_selector("#hand .hand-card")
    return link


AXE = Path(__file__).resolve().parent / "server" / "vendor" / "axe.min.js"
"""axe-core, vendored for the tests (``tests/server/vendor/README.md``); never fetched."""
SERIOUS = ("serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("""async () => {
        const r = await axe.run(document, { resultTypes: ['violations'] });
        return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) }));
    }""")
    bad = [v for v in found if v["impact"] in SERIOUS]
    if bad:
        print("AXE", bad)
    return bad


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.myTurn === 'true'"))


def status(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.status"))


def wait_for_turn_or_end(page: Any, timeout: float = 30) -> bool:
    """True when it is the page's turn, False when the game is over: one wait inside the page
    (looked at every animation frame) rather than a poll from here, so the answer comes the
    frame the page knows it."""
    from playwright.sync_api import TimeoutError as Late

    try:
        found = page.wait_for_function(
            "() => document.body.dataset.status === 'over' ? 'over'"
            " : document.body.dataset.myTurn === 'true' ? 'turn' : ''", timeout=timeout * 1000)
    except Late:
        raise AssertionError(f"neither my turn nor the end after {timeout} s: "
                             f"{page.inner_text('#status')!r}") from None
    return bool(found.json_value() == "turn")
