"""The web app in Russian and English, in Chromium (issue 19 item 7).

A browser whose Accept-Language is Russian gets the lobby and the table in Russian: no English
word is left in the checked elements (headings, labels, buttons, status, seats, piles, moves,
the cards' accessible names). The header's switch turns the page to English, and the choice is
remembered by a fresh page of the same browser. Screenshots of both languages are kept in
``build/test-artifacts/browser`` (``lobby-ru.png``, ``table-ru.png``, ``lobby-en.png``,
``table-en.png``, ``replay-ru.png``). The server's refusal of a move follows the language.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from bito.rules.registry import all_variants  # noqa: E402
from bito.server import webtext  # noqa: E402
from browser_kit import (  # noqa: E402
    need_chromium,
    serving,
    shot,
    table_with_a_bot,
    wait_for_turn_or_end,
    watched_page,
)
from server_kit import Client, ServerThread, create_table, play_to_end  # noqa: E402

need_chromium()

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
#: Latin words allowed in a Russian page: the program's name, a file format, the player's own
#: name and bot names (ids a player may type), and a game's id in brackets.
ALLOWED = {"bito", "TOML", "Alice", "DMC", "podkidnoy", "T", "P", "Esc",
           "Enter"}
LOBBY = ["h1", "header span", "#create label > span", "summary", "legend",
         "#create-button", "#seats label", "#deck option[value='']",
         "#public-tables li", "#variant option[value='podkidnoy']"]
TABLE = ["#status", "#you", ".keys", "aside h2", "#conn", "#actions button",
         "#board .pile-name", "#board .opponent .count", "#board .opponent .role",
         "#board .empty-table, #board .pair", "#sound-toggle"]


def refusal(page: Any, turns: int = 8) -> str | None:
    """Click a card of the hand that no legal move uses (the page sends it anyway, so that
    the server names the rule) and return the error shown. On a turn where every card is
    playable (a lead), play the first move and try on the next turn; None if no turn of
    ``turns`` had an unplayable card."""
    for _ in range(turns):
        page.wait_for_function("document.body.dataset.myTurn === 'true' || "
                               "document.body.dataset.status === 'over'", timeout=30000)
        if page.evaluate("document.body.dataset.status") == "over":
            return None
        card = page.query_selector("#hand .hand-card:not(.playable)")
        if card is not None:
            card.dispatch_event("click")
            page.wait_for_function(
                "document.getElementById('message').classList.contains('error')")
            return str(page.inner_text("#message"))
        n = page.evaluate("Number(document.body.dataset.n)")
        page.locator("#actions button").first.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.n) > {n}")
    return None


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED]


def texts(page: Any, selectors: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for sel in selectors:
        found[sel] = page.eval_on_selector_all(sel, "els => els.map(e => e.innerText || "
                                                    "e.textContent)")
    return found


def assert_russian(page: Any, selectors: list[str]) -> None:
    seen = texts(page, selectors)
    empty = [sel for sel, values in seen.items() if not values]
    assert not empty, f"no element matched {empty}"
    for sel, values in seen.items():
        for value in values:
            if not value.strip():
                continue
            assert not english_words(value), f"{sel}: English left in {value!r}"
    assert any(CYRILLIC.search(v) for vs in seen.values() for v in vs)


def assert_english(page: Any, selectors: list[str]) -> None:
    for sel, values in texts(page, selectors).items():
        for value in values:
            assert not CYRILLIC.search(value.replace("дурак", "")), f"{sel}: {value!r}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """One server for the module: each test makes its own tables, account and contexts (the
    one public table is the summaries test's)."""
    with serving(tmp_path_factory.mktemp("i18n") / "i18n-browser.sqlite3", timer=300,
                 bot_delay=0.05) as srv:
        yield srv


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerThread]:
    """A server of the test's own, for a test that stops it to see the connection lost."""
    with serving(tmp_path / "i18n-browser.sqlite3", timer=300, bot_delay=0.05) as srv:
        yield srv


def test_russian_browser_gets_russian_lobby_and_table_and_the_switch_is_remembered(
        server: ServerThread, browser: Any) -> None:
    errors: list[str] = []
    page = watched_page(browser, errors, "ru-RU")
    ctx = page.context
    page.goto(server.base + "/")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    page.wait_for_selector("#seats select[data-seat='1']", state="attached")
    page.wait_for_selector("#public-tables li")
    assert_russian(page, LOBBY)
    # The game's name is the rules catalogue's Russian name.
    podkidnoy = next(v for v in all_variants() if v.id == "podkidnoy")
    russian = next(n for n in podkidnoy.names if CYRILLIC.search(n))
    assert russian in page.inner_text("#variant option[value='podkidnoy']")
    assert CYRILLIC.search(page.title())
    shot(page, "lobby-ru")

    link = table_with_a_bot(page, server.base, bot="random")
    page.wait_for_function("document.body.dataset.myTurn === 'true' || "
                           "document.body.dataset.status === 'over'", timeout=30000)
    page.wait_for_selector("#actions button, #board .pair")
    assert_russian(page, TABLE)
    names = page.eval_on_selector_all("#hand .hand-card .sr-only",
                                      "bs => bs.map(b => b.textContent.trim())")
    assert names and all(re.fullmatch(
        r"(двойка|тройка|четвёрка|пятёрка|шестёрка|семёрка|восьмёрка|девятка|десятка|валет|"
        r"дама|король|туз) (треф|бубен|червей|пик)(, козырь)?", n) for n in names), names
    shot(page, "table-ru")
    said_ru = refusal(page)  # the server's refusal, in the connection's language
    # (cards in words, never in notation: «десятка бубен не бьёт девятку треф», issue 34)
    assert said_ru is None or (CYRILLIC.search(said_ru) and not english_words(said_ru)), said_ru

    # The switch: English now, and a fresh page of the same browser stays English.
    with page.expect_navigation():
        page.select_option("#lang-switch", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_selector("#hand .hand-card")
    assert_english(page, TABLE[:4])
    assert "Recent moves" in page.inner_text("aside h2")
    assert re.fullmatch(r"(\d+|10|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)"
                        r"(, trump)?", page.text_content("#hand .hand-card .sr-only").strip())
    shot(page, "table-en")
    again = ctx.new_page()
    again.on("pageerror", lambda e: errors.append(str(e)))
    again.goto(server.base + "/")
    again.wait_for_function("document.documentElement.lang === 'en'")
    again.wait_for_selector("#public-tables li")
    assert_english(again, LOBBY[:6])
    assert again.input_value("#lang-switch") == "en"
    shot(again, "lobby-en")
    # The server's errors follow the switch too (the cookie travels with the websocket).
    page.goto(link)
    page.wait_for_selector("#hand .hand-card")
    page.wait_for_function("document.body.dataset.myTurn === 'true' || "
                           "document.body.dataset.status === 'over'", timeout=30000)
    said_en = refusal(page)
    assert said_en is None or not CYRILLIC.search(said_en), said_en
    assert said_ru is not None or said_en is not None, "every card was playable both times"
    assert not errors, errors
    ctx.close()


def test_the_replay_page_speaks_russian(server: ServerThread, browser: Any) -> None:
    made = create_table(server.http, players=2, seats=["random"])
    alice = Client(server.base, made["table"], made["token"])
    alice.state()
    alice.send({"type": "ready"})
    play_to_end({0: alice})
    alice.close()
    ctx = browser.new_context(locale="ru-RU")
    page = ctx.new_page()
    page.goto(f"{server.base}/replay/{made['table']}")
    page.wait_for_selector("#board .opponent")
    page.click("#first")
    assert page.inner_text("#move") == webtext.bundle("ru")["texts"]["replay.deal"]
    assert CYRILLIC.search(page.inner_text("header #variant"))
    assert CYRILLIC.search(page.get_attribute("#first", "aria-label") or "")
    assert CYRILLIC.search(page.inner_text("#downloads"))
    assert_russian(page, ["#board .pile-name", "#board .opponent .count"])
    shot(page, "replay-ru")
    ctx.close()


#: The table's newer parts (issue 19 items 2, 3, 6): the lobby's toggles, filters, quick match
#: and spectators' chat; the chat panel; the seat boxes and the play order.
LOBBY_MORE = ["#toggles legend", "#toggles label > span", "#toggles option", "#spec-preview",
              "#filters label > span", "#filters option[value='']", "#f-speed option",
              "#spectator-chat option", "#quick-match"]
TABLE_MORE = ["#chat h2", "#chat-send", ".play-order", "#board .opponent .who",
              "#board .my-seat .who", "#board .turn-flag"]
END = ["#end h2", "#end button", "#end p"]


def test_the_table_s_newer_parts_speak_russian(own_server: ServerThread, browser: Any) -> None:
    server = own_server
    errors: list[str] = []
    page = watched_page(browser, errors, "ru-RU")
    ctx = page.context
    page.goto(server.base + "/")
    page.wait_for_function("document.documentElement.lang === 'ru'")
    page.wait_for_selector("#public-tables li")
    assert_russian(page, LOBBY_MORE)
    # The house rules the toggles write stay in notation (a player types them so).
    page.check("#opt-neighbours")
    assert page.inner_text("#spec-preview") == "+throw_in.by=neighbours"
    page.uncheck("#opt-neighbours")

    # (24 cards: the end screen of a short game says what a long one's does)
    table_with_a_bot(page, server.base, bot="random", deck="24")
    page.wait_for_selector("#chat-send")
    assert_russian(page, TABLE_MORE)
    # Accessible names of the new controls, in Russian too.
    labels = page.eval_on_selector_all(
        "#chat-text, #chat-log, .reaction", "els => els.map(e => e.getAttribute('aria-label'))")
    assert labels and all(CYRILLIC.search(x or "") for x in labels), labels
    assert CYRILLIC.search(page.get_attribute("#chat-text", "placeholder") or "")
    # The bot's display name: its first name and level in Russian ("Бот Вера (случайный)").
    who = page.inner_text("#board .opponent .who")
    assert re.match(r"Бот [А-ЯЁ][а-яё]+ \(случайный\)", who), who
    # A chat refusal from the server, in the connection's language (the rate limit: the
    # sixth line within ten seconds; chat.RATE_COUNT).
    for i in range(6):
        page.fill("#chat-text", f"привет {i}")
        page.click("#chat-send")
    page.wait_for_function(
        "document.getElementById('message').classList.contains('error')")
    said = page.inner_text("#message")
    assert CYRILLIC.search(said) and not english_words(said), said

    # Play to the end: the end screen (the fool, rematch, leave, replay) in Russian.
    deadline = time.time() + 120
    while wait_for_turn_or_end(page, timeout=60):
        assert time.time() < deadline, "the deal did not finish in time"
        n = page.evaluate("Number(document.body.dataset.n)")
        page.locator("#actions button").first.dispatch_event("click")
        page.wait_for_function(f"Number(document.body.dataset.n) > {n} || "
                               "document.body.dataset.status === 'over'", timeout=20000)
    page.wait_for_selector("#end:not([hidden]) #rematch")
    assert_russian(page, END)
    shot(page, "end-ru")
    # The connection lost: the overlay explains the clock in Russian.
    server.stop()
    page.wait_for_selector("#offline:not([hidden])", timeout=10000)
    assert_russian(page, ["#offline h2", "#offline p"])
    assert not errors, errors
    ctx.close()


def test_summaries_house_rules_and_the_account_pages_speak_russian(server: ServerThread,
                                                                   browser: Any) -> None:
    """The lobby's one-line summary and a public table's house rules on hover come by id
    from the terminal's catalogue; the account, leaderboard and profile pages, a refused
    sign-up and the "continue on another device" dialog are Russian too."""
    from bito.i18n import catalogue

    ru = catalogue("ru")
    create_table(server.http, public=True, variant="podkidnoy+no_trump+deal.hand_size=7")
    errors: list[str] = []
    page = watched_page(browser, errors, "ru-RU")
    ctx = page.context
    page.goto(server.base + "/")
    page.wait_for_selector("#public-tables li a")
    page.select_option("#variant", "podkidnoy")
    assert page.inner_text("#summary").strip() == ru["summaries"]["podkidnoy"]
    assert page.get_attribute("#summary", "lang") == "ru"
    hover = page.get_attribute("#public-tables li a", "title") or ""
    assert ru["variants"]["no_trump"] in hover, hover
    # the house rule in words with its value, never its option key (issue 34)
    assert "deal.hand_size" not in hover and ": 7" in hover, hover
    assert CYRILLIC.search(hover.split(": 7")[0].splitlines()[-1]), hover
    assert "Trumpless" not in hover

    page.goto(server.base + "/account")
    page.wait_for_selector("#login-form")
    words = ["main h1", "main label", "#login", "#register", "main p", "#account-bar a"]
    assert_russian(page, words)
    assert CYRILLIC.search(page.title())
    page.fill("#username", "x")
    page.fill("#password", "long enough pass")
    page.click("#register")
    page.wait_for_function("document.getElementById('account-message').textContent !== ''")
    refused = page.inner_text("#account-message")
    assert CYRILLIC.search(refused) and not english_words(refused), refused
    page.fill("#username", "Alice")
    page.click("#register")
    page.wait_for_selector("#logout")
    assert_russian(page, ["main h1", "#logout", "main p"])
    page.goto(server.base + "/leaderboard")
    page.wait_for_selector("table.ratings tbody tr")
    assert_russian(page, ["main h1", "main label", "thead th", "tbody tr.bot-row th",
                          "#family option"])
    page.goto(server.base + "/u/Alice")
    page.wait_for_selector("main h2")
    assert_russian(page, ["main h2", "main p"])
    shot(page, "profile-ru")

    # the guest's dialog at a table (this context is logged in: a fresh one plays as guest)
    guest = browser.new_context(locale="ru-RU", viewport={"width": 1100, "height": 900})
    table = guest.new_page()
    table.on("pageerror", lambda e: errors.append(str(e)))
    table_with_a_bot(table, server.base, bot="random")
    table.wait_for_selector("#move-seat")
    assert_russian(table, ["#move-seat"])
    table.click("#move-seat")
    table.wait_for_selector("#move-link .qr svg")
    assert_russian(table, ["#move-link p"])
    for sel in ("#move-link .qr", "#move-url", "#devices"):
        assert CYRILLIC.search(table.get_attribute(sel, "aria-label") or ""), sel
    shot(table, "move-dialog-ru")
    assert not errors, errors
    guest.close()
    ctx.close()
