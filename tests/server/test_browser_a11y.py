"""Accessibility in Chromium (issue 19 item 8): axe-core (vendored, tests/server/vendor/README.md)
finds no serious or critical violation on the lobby and on a table in play, in English and in
Russian; and a whole game is played with the keyboard alone (Tab to a card or a move, Enter
or Space to play it; when a deal offers one card that may cover several, Enter on it and then
on the table's card to cover), every focused control showing a visible focus ring and having
an accessible name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from browser_kit import (  # noqa: E402
    axe_violations,
    need_chromium,
    serving,
    shot,
    status,
    table_with_a_bot,
    wait_for_turn_or_end,
    watched_page,
)
from server_kit import ServerThread  # noqa: E402

need_chromium()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The database of the module's server (its accounts too)."""
    return tmp_path_factory.mktemp("a11y") / "a11y.sqlite3"


@pytest.fixture(scope="module")
def server(db: Path) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own tables, accounts and contexts."""
    with serving(db, timer=300, bot_delay=0.02) as srv:
        yield srv


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_axe_finds_no_serious_violation_on_lobby_and_table(server: ServerThread,
                                                           browser: Any, locale: str) -> None:
    ctx = browser.new_context(locale=locale, viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select[data-seat='1']", state="attached")
    page.wait_for_selector("#public-tables li")
    assert page.evaluate("window.axe === undefined")  # the app never ships axe itself
    assert axe_violations(page) == []
    page.click("#create summary")  # the house-rules fields, opened
    assert axe_violations(page) == []

    page.fill("#name", "Alice")
    page.select_option("#seats select[data-seat='1']", "random")
    page.click("#create-button")
    page.wait_for_selector("#ready")
    assert axe_violations(page) == []  # the waiting room: the link, the seats, Ready
    page.click("#ready")
    page.wait_for_selector("#hand .hand-card")
    wait_for_turn_or_end(page)
    page.wait_for_selector("#actions button")
    assert axe_violations(page) == []
    # with a card chosen and the table's cards offered as targets
    page.focus("#hand .hand-card")
    page.keyboard.press("Escape")
    assert axe_violations(page) == []
    ctx.close()


def focus_by_tab(page: Any, test: str, limit: int = 120) -> bool:
    """Press Tab until ``test`` (a JS expression on ``el``, the focused element) holds."""
    for _ in range(limit):
        if page.evaluate("(() => { const el = document.activeElement; "
                         f"return !!(el && ({test})); }})()"):
            return True
        page.keyboard.press("Tab")
    return False


def focused_ring(page: Any) -> tuple[str, float, str]:
    """The focused control's outline style and width, and its name in words."""
    style, width, name = page.evaluate("""(() => {
        const el = document.activeElement, s = getComputedStyle(el);
        const words = [...el.querySelectorAll('.sr-only')].map(x => x.textContent).join(' ');
        return [s.outlineStyle, parseFloat(s.outlineWidth),
                el.getAttribute('aria-label') || words.trim()];
    })()""")
    return str(style), float(width), str(name)


def test_a_whole_game_with_the_keyboard_alone(server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    # A 24-card deck: every way of moving by keys (a card, a cover with a choice of target, a
    # move button by Space and by Enter) comes up in a game of any deck, and a shorter game
    # is fewer turns of the same keys.
    table_with_a_bot(page, server.base, bot="random", deck="24")
    # the table was set up with the mouse; from here on the player uses only the keys. A browser
    # rings a focus that a script moves only once the keyboard is in use (:focus-visible), so the
    # first key press comes before the first ring is measured
    page.keyboard.press("Tab")
    ways: dict[str, int] = {"hand card + Enter": 0, "move button + Space": 0,
                            "move button + Enter": 0}
    rings: list[tuple[str, float, str]] = []
    moves = 0
    # bounded by moves, not the clock: a 24-card game of two is far shorter than this
    while moves < 300 and wait_for_turn_or_end(page):
        n = int(page.evaluate("Number(document.body.dataset.n)"))
        actions = page.eval_on_selector_all("#actions button",
                                            "bs => bs.map(b => b.dataset.action)")
        assert actions, "my turn, but no move offered"
        plain = [a for a in actions if re.fullmatch(r"[2-9TJQKA][cdhs]", a)]
        targets: dict[str, list[str]] = {}
        for a in actions:
            if re.fullmatch(r"[2-9TJQKA][cdhs]>[2-9TJQKA][cdhs]", a):
                targets.setdefault(a[:2], []).append(a[3:])
        several = [(card, ts) for card, ts in targets.items() if len(ts) > 1]
        if several:
            # one card, several cards it may cover: Enter on it, then Shift+Tab back to the
            # table's card to cover (a button now) and Enter (when a deal offers this)
            card, ts = several[0]
            assert focus_by_tab(page, f"el.dataset.card === '{card}' && el.closest('#hand')")
            page.keyboard.press("Enter")
            page.wait_for_selector(".pair.target")
            for _ in range(60):
                if page.evaluate(f"document.activeElement.dataset.attack === '{ts[-1]}'"):
                    break
                page.keyboard.press("Shift+Tab")
            rings.append(focused_ring(page))
            page.keyboard.press("Enter")
            way = "card, then the card to cover"
        elif plain and (moves % 2 == 0 or not ways["hand card + Enter"]):
            # a card played from the hand: focus it and press Enter
            card = plain[0]
            assert focus_by_tab(page, f"el.dataset.card === '{card}' && el.closest('#hand')")
            rings.append(focused_ring(page))
            page.keyboard.press("Enter")
            way = "hand card + Enter"
        else:
            # until a card has been played from the hand, a defender covers rather than takes,
            # so that the defence holds and the player attacks (a player who only ever took
            # would never lead a card)
            holding = [a for a in actions if a != "take"]
            choice = holding if holding and not ways["hand card + Enter"] else actions
            wanted = choice[moves % len(choice)]
            assert focus_by_tab(page, f"el.dataset.action === {wanted!r}")
            rings.append(focused_ring(page))
            key = ("Space" if ways["move button + Space"] <= ways["move button + Enter"]
                   else "Enter")
            page.keyboard.press(key)
            way = f"move button + {key}"
        ways[way] = ways.get(way, 0) + 1
        moves += 1
        try:
            page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                                   "document.body.dataset.status === 'over'", timeout=10000)
        except sync_api.TimeoutError:
            shot(page, "keyboard-stuck")
            raise AssertionError(f"{way} did not play: {page.inner_text('#message')!r}") from None
    assert status(page) == "over", "the keyboard game did not finish"
    assert all(ways[w] for w in ("hand card + Enter", "move button + Space",
                                 "move button + Enter")), ways
    # every focused control had a visible ring and a name a screen reader can say
    assert all(style not in ("none", "") and width >= 2 and name for style, width, name in rings), \
        rings[:5]
    shot(page, "keyboard-game-over")
    # The end screen (Rematch, Leave) is reached by keyboard and axe finds nothing on it.
    page.wait_for_selector("#end:not([hidden]) #rematch")
    assert focus_by_tab(page, "document.activeElement.id === 'rematch'")
    assert axe_violations(page) == []
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_axe_finds_no_serious_violation_on_account_pages(server: ServerThread, browser: Any,
                                                         locale: str) -> None:
    """The accounts' pages (issue 19 item 1): the sign-up form (also with a refusal shown),
    the logged-in account page, the leaderboard and a profile, in both languages."""
    errors: list[str] = []
    page = watched_page(browser, errors, locale)
    ctx = page.context
    page.goto(server.base + "/account")
    page.wait_for_selector("#login-form")
    assert axe_violations(page) == []
    page.fill("#username", "x")  # refused: the message and the field marked invalid
    page.fill("#password", "long enough pass")
    page.click("#register")
    page.wait_for_function("document.getElementById('account-message').textContent !== ''")
    assert page.get_attribute("#username", "aria-invalid") == "true"
    assert axe_violations(page) == []
    name = f"Axel_{locale[:2]}"  # an account of this test's own on the module's server
    page.fill("#username", name)
    page.click("#register")
    page.wait_for_selector("#logout")
    assert axe_violations(page) == []
    # The housekeeping forms, with a refusal shown: a wrong current password is named and
    # its field focused and marked (issue 19 item 1).
    page.fill("#current-password", "not my password 1")
    page.fill("#new-password", "a brand new pass 2")
    page.click("#change-password")
    page.wait_for_function("document.getElementById('password-message').textContent !== ''")
    assert page.get_attribute("#current-password", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "current-password"
    assert page.is_visible("#logout-everywhere") and page.is_visible("#delete-account")
    assert axe_violations(page) == []
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("table.ratings tbody tr")
    assert axe_violations(page) == []
    page.goto(server.base + f"/u/{name}")
    page.wait_for_selector("#recent, main p")
    assert axe_violations(page) == []
    if locale.startswith("ru"):  # the pages speak the page's language
        assert page.evaluate("document.documentElement.lang") == "ru"
        assert re.search("[а-яё]", page.inner_text("main"), re.I)
    assert not errors, errors
    ctx.close()


def test_the_leaderboard_changes_family_without_a_reload(server: ServerThread, browser: Any,
                                                         db: Path) -> None:
    """Issue 19 item 4: choosing a family fetches and redraws the table in place; the choice
    keeps the focus, the address follows, and the title is in the page's language."""
    from bito.server.accountdb import AccountDB, Rating

    accounts = AccountDB(str(db))  # the server's own accounts database
    accounts.store_game("seed-1", "durak", [Rating("Annushka", "durak", 30.0, 3.0, 4)], [])
    accounts.store_game("seed-2", "shedding", [Rating("Benedikt", "shedding", 28.0, 3.0, 2)], [])
    accounts.close()
    errors: list[str] = []
    page = watched_page(browser, errors, "ru-RU")
    ctx = page.context
    page.goto(server.base + "/leaderboard?family=durak")
    page.wait_for_selector("table.ratings tbody tr")
    shown = page.inner_text("#leaders-board")
    assert "Annushka" in shown and "Benedikt" not in shown
    assert re.search("[а-яё]", page.title(), re.I)
    page.evaluate("window.stillThisPage = true")
    page.focus("#family")
    page.select_option("#family", "shedding")
    page.wait_for_function(
        "document.getElementById('leaders-board').textContent.includes('Benedikt')")
    assert "Annushka" not in page.inner_text("#leaders-board")
    assert page.evaluate("window.stillThisPage === true")  # no reload happened
    assert page.evaluate("document.activeElement.id") == "family"
    assert page.url.endswith("?family=shedding")
    page.wait_for_function("document.getElementById('board-status').textContent !== ''")
    assert axe_violations(page) == []
    assert not errors, errors
    ctx.close()
