"""Accounts and moving a seat in a real browser (issue 19, item 1; Playwright driving Debian's
Chromium, never a downloaded one): an account logs in on a second context and continues its
seat mid-game (the first is told and watches); a guest moves his seat with his personal link
(the old browser is no longer the seat, and a third party opening the used link gets
nothing). Screenshots go to the test's ``tmp_path`` and ``build/test-artifacts/browser``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")
sync_api = pytest.importorskip("playwright.sync_api")

from browser_kit import need_chromium, serving, shot, watched_page  # noqa: E402
from server_kit import ServerThread  # noqa: E402

PASSWORD = "queen of spades 9"

need_chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test has accounts, tables and contexts of its own."""
    with serving(tmp_path_factory.mktemp("accounts") / "accounts.sqlite3", timer=600,
                 bot_delay=0.1) as srv:
        yield srv


def hand(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#hand .hand-card", "bs => bs.map(b => b.dataset.card)"))


def start_game_against_a_bot(page: Any, base: str) -> str:
    page.goto(base + "/")
    page.fill("#name", "Alice")
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "heuristic")
    page.click("#create-button")
    page.wait_for_selector("#ready")
    page.click("#ready")
    page.wait_for_selector("#hand .hand-card")
    page.wait_for_function("document.body.dataset.myTurn === 'true'")  # the bot has moved
    return str(page.url)


def table_key(url: str) -> str:
    return "bito:" + url.split("/t/")[1].split("#")[0]


def test_an_account_continues_its_seat_on_a_second_context(server: ServerThread, browser: Any,
                                                           tmp_path: Path) -> None:
    errors: list[str] = []
    first = watched_page(browser, errors)
    first.goto(server.base + "/account")
    first.fill("#username", "alice")
    first.fill("#password", PASSWORD)
    first.click("#register")
    first.wait_for_selector("#logout")
    first.goto(server.base + "/")
    first.wait_for_selector("#account-name")
    shot(first, also=tmp_path, name="lobby-logged-in")
    url = start_game_against_a_bot(first, server.base)
    cards = hand(first)
    assert cards and first.is_visible("#move-seat")

    second = watched_page(browser, errors)
    second.goto(url)  # not logged in there yet: a spectator
    second.wait_for_function("document.body.dataset.status === 'playing'")
    assert hand(second) == []
    second.goto(server.base + "/account")
    second.fill("#username", "alice")
    second.fill("#password", PASSWORD)
    second.click("#login")
    second.wait_for_selector("#logout")
    second.goto(url)
    second.wait_for_selector("#hand .hand-card")
    assert sorted(hand(second)) == sorted(cards)  # the same seat, mid-game
    assert second.evaluate("document.body.dataset.myTurn") == "true"
    first.wait_for_function(
        "document.getElementById('message').textContent.includes('another device')")
    assert hand(first) == []
    assert first.evaluate(f"localStorage.getItem({table_key(url)!r})") is None
    assert not first.is_visible("#move-seat")
    # the second device plays on
    n = int(second.evaluate("Number(document.body.dataset.n)"))
    second.click("#actions button >> nth=0")
    second.wait_for_function(f"Number(document.body.dataset.n) > {n}")
    shot(first, also=tmp_path, name="account-first-device-told")
    shot(second, also=tmp_path, name="account-second-device-plays")
    first.context.close()
    second.context.close()
    assert errors == []


def test_a_guest_moves_his_seat_with_the_personal_link(server: ServerThread, browser: Any,
                                                      tmp_path: Path) -> None:
    errors: list[str] = []
    old = watched_page(browser, errors)
    url = start_game_against_a_bot(old, server.base)
    cards = hand(old)
    token = old.evaluate(f"JSON.parse(localStorage.getItem({table_key(url)!r})).token")
    old.click("#move-seat")
    old.wait_for_selector("#move-url")
    link = old.input_value("#move-url")
    assert "#continue=" in link and token not in link
    assert old.is_visible("#move-link .qr svg")
    shot(old, also=tmp_path, name="guest-move-link")

    new = watched_page(browser, errors)
    new.goto(link)
    new.wait_for_selector("#hand .hand-card")
    assert sorted(hand(new)) == sorted(cards)
    assert "#continue=" not in new.url  # the ticket left the address bar
    old.wait_for_function(
        "document.getElementById('message').textContent.includes('another device')")
    assert hand(old) == [] and old.evaluate(f"localStorage.getItem({table_key(url)!r})") is None
    old.reload()  # the old browser is no longer the seat, even after a reload
    old.wait_for_function("document.body.dataset.status === 'playing'")
    assert hand(old) == []

    third = watched_page(browser, errors)
    third.goto(link)  # the link was used once: nothing for anybody else
    third.wait_for_function(
        "document.getElementById('message').textContent.includes('not valid')")
    assert hand(third) == []
    assert third.evaluate(f"localStorage.getItem({table_key(url)!r})") is None
    shot(third, also=tmp_path, name="guest-link-used-twice")
    for page in (old, new, third):
        page.context.close()
    assert errors == []


def test_profile_and_leaderboard_pages_after_a_rated_game(server: ServerThread, browser: Any,
                                                          tmp_path: Path) -> None:
    from server_kit import Client, play_to_end

    errors: list[str] = []
    page = watched_page(browser, errors)
    page.goto(server.base + "/account")
    page.fill("#username", "carol")  # (alice is the first test's)
    page.fill("#password", "short")
    page.click("#register")  # refused, naming the field, no traceback
    page.wait_for_function(
        "document.getElementById('account-message').textContent.startsWith('password:')")
    page.fill("#password", PASSWORD)
    page.click("#register")
    page.wait_for_selector("#logout")
    # the page's own cookie creates the table, so the seat is the account's
    made = page.request.post(server.base + "/api/tables", data={
        "name": "Carol", "players": 2, "seats": ["heuristic"], "deck": 24}).json()
    client = Client(server.base, made["table"], made["token"])
    client.send({"type": "ready"})
    end = play_to_end({0: client})
    client.close()
    page.goto(server.base + "/u/carol")
    page.wait_for_selector("#recent a.replay")
    result = page.inner_text("#recent li")
    assert ("— the fool" in result) == (end["outcome"].get("loser") == 0)
    shot(page, also=tmp_path, name="profile")
    page.click("#recent a.replay")
    page.wait_for_url(f"**/replay/{made['table']}")
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("table.ratings tbody tr")
    rows = page.eval_on_selector_all("table.ratings tbody tr", "rs => rs.map(r => r.innerText)")
    assert any("carol" in r for r in rows) and any("Bot (heuristic)" in r for r in rows)
    assert page.inner_text("#account-name") == "carol"
    shot(page, also=tmp_path, name="leaderboard")
    page.context.close()
    assert errors == []
